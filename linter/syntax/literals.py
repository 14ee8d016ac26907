"""libcst's `evaluated_value` of string and number literals, without compiling each one again.

libcst evaluates a literal with `ast.literal_eval` every time the property is read: a compile per
read (88k on langgraph, 1.8 s profiled). A string with no prefix, no backslash and no carriage
return is the text between its quotes; anything else is evaluated once per distinct text.
"""

from __future__ import annotations

from ast import literal_eval
from functools import lru_cache

import libcst as cst

_QUOTES = ('"""', "'''")


@lru_cache(maxsize=4096)
def _evaluated(text: str) -> object:
    return literal_eval(text)


def _string(text: str) -> str | bytes:
    if text[0] in "\"'" and "\\" not in text and "\r" not in text:
        quote = 3 if len(text) >= 6 and text[:3] in _QUOTES else 1
        return text[quote:-quote]
    return _evaluated(text)  # type: ignore[return-value]


def evaluated(node: cst.SimpleString | cst.ConcatenatedString | cst.Integer | cst.Float) -> object:
    """`node.evaluated_value`, the same value (None for a concatenation holding an f-string or
    mixing str and bytes)."""
    if type(node) is cst.SimpleString:
        return _string(node.value)
    if type(node) is cst.ConcatenatedString:
        left, right = node.left, node.right
        if type(left) is cst.FormattedString or type(right) is cst.FormattedString:
            return None
        left_value, right_value = evaluated(left), evaluated(right)  # type: ignore[arg-type]
        if right_value is None:
            return None
        if type(left_value) is type(right_value) and isinstance(left_value, (str, bytes)):
            return left_value + right_value  # type: ignore[operator]
        return None
    if type(node) is cst.Integer or type(node) is cst.Float:
        return _evaluated(node.value)
    return node.evaluated_value  # any other literal libcst may add
