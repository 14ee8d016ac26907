"""Which release of a framework the checked project runs, where a rule's premise changed between
releases (`siblint.frameworks.versions`): read from the pins nearest the checked file, once per
folder for the run."""

from __future__ import annotations

import os

from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Framework
from ..frameworks.versions import Release
from ..settings.pins import Assumed, Pin, assumed, read_pins
from .pin_digest import governing_folder, pins_digest
from .project import PINS, ProjectIndex


def project_pins(path: str, project: ProjectIndex) -> dict[str, Pin]:
    """The pins that govern `path`: the nearest pin files at or above its folder, within its root.
    Recorded in the project's trace, so cached findings that relied on them are re-checked."""
    folder = os.path.dirname(os.path.abspath(path))
    pins = _folder_pins(folder, project)
    key = f"{PINS} {folder}"
    if project.trace is not None and key not in project.trace:  # once per folder and file, not per tool
        project.trace[key] = pins_digest(folder, project)
    return pins


def _folder_pins(folder: str, project: ProjectIndex) -> dict[str, Pin]:
    memo: dict[str, dict[str, Pin]] = project.memo.setdefault("versions.pins", {})
    if folder not in memo:
        found = governing_folder(folder, project)
        # Read each pin folder once: a large lock file governs every folder below it.
        read: dict[str, dict[str, Pin]] = project.memo.setdefault("versions.read", {})
        if found is not None and found not in read:
            read[found] = _read_through(folder, found, project)
        memo[folder] = read[found] if found is not None else {}
    return memo[folder]


# `project.memo[PIN_STORE]`, when a run keeps one (the cache's, `siblint.run.pins_memo`): the pins
# read before, by `pins_digest`, so an edit elsewhere does not parse a large lock file again.
PIN_STORE = "versions.store"


def _read_through(folder: str, found: str, project: ProjectIndex) -> dict[str, Pin]:
    store = project.memo.get(PIN_STORE)
    if store is None:
        return read_pins(found)
    digest = pins_digest(folder, project)
    pins = store.get(digest)
    if pins is None:
        pins = store[digest] = read_pins(found)
    return pins


def runs_current(release: Release | None, path: str, project: ProjectIndex) -> bool:
    """The project holding `path` runs `release.since` or later (True when there is no release to check)."""
    return release is None or assumed(release, project_pins(path, project)).current


def sync_tools_in_threads(framework: Framework | None, path: str, project: ProjectIndex) -> bool:
    """Does `framework`, at the release the project of `path` runs, move a sync tool into a worker
    thread (unknown frameworks: yes)?"""
    if framework is None:
        return True
    tools = framework.tools
    return tools.sync_runs_in == "thread" and runs_current(tools.sync_thread_since, path, project)


def known_releases() -> tuple[Release, ...]:
    """Every release a framework's data makes a premise depend on, once each."""
    found = [fw.tools.sync_thread_since for fw in FRAMEWORKS]
    for fw in FRAMEWORKS:
        for maker in (*fw.groups.makers.values(), *fw.groups.methods.values()):
            found += [maker.policy.fatal_since, maker.cancels_since]
    return tuple(dict.fromkeys(r for r in found if r is not None))


def assumed_versions(path: str, project: ProjectIndex) -> list[Assumed]:
    """For `--show-settings`: which side of each known release the project of `path` runs."""
    pins = project_pins(path, project)
    return [assumed(r, pins) for r in known_releases()]
