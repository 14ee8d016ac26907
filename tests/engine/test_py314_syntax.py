"""Python 3.14 syntax on an older interpreter: a SIB900 that names the syntax and the Python it
needs (issue 22 L16); an ordinary syntax error stays as CPython words it."""

from __future__ import annotations

import sys

import pytest
from siblint.settings.config import Config
from siblint.run.runner import check_file
from siblint.lint.engine import new_project

pytestmark = pytest.mark.skipif(sys.version_info >= (3, 14), reason="3.14 parses these")

HEAD = "from agents import Agent\n"


@pytest.mark.parametrize("body, line, named", [
    ("try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", 4, "`except A, B:` without parentheses (PEP 758)"),
    ("try:\n    pass\nexcept* ValueError, TypeError:\n    pass\n", 4, "`except A, B:` without parentheses (PEP 758)"),
    ('name = "x"\nmsg = t"hi {name}"\n', 3, 't-strings (t"...", PEP 750)'),
    ("name = 'x'\nmsg = rt'hi {name}'\n", 3, 't-strings (t"...", PEP 750)'),
    # the benign twins: CPython's own words, no version claimed
    ("try:\n    pass\nexcept (ValueError, TypeError) as e pass\n", 4, None),
    ("msg = part'x'\n", 2, None),
    ("msg = 'don't'\n", 2, None),
])
def test_python_314_syntax_names_the_version(tmp_path, body: str, line: int, named: str | None) -> None:
    path = tmp_path / "agent.py"
    path.write_text(HEAD + body)
    config = Config(root=str(tmp_path))
    [d] = check_file(str(path), config, new_project(config))
    assert d.code == "SIB900" and d.loc.line == line
    if named is None:
        assert "Python 3.14" not in d.message
    else:
        here = f"{sys.version_info.major}.{sys.version_info.minor}"
        assert f"({named} is Python 3.14 syntax; siblint runs on Python {here} here" in d.message, d.message
