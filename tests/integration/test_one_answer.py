"""One answer everywhere: `siblint check`, flake8 and `siblint server` (real processes) report the same findings on a
corpus where every rule fires, under every kind of settings `[tool.siblint]` and the command line
can give, with per-folder configs and .gitignore."""

from __future__ import annotations

from pathlib import Path

import pytest
from siblint.rules import OFF_BY_DEFAULT
from support import every_rule_corpus, findings_by_entry_point, git, write


# Examples of each rule in the corpus the settings are varied on: every rule fires, several
# spellings of each, a tenth of the whole corpus's run time; the defaults run on all of it.
PER_RULE = 3


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    root = tmp_path_factory.mktemp("corpus")
    return root, every_rule_corpus(root, PER_RULE)


@pytest.fixture(scope="module")
def whole_corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    root = tmp_path_factory.mktemp("whole")
    return root, every_rule_corpus(root)


def agree_on(root: Path, args: list[str] | None = None, paths: list[str] | None = None) -> list[tuple]:
    """The findings every entry point reports (asserting they are the same)."""
    found = findings_by_entry_point(root, paths or ["."], args)
    first = next(iter(found.values()))
    for name, other in found.items():
        assert other == first, f"{name} disagrees: {sorted(set(other) ^ set(first))[:6]}"
    assert first, "no findings at all: the comparison would prove nothing"
    return first


def agree(root: Path, args: list[str] | None = None, paths: list[str] | None = None) -> set[str]:
    return {f[3] for f in agree_on(root, args, paths)}


def set_config(root: Path, text: str | None) -> None:
    """The settings every example folder's config extends."""
    (root / "siblint.toml").write_text(text or "", encoding="utf-8")


def test_defaults_leave_default_off_rules_off_in_both(whole_corpus, corpus):
    assert corpus[1] == whole_corpus[1]  # the small corpus holds every rule too
    for root, codes in (whole_corpus, corpus):
        set_config(root, None)
        assert agree(root) == codes - set(OFF_BY_DEFAULT)  # `flake8 --select SIB` does not switch them on


def test_extend_select_in_the_config_switches_them_on_in_both(corpus):
    root, codes = corpus
    set_config(root, f"extend-select = {list(OFF_BY_DEFAULT)!r}\n".replace("'", '"'))
    try:
        assert agree(root) == codes
    finally:
        set_config(root, None)


def test_extend_select_on_the_command_line_switches_them_on_in_both(corpus):
    root, codes = corpus
    assert agree(root, ["--extend-select", ",".join(OFF_BY_DEFAULT)]) == codes


@pytest.mark.parametrize("table,kept", [
    ('select = ["SIB2", "SIB9"]', lambda code: code.startswith(("SIB2", "SIB9"))),
    ('ignore = ["SIB1", "SIB301"]', lambda code: not code.startswith("SIB1") and code != "SIB301"),
])
def test_the_config_file_means_the_same_in_both(corpus, table, kept):
    root, codes = corpus
    set_config(root, f"{table}\n")
    try:
        fired = agree(root)
    finally:
        set_config(root, None)
    default = codes - set(OFF_BY_DEFAULT)
    assert {"SIB101", "SIB301"} <= default and fired == {c for c in default if kept(c)}


def test_per_file_ignores_mean_the_same_in_both(corpus):
    root, codes = corpus
    set_config(root, 'per-file-ignores = { "sib2*" = ["SIB2"], "main.py" = ["SIB301"] }\n')
    try:
        found = agree_on(root)
    finally:
        set_config(root, None)
    assert not [f for f in found if f[0].startswith("sib2") and f[3].startswith("SIB2")]
    assert not [f for f in found if f[0].endswith("main.py") and f[3] == "SIB301"]
    assert {"SIB201", "SIB301"} <= {f[3] for f in agree_on(root)}  # they do fire without the ignores


def test_excludes_mean_the_same_in_both(corpus):
    root, _ = corpus
    set_config(root, 'extend-exclude = ["sib1*", "sib2*/tools.py"]\n')
    try:
        found = agree_on(root)
    finally:
        set_config(root, None)
    assert not [f for f in found if f[0].startswith("sib1") or (f[0].startswith("sib2") and f[0].endswith("tools.py"))]
    unexcluded = agree_on(root)
    assert [f for f in unexcluded if f[0].startswith("sib1")]


def test_folder_configs_and_gitignore_mean_the_same_in_both(tmp_path):
    assert "SIB206" in every_rule_corpus(tmp_path, PER_RULE)
    write(tmp_path, {
        "siblint.toml": 'ignore = ["SIB203"]\n',
        # This sub-project drops SIB2 and adds a default-off rule on top of what it inherits.
        "sib206_0/pyproject.toml": '[tool.siblint]\nextend = "../siblint.toml"\nignore = ["SIB2"]\n'
                                   'extend-select = ["SIB206"]\n',
        ".gitignore": "sib101_*/\n",
    })
    git(["init", "-q"], tmp_path)
    fired = agree(tmp_path)
    assert "SIB203" not in fired and "SIB101" in fired  # SIB101 fires in other examples' folders too
    found = findings_by_entry_point(tmp_path, ["."])["flake8"]
    assert not any(f[0].startswith("sib101_") for f in found)  # git-ignored
    # Its own `extend-select = ["SIB206"]` names the code in full, which outranks `ignore = ["SIB2"]`.
    assert {f[3] for f in found if f[0].startswith("sib206_0")} == {"SIB206"}
    # the files named one by one (what pre-commit and editors do) get the same answer
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.py"))
    assert agree(tmp_path, paths=files) == fired


