"""docs/rules/ holds one generated page per rule; the checked-in pages must be what the rule classes
generate today (rule docstrings change, and helpUri links to these pages)."""

from __future__ import annotations

import os

import tomllib
from siblint.interfaces.docs import (
    DOCS_FOLDER,
    GENERATE_COMMAND,
    REPOSITORY_URL,
    pages,
    stale_pages,
    write_pages,
)
from siblint.rule_api.registry import all_rules
from support import ROOT, siblint


def test_checked_in_pages_are_current():
    stale = stale_pages(str(ROOT / DOCS_FOLDER))
    assert not stale, f"stale rule pages {stale}: regenerate them with `{GENERATE_COMMAND}` and commit docs/rules/"


def test_every_rule_has_a_page_with_its_docstring():
    generated = pages()
    assert set(generated) == {f"{r.code}.md" for r in all_rules()} | {"README.md"}
    for r in all_rules():
        assert r.doc() in generated[f"{r.code}.md"]
        assert f"[`{r.code}`]({r.code}.md)" in generated["README.md"]


def test_the_generator_command_writes_and_prunes(tmp_path):
    out = tmp_path / "rules"
    out.mkdir()
    (out / "SIB999.md").write_text("a rule that no longer exists\n")
    (out / "notes.md").write_text("not a rule page: kept\n")
    (out / "SIB101.md").symlink_to(tmp_path / "outside.md")  # replaced, never written through
    proc = siblint([*GENERATE_COMMAND.split()[1:-1], str(out)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"{len(all_rules()) + 2} page(s) written or removed" in proc.stdout
    assert not (tmp_path / "outside.md").exists() and not (out / "SIB101.md").is_symlink()
    assert stale_pages(str(out)) == [] and (out / "notes.md").exists() and not (out / "SIB999.md").exists()
    again = siblint([*GENERATE_COMMAND.split()[1:-1], str(out)], tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == f"{out}: up to date"


def test_a_changed_docstring_makes_the_page_stale(tmp_path, monkeypatch):
    write_pages(str(tmp_path))
    rule = all_rules()[0]
    monkeypatch.setattr(rule, "__doc__", rule.__doc__ + "\nA new paragraph.\n")
    assert stale_pages(str(tmp_path)) == [f"{rule.code}.md"]


def test_docs_format_needs_an_output_folder(tmp_path):
    for args in (["rules", "--format", "docs"], ["rules", "--output", str(tmp_path)]):
        proc = siblint(args, tmp_path)
        assert proc.returncode == 2 and "--format docs and --output DIR go together" in proc.stderr
    assert os.listdir(tmp_path) == []


def test_repository_url_is_the_project_url():
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert urls["Repository"] == REPOSITORY_URL
    assert urls["Documentation"].startswith(REPOSITORY_URL + "/")
    assert (ROOT / urls["Documentation"][len(REPOSITORY_URL + "/blob/main/"):]).is_file()
