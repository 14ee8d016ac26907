"""Every rule, by code: discovered from the families listed in `siblint.rules`."""

from __future__ import annotations

import importlib
from functools import lru_cache

from siblint.rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    from siblint import rules

    found: list[type[Rule]] = []
    for family in rules.FAMILIES:
        module = importlib.import_module(f"siblint.rules.{family}")
        found.extend(
            obj for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and hasattr(obj, "code") and obj.__module__ == module.__name__
        )
    return tuple(sorted(found, key=lambda r: r.code))


def by_code() -> dict[str, type[Rule]]:
    return {r.code: r for r in all_rules()}


def all_codes() -> tuple[str, ...]:
    return tuple(r.code for r in all_rules())