def test_stdin_is_checked_even_where_excluded_in_both(tmp_path):
    """What editors send: `flake8 -` and `siblint check -` check the text, excluded or not, with
    the settings of the folder the display name points into."""
    from support import HAZARD, flake8_findings, siblint

    write(tmp_path, {"pyproject.toml": '[tool.siblint]\nextend-exclude = ["gen"]\n'
                                       'per-file-ignores = { "quiet" = ["SIB2"] }\n'})
    for name, expected in (("gen/agent.py", ["SIB201"]), ("quiet/agent.py", [])):
        cli = siblint(["check", "--format", "json", "-", "--stdin-filename", name], tmp_path, stdin=HAZARD)
        import json

        assert [d["code"] for d in json.loads(cli.stdout)] == expected
        flake8 = flake8_findings(["--stdin-display-name", name, "-"], tmp_path, stdin=HAZARD)
        assert [f[3] for f in flake8] == expected


def _server_findings(root: Path) -> list[tuple]:
    """(path, line, column, code, message) from a real `siblint server`, every corpus file opened."""
    import asyncio

    from lsp_client import SiblintClient
    from support import script

    files = sorted(p for p in root.rglob("*.py"))

    async def main() -> list[tuple]:
        out: list[tuple] = []
        async with SiblintClient([script("siblint"), "server"], root) as client:
            for path in files:
                uri = client.open(path, path.read_text(encoding="utf-8"))
                params = await client.diagnostics(uri)
                rel = str(path.relative_to(root))
                out += [(rel, d.range.start.line + 1, d.range.start.character + 1, d.code, d.message)
                        for d in params.diagnostics]
        return sorted(out)

    return asyncio.run(main())


@pytest.mark.parametrize("extend", [False, True])
def test_the_language_server_gives_the_same_answer(corpus, extend):
    """The server reads the same per-folder settings: default-off rules off unless the config names them."""
    root, codes = corpus
    set_config(root, f"extend-select = {list(OFF_BY_DEFAULT)!r}\n".replace("'", '"') if extend else None)
    try:
        served = _server_findings(root)
        assert served == agree_on(root)
        assert {f[3] for f in served} == (codes if extend else codes - set(OFF_BY_DEFAULT))
    finally:
        set_config(root, None)


# ---- issue 21: one answer for one file, where findings cross modules ----------------------------
def _precommit_findings(root: Path, rel: str) -> list[tuple]:
    """`pre-commit run --files FILE` with a local hook running this venv's `siblint check --format json`."""
    import json
    import os

    from support import run, script

    env = {"PRE_COMMIT_COLOR": "never", "PRE_COMMIT_HOME": str(root.parent / f"{root.name}-pre-commit-home")}
    proc = run([script("pre-commit"), "run", "--files", rel], root, env=env, timeout=300)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    start = proc.stdout.find("\n[")  # the hook's output follows pre-commit's own lines
    if start < 0:
        assert "Passed" in proc.stdout, proc.stdout
        return []
    found, _ = json.JSONDecoder().raw_decode(proc.stdout[start + 1:])
    return sorted((os.path.normpath(d["path"]), d["line"], d["column"], d["code"], d["message"]) for d in found)


@pytest.fixture(scope="module")
def crossing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sibling packages whose findings come from other modules: a tool's client in `client.py`, a
    plain function made a tool by the agent beside it (a module that imports no framework)."""
    from support import script, sibling_packages

    root = tmp_path_factory.mktemp("crossing")
    sibling_packages(root, 6)
    write(root, {".pre-commit-config.yaml": f"""\
        repos:
          - repo: local
            hooks:
              - id: siblint
                name: siblint
                entry: {script("siblint")} check --format json
                language: system
                types: [python]
        """})
    git(["init", "-q"], root)
    git(["add", "-A"], root)
    return root


def test_each_file_alone_gets_its_whole_tree_findings_from_every_entry_point(crossing):
    from support import cli_findings, flake8_findings

    root = crossing
    whole = sorted(cli_findings(["."], root))
    assert {f[0] for f in whole} == {"app/community/p00/tools.py", "app/community/p04/tools.py", "scripts/p02/tools.py"}
    # the finding in scripts/p02/tools.py exists only because agent.py beside it lists `save`
    assert [f[3] for f in whole if f[0].startswith("scripts")] == ["SIB103"]
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    served = _server_findings(root)
    assert served == whole
    for rel in files:
        expected = [f for f in whole if f[0] == rel]
        assert sorted(cli_findings([rel], root)) == expected, f"siblint check {rel}"
        assert flake8_findings([rel], root) == expected, f"flake8 {rel}"
        if expected or rel.endswith("tools.py"):  # pre-commit is slow: the files that matter
            assert _precommit_findings(root, rel) == expected, f"pre-commit run --files {rel}"
