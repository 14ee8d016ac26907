"""Run the engine over many files: pre-filter in the parent, then the cache, then inline or a pool.

Cost order, cheapest first, so a general tree never pays for what it does not need:

1. The parent reads every file and runs the byte pre-filter (`siblint.syntax.prefilter`). Nothing heavy is
   imported until a file passes: a tree without agent code never imports libcst or the rules. A
   file that fails it but that the project's agent code imports is analysed too: its plain
   functions may be the tools of an agent there (`siblint.model.groups.listed_by_importers`). The
   project's scan decides (`siblint.lint.engine.wanted`), not which files the command named.
2. The cache (`siblint.run.cache`) answers for files whose bytes, and whose consulted modules, are
   unchanged. A warm run re-parses nothing.
3. What is left is analysed inline (`-j1`, or too little work to pay for a pool) or in a process
   pool. Workers receive paths, never trees; the parser and the rules are imported and warmed in
   the parent before the pool forks; small files go in batches, big files first.

The parent scans the project once (`siblint.model.project.ProjectScan`: the files under the project
root, in sorted order) and every worker's index answers from that same scan; name resolution never
depends on which modules a process analysed before. Results are sorted, so output is byte-identical
for any `-j`, file order, cache state, or subset of the project checked.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, TextIO

from ..common.diagnostics import Diagnostic, Loc
from ..common.gctune import THRESHOLD, analysis_thresholds
from ..common.reading import TooLarge, read_bounded
from ..settings.config import Config
from ..settings.excludes import Skip
from .pins_memo import keep_pins
from .scan_memo import OpenOnce, ScanMemo

if TYPE_CHECKING:
    import ast
    from multiprocessing.connection import Connection

    from ..model.project import ProjectIndex, ProjectScan
    from ..syntax.facts import ModuleFacts
    from .cache import Cache, Entry
    from .facts_store import RunFacts
    from .memory import ParseBudget
    from .prewarm import Prewarmed

# A batch of small files shipped to a worker in one go, and when a pool is worth starting: enough
# bytes, or enough files (a file costs about 5 ms however small: 300 files of 270 bytes in 150
# sub-projects took 2.4-2.8 s inline and 1.8-2.2 s in a pool of two).
BATCH_BYTES = 48 * 1024
BATCH_FILES = 16
POOL_MIN_BYTES = 96 * 1024
POOL_MIN_FILES = 64
PROGRESS_AFTER = 2.0  # seconds before a terminal run starts showing progress
LOG_AFTER = 5.0  # off a terminal (CI logs, pipes): seconds before the first progress line
LOG_EVERY = 5.0  # and between two lines


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    files_passed: int = 0  # let through by the pre-filter
    files_analysed: int = 0  # not answered by the cache
    jobs_used: int = 1
    prewarmed: bool = False  # analysed in the worker forked when the first changed file was read
    cache_stats: dict[str, int] = field(default_factory=dict)


def _unreadable(path: str, exc: OSError) -> Diagnostic:
    return _sib900(path, f"cannot read file: {exc.strerror or exc}")


def _sib900(path: str, reason: str) -> Diagnostic:
    from ..rule_api.registry import by_code

    rule = by_code()["SIB900"]
    return Diagnostic(path, Loc(1, 0, 1, 0), rule.code, rule.message.format(reason=reason), rule.name, rule.severity)


def check_file(path: str, config: Config, project: "ProjectIndex", data: bytes | None = None) -> list[Diagnostic]:
    from ..lint.engine import analyse, filter_findings

    if data is None:
        try:
            data = read_bounded(path, config.max_file_size)
        except OSError as exc:
            return [_unreadable(path, exc)]
    elif len(data) > config.max_file_size:
        return [_unreadable(path, TooLarge(config.max_file_size))]
    return filter_findings(analyse(path, data, config, project), config)


# ---- progress where people wait ----------------------------------------------------------------
def progress_wanted(stream: TextIO | None = None) -> bool:
    """Whether the live counter fits: an interactive terminal, not CI (elsewhere: log lines)."""
    stream = stream or sys.stderr
    if os.environ.get("CI"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """On a terminal (`live`), `siblint: 412/920 files` redrawn in place once a run has taken
    `after` seconds, erased at the end. Elsewhere (CI logs, pipes), where a redrawn line is noise,
    a line `siblint: 412/920 files, 38 s` once a run has taken LOG_AFTER seconds and then every
    LOG_EVERY seconds, left in the log. `clock` is for tests."""

    def __init__(self, total: int, stream: TextIO | None = None, after: float | None = None, enabled: bool = True,
                 live: bool = True, clock: Callable[[], float] | None = None) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.live = live
        self.after = after if after is not None else PROGRESS_AFTER if live else LOG_AFTER
        self.every = 0.1 if live else LOG_EVERY
        self.enabled = enabled
        self.clock = clock or time.monotonic
        self.start = self.clock()
        self.shown = False
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.tick()

    def tick(self) -> None:
        """Show the count if it is time to (a long phase that finishes no file may call this)."""
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.after:
            return
        finished = self.live and self.done >= self.total  # the live counter shows its last step
        if self.shown and now - self._last < self.every and not finished:
            return
        self._last = now
        self.shown = True
        if self.live:
            self.stream.write(f"\rsiblint: {self.done}/{self.total} files")
        else:
            self.stream.write(f"siblint: {self.done}/{self.total} files, {now - self.start:.0f} s\n")
        self.stream.flush()

    def close(self) -> None:
        if self.shown and self.live:
            self.stream.write("\r\033[K")
            self.stream.flush()


# ---- one process's analysis state (the parent in inline mode, or a pool worker) ------------------
class _Analyser:
    def __init__(self, config: Config, scan: "ProjectScan | None", cache: "Cache | None",
                 budget: "ParseBudget | None" = None, run_facts: "RunFacts | None" = None) -> None:
        from ..model.project import ProjectIndex, project_root
        from .memory import Untrimmed

        self.config = config
        self.cache = cache
        self.budget = budget  # shared by a pool's workers: how many big trees they hold at once
        self.run_facts = run_facts  # without a cache: the run's facts, shared by its processes
        self.shas: dict[str, str | None] = {}  # absolute path -> content hash of what was analysed
        self.sizes: dict[str, int] = {}  # absolute path -> source bytes of the facts held for it
        self.untrimmed = Untrimmed()  # bytes parsed since memory was last handed back
        self.consulted: set[str] = set()  # files whose facts some rule looked up
        self.project = ProjectIndex([project_root(config)], loader=self._load, scan=scan, skip=Skip(config),
                                    max_bytes=config.max_file_size)
        keep_pins(self.project, cache)

    def _facts_key(self, path: str, sha: str) -> str:
        from ..js.modules import resolution_context
        from ..model.project import module_name_for
        from .cache import Cache

        name, is_package, _ = module_name_for(path)
        return Cache.facts_key(path, name, is_package, sha, resolution_context(path))

    def _load(self, path: str) -> "ModuleFacts | None":
        """The project index's loader: facts of an imported module, from the cache or parsed."""
        from ..lint import engine
        from ..syntax import source
        from .cache import content_hash

        try:
            data = read_bounded(path, self.config.max_file_size)
        except OSError:
            self.shas[os.path.abspath(path)] = None
            return None
        sha = content_hash(data)
        self.shas[os.path.abspath(path)] = sha
        self.sizes[os.path.abspath(path)] = len(data)
        key = self._facts_key(path, sha) if self.cache else ""
        if self.cache:
            facts = self.cache.load_facts(key)
            if facts is not None:
                return facts
        elif self.run_facts is not None:
            facts = self.run_facts.load(path, sha)
            if facts is not None:
                return facts
        try:
            facts = self._parsed(path, data, quiet=False)
        except source.SourceError:
            return None
        if self.cache and facts is not None:
            self.cache.store_facts(key, facts)
        elif self.run_facts is not None and facts is not None:
            self.run_facts.store(path, sha, facts)
        return facts

    def _parsed(self, path: str, data: bytes, quiet: bool = True, tree: "ast.Module | None" = None) -> "ModuleFacts | None":
        """Facts of `data`, parsed within the pool's budget, the tree's memory given back after a
        big file. `quiet`: None for anything the parse raises (the engine parses again and reports it).
        `tree`: CPython's tree of `data` that already passed the guard (`relevance.syntax_tree`):
        neither parsed nor guarded again."""
        from ..lint import engine

        with self.budget.held(len(data)) if self.budget is not None else nullcontext():
            try:
                return engine.facts_from_text(engine.decode(data, path), path, tree, guarded=True)
            except Exception:
                if quiet:
                    return None
                raise
            finally:
                self.untrimmed.add(len(data))

    def sha_of(self, path: str) -> str | None:
        key = os.path.abspath(path)
        if key not in self.shas:
            from .cache import content_hash

            try:
                self.shas[key] = content_hash(read_bounded(key, self.config.max_file_size))
            except OSError:
                self.shas[key] = None
        return self.shas[key]

    def check(self, path: str) -> tuple[str, list[Diagnostic], "Entry | None"]:
        from ..lint import engine
        from ..model import relevance
        from .cache import content_hash
        from .reuse import entry_of, traced

        try:
            data = read_bounded(path, self.config.max_file_size)
        except OSError as exc:
            return path, [_unreadable(path, exc)], None
        sha = content_hash(data)
        own = os.path.abspath(path)
        self.shas[own] = sha
        facts = None
        key = ""
        if self.cache:
            key = self._facts_key(path, sha)
            facts = self.cache.load_facts(key)
        elif self.run_facts is not None:
            facts = self.run_facts.load(path, sha)
        parsed = facts is None
        tree = relevance.syntax_tree(path, data) if parsed else None
        if tree is not None:
            with traced(self.project) as trace:
                reports = relevance.may_report(path, data, tree, self.project)
            if not reports:  # no libcst parse for a file that cannot report (siblint.model.relevance)
                return path, [], entry_of(path, sha, [], trace, self.sha_of)
        if parsed:
            facts = self._parsed(path, data, tree=tree)
            if self.run_facts is not None and facts is not None:
                self.run_facts.store(path, sha, facts)  # before the rules add views to them
        self.sizes[own] = len(data)
        with traced(self.project) as trace:
            result = engine.analyse(path, data, self.config, self.project, prefiltered=False, facts=facts)
        if own not in self.consulted:
            # Keep in memory only the facts other modules asked for: a run over a large tree would
            # otherwise hold every file's facts (hundreds of MB). Asked for later, they are loaded
            # again from the cache or the run's facts store, with the same resolution as before.
            self.project.forget(own)
        self.consulted.update(p for p in trace.values() if p)
        if self.cache and parsed and result.facts is not None:
            self.cache.store_facts(key, result.facts)
        diagnostics = engine.filter_findings(result, self.config)
        self._bound_held_facts()
        return path, diagnostics, entry_of(path, sha, diagnostics, trace, self.sha_of)

    def _bound_held_facts(self) -> None:
        """Forget the least recently used facts of other modules past `HELD_BYTES` of their source
        (consulted modules were kept for the whole run: 300 MB per worker on pydantic-ai). Only
        with a store to bring them back from: the cache, or the run's facts."""
        from .memory import HELD_BYTES

        if self.cache is None and self.run_facts is None:
            return
        held = self.project.held()
        total = sum(self.sizes.get(p, 0) for p in held)
        dropped = 0
        for path in held:
            if total <= HELD_BYTES:
                break
            size = self.sizes.get(path, 0)
            self.project.forget(path)
            total -= size
            dropped += size
        self.untrimmed.add(dropped)

    def check_many(self, paths: list[str]) -> list[tuple[str, list[Diagnostic], "Entry | None"]]:
        return [self.check(p) for p in paths]


