"""The language server's stdin, resynchronised on the next header after a wrong `Content-Length`.

pygls reads a header line, then exactly `Content-Length` bytes. A length too short leaves the rest
of that body unread, and the next message's header is read glued to it (`...}Content-Length: 52`);
pygls only accepts a header line that is nothing but the header, so every later message was lost
(issue 22 L8). A JSON body cannot hold a raw CR or LF, so a line that ends in a Content-Length
header after other bytes is the remainder of a bad message followed by a real header: the header is
handed on, the remainder dropped with a log line.
"""

from __future__ import annotations

import logging
import re
from typing import BinaryIO

_HEADER_AT_END = re.compile(rb"Content-Length: \d+\r\n\Z")

log = logging.getLogger(__name__)


class ResyncingReader:
    """What pygls reads stdin through (`readline` and `read`)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def readline(self) -> bytes:
        line = self._stream.readline()
        header = _HEADER_AT_END.search(line)
        if header is not None and header.start() > 0:
            log.warning("siblint server: dropped %d bytes before a header (a message's Content-Length "
                        "was shorter than its body)", header.start())
            return line[header.start():]
        return line

    def read(self, n: int) -> bytes:
        return self._stream.read(n)
