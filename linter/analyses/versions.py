"""Which release of a framework the checked project runs, where a rule's premise changed between
releases (`siblint.frameworks.versions`): read from the pins nearest the checked file, once per
folder for the run."""

from __future__ import annotations

import os

from ..frameworks import FRAMEWORKS
from ..frameworks.versions import Release
from ..model.project import ProjectIndex
from ..settings.pins import Assumed, Pin, assumed, pins_for


def project_pins(path: str, project: ProjectIndex) -> dict[str, Pin]:
    """The pins that govern `path`: the nearest pin files at or above its folder, within its root."""
    folder = os.path.dirname(os.path.abspath(path))
    memo: dict[str, dict[str, Pin]] = project.memo.setdefault("versions.pins", {})
    if folder not in memo:
        top = next((r for r in project.roots if folder == r or folder.startswith(r.rstrip(os.sep) + os.sep)), folder)
        memo[folder] = pins_for(path, top)
    return memo[folder]


def runs_current(release: Release | None, path: str, project: ProjectIndex) -> bool:
    """The project holding `path` runs `release.since` or later (True when there is no release to check)."""
    return release is None or assumed(release, project_pins(path, project)).current


def known_releases() -> tuple[Release, ...]:
    """Every release a framework's data makes a premise depend on, once each."""
    found = (m.policy.fatal_since for fw in FRAMEWORKS for m in fw.groups.makers.values())
    return tuple(dict.fromkeys(r for r in found if r is not None))


def assumed_versions(path: str, project: ProjectIndex) -> list[Assumed]:
    """For `--show-settings`: which side of each known release the project of `path` runs."""
    pins = project_pins(path, project)
    return [assumed(r, pins) for r in known_releases()]