def cached_project(config: Config, cache: "Cache | None") -> "ProjectIndex":
    """A project index whose on-demand parses go through the cache when there is one (the flake8
    plugin's); the engine is imported only when a module is parsed."""
    return _Analyser(config, None, cache).project


# A pool's workers serve the projects of every config of the run (`run_many`): what each needs to
# make its analyser, by index, and the analyser of the project it is on now (one at a time, so a
# worker holds one project index however many configs the tree has).
CacheArgs = tuple[str, str, "bytes | None"]
Spec = tuple[Config, "ProjectScan | None", "CacheArgs | None", "RunFacts | None"]
_specs: list[Spec] = []
_budget: "ParseBudget | None" = None
_worker: tuple[int, _Analyser] | None = None


def _init_worker(specs: list[Spec], liveness: tuple[int, int] | None, budget: "ParseBudget | None" = None) -> None:
    import gc

    global _specs, _budget, _worker
    _die_with_parent(liveness)
    gc.set_threshold(*THRESHOLD)  # a worker process only analyses
    _specs, _budget, _worker = specs, budget, None


def _analyser_for(project: int) -> _Analyser:
    global _worker
    if _worker is None or _worker[0] != project:
        config, scan, cache_args, run_facts = _specs[project]
        cache = None
        if cache_args is not None:
            from .cache import Cache

            folder, key, secret = cache_args
            cache = Cache(folder, key, secret)
            cache.loaded = True  # workers only read and write facts; the parent owns the index
        _worker = (project, _Analyser(config, scan, cache, _budget, run_facts))
    return _worker[1]


