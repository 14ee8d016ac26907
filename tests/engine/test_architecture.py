"""The architecture, kept by tests: imports a folder-resolving tool can follow, floors that only look
down, and a pre-filtered run that imports only what it needs.

`LAYERS` is the one written order of siblint's packages, bottom first (docs/architecture.md
explains each floor and is checked against it below). A package may import its own floor and any
floor below; imports under `if TYPE_CHECKING:` never run and are exempt (they are how annotations
name a higher floor's types). The rules (`siblint.rules.<family>`) are plugins: the engine finds
them by name (`rule_api.rule.catalog`), never by an import statement.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINTER = REPO / "linter"
RULES = REPO / "rules"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("common", "frameworks"),
    ("rule_api",),
    ("syntax", "js"),
    ("settings",),
    ("model", "effects"),
    ("analyses",),
    ("lint",),
    ("rules",),
    ("run",),
    ("interfaces", "reporters"),
)
FLOOR = {pkg: i for i, floor in enumerate(LAYERS) for pkg in floor}


def _module_of(path: Path) -> list[str]:
    """`siblint.<parts>` of a source file, as the package installs it."""
    if path.is_relative_to(RULES):
        parts = ["rules", *path.relative_to(RULES).with_suffix("").parts]
    else:
        parts = list(path.relative_to(LINTER).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _package_of(path: Path) -> list[str]:
    """The package a relative import in `path` starts from."""
    parts = _module_of(path)
    return parts if path.name == "__init__.py" else parts[:-1]


def _runtime_imports(path: Path) -> list[tuple[int, ast.ImportFrom | ast.Import]]:
    """Every import statement that can run (module level or in a function), not TYPE_CHECKING ones."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, ast.ImportFrom | ast.Import]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child.lineno, child))
            visit(child)

    visit(tree)
    return found


def _targets(path: Path, node: ast.ImportFrom | ast.Import) -> list[list[str]]:
    """The siblint modules (as parts under `siblint`) an import statement names."""
    if isinstance(node, ast.Import):
        return [n.name.split(".")[1:] for n in node.names if n.name.split(".")[0] == "siblint"]
    if node.level == 0:
        if node.module is None or node.module.split(".")[0] != "siblint":
            return []
        base = node.module.split(".")[1:]
    else:
        pkg = _package_of(path)
        base = pkg[: len(pkg) - (node.level - 1)] + (node.module.split(".") if node.module else [])
    # `from . import x` names modules; `from .x import y` names x (y may be a module: same floor)
    return [base + [n.name] for n in node.names] if node.module is None else [base]


def _floor(parts: list[str]) -> int:
    if not parts or parts == ["__init__"] or parts[0] == "__version__":
        return 0  # the package itself: its version
    if parts[0] == "__main__":
        return len(LAYERS)
    return FLOOR[parts[0]]


def _sources() -> list[Path]:
    return sorted([*LINTER.rglob("*.py"), *RULES.rglob("*.py")])


def test_every_package_has_a_floor() -> None:
    top = {p.name for p in LINTER.iterdir() if p.is_dir() and (p / "__init__.py").exists()} | {"rules"}
    assert top == set(FLOOR), "a new sub-package of linter/ needs its place in LAYERS (and docs/architecture.md)"
    loose = {p.name for p in LINTER.glob("*.py")}
    assert loose == {"__init__.py", "__main__.py"}, "modules live in a sub-package named for their role"


def test_linter_imports_are_relative() -> None:
    """Inside `linter/`, siblint's own modules are imported relatively, so a tool that resolves imports
    by folder can follow them (the folder is `linter/`, the installed name `siblint`)."""
    absolute = [f"{p.relative_to(REPO)}:{line}" for p in LINTER.rglob("*.py") for line, node in _runtime_imports(p)
                if (isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "siblint")
                or (isinstance(node, ast.Import) and any(n.name.split(".")[0] == "siblint" for n in node.names))]
    assert absolute == []
    text = "\n".join(p.read_text(encoding="utf-8") for p in LINTER.rglob("*.py"))
    assert not re.search(r"^\s*(from|import) siblint\b", text, re.M)


def test_no_module_imports_a_higher_floor() -> None:
    upward = []
    for path in _sources():
        here = _floor(_module_of(path))
        for line, node in _runtime_imports(path):
            for target in _targets(path, node):
                if _floor(target) > here:
                    upward.append(f"{path.relative_to(REPO)}:{line} imports siblint.{'.'.join(target)} "
                                  f"(floor {_floor(target)} above {here})")
    assert upward == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself can fail: a model module importing an interface is caught."""
    fake = LINTER / "model" / "fake.py"
    tree = ast.parse("from ..interfaces.cli import main\n")
    node = tree.body[0]
    assert isinstance(node, ast.ImportFrom)
    (target,) = _targets(fake, node)
    assert target == ["interfaces", "cli"]
    assert _floor(target) > _floor(_module_of(fake))


def test_architecture_doc_lists_the_floors_in_order() -> None:
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", doc, re.M)
    listed = [tuple(re.findall(r"`([a-z_]+)/`", names)) for _, names in rows]
    assert listed == [tuple(f for f in floor) for floor in LAYERS]


# The modules a `siblint check` of a tree with no agent code imports: the pre-filter ends the run
# before any parse, so neither libcst, the model, the analyses nor a rule is loaded.
PREFILTERED_RUN = """
import sys
from siblint.interfaces.cli import main
sys.argv = ["siblint", "check", "--no-cache", sys.argv[1]]
try:
    main()
except SystemExit as e:
    assert e.code == 0, e.code
print("MODULES", " ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("siblint", "libcst", "tree_sitter", "pygls", "flake8"))))
"""


def test_a_prefiltered_run_imports_only_what_it_needs(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("import os\n\n\ndef cwd():\n    return os.getcwd()\n")
    (tmp_path / "web.ts").write_text("export const x = 1;\n")
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(PREFILTERED_RUN), str(tmp_path)],
                         capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert out.startswith("All checks passed.")
    out = out.split("MODULES", 1)[1].split()
    loaded = {m for m in out if m.startswith("siblint")}
    assert not [m for m in out if not m.startswith("siblint")], "no parser, language server or flake8"
    floors = {m.split(".")[1] for m in loaded if m.count(".") >= 1}
    assert floors <= {"common", "frameworks", "syntax", "js", "settings", "model", "run", "interfaces", "reporters"}
    for never in ("siblint.syntax.collector", "siblint.syntax.source", "siblint.model.semantic", "siblint.lint.engine",
                  "siblint.rule_api.registry", "siblint.run.cache", "siblint.reporters.sarif", "siblint.interfaces.server"):
        assert never not in loaded
    assert not [m for m in loaded if m.startswith(("siblint.analyses", "siblint.rules", "siblint.effects"))]


@pytest.mark.parametrize("module", ["siblint.interfaces.cli", "siblint.interfaces.flake8_plugin"])
def test_entry_points_import_without_the_engine(module: str) -> None:
    """Importing an entry point (every flake8 run imports the plugin) loads no parser and no rule."""
    code = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "libcst" not in loaded and "siblint.lint.engine" not in loaded and "siblint.rules" not in loaded
