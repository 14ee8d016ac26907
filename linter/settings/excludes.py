"""What a run leaves out: the configuration's excludes and `.gitignore`, for files and folders alike.
One predicate shared by discovery, the project scan (nothing reads an excluded file) and every
entry point, so each sees the same project."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..syntax.prefilter import NOTEBOOK_SUFFIX
from .config import Config
from .gitignore import GitIgnore


class Skip:
    """Excludes and .gitignore, with the config of the folder an entry sits in."""

    def __init__(self, settings: Config | Callable[[str], Config]) -> None:
        self.config_for_folder = settings if callable(settings) else (lambda _folder: settings)
        self.gitignore = GitIgnore()
        self._walk_skips: dict[tuple[str, str], bool] = {}  # (folder, top) -> a walk of top skips it

    def __call__(self, path: str, is_dir: bool) -> bool:
        path = os.path.abspath(path)
        config = self.config_for_folder(os.path.dirname(path))
        if config.is_excluded(path, is_dir, absolute=True) or (not is_dir and _notebook_off(config, path)):
            return True
        return config.respect_gitignore and self.gitignore.ignored(path, is_dir, absolute=True)

    def walk_would_skip(self, path: str, top: str) -> bool:
        """Would walking `top` leave out the file `path`? (It, or a folder between, is skipped.)
        The flake8 plugin asks this for each file flake8 hands it, with `top` the working folder;
        each folder's answer is worked out once per Skip (one per flake8 run: the tree holds still)."""
        path, top = os.path.abspath(path), os.path.abspath(top)
        return self(path, False) or self._folder_skipped(os.path.dirname(path), top)

    def _folder_skipped(self, folder: str, top: str) -> bool:
        """`folder` or one between it and `top` is skipped (False at or outside `top`)."""
        pending: list[str] = []  # folders not answered yet, deepest first
        while (folder, top) not in self._walk_skips and folder != top and folder.startswith(top + os.sep):
            pending.append(folder)
            folder = os.path.dirname(folder)
        answer = self._walk_skips.get((folder, top), False)
        for below in reversed(pending):  # a folder under a skipped one is skipped too
            answer = answer or self(below, True)
            self._walk_skips[(below, top)] = answer
        return answer


def _notebook_off(config: Config, path: str) -> bool:
    """`notebooks = false`: Jupyter notebooks are left out, named on the command line or not."""
    return not config.notebooks and path.lower().endswith(NOTEBOOK_SUFFIX)
