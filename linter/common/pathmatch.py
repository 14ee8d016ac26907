"""The one path matcher: gitignore patterns (pathspec on RE2), each anchored at the folder it came from.

`exclude`, `extend-exclude`, `per-file-ignores` and `.gitignore` files all go through here, so a
pattern means the same thing in every place: `name` matches a file or folder of that name at any
depth below its folder, `dir/name` (a slash inside) is anchored at its folder, `**` spans folders,
a trailing `/` matches folders only, `!` re-includes. A pattern that begins with `../` is anchored
at that parent folder (how a pattern inherited through `extend` keeps its own folder).

Patterns are compiled against absolute paths, so a matcher built from several folders' patterns is
still one PathSpec, and last match wins across all of them, as in git.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache

import pathspec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern
from pathspec.patterns.gitwildmatch import GitWildMatchPatternError

_GLOB_SPECIAL = re.compile(r"([*?\[\]\\!#])")


class PatternError(ValueError):
    """A pattern pathspec cannot compile."""


def is_anchored(pattern: str) -> bool:
    """git's rule: a slash at the start or in the middle anchors a pattern at its folder."""
    return "/" in pattern.rstrip("/")


def rebase(pattern: str, base: str, new_base: str) -> str:
    """`pattern`, written relative to `base`, written relative to `new_base` instead."""
    rel = os.path.relpath(base, new_base).replace(os.sep, "/")
    if rel == ".":
        return pattern
    negate = "!" if pattern.startswith("!") else ""
    body = pattern[len(negate):]
    body = body.lstrip("/") if is_anchored(body) else "**/" + body
    return f"{negate}{rel}/{body}"


def _absolute(pattern: str, base: str) -> str:
    negate = "!" if pattern.startswith("!") else ""
    body = pattern[len(negate):]
    while body.startswith("../"):
        base, body = os.path.dirname(base), body[3:]
    body = body.lstrip("/") if is_anchored(body) else "**/" + body
    folder = _GLOB_SPECIAL.sub(r"\\\1", _posix(base).strip("/"))
    return f"{negate}/{folder}/{body}" if folder else f"{negate}/{body}"


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


class Matcher:
    """Patterns from one or more folders; `matches(path)` asks about a file or (is_dir) a folder.

    `absolute=True` says `path` is already absolute and normalised (discovery asks about every
    entry of a tree, and abspath was a third of that).

    Matching runs on RE2 (pathspec's `re2` backend, one set for all patterns): its time is linear
    in the path whatever the pattern. Python's backtracking `re` is never used: the patterns come
    from the checked tree (`.gitignore`, `[tool.siblint]`), and `*a*a*a*a*a*a*a*a*a*a*a*a*b`
    against a 60-character name would run for hours."""

    def __init__(self, groups: Iterable[tuple[str, Iterable[str]]]) -> None:
        self._compile([_absolute(p, os.path.abspath(base)) for base, patterns in groups for p in patterns
                       if p.strip() and not p.lstrip().startswith("#")])

    def _compile(self, lines: list[str]) -> None:
        self._lines = lines
        self.empty = not lines
        try:
            # What `GitIgnoreSpec.from_lines(lines)` does, with each line's compile remembered.
            self._spec = pathspec.GitIgnoreSpec([_pattern(line) for line in lines], backend=_BACKEND)
        except (GitWildMatchPatternError, ValueError, TypeError) as exc:
            raise PatternError(str(exc)) from None

    def __reduce__(self) -> tuple:
        """Pickled as its lines (RE2's compiled sets cannot be): a config sent to a worker."""
        return _matcher_of, (self._lines,)

    def _target(self, path: str, is_dir: bool, absolute: bool) -> str:
        target = _posix(path if absolute else os.path.abspath(path))
        return target + "/" if is_dir else target

    def matches(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool:
        if self.empty:
            return False
        return self._spec.match_file(self._target(path, is_dir, absolute))

    def check(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool | None:
        """True: matched; False: re-included by a `!` pattern; None: no pattern matched."""
        if self.empty:
            return None
        return self._spec.check_file(self._target(path, is_dir, absolute)).include


def _matcher_of(lines: list[str]) -> Matcher:
    matcher = Matcher.__new__(Matcher)
    matcher._compile(lines)
    return matcher


_BACKEND = "re2"  # google-re2, through pathspec[re2]: a non-backtracking engine


@lru_cache(maxsize=4096)
def _pattern(line: str) -> GitIgnoreSpecPattern:
    """One absolute pattern line, compiled (Python's `re`, about 0.1 ms each). A tree with many
    config files compiles the same lines again and again: every folder config that `extend`s the
    root's re-reads it, and a merged or adjusted config is a new object with its own matchers."""
    return GitIgnoreSpecPattern(line)


def compile_lenient(base: str, lines: Iterable[str]) -> Matcher:
    """A matcher from a file the user did not write for siblint (.gitignore): bad lines are skipped."""
    lines = list(lines)
    try:
        return Matcher([(base, lines)])
    except PatternError:
        pass
    good = []
    for line in lines:
        try:
            Matcher([(base, [line])])
        except PatternError:
            continue
        good.append(line)
    return Matcher([(base, good)])
