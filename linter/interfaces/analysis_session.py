"""What the language server keeps between requests: configurations, project indexes, open documents.

`siblint check` builds its state once per run; an editor asks again on every keystroke. This keeps
each configuration and each project's index (the cross-module facts) in memory, and invalidates
exactly what an edit changed: the edited module's facts, modules whose file changed on disk, and a
configuration when a config file above the module appears, changes or goes. The analysis itself is siblint.lint.engine's, the same as
`siblint check` runs, so both report the same findings. No LSP types here (see siblint.interfaces.server).
"""

from __future__ import annotations

import os

from ..common.diagnostics import Diagnostic
from ..lint import engine
from ..model.callgraph import forget_walks
from ..model.project import ProjectIndex, marked_root, project_root
from ..run.runner import check_file
from ..settings.config import Config, ConfigError, load
from ..settings.excludes import Skip
from ..syntax import source
from ..syntax.facts import ModuleFacts

# Files that can hold siblint's configuration (siblint.toml and .siblint.toml: see siblint.settings.config).
CONFIG_FILES = ("pyproject.toml", "siblint.toml", ".siblint.toml")
_Stamp = tuple[int, int] | None  # (mtime_ns, size) of a file, None when it cannot be read


def _stamp(path: str) -> _Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _config_stamps(folder: str) -> tuple[_Stamp, ...]:
    """Stamps of every config file siblint could read for a file in `folder`: a few stat calls."""
    out: list[_Stamp] = []
    while True:
        out.extend(_stamp(os.path.join(folder, name)) for name in CONFIG_FILES)
        parent = os.path.dirname(folder)
        if parent == folder:
            return tuple(out)
        folder = parent


class AnalysisSession:
    def __init__(self) -> None:
        self.open: dict[str, str] = {}  # absolute path -> the editor's text of an open document
        self._configs: dict[str, tuple[Config, tuple[_Stamp, ...]]] = {}  # folder -> config, _config_stamps
        self._projects: dict[str, ProjectIndex] = {}  # config root -> index
        self._from_disk: dict[str, _Stamp] = {}  # modules whose facts came from disk
        self._consulted: dict[str, set[str]] = {}  # open document -> modules its last lint looked up
        self._rescanned: set[str] = set()  # files the project's scan was made again for
        self.config_errors: list[str] = []  # reported to the user once each, then cleared
        # The client's workspace folders: a document under none of them and in no project (no
        # config file, no version control above it) is linted alone. None: every folder counts.
        self.workspace: list[str] | None = None

    # ---- configuration ------------------------------------------------------------------------
    def config_for(self, path: str) -> Config:
        """The configuration `siblint check` would use for `path`, read again only when a config
        file at or above its folder appears, changes or goes (the editor may not tell us)."""
        folder = os.path.dirname(path)
        stamps = _config_stamps(folder)
        cached = self._configs.get(folder)
        if cached is not None and cached[1] == stamps:
            return cached[0]
        try:
            config = load(folder)
        except ConfigError as exc:  # the editor keeps working with the defaults, and says why (once)
            self.config_errors.append(str(exc))
            config = Config(root=folder)
        self._configs[folder] = (config, stamps)
        return config

    def _project(self, config: Config, path: str) -> ProjectIndex:
        """The index of the project `siblint check` would see (siblint.model.project.project_root);
        its scan is made again when a file it has not seen is linted (files were added)."""
        if self._alone(config, path):  # never walk its folder (a document opened from /etc or /)
            return ProjectIndex([], loader=self._load, skip=Skip(config), max_bytes=config.max_file_size)
        root = project_root(config)
        if root not in self._projects:
            self._projects[root] = ProjectIndex([root], loader=self._load, skip=Skip(config),
                                                 max_bytes=config.max_file_size)
        project = self._projects[root]
        if path not in self._rescanned and os.path.exists(path) and not project.scans(path):
            self._rescanned.add(path)  # once per file: one outside the scan's limits stays outside
            project.refresh()
        return project

    def _alone(self, config: Config, path: str) -> bool:
        if self.workspace is None or marked_root(config) is not None:
            return False
        return not any(os.path.commonpath([folder, path]) == folder for folder in self.workspace)

    def _load(self, path: str) -> ModuleFacts | None:
        """Facts of an imported module: the editor's text when it is open, else the file."""
        path = os.path.abspath(path)
        if path in self.open:
            text = self.open[path]
        else:
            self._from_disk[path] = _stamp(path)
            try:
                with open(path, "rb") as fh:
                    text = engine.decode(fh.read(), path)
            except (OSError, source.SourceError):
                return None
        try:
            return engine.facts_from_text(text, path)
        except source.SourceError:
            return None

    # ---- documents ----------------------------------------------------------------------------
    def update(self, path: str, text: str | None) -> None:
        """A document was opened or edited (`text`), or closed (None: the file on disk counts again)."""
        path = os.path.abspath(path)
        if text is None:
            self.open.pop(path, None)
            self._consulted.pop(path, None)
        else:
            self.open[path] = text
        self._forget(path)

    def _forget(self, path: str) -> None:
        for project in self._projects.values():
            project.forget(path)
            # Answers and call-graph walks computed from the old text (keyed by names and
            # positions, which an edit can keep): each lint starts from what `siblint check` sees.
            project.memo.clear()
            forget_walks(project)

    def _forget_changed_files(self) -> None:
        # Another program (git checkout, a formatter) may have rewritten an imported module.
        for path, stamp in list(self._from_disk.items()):
            if _stamp(path) != stamp:
                del self._from_disk[path]
                self._forget(path)

    def consulted(self, path: str) -> set[str]:
        """The modules the last lint of the open document at `path` looked up."""
        return set(self._consulted.get(os.path.abspath(path), ()))

    def lint(self, path: str) -> list[Diagnostic]:
        """The findings `siblint check` reports for the open document at `path`, noqa honoured."""
        path = os.path.abspath(path)
        text = self.open.get(path)
        if text is None:
            return []
        config = self.config_for(path)
        if config.is_excluded(path):
            return []
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > config.max_file_size:  # the editor's text is capped as a file is (SIB900)
            return check_file(path, config, self._project(config, path), data=data)
        self._forget_changed_files()
        project = self._project(config, path)
        project.forget(path)  # its facts come from the text below, not from a previous version
        trace: dict[str, str | None] = {}
        project.trace = trace
        try:
            result = engine.analyse(path, data, config, project)
        finally:
            project.trace = None
        self._consulted[path] = {p for p in trace.values() if p}
        return engine.filter_findings(result, config)
