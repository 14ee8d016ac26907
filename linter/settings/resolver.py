"""Which settings apply to which file: the nearest config file above it, as in ruff.

Each folder is looked up once per run and shares its answer with everything below it, so a run
over a monorepo reads each sub-project's config once and every file gets its own sub-project's
settings, whatever else is checked in the same run (pre-commit passes a different set of files
each time; a file's findings must not depend on that).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .config import Config, config_in, load_file


class Resolver:
    """`config_for(path)`: the settings of the nearest config at or above `path`.

    `explicit` (`--config FILE`) applies to every file. Files with no config above them get the
    defaults rooted at `default_root`, and with `isolated` (`--isolated`) every file does: no
    config file is read. `adjust` applies command-line options to every config."""

    def __init__(self, default_root: str, explicit: str | None = None,
                 adjust: Callable[[Config], Config] = lambda c: c, isolated: bool = False) -> None:
        self.adjust = adjust
        self.default = adjust(Config(root=os.path.abspath(default_root)))
        self.explicit = adjust(load_file(Path(explicit))) if explicit else self.default if isolated else None
        self._by_dir: dict[str, Config] = {}
        self._by_file: dict[str, Config] = {}

    def config_for(self, path: str) -> Config:
        """Settings for a file (or for a folder's contents, when `path` is a folder)."""
        path = os.path.abspath(path)
        return self.for_folder(path if os.path.isdir(path) else os.path.dirname(path))

    def for_file(self, path: str) -> Config:
        """Settings for a file known not to be a folder (no stat)."""
        return self.for_folder(os.path.dirname(path) or ".")

    def for_folder(self, folder: str) -> Config:
        if self.explicit is not None:
            return self.explicit
        if folder in self._by_dir:  # the common case, before abspath: discovery asks for every entry
            return self._by_dir[folder]
        folder = os.path.abspath(folder)
        pending: list[str] = []
        found: Config | None = None
        here = folder
        while True:
            if here in self._by_dir:
                found = self._by_dir[here]
                break
            pending.append(here)
            source = config_in(Path(here))
            if source is not None:
                key = str(source)
                if key not in self._by_file:
                    self._by_file[key] = self.adjust(load_file(source))
                found = self._by_file[key]
                break
            parent = os.path.dirname(here)
            if parent == here:
                found = self.default
                break
            here = parent
        for p in pending:
            self._by_dir[p] = found
        return found

    def used(self) -> list[Config]:
        """Every distinct config handed out so far."""
        return list(dict.fromkeys(self._by_dir.values())) or [self.explicit or self.default]


def project_root(configs: list[Config]) -> str:
    """Where a run keeps its cache: the folder that holds every config root in use."""
    roots = [c.root for c in configs]
    try:
        return os.path.commonpath(roots)
    except ValueError:  # different drives (Windows)
        return roots[0]
