"""The versions a project pins for its dependencies, and which side of a framework release it runs.

Pins are read from the folder nearest the checked file that holds any of `PIN_FILES` (walking up,
never above the project root; `siblint.settings.pin_files` finds them): a lock file's exact version
first (uv, poetry, pdm), then the requirement specifiers of `pyproject.toml` (PEP 621 dependencies,
optional dependencies, dependency groups, poetry's tables) and `requirements*.txt`. A specifier is
read as a resolver would install it: the newest version it allows. Nothing is imported or
installed; a file that cannot be read or parsed pins nothing.
"""

from __future__ import annotations

import codecs

import os
import sys
from dataclasses import dataclass
from typing import Iterator

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from ..frameworks.versions import Release
from .pin_files import LOCK_FILES, pin_bytes, pin_folder, pin_sources

_HUGE = Version("999999")  # stands for "any later release" when a specifier has no upper bound


@dataclass(frozen=True)
class Pin:
    distribution: str  # normalised (PEP 503)
    specifier: str  # "==1.0.1", ">=0.6,<0.7", "" when the name is listed without one
    source: str  # the file it was read from


@dataclass(frozen=True)
class Assumed:
    """Which side of `release` the project runs, and the pin that says so (None: nothing pinned)."""

    release: Release
    current: bool  # runs `release.since` or later: the rules' premise holds
    pin: Pin | None


def pins_for(folder: str, top: str) -> dict[str, Pin]:
    """Distribution -> its pin for the files of `folder`, from the nearest folder at or above it
    that holds a pin file, not above `top`."""
    found = pin_folder(folder, top)
    return read_pins(found) if found is not None else {}


def assumed(release: Release, pins: dict[str, Pin]) -> Assumed:
    """The release side the pins give: the distribution itself first, then a pin that holds it
    back, then those that bring it in."""
    own = pins.get(canonicalize_name(release.distribution))
    if own is not None:
        return Assumed(release, _allows(own, release.since), own)
    for dist, bound in release.held_back_by:
        pin = pins.get(canonicalize_name(dist))
        if pin is not None and not _allows(pin, bound):
            return Assumed(release, False, pin)
    for dist, first in release.brought_by:
        pin = pins.get(canonicalize_name(dist))
        if pin is not None:
            return Assumed(release, _allows(pin, first), pin)
    return Assumed(release, True, None)


def _allows(pin: Pin, version: str) -> bool:
    """`pin` lets a resolver install `version` or later (a bare name does)."""
    newest = newest_allowed(pin.specifier)
    return newest is None or newest >= Version(version)


def newest_allowed(specifier: str) -> Version | None:
    """The newest version `specifier` allows, judged on the versions it names, a release just
    before and just after each, the last of each of their series (`~=1.0.0` allows 1.0.999999) and
    any later one; None when it sets no bound (or cannot be read)."""
    try:
        spec = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    candidates: list[Version] = [_HUGE]
    for s in spec:
        try:
            v = Version(s.version.rstrip(".*"))
        except InvalidVersion:
            continue
        raised = [Version(".".join(map(str, [*v.release[:i], 999999]))) for i in range(len(v.release) + 1)]
        candidates += [v, _below(v), Version(f"{v.base_version}.1"), *raised]
    allowed = [v for v in candidates if spec.contains(v, prereleases=True)]
    return max(allowed) if allowed and len(candidates) > 1 else None


def _below(v: Version) -> Version:
    """A release just before `v`: 1.0.2 -> 1.0.1.999999, 1.0.0 -> 0.999999."""
    nums = list(v.release)
    last = max((i for i, n in enumerate(nums) if n), default=None)
    if last is None:
        return Version("0")
    return Version(".".join(map(str, [*nums[:last], nums[last] - 1, 999999])))


def read_pins(folder: str) -> dict[str, Pin]:
    """The pins `folder`'s own pin files hold: manifests first, then lock files, so a locked
    version replaces a range."""
    out: dict[str, Pin] = {}
    for name in pin_sources(folder):
        path = os.path.join(folder, name)
        if name in LOCK_FILES:
            out.update({p.distribution: p for p in _lock(path)})
        elif name == "pyproject.toml":
            out.update(_keep_first(out, _pyproject(path)))
        else:
            out.update(_keep_first(out, _requirements(path)))
    return out


