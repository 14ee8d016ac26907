"""PDFs, audio and images a tool renders to disk: PyMuPDF, weasyprint, pydub, qrcode, the
standard library's `wave`. Saved into a path (`check="save"`, `"save_to"` when a call without
one returns the bytes), not into an in-memory buffer or a scratch folder."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_PYDUB = ("pydub.AudioSegment pydub.AudioSegment.from_file pydub.AudioSegment.from_mp3 pydub.AudioSegment.from_wav "
          "pydub.AudioSegment.from_ogg pydub.AudioSegment.silent pydub.AudioSegment.empty")

ROWS: tuple[Row, ...] = (
    *methods("fitz.open fitz.Document pymupdf.open pymupdf.Document", "save ez_save saveIncr", "{name} (PDF file)",
             True, "file", "save"),
    *methods("weasyprint.HTML", "write_pdf write_png", "{name} (PDF file)", True, "file", "save_to"),
    *methods(_PYDUB, "export", "{name} (audio file)", True, "file", "save_to"),
    *methods("qrcode.make qrcode.QRCode", "save", "{name} (image file)", True, "file", "save"),
    *calls("wave.open", "a file write", True, "file", "open"),
    # Any library's object saved into a file the source names (`image.save(out_dir / "hero.png")` of
    # an image an SDK returned): the receiver need not be known when the target is a path.
    anys("save", "{name} (file)", True, "file", "save_path"),
)