def _check_batch(project: int, paths: list[str]) -> list[tuple[str, list[Diagnostic], "Entry | None"]]:
    return _analyser_for(project).check_many(paths)


def _batches(paths: list[str], sizes: dict[str, int]) -> list[list[str]]:
    """Big files first, each alone; small files grouped up to BATCH_BYTES / BATCH_FILES."""
    out: list[list[str]] = []
    current: list[str] = []
    current_bytes = 0
    for p in sorted(paths, key=lambda p: (-sizes.get(p, 0), p)):
        size = sizes.get(p, 0)
        if current and (current_bytes + size > BATCH_BYTES or len(current) >= BATCH_FILES):
            out.append(current)
            current, current_bytes = [], 0
        current.append(p)
        current_bytes += size
    if current:
        out.append(current)
    return out


def _project_of(config: Config) -> "ProjectIndex":
    """The project index of a run's parent: the scan its workers share, the cache's resolver."""
    from ..model.project import ProjectIndex, project_root

    return ProjectIndex([project_root(config)], skip=Skip(config), max_bytes=config.max_file_size)


def _warm_up() -> None:
    """Import and warm everything a worker needs, once, before the pool forks.

    Forking earlier, while the parent still pre-filters, so that each worker imports for itself
    meanwhile, was tried: on adk-samples (20 alternated rounds, -j2) no faster in wall time and 11%
    more CPU. The pre-filter left after the scan is short, and parallel imports do not shorten the
    import; they are paid once per worker instead of shared."""
    import libcst

    from ..lint import engine  # noqa: F401 - imported for its side effect (module cache)
    from ..rule_api.registry import all_rules
    from .cache import code_fingerprint

    libcst.parse_module("")
    all_rules()
    code_fingerprint()


