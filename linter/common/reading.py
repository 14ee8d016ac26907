"""Reading a file from the checked tree: regular files only, in bounded memory, never blocking.

Discovery already skips what is not a regular file, but the tree can change before the read (a
file swapped for a FIFO blocks a plain `open()` for ever; a link to /dev/zero reads until memory
runs out), and imported modules and cache files are opened without discovery. So the check is
made again on the open descriptor, and at most `limit` bytes are ever read.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tokenize

# bytes; `max-file-size` in [tool.siblint], `--max-file-size`. Sized from the memory budget
# (syntax.source.MEMORY_BUDGET, 2 GB): before the node budget can be checked, CPython's parse of the
# worst shape (`f()` lines, one node per byte) takes ~0.77 KB per byte (1 MB: 773 MB peak), so 2 MB
# stays under it. Real agent modules are far smaller; a bigger generated file is rarely agent code.
DEFAULT_MAX_FILE_SIZE = 2_000_000
_CHUNK = 1 << 20


class TooLarge(OSError):
    """The file holds more than the limit; `strerror` says so in words."""

    def __init__(self, limit: int) -> None:
        super().__init__(errno.EFBIG, f"larger than the {format_size(limit)} limit (max-file-size)")


def format_size(n: int) -> str:
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def read_bounded(path: str, limit: int, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file at `path`; OSError if it is anything else or over `limit`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if st.st_size > limit:
            raise TooLarge(limit)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew after fstat
                raise TooLarge(limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_size(value: object, where: str) -> int:
    """`max-file-size`: a byte count, or a string such as "10MB", "500KB", "1GB" (powers of 1000)."""
    if isinstance(value, bool):
        raise ValueError(f"{where}: expected a size such as 10000000 or \"10MB\", got {value!r}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str):
        text = value.strip().upper().replace(" ", "")
        scale = 1
        for unit, size in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3), ("B", 1)):
            if text.endswith(unit):
                text, scale = text[: -len(unit)], size
                break
        try:
            n = int(float(text) * scale) if text else -1
        except ValueError:
            n = -1
    else:
        n = -1
    if n <= 0:
        raise ValueError(f"{where}: expected a positive size such as 10000000 or \"10MB\", got {value!r}")
    return n


def source_encoding(data: bytes) -> str:
    """The encoding Python reads `data` with (BOM, PEP 263 cookie, else UTF-8): what an edit writes back."""
    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except (SyntaxError, LookupError):
        return "utf-8"
