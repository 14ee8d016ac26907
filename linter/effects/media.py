"""PDFs, audio, images and arrays a tool renders to disk: PyMuPDF, weasyprint, ReportLab, fpdf, pydub, soundfile,
qrcode, imageio, OpenCV, numpy, the standard library's `wave`. Saved into a path (`check="save"`, `"save_to"` when a call without
one returns the bytes), not into an in-memory buffer or a scratch folder."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_PYDUB = ("pydub.AudioSegment pydub.AudioSegment.from_file pydub.AudioSegment.from_mp3 pydub.AudioSegment.from_wav "
          "pydub.AudioSegment.from_ogg pydub.AudioSegment.silent pydub.AudioSegment.empty")

ROWS: tuple[Row, ...] = (
    *methods("fitz.open fitz.Document pymupdf.open pymupdf.Document", "save ez_save saveIncr", "{name} (PDF file)",
             True, "file", "save"),
    *methods("weasyprint.HTML", "write_pdf write_png", "{name} (PDF file)", True, "file", "save_to"),
    # ReportLab writes the file its document or canvas was made on (`check="built"`).
    *methods("reportlab.platypus.SimpleDocTemplate reportlab.platypus.BaseDocTemplate "
             "reportlab.platypus.doctemplate.SimpleDocTemplate reportlab.platypus.doctemplate.BaseDocTemplate",
             "build multiBuild", "{name} (PDF file)", True, "file", "built"),
    *methods("reportlab.pdfgen.canvas.Canvas", "save", "{name} (PDF file)", True, "file", "built"),
    # fpdf2 and PyFPDF: `pdf.output("out.pdf")` writes it; `pdf.output()` returns its bytes.
    *methods("fpdf.FPDF fpdf.fpdf.FPDF", "output", "{name} (PDF file)", True, "file", "save_to"),
    *methods(_PYDUB, "export", "{name} (audio file)", True, "file", "save_to"),
    *methods("qrcode.make qrcode.QRCode", "save", "{name} (image file)", True, "file", "save"),
    *calls("wave.open", "a file write", True, "file", "open"),
    # Module functions whose first argument is the file they write: `sf.write(path, audio, rate)`.
    *calls("soundfile.write scipy.io.wavfile.write", "{name} (audio file)", True, "file", "save_to"),
    *calls("imageio.imwrite imageio.v2.imwrite imageio.v3.imwrite cv2.imwrite", "{name} (image file)", True, "file",
           "save_to"),
    *calls("numpy.save numpy.savez numpy.savez_compressed numpy.savetxt",
           "{name} (data file)", True, "file", "save_to"),
    # Any library's object saved into a file the source names (`image.save(out_dir / "hero.png")` of
    # an image an SDK returned): the receiver need not be known when the target is a path.
    anys("save", "{name} (file)", True, "file", "save_path"),
    # OpenAI's binary responses (text to speech: `client.audio.speech.create(...).stream_to_file(path)`).
    anys("stream_to_file write_to_file", "{name} (file)", True, "file", "save_to"),
)