def run(files: list[str], config: Config, jobs: int = 1, cache: "Cache | Callable[[], Cache | None] | None" = None,
        progress: Progress | None = None) -> RunResult:
    """Findings for `files`, sorted. `cache` may be a factory: it is called (and the cache module
    imported) only when some file passes the pre-filter."""
    return run_many([(files, config, cache)], jobs, progress)[0]


def run_many(groups: list[tuple[list[str], Config, "Cache | Callable[[], Cache | None] | None"]], jobs: int = 1,
             progress: Progress | None = None) -> list[RunResult]:
    """`run` for each (files, config, cache) of a tree with several configs: each config's files
    with that config's project index, as if run alone, but analysed in one pool, so that a tree
    of many small sub-projects uses `-j` (each alone was too little work to start one)."""
    from ..model.project import tree_held_still

    from .prewarm import Prewarmed

    prewarmed = Prewarmed(jobs > 1)
    try:
        with tree_held_still():  # forked workers inherit it: module names are worked out once per process
            parts = [_Part.prepared(files, config, cache, progress, prewarmed) for files, config, cache in groups]
            _analyse(parts, jobs, progress, prewarmed)
            for part in parts:
                part.finish()
    finally:
        prewarmed.stop()
    if progress:
        progress.close()
    return [part.result for part in parts]


