"""`.gitignore` as git reads it: inside a git repository, `.git/info/exclude` and every `.gitignore`
from the repository root down to a file's folder, the deepest deciding (last match wins).

Only regular files are read (a FIFO named .gitignore must not block a run), undecodable bytes and
patterns pathspec rejects are skipped: these files are the repository's, not written for siblint.
Global git settings (core.excludesFile) are not read, so a run does not depend on who runs it.
"""

from __future__ import annotations

import os
import stat

from ..common.pathmatch import Matcher, compile_lenient

MAX_BYTES = 1 << 20  # a .gitignore larger than this is not a real one


def _read_lines(path: str) -> list[str] | None:
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None


def _info_exclude(dot_git: str) -> str | None:
    """`.git/info/exclude`; for a worktree or submodule (`.git` is a `gitdir:` file), the common dir's."""
    if os.path.isdir(dot_git):
        return os.path.join(dot_git, "info", "exclude")
    lines = _read_lines(dot_git)
    if not lines or not lines[0].startswith("gitdir:"):
        return None
    gitdir = os.path.join(os.path.dirname(dot_git), lines[0][len("gitdir:"):].strip())
    common = _read_lines(os.path.join(gitdir, "commondir"))
    if common:
        gitdir = os.path.join(gitdir, common[0].strip())
    return os.path.join(gitdir, "info", "exclude")


class GitIgnore:
    """Answers `is this path git-ignored`, reading each folder's .gitignore once."""

    def __init__(self) -> None:
        self._repo: dict[str, str | None] = {}
        self._folder: dict[str, Matcher | None] = {}

    def repo_root(self, folder: str) -> str | None:
        chain = []
        here = folder
        while here not in self._repo:
            chain.append(here)
            if os.path.lexists(os.path.join(here, ".git")):
                self._repo[here] = here
                break
            parent = os.path.dirname(here)
            if parent == here:
                self._repo[here] = None
                break
            here = parent
        root = self._repo[here]
        for c in chain:
            self._repo[c] = root
        return root

    def _matcher(self, folder: str, root: str) -> Matcher | None:
        if folder not in self._folder:
            lines = []
            if folder == root:
                info = _info_exclude(os.path.join(root, ".git"))
                lines = (_read_lines(info) if info else None) or []
            lines += _read_lines(os.path.join(folder, ".gitignore")) or []
            self._folder[folder] = compile_lenient(folder, lines) if lines else None
        return self._folder[folder]

    def ignored(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool:
        path = path if absolute else os.path.abspath(path)
        folder = os.path.dirname(path)
        root = self.repo_root(folder)
        if root is None or os.path.basename(path) == ".git":
            return False
        chain = [folder]
        while chain[-1] != root:
            parent = os.path.dirname(chain[-1])
            if parent == chain[-1]:
                return False
            chain.append(parent)
        verdict = None
        for f in reversed(chain):  # the repository root first: deeper files override
            matcher = self._matcher(f, root)
            if matcher is not None:
                answer = matcher.check(path, is_dir, absolute=True)
                if answer is not None:
                    verdict = answer
        return bool(verdict)
