"""Every rule, by code: discovered from the families the rules package lists (`rule.catalog`)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from .rule import RULES_PACKAGE, Rule, catalog


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for family in catalog().FAMILIES:
        module = importlib.import_module(f"{RULES_PACKAGE}.{family}")
        found.extend(
            obj for obj in vars(module).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and hasattr(obj, "code") and obj.__module__ == module.__name__
        )
    return tuple(sorted(found, key=lambda r: r.code))


def by_code() -> Mapping[str, type[Rule]]:
    """Every rule by its code; one mapping per set of rules (asked for each rule of each file)."""
    return _by_code(all_rules())


@lru_cache(maxsize=1)
def _by_code(rules: tuple[type[Rule], ...]) -> Mapping[str, type[Rule]]:
    return MappingProxyType({r.code: r for r in rules})


def all_codes() -> tuple[str, ...]:
    return tuple(r.code for r in all_rules())


def declared_codes() -> tuple[str, ...]:
    """Every code, sorted, as the rules package declares them (`FAMILIES`): no rule is imported."""
    return tuple(sorted(code for codes in catalog().FAMILIES.values() for code in codes))
