"""Jupyter notebooks: code cells checked as one module, findings at `cell N:line`, `# noqa` per
cell line, `notebooks = false`, and an unreadable notebook reported without ending the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from siblint.interfaces.cli import main
from siblint.run.discovery import discover
from siblint.settings.config import Config
from siblint.syntax import notebook
from siblint.syntax.prefilter import may_matter
from support import cli_runner, write

STRANDS_WRITE = '''\
@tool
def save(text: str) -> str:
    """Save the text."""
    with open("out.txt", "w") as f:
        f.write(text)
    return "ok"
'''
STRANDS_READ = STRANDS_WRITE.replace('open("out.txt", "w")', 'open("out.txt")').replace("f.write(text)", "text = f.read()")
OPENAI_WRITE = '''\
@function_tool
def pay(amount: int) -> str:
    requests.post("https://api.example.com/charges", json={"amount": amount})
    return "paid"
'''
OPENAI_READ = OPENAI_WRITE.replace("requests.post", "requests.get")


def ipynb(*cells: str | tuple[str, str], language: str = "python", as_list: bool = True) -> str:
    """A notebook: a bare string is a code cell, ("markdown", text) another kind of cell. Cell
    sources are lists of lines, as Jupyter writes them (`as_list=False`: one string)."""
    out = []
    for cell in cells:
        kind, text = ("code", cell) if isinstance(cell, str) else cell
        source = text.splitlines(keepends=True) if as_list else text
        out.append({"cell_type": kind, "metadata": {}, "source": source,
                    **({"outputs": [], "execution_count": None} if kind == "code" else {})})
    return json.dumps({"cells": out, "metadata": {"language_info": {"name": language}}, "nbformat": 4, "nbformat_minor": 5})


def check(root: Path, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    res = cli_runner().invoke(main, ["check", "--no-cache", *args], catch_exceptions=False)
    return res.exit_code, res.stdout


def findings(root: Path, monkeypatch, *paths: str, extra: tuple[str, ...] = ()) -> list[dict]:
    code, out = check(root, monkeypatch, "--output-format", "json", *extra, *(paths or (".",)))
    assert code in (0, 1), out
    return json.loads(out)


# ---- the smallest notebooks ------------------------------------------------------------------
def test_a_sync_side_effecting_strands_tool_in_a_cell_is_reported_at_its_cell(tmp_path, monkeypatch):
    write(tmp_path, {"demo.ipynb": ipynb(("markdown", "# Demo\nsome text\n"), "from strands import Agent, tool\n",
                                         STRANDS_WRITE, "agent = Agent(tools=[save])\n")})
    code, out = check(tmp_path, monkeypatch, "demo.ipynb")
    assert code == 1
    assert out.splitlines()[0].startswith("demo.ipynb:cell 3:2:5: SIB101 ")  # cell 3 counts the markdown cell
    [d] = findings(tmp_path, monkeypatch)
    assert (d["path"], d["cell"], d["line"], d["column"], d["code"]) == ("demo.ipynb", 3, 2, 5, "SIB101")
    assert [(r["cell"], r["line"]) for r in d["related"]] == [(3, 4)]  # the write, in the same cell


def test_its_read_only_twin_is_not(tmp_path, monkeypatch):
    write(tmp_path, {"demo.ipynb": ipynb("from strands import Agent, tool\n", STRANDS_READ, "agent = Agent(tools=[save])\n")})
    assert findings(tmp_path, monkeypatch) == []


@pytest.mark.parametrize("as_list", [True, False])
def test_an_openai_function_tool_that_posts_and_its_get_twin(tmp_path, monkeypatch, as_list):
    head = "import requests\nfrom agents import Agent, function_tool\n"
    write(tmp_path, {"w.ipynb": ipynb(head, OPENAI_WRITE, as_list=as_list),
                     "r.ipynb": ipynb(head, OPENAI_READ, as_list=as_list)})
    assert [(d["path"], d["cell"], d["line"], d["code"]) for d in findings(tmp_path, monkeypatch)] == [("w.ipynb", 2, 2, "SIB101")]


def test_ipython_syntax_does_not_stop_the_check(tmp_path, monkeypatch):
    write(tmp_path, {"nb.ipynb": ipynb("!pip install strands-agents\n%pip install -q boto3\nfiles = !ls\nlen?\n",
                                       "%%time\nfrom strands import Agent, tool\n",
                                       "%%bash\necho 'not python' && ls | wc -l\n",  # left out: not Python
                                       "%load_ext autoreload\n" + STRANDS_WRITE,
                                       "agent = Agent(tools=[save])\nawait agent.invoke_async('hi')\n")})
    assert [(d["cell"], d["line"], d["code"]) for d in findings(tmp_path, monkeypatch)] == [(4, 3, "SIB101")]


def test_ipython_syntax_is_neutralised_line_for_line():
    book = notebook.read(ipynb("!ls\nx = (1\n     % 2)\nout = !ls -l\ns = '''\n!not a command\n'''\nif x:\n    %time f()\n",
                               "%%capture cap\nimport os\n", "%%writefile a.txt\nhello\n", "").encode())
    assert book.code.splitlines() == ["pass", "x = (1", "     % 2)", "out = None", "s = '''", "!not a command", "'''",
                                      "if x:", "    pass", "pass", "import os"]
    assert book.cells.place(10) == (2, 1) and book.cells.place(9) == (1, 9)


def test_noqa_on_a_cell_line_and_for_the_whole_notebook(tmp_path, monkeypatch):
    silenced = STRANDS_WRITE.replace("def save(text: str) -> str:", "def save(text: str) -> str:  # noqa: SIB101")
    other = STRANDS_WRITE.replace("save", "keep")
    write(tmp_path, {"one.ipynb": ipynb("from strands import tool\n", silenced, other),
                     "all.ipynb": ipynb("# siblint: noqa: SIB101\nfrom strands import tool\n", STRANDS_WRITE)})
    assert [(d["path"], d["cell"], d["line"]) for d in findings(tmp_path, monkeypatch)] == [("one.ipynb", 3, 2)]
    stale = ipynb("from strands import tool\n", STRANDS_READ.replace("-> str:", "-> str:  # noqa: SIB101"))
    write(tmp_path, {"one.ipynb": stale, "all.ipynb": stale})
    found = findings(tmp_path, monkeypatch, extra=("--extend-select", "SIB902"))
    assert [(d["path"], d["cell"], d["line"], d["code"]) for d in found] == [(n, 2, 2, "SIB902") for n in ("all.ipynb", "one.ipynb")]


@pytest.mark.parametrize("text, reason", [
    ('{"cells": [', "invalid JSON"),
    ("\x00\xff not json", "invalid JSON"),
    ('{"nbformat": 3, "worksheets": []}', "nbformat 3 is not supported"),
    ("[1, 2]", "no 'cells' list"),
])
def test_an_unreadable_notebook_is_sib900_and_the_run_goes_on(tmp_path, monkeypatch, text, reason):
    (tmp_path / "bad.ipynb").write_text(text, encoding="latin-1")
    write(tmp_path, {"good.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE)})
    found = findings(tmp_path, monkeypatch)
    assert [(d["path"], d["code"]) for d in found] == [("bad.ipynb", "SIB900"), ("good.ipynb", "SIB101")]
    assert reason in found[0]["message"] and "cell" not in found[0]


def test_a_notebook_of_prose_only_has_nothing_to_report(tmp_path, monkeypatch):
    # Docs folders keep notebooks that are only markdown (a page moved elsewhere); ruff passes them.
    write(tmp_path, {"moved.ipynb": ipynb(("markdown", "See `from strands import tool` elsewhere\n")),
                     "good.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE)})
    assert [(d["path"], d["code"]) for d in findings(tmp_path, monkeypatch)] == [("good.ipynb", "SIB101")]


def test_a_syntax_error_in_a_cell_is_reported_in_that_cell(tmp_path, monkeypatch):
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", "x = 1\ndef broken(:\n")})
    [d] = findings(tmp_path, monkeypatch)
    assert (d["code"], d["cell"], d["line"]) == ("SIB900", 2, 2)


def test_a_notebook_in_another_language_is_left_alone(tmp_path, monkeypatch):
    write(tmp_path, {"r.ipynb": ipynb("library(strands)\nfrom strands import tool\nx <- 1\n", language="R")})
    assert findings(tmp_path, monkeypatch) == []


# ---- discovery, the pre-filter and the switch --------------------------------------------------
def test_discovery_picks_up_notebooks_unless_switched_off(tmp_path):
    write(tmp_path, {"a.py": "", "nb/b.ipynb": "{}", "c.txt": ""})
    assert [Path(f).name for f in discover([str(tmp_path)], Config(root=str(tmp_path))).files] == ["a.py", "b.ipynb"]
    off = Config(root=str(tmp_path), notebooks=False)
    assert [Path(f).name for f in discover([str(tmp_path)], off).files] == ["a.py"]
    assert discover([str(tmp_path / "nb" / "b.ipynb")], off).files == []  # named too, as pre-commit names files


def test_notebooks_false_in_the_config(tmp_path, monkeypatch):
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE),
                     "pyproject.toml": "[tool.siblint]\nnotebooks = false\n"})
    assert findings(tmp_path, monkeypatch) == []
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\nnotebooks = true\n"})
    assert len(findings(tmp_path, monkeypatch)) == 1
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\nnotebooks = 'no'\n"})
    code, _ = check(tmp_path, monkeypatch, ".")
    assert code == 2


def test_the_prefilter_reads_the_code_cells_only():
    prose = ipynb(("markdown", "We use `from strands import Agent` below.\n"), "print('hello')\n")
    assert not may_matter(prose.encode(), path="x.ipynb")
    assert may_matter(ipynb("from strands import Agent\n").encode(), path="x.ipynb")
    assert may_matter(b'{"cells": [', path="x.ipynb")  # unreadable: the engine says why


# ---- a notebook in its project ------------------------------------------------------------------
@pytest.mark.parametrize("helper, expected", [
    ("def store(text):\n    with open('out.txt', 'w') as f:\n        f.write(text)\n", [(2, 2, "SIB101")]),
    ("def store(text):\n    with open('out.txt') as f:\n        return f.read()\n", []),
])
def test_a_notebook_resolves_the_project_modules_it_imports(tmp_path, monkeypatch, helper, expected):
    tool = '@tool\ndef save(text: str) -> str:\n    """Save."""\n    store(text)\n    return "ok"\n'
    write(tmp_path, {"helpers.py": helper, "pyproject.toml": "",
                     "notebooks/demo.ipynb": ipynb("import sys\nfrom strands import tool\nfrom helpers import store\n", tool)})
    found = findings(tmp_path, monkeypatch, "notebooks/demo.ipynb")
    assert [(d["cell"], d["line"], d["code"]) for d in found] == expected


def test_nothing_imports_a_notebook(tmp_path, monkeypatch):
    # `from demo import save` beside demo.ipynb names no module: the notebook's tool is not an
    # agent's there, and the script's own module is not resolved to the notebook.
    write(tmp_path, {"demo.ipynb": ipynb("def save(text):\n    open('x', 'w').write(text)\n"),
                     "app.py": "from strands import Agent\nfrom demo import save\nagent = Agent(tools=[save])\n"})
    assert findings(tmp_path, monkeypatch) == []


# ---- reports and the commands that edit files --------------------------------------------------
def test_sarif_and_grouped_reports_name_the_cell(tmp_path, monkeypatch):
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE)})
    _, out = check(tmp_path, monkeypatch, "--output-format", "sarif", ".")
    [result] = json.loads(out)["runs"][0]["results"]
    [where] = result["locations"]
    assert where["properties"] == {"cell": 2} and where["physicalLocation"]["region"]["startLine"] == 2
    assert result["relatedLocations"][0]["properties"] == {"cell": 2}
    _, out = check(tmp_path, monkeypatch, "--output-format", "grouped", ".")
    assert "  cell 2:2:5 SIB101" in out


def test_a_baseline_matches_a_notebook_finding_after_cells_move(tmp_path, monkeypatch):
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE)})
    assert check(tmp_path, monkeypatch, "--write-baseline", "base.json", ".")[0] == 0
    write(tmp_path, {"nb.ipynb": ipynb(("markdown", "# new intro\n"), "from strands import tool\n", "x = 1\n", STRANDS_WRITE)})
    assert check(tmp_path, monkeypatch, "--baseline", "base.json", ".")[0] == 0
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE, STRANDS_WRITE.replace("save", "keep"))})
    code, out = check(tmp_path, monkeypatch, "--baseline", "base.json", ".")
    assert code == 1 and "nb.ipynb:cell 3:2:5: SIB101" in out


def test_add_noqa_and_fix_leave_a_notebook_unchanged(tmp_path, monkeypatch):
    text = ipynb("from strands import tool\n", STRANDS_WRITE)
    write(tmp_path, {"nb.ipynb": text})
    monkeypatch.chdir(tmp_path)
    res = cli_runner().invoke(main, ["check", "--no-cache", "--add-noqa", "."], catch_exceptions=False)
    assert "a Jupyter notebook, not edited" in res.stdout + res.stderr
    cli_runner().invoke(main, ["check", "--no-cache", "--fix", "--unsafe-fixes", "."], catch_exceptions=False)
    assert (tmp_path / "nb.ipynb").read_text() == text


@pytest.mark.parametrize("language", ["python", "json", "jupyter", None])
def test_the_language_server_leaves_a_notebook_document_alone(language):
    from siblint.interfaces.server import lint_path

    assert lint_path("/p/demo.ipynb", language) is None  # its text is JSON: not linted as Python
    assert lint_path("/p/demo.py", language) == "/p/demo.py"  # the twin: a module is linted


# ---- `%%writefile NAME.py` cells: the modules tutorials write their tools into -----------------
WRITTEN_TOOL = '''\
%%writefile create_booking.py
import boto3
from strands import tool

@tool
def create_booking(booking_id: str) -> str:
    boto3.resource("dynamodb").Table("bookings").put_item(Item={"id": booking_id})
    return "booked"
'''
AGENT_CELL = "import create_booking\nfrom strands import Agent\nagent = Agent(tools=[create_booking])\n"


def test_a_module_written_by_a_cell_is_checked_and_reported_in_that_cell(tmp_path, monkeypatch):
    write(tmp_path, {"w.ipynb": ipynb(("markdown", "# Tools\n"), WRITTEN_TOOL, "%%writefile -a notes.txt\nnot python (\n",
                                      AGENT_CELL),
                     "r.ipynb": ipynb(WRITTEN_TOOL.replace(".put_item(Item=", ".get_item(Key="), AGENT_CELL)})
    found = findings(tmp_path, monkeypatch)
    assert [(d["path"], d["cell"], d["line"], d["code"]) for d in found] == [("w.ipynb", 2, 6, "SIB101")]
    assert [(r["path"], r["cell"], r["line"]) for r in found[0]["related"]] == [("w.ipynb", 2, 7)]


def test_a_written_module_honours_noqa_in_its_cell(tmp_path, monkeypatch):
    silenced = WRITTEN_TOOL.replace("-> str:", "-> str:  # noqa: SIB101")
    write(tmp_path, {"w.ipynb": ipynb(silenced, AGENT_CELL)})
    assert findings(tmp_path, monkeypatch) == []


def test_a_written_module_that_is_also_on_disk_is_checked_once_as_the_file(tmp_path, monkeypatch):
    write(tmp_path, {"w.ipynb": ipynb(WRITTEN_TOOL, AGENT_CELL), "create_booking.py": WRITTEN_TOOL.split("\n", 1)[1]})
    assert [(d["path"], d["line"]) for d in findings(tmp_path, monkeypatch)] == [("create_booking.py", 5)]


def test_the_prefilter_sees_the_written_modules():
    only_written = ipynb(WRITTEN_TOOL, "print('deploy it')\n").encode()
    assert may_matter(only_written, path="x.ipynb")
    assert not may_matter(ipynb(WRITTEN_TOOL.replace("strands", "somelib"), "print(1)\n").encode(), path="x.ipynb")


@pytest.mark.parametrize("fmt", ["github", "gitlab", "azure", "junit", "rdjson", "pylint"])
def test_every_other_format_names_the_cell(tmp_path, monkeypatch, fmt):
    write(tmp_path, {"nb.ipynb": ipynb("from strands import tool\n", STRANDS_WRITE), "plain.py": "from strands import tool\n" + STRANDS_WRITE})
    _, out = check(tmp_path, monkeypatch, "--output-format", fmt, ".")
    # the notebook's finding names it (junit twice: the message and the text), the module's does not
    assert out.count("cell ") == out.count("cell 2") == (2 if fmt == "junit" else 1), out
