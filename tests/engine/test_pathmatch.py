"""The one path matcher: gitignore semantics anchored at a folder, matched on RE2 in linear time,
with the same answers as pathspec's reference ("simple", Python `re`) backend."""

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


def test_re2_gives_the_reference_backends_answers():
    import pathspec

    from siblint.common.pathmatch import _absolute

    patterns = PATTERNS + ["!tests/keep.py"]
    m = Matcher([(BASE, patterns)])
    reference = pathspec.GitIgnoreSpec.from_lines([_absolute(p, BASE) for p in patterns], backend="simple")
    assert type(m._spec._backend).__module__.startswith("pathspec._backends.re2")  # the engine under test
    checked = 0
    for p in paths() + [f"{BASE}/tests/keep.py"]:
        for is_dir in (False, True):
            target = p + "/" if is_dir else p
            assert m.matches(p, is_dir) == reference.match_file(target), (p, is_dir)
            assert m.check(p, is_dir) == reference.check_file(target).include, (p, is_dir)
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


# Issue 22 N3: patterns from the checked tree cannot make matching super-linear. Each pattern took
# seconds to hours on Python's backtracking `re` (pathspec's regexes); RE2 answers in microseconds.
PATHOLOGICAL = [
    ("*a*a*a*a*a*a*a*a*a*a*a*a*b", "a" * 60 + ".py"),
    ("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "a" * 4000 + ".py"),
    ("a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b", "/".join(["a"] * 80) + "/x.py"),
    ("**/*a*/**/*a*/**/*a*/**/*a*/**/*a*/**/*a*/b", "/".join(["aaaa"] * 60) + "/x.py"),
    ("[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*c", "a" * 200 + ".py"),
    ("?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*z", "a" * 500 + ".py"),
]


@pytest.mark.parametrize("pattern,name", PATHOLOGICAL)
def test_pathological_patterns_match_in_linear_time(pattern, name):
    import time

    m = Matcher([(BASE, [pattern, "!keep.py"])])  # a `!` pattern too: every pattern is asked in order
    start = time.perf_counter()
    for _ in range(50):
        assert not m.matches(f"{BASE}/{name}")
        assert m.check(f"{BASE}/{name}") is None
    assert time.perf_counter() - start < 2.0  # 100 answers; Python's `re` needs hours for one


def test_a_pathological_pattern_still_matches_what_it_should():
    m = Matcher([(BASE, ["*a*a*a*a*a*a*a*a*a*a*a*a*b"])])
    assert m.matches(f"{BASE}/" + "a" * 60 + "b")
    assert not m.matches(f"{BASE}/" + "a" * 60 + "c")


def test_a_matcher_pickles_as_its_lines(tmp_path):
    """A config is sent to a prewarmed worker (`siblint.run.prewarm`): RE2's compiled sets cannot
    be pickled, so a matcher travels as its lines and compiles again."""
    import pickle

    matcher = Matcher([(str(tmp_path), ["build/", "*.gen.py", "!keep.gen.py"])])
    copy = pickle.loads(pickle.dumps(matcher))
    for name in ("build/x.py", "a.gen.py", "keep.gen.py", "src/a.py"):
        path = str(tmp_path / name)
        assert copy.matches(path) == matcher.matches(path)
    assert copy.matches(str(tmp_path / "a.gen.py")) and not copy.matches(str(tmp_path / "keep.gen.py"))
