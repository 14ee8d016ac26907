"""The one path matcher: gitignore patterns (pathspec), each anchored at the folder it came from.

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

import pathspec
from pathspec.patterns.gitwildmatch import GitWildMatchPatternError

_GLOB_SPECIAL = re.compile(r"([*?\[\]\\!#])")
_NAMED_GROUP = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")  # pathspec names a group; an alternation cannot repeat it


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
    entry of a tree, and abspath was a third of that)."""

    def __init__(self, groups: Iterable[tuple[str, Iterable[str]]]) -> None:
        lines = [_absolute(p, os.path.abspath(base)) for base, patterns in groups for p in patterns
                 if p.strip() and not p.lstrip().startswith("#")]
        self.empty = not lines
        try:
            self._spec = pathspec.GitIgnoreSpec.from_lines(lines)
        except (GitWildMatchPatternError, ValueError, TypeError) as exc:
            raise PatternError(str(exc)) from None
        # Without `!` patterns any match decides, so pathspec's own regexes can run as one
        # alternation (pathspec matches them one by one); with them, pathspec's order matters.
        regexes = [_NAMED_GROUP.sub("(?:", p.regex.pattern) for p in self._spec.patterns
                   if p.include and p.regex is not None]
        negated = any(p.include is False for p in self._spec.patterns)
        self._any: re.Pattern[str] | None = None
        if regexes and not negated:
            try:
                self._any = re.compile("|".join(f"(?:{r})" for r in _merged(regexes)))
            except re.error:  # a pathspec whose regexes do not combine: match them one by one
                self._any = None

    def _target(self, path: str, is_dir: bool, absolute: bool) -> str:
        target = _posix(path if absolute else os.path.abspath(path))
        return target + "/" if is_dir else target

    def matches(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool:
        if self.empty:
            return False
        target = self._target(path, is_dir, absolute)
        if self._any is not None:
            return self._any.match(target.lstrip("/")) is not None  # pathspec drops the leading slash too
        return self._spec.match_file(target)

    def check(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool | None:
        """True: matched; False: re-included by a `!` pattern; None: no pattern matched."""
        if self.empty:
            return None
        return self._spec.check_file(self._target(path, is_dir, absolute)).include


_ANY_DEPTH = "(?:/.+)?/"  # how pathspec writes the `**/` of an unanchored name under its base


def _merged(regexes: list[str]) -> list[str]:
    """Regexes of names at any depth below one folder merged into one (`base/**/(a|b|c)`): each
    alternative would otherwise scan the path again, and the default excludes are a dozen names."""
    groups: dict[tuple[str, str], list[str]] = {}
    out = []
    for r in regexes:
        head, sep, rest = r.partition(_ANY_DEPTH)
        name, tail = rest[: rest.find("(?:")], rest[rest.find("(?:"):]
        if sep and head.startswith("^") and "(" not in head and rest.find("(?:") > 0 and "(" not in name:
            groups.setdefault((head + sep, tail), []).append(name)
        else:
            out.append(r)
    out += [f"{head}(?:{'|'.join(names)}){tail}" for (head, tail), names in groups.items()]
    return out


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
