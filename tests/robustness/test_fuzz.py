"""Issue 6, fuzzing: siblint never raises and never takes unbounded time on any file.

Two sources of input:
- hypothesmith: syntactically valid programs drawn from CPython's grammar, behind an agents import;
- mutated real agent modules: bytes flipped, lines dropped, duplicated or swapped, bytes inserted.

Every input goes through the CLI's per-file path (`runner.check_file`) and, when CPython parses it,
through the flake8 plugin in process. The default run uses a small derandomized budget (the same
examples every run, so it cannot flake); `--run-slow` runs a larger, randomized one.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from siblint.interfaces.flake8_plugin import Plugin
from siblint.lint.engine import new_project
from siblint.rule_api.registry import all_codes, all_rules
from siblint.run.runner import check_file
from siblint.settings.config import Config
from support import HAZARD, ROOT

PER_FILE_SECONDS = 30.0  # a hang detector with room for a loaded 2-core machine, not a benchmark
HEADER = "from agents import function_tool, Agent\n"
CODES = set(all_codes())


def _settings(request: pytest.FixtureRequest, default: int, slow: int) -> settings:
    heavy = request.config.getoption("--run-slow")
    return settings(
        max_examples=slow if heavy else default,
        deadline=None,  # the time bound below is explicit and generous
        derandomize=not heavy,
        database=None,  # no .hypothesis folder in the shared tree
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


def _seeds() -> list[bytes]:
    """Real agent modules: the examples, every rule's documented examples, the test hazards."""
    seeds = [p.read_bytes() for p in sorted((ROOT / "examples").glob("*.py"))]
    seeds.append(HAZARD.encode())
    for rule in all_rules():
        for ex in (*rule.VALID, *rule.INVALID):
            seeds.append(ex.code.encode())
    scenarios = ROOT / "tests" / "runtime" / "scenarios.py"
    if scenarios.exists():
        seeds.append(scenarios.read_bytes())
    return [s for s in seeds if b"agents" in s]


SEEDS = _seeds()


def lint_once(tmp_path: Path, data: bytes, name: str = "fuzzed.py") -> list:
    """Lint `data` as a file of a fresh project; assert the guarantees that hold for any input."""
    path = tmp_path / name
    path.write_bytes(data)
    config = Config(root=str(tmp_path))
    start = time.monotonic()
    found = check_file(str(path), config, new_project(config), data=data)
    elapsed = time.monotonic() - start
    assert elapsed < PER_FILE_SECONDS, f"{elapsed:.1f}s for {len(data)} bytes"
    for d in found:
        assert d.code in CODES and d.loc.line >= 1, d
        assert d.code != "SIB901", f"a rule crashed: {d.message}\n--- input ---\n{data[:2000]!r}"
    sib900 = [d for d in found if d.code == "SIB900"]
    assert len(sib900) <= 1, sib900
    if sib900:
        assert [d.code for d in found] == ["SIB900"], "an unparsable file must have no other findings"
    return found


def flake8_once(tmp_path: Path, text: str) -> None:
    """The plugin as flake8 drives it: only for text CPython parses (flake8 reports E999 otherwise)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    lines = text.splitlines(keepends=True)
    start = time.monotonic()
    results = list(Plugin(tree, str(tmp_path / "fuzzed_f8.py"), lines).run())
    assert time.monotonic() - start < PER_FILE_SECONDS
    for line, col, message, _ in results:
        assert line >= 1 and col >= 0 and message[:6] in CODES and not message.startswith("SIB901"), message


# ---- valid programs from the grammar ------------------------------------------------------------
def test_fuzz_valid_programs_from_the_grammar(tmp_path_factory, request):
    tmp = tmp_path_factory.mktemp("grammar")
    seen: list[int] = []

    @_settings(request, default=25, slow=400)
    @given(hypothesmith.from_grammar())
    def check(program: str) -> None:
        seen.append(len(program))
        text = HEADER + program
        found = lint_once(tmp, text.encode("utf-8", "surrogatepass"))
        for d in found:
            if d.code == "SIB900":  # CPython accepted it, so only libcst may refuse it, and say so
                assert "libcst" in d.message, d.message
        flake8_once(tmp, text)

    check()
    assert len(seen) >= 20, f"only {len(seen)} programs were generated"


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "insert", "drop_line", "dup_line", "swap_lines", "truncate"]))
        lines = bytes(data).splitlines(keepends=True)
        if op == "flip" and data:
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= draw(st.integers(1, 255))
        elif op == "insert":
            i = draw(st.integers(0, len(data)))
            data[i:i] = draw(st.sampled_from([b"(", b")", b"\0", b"\xff", b"\r", b"\f", b"\t", b"\\", b'"""', b"async ",
                                               b"\xef\xbb\xbf", b"# -*- coding: latin-1 -*-\n", b"[" * 300, b"\n    "]))
        elif op in ("drop_line", "dup_line", "swap_lines") and lines:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "drop_line":
                del lines[i]
            elif op == "dup_line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"".join(lines))
        elif op == "truncate" and data:
            del data[draw(st.integers(0, len(data) - 1)):]
    return bytes(data)


def test_fuzz_mutated_agent_modules(tmp_path_factory, request):
    tmp = tmp_path_factory.mktemp("mutated")

    seen: list[int] = []

    @_settings(request, default=80, slow=2000)
    @given(mutated())
    def check(data: bytes) -> None:
        seen.append(len(data))
        lint_once(tmp, data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        flake8_once(tmp, text)

    check()
    assert len(seen) >= 60, f"only {len(seen)} mutants were generated"


def test_seeds_are_real_agent_modules_with_findings(tmp_path):
    """The mutation fuzz starts from modules siblint really analyses (not ones the pre-filter skips)."""
    assert len(SEEDS) >= 10
    flagged = sum(1 for s in SEEDS if any(d.code != "SIB900" for d in lint_once(tmp_path, s)))
    assert flagged >= 5
