"""The one path matcher: gitignore semantics anchored at a folder, and the single alternation it
runs agrees with pathspec's own pattern-by-pattern answer."""

from __future__ import annotations

import itertools

import pytest
from siblint.common.pathmatch import Matcher, PatternError, compile_lenient, rebase
from siblint.settings.config import DEFAULT_EXCLUDE

BASE = "/work/r[1]"  # glob characters in the folder itself must not act as globs
PATTERNS = ["generated", "tests/*", "**/mig", "out/", "*.gen.py", "/top.py", "a/**/b", "x[ab]", "q?", *DEFAULT_EXCLUDE]
NAMES = ["generated", "tests", "mig", "out", "x.gen.py", "top.py", "a", "b", "xa", "xc", "q1", "qq", ".git", "venv",
         "site-packages", "ok.py"]


def paths() -> list[str]:
    out = [f"{BASE}/{'/'.join(p)}" for n in (1, 2, 3) for p in itertools.product(NAMES[:9] if n == 3 else NAMES, repeat=n)]
    return out + ["/elsewhere/generated/x.py", "/work/r1/generated/x.py"]


def test_the_alternation_gives_pathspecs_answers():
    m = Matcher([(BASE, PATTERNS)])
    assert m._any is not None  # the fast path is the one under test
    checked = 0
    for p in paths():
        for is_dir in (False, True):
            assert m.matches(p, is_dir) == m._spec.match_file(p + "/" if is_dir else p), (p, is_dir)
            checked += 1
    assert checked > 2000


@pytest.mark.parametrize("path,expected", [
    (f"{BASE}/generated/x.py", True), (f"{BASE}/deep/er/generated", True), (f"{BASE}/tests/unit/t.py", True),
    (f"{BASE}/app/tests/x.py", False), (f"{BASE}/top.py", True), (f"{BASE}/s/top.py", False),
    (f"{BASE}/a/q/w/b/z.py", True), (f"{BASE}/out", False), (f"{BASE}/out/x.py", True), ("/elsewhere/generated/x.py", False),
    ("/work/r1/generated/x.py", False),
])
def test_gitignore_semantics_at_the_folder(path, expected):
    assert Matcher([(BASE, PATTERNS)]).matches(path) is expected


def test_negation_uses_pathspecs_order():
    m = Matcher([(BASE, ["*.py", "!keep.py"])])
    assert m._any is None
    assert m.matches(f"{BASE}/a.py") and not m.matches(f"{BASE}/keep.py") and m.check(f"{BASE}/keep.py") is False


def test_rebase_keeps_a_pattern_in_its_folder():
    child = f"{BASE}/svc"
    m = Matcher([(child, [rebase(p, BASE, child) for p in ("tests/*", "gen", "svc/x/*")])])
    assert not m.matches(f"{BASE}/svc/tests/a.py")  # the parent's tests/ is not the child's
    assert m.matches(f"{BASE}/svc/q/gen/a.py") and m.matches(f"{BASE}/svc/x/a.py")
    assert rebase("tests/*", BASE, BASE) == "tests/*"


def test_bad_patterns():
    with pytest.raises(PatternError):
        Matcher([(BASE, ["a\\"])])
    assert compile_lenient(BASE, ["a\\", "ok"]).matches(f"{BASE}/ok")
    assert Matcher([(BASE, ["", "# comment"])]).empty