@dataclass
class _Part:
    """One config's files in a run: what the parent worked out before and after their analysis."""

    config: Config
    result: RunResult
    project: "ProjectIndex"
    scan_memo: ScanMemo | None
    cache: "Cache | None"
    passing: list[str]
    sizes: dict[str, int]
    todo: list[str]
    read_bytes: int
    scan: "ProjectScan | None" = None
    outcomes: list = field(default_factory=list)

    @classmethod
    def prepared(cls, files: list[str], config: Config, given: "Cache | Callable[[], Cache | None] | None",
                 progress: Progress | None, prewarmed: "Prewarmed | None" = None) -> "_Part":
        """The pre-filter, then the cache: which files are left to analyse."""
        open_cache = OpenOnce(given)
        opened_cache: "Cache | None" = None
        result = RunResult(files_checked=len(files))
        passing: list[str] = []
        sizes: dict[str, int] = {}
        shas: dict[str, str | None] = {}  # absolute path -> content hash, when the cache is open
        project = _project_of(config)  # its scan is made on the first file the pre-filter rejects
        scan_memo = project.scan_parts = ScanMemo(open_cache, project.roots) if given is not None else None
        if scan_memo is not None:
            project.prefilter = scan_memo.matters
        read_bytes = 0  # sizes the cache's default cap
        # The pre-filter first, for every file; then the project's questions for the files it
        # rejects, with the cache's answers once a file has passed (without one, the cache module
        # is never imported).
        read: list[tuple[str, bytes | None]] = []  # (path, bytes the pre-filter rejected)
        for p in files:
            try:
                data = read_bounded(p, config.max_file_size)
            except OSError as exc:
                result.diagnostics.append(_unreadable(p, exc))
                continue
            read_bytes += len(data)
            sizes[p] = len(data)
            passed = project.passes_prefilter(p, data)
            read.append((p, None if passed else data))
            if passed and given is not None:
                opened_cache = open_cache()  # None: the folder must not be used
                if opened_cache is not None:
                    from .cache import content_hash

                    sha = shas[os.path.abspath(p)] = content_hash(data)
                    if prewarmed is not None and opened_cache.changed_since_last_run(p, sha):
                        prewarmed.start()  # a warm run that will analyse this file: import meanwhile

        def sha_of(path: str) -> str | None:
            from .cache import content_hash

            if path not in shas:
                try:
                    shas[path] = content_hash(read_bounded(path, config.max_file_size))
                except OSError:
                    shas[path] = None
            return shas[path]

        for p, rejected in read:
            if rejected is None or _wanted_by_project(project, opened_cache, p, rejected, sha_of, shas):
                if given is not None:
                    opened_cache = open_cache()
                passing.append(p)
            else:
                del sizes[p]
        cache = opened_cache if passing else None
        result.files_passed = len(passing)
        if progress:
            progress.advance(len(files) - len(passing))

        todo = passing
        if cache is not None and passing:
            from .reuse import still_valid

            def valid(path: str, entry: "Entry") -> bool:
                return still_valid(entry, path, project, sha_of)

            todo = []
            for p in passing:
                found = cache.lookup(p, sha_of(os.path.abspath(p)) or "", lambda entry, p=p: valid(p, entry))
                if found is None:
                    todo.append(p)
                else:
                    result.diagnostics.extend(found)
                    if progress:
                        progress.advance()
        result.files_analysed = len(todo)
        part = cls(config, result, project, scan_memo, cache, passing, sizes, todo, read_bytes)
        # Made here at the latest (a warm run may need none), so that forked workers inherit it.
        part.scan = project.scan if todo else None
        return part

    def finish(self) -> None:
        """Record what was analysed, save the cache, sort the findings."""
        result, cache = self.result, self.cache
        for path, diagnostics, entry in self.outcomes:
            result.diagnostics.extend(diagnostics)
            if cache is not None and entry is not None:
                cache.record(path, entry)
        if cache is not None:
            if self.passing:
                if self.scan_memo is not None:
                    self.scan_memo.save()
                cache.save(self.read_bytes)
            result.cache_stats = dict(cache.stats)
        result.diagnostics.sort(key=Diagnostic.sort_key)


def _wanted_by_project(project: "ProjectIndex", cache: "Cache | None", path: str, data: bytes,
                       sha_of: Callable[[str], str | None], shas: dict[str, str | None]) -> bool:
    """`project.wanted_by_project`, from the cache when its recorded lookups still answer the same
    (a warm run asks the project nothing for a file the pre-filter rejects: about 60% of a warm
    run's time on the SDK). Only Python files: a TS/JS answer resolves modules the trace does not
    record. `shas` memoises `sha_of`; these bytes' hash goes there."""
    from ..syntax.prefilter import JS_EXTENSIONS

    if cache is None or path.lower().endswith(JS_EXTENSIONS):
        return project.wanted_by_project(path, data)
    from .cache import content_hash
    from .reuse import entry_of, still_valid, traced

    sha = shas[os.path.abspath(path)] = content_hash(data)
    if cache.skipped(path, sha, lambda entry: still_valid(entry, path, project, sha_of)):
        return False
    with traced(project) as trace:
        wanted = project.wanted_by_project(path, data)
    if not wanted and trace:  # an answer of the bytes alone costs less to redo than to keep
        cache.record(path, entry_of(path, sha, [], trace, sha_of, skipped=True))
    return wanted


