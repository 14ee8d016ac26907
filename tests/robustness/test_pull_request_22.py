"""Issue 22: a gate that valid code cannot walk around, laid out as a pull request lays it out.

Each case is committed to a scratch repository, cloned the way CI checks it out, and checked in the
clone with the installed console script (`pull_request`, `checkout` and `ci` of test_pull_request).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_pull_request import EXAMPLE, checkout, ci, pull_request, pytestmark  # noqa: F401 - the same skip

IMPORT = "from agents import Agent, function_tool"
HAZARDS = {"SIB101", "SIB201", "SIB301"}


def _codes(proc) -> set[str]:
    return {r["ruleId"] for r in json.loads(proc.stdout)["runs"][0]["results"]}


# N1: valid agent modules that CPython runs, each of which main's pre-filter dropped ("All checks passed.").
N1_FILES = {
    "cr_only.py": EXAMPLE.replace("\n", "\r").encode(),
    "iftrue.py": EXAMPLE.replace(IMPORT, "if True: " + IMPORT).encode(),
    "tryline.py": EXAMPLE.replace(IMPORT, "try: " + IMPORT + "\nexcept ImportError: raise").encode(),
    "bscont.py": EXAMPLE.replace(IMPORT, "from \\\n  agents import Agent, function_tool").encode(),
    "utf7.py": ("# coding: utf-7\n" + EXAMPLE).encode("utf-7"),
}


@pytest.mark.parametrize("name", sorted(N1_FILES))
def test_n1_every_import_spelling_is_checked(name: str, tmp_path: Path) -> None:
    def plant(repo: Path) -> None:
        (repo / "agent.py").unlink()
        (repo / name).write_bytes(N1_FILES[name])
        (repo / ".gitattributes").write_text("* text=auto\n")

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    assert (clone / name).read_bytes() == N1_FILES[name]  # git kept the bytes, CR-only included
    proc = ci(["check", "--no-cache", "--format", "sarif", "."], clone, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert _codes(proc) == HAZARDS


def test_n1_a_comment_before_the_ts_specifier(tmp_path: Path) -> None:
    from support import ROOT

    ts = (ROOT / "examples" / "checkout_agent.ts").read_text()
    spelled = ts.replace("from '@openai/agents';", "from /* the SDK */ '@openai/agents';")
    assert spelled != ts

    def plant(repo: Path) -> None:
        (repo / "agent.py").unlink()
        (repo / "plain.ts").write_text(ts)
        (repo / "comment_from.ts").write_text(spelled)

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    proc = ci(["check", "--no-cache", "--format", "json", "."], clone, tmp_path)
    found = json.loads(proc.stdout)
    by_file: dict[str, list[str]] = {}
    for d in found:
        by_file.setdefault(Path(d["path"]).name, []).append(d["code"])
    assert by_file["comment_from.ts"] and sorted(by_file["comment_from.ts"]) == sorted(by_file["plain.ts"])


# N3: patterns the pull request controls; each hung the run (rc 124) on Python's backtracking `re`.
REDOS = "*a*a*a*a*a*a*a*a*a*a*a*a*b"
LONG_NAME = "a" * 60 + ".py"


@pytest.mark.parametrize("where", ["gitignore", "extend-exclude", "per-file-ignores"])
def test_n3_pathological_patterns_end_in_seconds(where: str, tmp_path: Path) -> None:
    def plant(repo: Path) -> None:
        (repo / LONG_NAME).write_text(EXAMPLE)
        if where == "gitignore":
            (repo / ".gitignore").write_text(REDOS + "\n")
        elif where == "extend-exclude":
            (repo / "pyproject.toml").write_text(f'[tool.siblint]\nselect = ["SIB"]\nextend-exclude = ["{REDOS}"]\n')
        else:
            (repo / "pyproject.toml").write_text(
                f'[tool.siblint]\nselect = ["SIB"]\n[tool.siblint.per-file-ignores]\n"{REDOS}" = ["SIB101"]\n')

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    proc = ci(["check", "--no-cache", "--format", "json", "."], clone, tmp_path, timeout=60)
    assert proc.returncode == 1, proc.stderr
    found = {(Path(d["path"]).name, d["code"]) for d in json.loads(proc.stdout)}
    assert {code for name, code in found if name == "agent.py"} == HAZARDS
    # The long name does not end in `b`: no pattern matches it, so it is checked like agent.py.
    assert {code for name, code in found if name == LONG_NAME} == HAZARDS


# N4: text scans are linear, and the project index never reads an excluded file.
PROTOCOL_AGENT = EXAMPLE.replace("import requests\n", "import requests\nfrom typing import Protocol\n\n\nclass Payer(Protocol):\n"
                                 "    def pay(self, amount: int) -> None: ...\n\n").replace(
    "def charge_card(amount_cents: int) -> str:", "def charge_card(amount_cents: int, payer: Payer) -> str:")


def test_n4_dots_in_an_excluded_folder_and_in_a_checked_file(tmp_path: Path) -> None:
    def plant(repo: Path) -> None:
        (repo / "agent.py").write_text(PROTOCOL_AGENT)
        (repo / "pyproject.toml").write_text('[tool.siblint]\nselect = ["SIB"]\nextend-exclude = ["vendor"]\n')
        (repo / "vendor").mkdir()
        (repo / "vendor" / "blob.py").write_bytes(b"from " + b"." * 200_000 + b"\n")
        (repo / "g.py").write_bytes(b"from langgraph.prebuilt import create_react_agent\nfrom " + b"." * 300_000 + b"\n")

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    proc = ci(["check", "--no-cache", "--format", "json", "."], clone, tmp_path, timeout=90)
    found = {(Path(d["path"]).name, d["code"]) for d in json.loads(proc.stdout)}
    assert {code for name, code in found if name == "agent.py"} == HAZARDS, proc.stderr
    assert not any(name == "blob.py" for name, _ in found)


def test_n4_the_typescript_scans_are_linear_too(tmp_path: Path) -> None:
    """The `implements`, `extends` and `import` scans (an interface's classes, a subclass module's
    pre-filter) on a file of blanks and repeats: the run ends with the interface's finding."""
    blanks = b" " * 300_000
    files = {
        "package.json": b'{"dependencies": {"@langchain/core": "0.3.57"}}\n',
        "types.ts": b"export interface Store {\n  save(x: string): void;\n}\n",
        "http.ts": b"import type { Store } from './types';\nexport class Http implements Store {\n"
                   b"  save(x: string) { fetch('https://x.example.com/items', { method: 'POST', body: x }); }\n}\n",
        "tools.ts": b"import { tool } from '@langchain/core/tools';\nimport { z } from 'zod';\nimport type { Store } from './types';\n"
                    b"export function saveTool(store: Store) {\n  return tool(async ({ x }) => { store.save(x); return 'ok'; },\n"
                    b"    { name: 'save', description: 'Save', schema: z.object({ x: z.string() }) });\n}\n",
        "blob.ts": b"implements" + blanks + b"\nclass A extends" + blanks + b"\nimport {" + blanks + b"\nclass B<" + blanks
                   + b"implements a " * 20_000,
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    proc = ci(["check", "--no-cache", "--format", "json", "."], tmp_path, tmp_path, timeout=90)
    assert [(Path(d["path"]).name, d["code"]) for d in json.loads(proc.stdout)] == [("tools.ts", "SIB101")], proc.stderr

def test_n4_the_typescript_import_scan_is_linear(tmp_path: Path) -> None:
    """The scan of which TS/JS file imports which (asked for a Vercel AI tool's groups) on a file of
    blanks after `from`, `import` and `require(`: the run ends with the tool's finding."""
    blanks = b" " * 300_000
    files = {
        "lib/tools.ts": b"import { tool } from 'ai';\nimport { z } from 'zod';\n"
                        b"export const charge = tool({ description: 'c', inputSchema: z.object({}),\n"
                        b"  execute: async () => { await new Promise((r) => setTimeout(r, 9));\n"
                        b"    await fetch('https://pay.example.com/c', { method: 'POST' }); return 'ok'; } });\n",
        "route.ts": b"import { streamText } from 'ai';\nimport { charge } from './lib/tools';\n"
                    b"export function POST(req: Request) {\n"
                    b"  return streamText({ model: 'm' as any, tools: { charge }, abortSignal: req.signal });\n}\n",
        "blob.ts": b"from" + blanks + b"\nimport" + blanks + b"(" + blanks + b"\nrequire" + blanks + b"(" + blanks
                   + b"from '" * 20_000,
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    proc = ci(["check", "--no-cache", "--format", "json", "--select", "SIB101", "."], tmp_path, tmp_path, timeout=90)
    assert [(d["path"], d["code"]) for d in json.loads(proc.stdout)] == [("lib/tools.ts", "SIB101")], proc.stderr


def test_n4_the_class_index_skips_what_the_run_excludes(tmp_path: Path) -> None:
    from siblint.model.project import ProjectIndex
    from siblint.settings.config import load
    from siblint.settings.excludes import Skip

    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nextend-exclude = ["vendor"]\n')
    (tmp_path / ".gitignore").write_text("ignored_*.py\n")
    for rel in ("agent.py", "vendor/impl.py", "ignored_x.py", "pkg/impl.py"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text("class Impl(Payer):\n    def pay(self): ...\n")
    (tmp_path / ".git").mkdir()  # .gitignore applies inside a repository
    config = load(str(tmp_path / "pyproject.toml"))
    every = {Path(p).relative_to(tmp_path).as_posix() for p, _, _ in ProjectIndex([str(tmp_path)]).scan.classes}
    kept = {Path(p).relative_to(tmp_path).as_posix()
            for p, _, _ in ProjectIndex([str(tmp_path)], skip=Skip(config)).scan.classes}
    assert every == {"agent.py", "vendor/impl.py", "ignored_x.py", "pkg/impl.py"}
    assert kept == {"agent.py", "pkg/impl.py"}


# N7: an output path whose parent folder is a link the pull request committed, to outside the checkout.
@pytest.mark.parametrize("args,what", [
    (["--format", "sarif", "-o", "reports/siblint.sarif"], "report"),
    (["--write-baseline", "reports/baseline.json"], "baseline"),
    (["--cache-dir", ".cache/siblint"], "cache"),
])
def test_n7_no_write_through_a_linked_parent_folder(args: list[str], what: str, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "siblint.sarif").write_text("KEEP")

    def plant(repo: Path) -> None:
        (repo / "reports").symlink_to(outside)
        (repo / ".cache").symlink_to(outside)

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    proc = ci(["check", *args, "."], clone, tmp_path)
    assert sorted(p.name for p in outside.iterdir()) == ["siblint.sarif"]
    assert (outside / "siblint.sarif").read_text() == "KEEP"
    if what == "cache":  # the run goes on without a cache
        assert proc.returncode == 1 and "cache folder not used" in proc.stderr and "is a symbolic link" in proc.stderr
    else:
        assert proc.returncode == 2
        assert f"cannot write the {what} to reports/" in proc.stderr and "outside the project" in proc.stderr


def test_n7_links_that_stay_inside_or_paths_named_outside_are_used(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()

    def plant(repo: Path) -> None:
        (repo / "out").mkdir()
        (repo / "out" / ".keep").write_text("")
        (repo / "reports").symlink_to("out")  # a link inside the project to a folder inside it

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    inside = ci(["check", "--format", "sarif", "-o", "reports/siblint.sarif", "."], clone, tmp_path)
    assert inside.returncode == 1, inside.stderr
    assert (clone / "out" / "siblint.sarif").stat().st_size > 0
    named = ci(["check", "--format", "sarif", "-o", str(outside / "r.sarif"), "--cache-dir", str(outside / "c"), "."],
               clone, tmp_path)
    assert named.returncode == 1, named.stderr
    assert (outside / "r.sarif").stat().st_size > 0 and (outside / "c").is_dir()


def test_escaping_link_in_process(tmp_path: Path) -> None:
    from siblint.common.writing import escaping_link

    project, elsewhere = tmp_path / "p", tmp_path / "e"
    (project / "a" / "b").mkdir(parents=True)
    elsewhere.mkdir()
    (project / "a" / "link").symlink_to(elsewhere)
    roots = [str(project)]
    assert escaping_link(str(project / "a" / "link" / "x.json"), roots) == str(project / "a" / "link")
    assert escaping_link(str(project / "a" / "link" / "deeper" / "x.json"), roots) == str(project / "a" / "link")
    assert escaping_link(str(project / "a" / "link"), roots, folder_itself=True) == str(project / "a" / "link")
    assert escaping_link(str(project / "a" / "link"), roots) is None  # the file itself: the caller's lstat check
    assert escaping_link(str(project / "a" / "b" / "x.json"), roots) is None
    assert escaping_link(str(elsewhere / "x.json"), roots) is None  # named outside: taken as given


# N8: the baseline is read like a source file: regular, bounded, and every failure is one clear line.
@pytest.mark.parametrize("kind,expected", [
    ("dev_zero", "not a regular file"),
    ("fifo", "not a regular file"),
    ("nested", "nested too deeply"),
    ("too_large", "larger than the"),
    ("garbage", "not JSON"),
])
def test_n8_baseline_read_like_a_source_file(kind: str, expected: str, tmp_path: Path, monkeypatch) -> None:
    import os

    def plant(repo: Path) -> None:
        target = repo / "siblint-baseline.json"
        if kind == "dev_zero":
            target.symlink_to("/dev/zero")
        elif kind == "nested":
            target.write_text("[" * 100_000)
        elif kind == "garbage":
            target.write_bytes(b"\xff\xfe{")
        elif kind == "too_large":
            target.write_text('{"format": "siblint-baseline", "version": 1, "findings": []}' + " " * 1000)

    clone = checkout(tmp_path, pull_request(tmp_path, plant))
    if kind == "fifo":
        os.mkfifo(clone / "siblint-baseline.json")  # git cannot commit a FIFO; a CI step could make one
    if kind == "too_large":
        from siblint.interfaces import baseline

        monkeypatch.setattr(baseline, "MAX_BYTES", 100)
        with pytest.raises(baseline.BaselineError, match=expected):
            baseline.load(str(clone / "siblint-baseline.json"))
        return
    proc = ci(["check", "--baseline", "siblint-baseline.json", "."], clone, tmp_path, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert expected in proc.stderr and "internal error" not in proc.stderr
    assert proc.stderr.count("\n") == 1
