"""flake8 tree plugin: the same engine as `siblint check`, one file at a time.

flake8 applies `# noqa`, `--select` and `--ignore` itself, so the plugin reports every finding.
Default-off codes go through `extend_default_ignore`. Nothing is printed, and no state survives
between files except the per-options project index (editors run flake8 in-process repeatedly).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from typing import Any

from siblint import __version__


class Plugin:
    name = "siblint"
    version = __version__

    # Set by parse_options; keyed by option values so a new configuration gets a new index.
    _options: dict[str, Any] = {}

    def __init__(self, tree: ast.AST, filename: str, lines: list[str]) -> None:
        self.tree = tree
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        from siblint.registry import all_rules

        option_manager.add_option(
            "--siblint-extend-side-effect-calls", default="", parse_from_config=True, comma_separated_list=True,
            help="Extra call names siblint treats as side effects (comma-separated).",
        )
        option_manager.add_option(
            "--siblint-pure-calls", default="", parse_from_config=True, comma_separated_list=True,
            help="Call names siblint treats as free of side effects (comma-separated).",
        )
        option_manager.extend_default_ignore([r.code for r in all_rules() if not r.default_enabled])

    @classmethod
    def parse_options(cls, options: Any) -> None:
        cls._options = {
            "extend_side_effect_calls": tuple(getattr(options, "siblint_extend_side_effect_calls", None) or ()),
            "pure_calls": tuple(getattr(options, "siblint_pure_calls", None) or ()),
        }

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from siblint import config as config_mod
        from siblint.engine import analyse, new_project

        data = "".join(self.lines).encode("utf-8")
        path = self.filename if self.filename not in ("-", "stdin") else "stdin.py"
        try:
            base = config_mod.load(path if os.path.exists(path) else ".")
        except config_mod.ConfigError:
            base = config_mod.Config()
        from dataclasses import replace

        config = replace(base, select=None, ignore=(), extend_select=(), per_file_ignores=(),
                         extend_side_effect_calls=base.extend_side_effect_calls + self._options.get("extend_side_effect_calls", ()),
                         pure_calls=base.pure_calls + self._options.get("pure_calls", ()))
        # Every rule runs; flake8's own --select/--ignore/noqa decide what is shown.
        config = replace(config, select=tuple(r for r in _all_codes()))
        # A fresh index per file: modules this one imports are parsed on demand, never stale.
        result = analyse(path, data, config, new_project(config))
        for d in sorted(result.diagnostics, key=lambda d: d.sort_key()):
            yield d.loc.line, d.loc.col, f"{d.code} {d.message}", type(self)


def _all_codes() -> tuple[str, ...]:
    from siblint.registry import all_codes

    return all_codes()
