"""The pre-filter: which files are worth a parse, and that nothing heavy is imported before one is."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

import pytest
from siblint.syntax import prefilter

MATTERS = [
    "import agents\n",
    "from agents import function_tool\n",
    "from agents.mcp import MCPServerStdio\n",
    "import os, agents.tool\n",
    "import agents as a\n",
    "try:\n    from agents import Agent\nexcept ImportError:\n    pass\n",
    "def f():\n    import agents\n",
    "from agents import (\n    Agent,\n)\n",
]
DOES_NOT = [
    "",
    "import os\n",
    "from myagents import x\n",
    "import agentsx\n",
    "from .agents import x\n",
    "x = 'agents'\n",
    "# import agents\n",
    "agents = 1\n",
]


@pytest.mark.parametrize("text", MATTERS)
def test_imports_of_a_framework_pass(text: str) -> None:
    assert prefilter.may_matter(text.encode())
    assert prefilter.may_matter_text(text)
    assert prefilter.may_matter_ast(ast.parse(text))


@pytest.mark.parametrize("text", DOES_NOT)
def test_other_files_do_not(text: str) -> None:
    assert not prefilter.may_matter(text.encode())
    assert not prefilter.may_matter_text(text)
    assert not prefilter.may_matter_ast(ast.parse(text))


def test_conservative_on_strings() -> None:
    # A docstring line that looks like an import lets the file through (never the other way round).
    text = '"""\nfrom agents import Agent\n"""\n'
    assert prefilter.may_matter(text.encode())


def test_other_roots() -> None:
    assert prefilter.may_matter(b"import crewai\n", ("crewai",))
    assert not prefilter.may_matter(b"import agents\n", ("crewai",))


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_cli_on_a_tree_without_agent_code_imports_nothing_heavy(tmp_path) -> None:
    (tmp_path / "a.py").write_text("import os\nprint(os.sep)\n")
    (tmp_path / "b.py").write_text("def f():\n    return 1\n")
    out = _run(f"""
        import sys
        from siblint.interfaces.cli import main
        try:
            main(["check", {str(tmp_path)!r}, "-j2"])
        except SystemExit as e:
            assert e.code == 0, e.code
        # The cache module may be imported (7 ms: the project scan's memo is read from the cache when
        # one exists), but nothing of the analysis, and no cache folder is written (below).
        heavy = sorted(m for m in sys.modules if m == "libcst" or m.startswith("siblint.rules.") or m in
                       ("siblint.lint.engine", "siblint.syntax.collector", "concurrent.futures.process"))
        print(",".join(heavy) or "none")
    """)
    assert out.splitlines()[-1] == "none"
    assert not (tmp_path / ".siblint_cache").exists()  # nothing passed: nothing to cache


def test_flake8_plugin_skips_a_plain_file_without_importing_libcst(tmp_path) -> None:
    out = _run("""
        import ast, sys
        from siblint.interfaces.flake8_plugin import Plugin
        lines = ["import os\\n", "x = os.sep\\n"]
        assert list(Plugin(ast.parse("".join(lines)), "plain.py", lines).run()) == []
        print("libcst" in sys.modules, "siblint.lint.engine" in sys.modules)
    """)
    assert out == "False False"


def test_a_flake8_run_on_plain_files_loads_no_rule(tmp_path) -> None:
    """flake8 registers the plugin's options in every run; that must not import the rules."""
    (tmp_path / "plain.py").write_text("import os\nx = os.sep\n")
    out = _run(f"""
        import sys
        from flake8.main.application import Application
        app = Application()
        app.run(["--isolated", "--output-file", {str(tmp_path / "out.txt")!r}, {str(tmp_path / "plain.py")!r}])
        assert app.options._siblint_run_state.named_off == ()  # the plugin's options were parsed
        heavy = sorted(m for m in sys.modules if m == "libcst" or m.startswith("siblint.rules.") or m in
                       ("siblint.lint.engine", "siblint.rule_api.registry", "siblint.syntax.facts"))
        print(",".join(heavy) or "none")
    """)
    assert out.splitlines()[-1] == "none"