def _analyse(parts: list[_Part], jobs: int, progress: Progress | None, prewarmed: "Prewarmed | None" = None) -> None:
    """Every part's files left to analyse: inline (`-j1`, or too little work to pay for a pool; in
    the prewarmed worker when there is one), or in one pool for all parts."""
    work = [part for part in parts if part.todo]
    if not work:
        return
    from .facts_store import RunFacts

    batches = [batch for part in work for batch in _batches(part.todo, part.sizes)]
    sizes = {p: part.sizes[p] for part in work for p in part.todo}
    project_of = {p: i for i, part in enumerate(work) for p in part.todo}  # a file is in one part
    jobs = max(1, min(jobs, len(batches)))
    if sum(sizes.values()) < POOL_MIN_BYTES and len(sizes) < POOL_MIN_FILES:
        jobs = 1
    with RunFacts.opened() if any(part.cache is None for part in work) else nullcontext() as run_facts:
        for part in work:
            part.result.jobs_used = jobs
        specs: list[Spec] = [(part.config, part.scan, _cache_args(part.cache), None if part.cache else run_facts)
                             for part in work]
        if jobs == 1:
            if prewarmed is not None and prewarmed.started and all(part.cache for part in work):
                outcomes = prewarmed.analyse(specs, [(i, part.todo) for i, part in enumerate(work)])
                if outcomes is not None:
                    for outcome in outcomes:
                        work[project_of[outcome[0]]].outcomes.append(outcome)
                    for part in work:
                        part.result.prewarmed = True
                    if progress:
                        progress.advance(len(outcomes))
                    return
            for part in work:
                part.outcomes = _run_inline(part.todo, _Analyser(part.config, part.scan, part.cache,
                                                                 run_facts=None if part.cache else run_facts), progress)
            return
        for outcome in _run_pool(batches, sizes, project_of, specs, jobs, progress):
            work[project_of[outcome[0]]].outcomes.append(outcome)


def _cache_args(cache: "Cache | None") -> "CacheArgs | None":
    return (cache.folder, cache.config_key, cache.secret) if cache is not None else None


def _run_inline(paths: list[str], analyser: _Analyser, progress: Progress | None) -> list:
    """Each file in this process, with Ctrl-C held while a parser's thread runs (see _sigint_after_threads)."""
    outcomes: list = []
    with analysis_thresholds(), _sigint_after_threads():
        for p in paths:
            outcomes.append(analyser.check(p))
            if progress:
                progress.advance()
    return outcomes


