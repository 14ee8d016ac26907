"""From bytes to a libcst module, or to one clear reason why not.

CPython's own parser (`ast.parse`, which never runs code) checks the text first: it rejects what
CPython rejects (syntax errors, Python 2, brackets nested past 200) in a fraction of libcst's
time, and it keeps input that crashes libcst's native parser (10,000 nested brackets abort the
process) away from it.
"""

from __future__ import annotations

import ast
import io
import sys
import threading
import tokenize
import warnings
from collections.abc import Callable
from typing import TypeVar

import libcst as cst

T = TypeVar("T")


class SourceError(Exception):
    """The file cannot be analysed; `reason` says why, `line` where (1 when unknown)."""

    def __init__(self, reason: str, line: int = 1, col: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = max(1, line)
        self.col = max(0, col)


def decode(data: bytes) -> str:
    """Decode as Python does: BOM, PEP 263 cookie, else UTF-8."""
    if b"\0" in data:
        raise SourceError("file contains NUL bytes", data[: data.index(b"\0")].count(b"\n") + 1)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(f"bad coding cookie: {exc}", getattr(exc, "lineno", None) or 1) from None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = data[: getattr(exc, "start", 0)].count(b"\n") + 1
        raise SourceError(f"not valid {encoding}: {exc}", line) from None


def check_syntax(text: str, filename: str) -> None:
    """Raise SourceError for anything CPython itself rejects."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text, filename=filename)
    except SyntaxError as exc:
        raise SourceError(f"syntax error: {exc.msg}", exc.lineno or 1, (exc.offset or 1) - 1) from None
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested for CPython's parser") from None
    except ValueError as exc:
        raise SourceError(str(exc)) from None


def parse(text: str) -> cst.Module:
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise SourceError(
            f"libcst cannot parse this file although CPython accepts it: {exc.message}", exc.raw_line, exc.raw_column
        ) from None


# Valid code can nest deeper than Python's default recursion limit allows libcst's recursive
# code generation (500 chained `+`). Such files are retried in a thread with a large stack.
_DEEP_STACK = 512 * 1024 * 1024
_DEEP_LIMIT = 200_000
_deep_lock = threading.Lock()


def with_deep_recursion(work: Callable[[], T]) -> T:
    """Run `work`; on RecursionError run it again with room for deep recursion."""
    try:
        return work()
    except RecursionError:
        pass
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the caller's thread
            box["error"] = exc

    with _deep_lock:
        old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
        try:
            threading.stack_size(_DEEP_STACK)
            sys.setrecursionlimit(_DEEP_LIMIT)
            t = threading.Thread(target=run, name="siblint-deep")
            t.start()
            t.join()
        finally:
            sys.setrecursionlimit(old_limit)
            threading.stack_size(old_stack)
    if "error" in box:
        error = box["error"]
        if isinstance(error, RecursionError):
            raise SourceError("nested too deeply for libcst") from None
        raise error  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