def _keep_first(known: dict[str, Pin], found: Iterator[Pin]) -> dict[str, Pin]:
    """A name listed with a specifier wins over the same name listed bare."""
    out: dict[str, Pin] = {}
    for pin in found:
        held = out.get(pin.distribution) or known.get(pin.distribution)
        if held is None or (not held.specifier and pin.specifier):
            out[pin.distribution] = pin
    return out


def _text(path: str) -> str | None:
    """The file's text: UTF-8, or UTF-16/32 when a byte-order mark says so (PowerShell's
    `pip freeze > requirements.txt` writes UTF-16)."""
    data = pin_bytes(path)
    if data is None:
        return None
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                       (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"), (codecs.BOM_UTF8, "utf-8-sig")):
        if data.startswith(bom):
            return data.decode(codec, "replace")
    return data.decode("utf-8", "replace")


def _toml(path: str) -> dict:
    text = _text(path)
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _pin(line: str, source: str) -> Pin | None:
    try:
        req = Requirement(line)
    except InvalidRequirement:
        return None
    return Pin(canonicalize_name(req.name), str(req.specifier), source)


def _requirements(path: str) -> Iterator[Pin]:
    for raw in (_text(path) or "").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            pin = _pin(line, path)
            if pin is not None:
                yield pin


def _table(data: object, key: str) -> dict:
    """`data[key]` when both are tables, else an empty one (a hand-written file may hold anything)."""
    found = data.get(key) if isinstance(data, dict) else None
    return found if isinstance(found, dict) else {}


def _pyproject(path: str) -> Iterator[Pin]:
    data = _toml(path)
    project = _table(data, "project")
    groups: list[object] = [project.get("dependencies"), *_table(project, "optional-dependencies").values(),
                            *_table(data, "dependency-groups").values()]
    for group in groups:
        for item in group if isinstance(group, list) else ():
            pin = _pin(item, path) if isinstance(item, str) else None
            if pin is not None:
                yield pin
    yield from _poetry(data, path)


def _poetry(data: dict, path: str) -> Iterator[Pin]:
    """`[tool.poetry.dependencies]` and its groups: `name = "^1.2"` or `{ version = "..." }`."""
    poetry = _table(_table(data, "tool"), "poetry")
    tables = [_table(poetry, "dependencies"), *(_table(g, "dependencies") for g in _table(poetry, "group").values())]
    for table in tables:
        for name, value in table.items():
            constraint = value.get("version") if isinstance(value, dict) else value
            if isinstance(constraint, str) and name != "python":
                yield Pin(canonicalize_name(name), _poetry_specifier(constraint), path)


def _poetry_specifier(constraint: str) -> str:
    """Poetry's `^1.2.3`, `~1.2`, `1.2.3` and `*` as PEP 440 specifiers."""
    out: list[str] = []
    for part in (p.strip() for p in constraint.split(",")):
        if part in ("", "*"):
            continue
        if part[0] in "^~" and not part.startswith("~="):
            try:
                v = Version(part[1:])
            except InvalidVersion:
                continue
            nums = list(v.release) + [0] * (3 - len(v.release))
            if part[0] == "^":
                idx = next((i for i, n in enumerate(nums) if n), len(part[1:].split(".")) - 1)
            else:
                idx = min(len(part[1:].split(".")) - 1, 1)
            upper = nums[:idx] + [nums[idx] + 1]
            out += [f">={v}", f"<{'.'.join(map(str, upper))}"]
        elif part[0].isdigit():
            out.append(f"=={part}")
        else:
            out.append(part)
    return ",".join(out)


def _lock(path: str) -> Iterator[Pin]:
    """`[[package]]` entries with `name` and `version`, as uv, poetry and pdm write them."""
    packages = _toml(path).get("package")
    for pkg in packages if isinstance(packages, list) else ():
        if isinstance(pkg, dict) and isinstance(pkg.get("name"), str) and isinstance(pkg.get("version"), str):
            yield Pin(canonicalize_name(pkg["name"]), f"=={pkg['version']}", path)