@contextmanager
def _sigint_after_threads() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt at once, unless another thread runs (the parsers' big-stack
    thread, siblint.syntax.source.run_isolated): then it is raised again the moment that thread
    ends. Raised while libcst's parse thread was inside native code, the interpreter shut down under
    it and aborted (exit 134 and a core file instead of 130, issue 22 L1)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    watchers: set[threading.Thread] = set()

    def interrupted(signum: int, frame: object) -> None:
        busy = [t for t in threading.enumerate() if t is not threading.main_thread() and t not in watchers and t.is_alive()]
        if not busy:
            raise KeyboardInterrupt

        def again() -> None:
            for thread in busy:
                thread.join()
            os.kill(os.getpid(), signal.SIGINT)

        watcher = threading.Thread(target=again, name="siblint-sigint", daemon=True)
        watchers.add(watcher)
        watcher.start()

    old = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _run_pool(batches: list[list[str]], sizes: dict[str, int], project_of: dict[str, int], specs: list[Spec],
              jobs: int, progress: Progress | None) -> list:
    """Outcomes of every batch (the files of one project: `specs[project_of[path]]`) in a pool of `jobs` workers."""
    import gc
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from .memory import Dispatch, ParseBudget

    _warm_up()
    gc.freeze()  # what the parent imported stays shared with the forked workers (copy-on-write)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    # The liveness pipe: the parent alone holds its write end open (workers close their copies),
    # so a worker reads end-of-file the moment the parent is gone, however it died.
    liveness = os.pipe() if ctx.get_start_method() == "fork" else None
    budget = ParseBudget(ctx)
    queue = Dispatch(batches, sizes, budget)
    outcomes: list = []
    in_flight: dict = {}  # future -> (batch, its budget units)
    left: list[str] = []
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                                 initargs=(specs, liveness, budget)) as pool:

            def hand_out() -> None:
                """One batch per free worker, chosen now (see `Dispatch`), not queued ahead."""
                while queue and len(in_flight) < jobs:
                    batch, units = queue.take(sum(u for _, u in in_flight.values()))
                    in_flight[pool.submit(_check_batch, project_of[batch[0]], batch)] = (batch, units)

            # Ctrl-C is the parent's alone (workers ignore SIGINT from their fork on, see
            # _die_with_parent): it stops the workers and exits 130, with no worker traceback
            # and no race between a dying worker (a broken pool) and the interrupt.
            with _sigint_deferred() as interrupted:  # with `fork`, the first submit forks every worker
                hand_out()
            try:
                if interrupted:  # Ctrl-C came while the workers were forked: honour it now
                    raise KeyboardInterrupt
                while in_flight:
                    finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        done = fut.result()
                        del in_flight[fut]
                        outcomes.extend(done)
                        if progress:
                            progress.advance(len(done))
                    hand_out()
            except BrokenProcessPool:  # a worker was killed: the files it may have held, one by one
                for fut, (batch, _) in in_flight.items():
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        outcomes.extend(fut.result())
                    else:
                        left.extend(batch)
                left.extend(queue.left())
            except BaseException:
                # Python 3.11's exit hook wakes the pool's manager thread without its lock, racing the
                # thread's own close of that pipe ("OSError: [Errno 9] Bad file descriptor" after
                # "siblint: interrupted", seen in CI): the thread is joined here, before the exit.
                manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() drops it
                pool.shutdown(wait=False, cancel_futures=True)
                for child in multiprocessing.active_children():  # only the pool's workers
                    child.kill()
                if manager is not None:
                    manager.join(timeout=10)
                raise
        if left:
            outcomes.extend(_one_process_each([(project_of[p], p) for p in left], ctx, specs, progress))
    finally:
        gc.unfreeze()
        if liveness is not None:
            for fd in liveness:
                os.close(fd)
    return outcomes


def _one_process_each(paths: list[tuple[int, str]], ctx: Any, specs: list[Spec], progress: Progress | None) -> list:
    """After a worker died (the out-of-memory killer, a signal; issue 22 L11), the files it may
    have held, each in a process of its own: a file whose process dies again is reported as such
    (SIB900 with the signal), and every other file is analysed as usual."""
    outcomes: list = []
    for project, path in paths:
        receive, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_check_alone, args=(send, project, path, specs), name="siblint-alone", daemon=True)
        proc.start()
        send.close()
        try:
            outcomes.extend(receive.recv())
        except EOFError:
            proc.join()
            outcomes.append((path, [_process_died(path, proc.exitcode)], None))
        finally:
            receive.close()
            proc.join()
        if progress:
            progress.advance()
    return outcomes


def _check_alone(send: "Connection", project: int, path: str, specs: list[Spec]) -> None:
    _init_worker(specs, None)
    send.send(_check_batch(project, [path]))


def _process_died(path: str, exitcode: int | None) -> Diagnostic:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.valid_signals() else "unknown"
        how = f"was killed by signal {-exitcode} ({name}; SIGKILL is what the out-of-memory killer sends)"
    else:
        how = f"exited with status {exitcode}"
    return _sib900(path, f"not analysed: the process analysing it {how}")


@contextmanager
def _sigint_deferred() -> Iterator[list[int]]:
    """Hold Ctrl-C while the block runs (a worker forked meanwhile must not see KeyboardInterrupt);
    the yielded list is non-empty afterwards when one came, so the caller can act on it."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, old)


def _die_with_parent(liveness: tuple[int, int] | None) -> None:
    """In a worker: exit as soon as the parent process is gone (SIGKILL included), so no orphan
    keeps analysing or holds the parent's stdout open. With `fork`, the liveness pipe; otherwise
    (the fds are not inherited) a watch on the parent's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C (see _run_pool)
    if liveness is not None:
        read_end, write_end = liveness
        os.close(write_end)

        def wait() -> None:
            try:
                while os.read(read_end, 1):  # nothing is ever written: this returns at end-of-file
                    pass
            except OSError:
                pass
            os._exit(1)
    else:
        parent = os.getppid()

        def wait() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

    threading.Thread(target=wait, name="siblint-parent-watch", daemon=True).start()


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
