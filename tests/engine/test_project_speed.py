"""Issue 24: the project scan tries its line-anchored patterns only on lines holding their keyword,
and finds exactly what `finditer` over the whole file finds; a batch run works out each module
name once, while the editor sees the tree change."""

from __future__ import annotations

import pytest

from siblint.model.project import (_CLASS, _DEF, _IMPORT, ProjectScan, imported_modules, line_matches, module_name_for,
                                   tree_held_still)
from support import write

PATTERNS = [(_CLASS, b"class"), (_DEF, b"def"), (_IMPORT, b"import")]
SHAPES = [
    b"",
    b"import",
    b"def",
    b"import os\nfrom a.b import c\n    import x.y  # indented\n",
    b"x = 1; import y\nimport z\n",  # an import after code on its line is not at a line start
    b"  import os\r\nimport sys\r\n",  # CRLF
    b"async  def  f():\n\tdef g(): pass\nundefined = 1\nxdef h(): pass\n",
    b"class A(\nclass B(C)):\n    pass\nclass D(E): pass\n",  # a base list spanning lines hides a line
    b"classclass A:\nclass B(X,\n Y): pass\n",
    b"s = 'import os'\nfrom . import sibling\nfrom ..up import thing\n",
    b"def f(): import a; import b\nimport c",
]


@pytest.mark.parametrize("data", SHAPES)
@pytest.mark.parametrize(("pattern", "literal"), PATTERNS)
def test_line_matches_finds_what_finditer_finds(data, pattern, literal):
    expected = [(m.span(), m.groups()) for m in pattern.finditer(data)]
    assert [(m.span(), m.groups()) for m in line_matches(pattern, data, literal)] == expected


def test_line_matches_skips_lines_without_the_keyword():
    assert list(line_matches(_IMPORT, b"x = 1\n" * 100, b"import")) == []
    assert [m.group(1) for m in line_matches(_DEF, b"x = 1\n" * 50 + b"def late(): pass\n", b"def")] == [b"late"]


def test_the_scan_records_imports_classes_and_entry_scripts(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/tools.py": "from .helpers import h\nimport requests\n\nclass Tool(Base, mixins.Other):\n    def run(self): ...\n",
        "pkg/helpers.py": "def h(): ...\n",
        "app/main.py": "import pkg.tools\n\nif __name__ == '__main__':\n    pass\n",
        "app/lib.py": "s = \"if __name__ == '__main__':\"\n",  # not at a line start: no entry script
    })
    scan = ProjectScan.of([str(tmp_path)])
    tools = str(tmp_path / "pkg/tools.py")
    assert scan.imports["pkg.helpers"] == (tools,)
    assert scan.imports["pkg.tools"] == (str(tmp_path / "app/main.py"),)
    assert [(bases, defs) for path, bases, defs in scan.classes if path == tools] == [
        (frozenset({"Base", "Other"}), frozenset({"run"}))]
    assert scan.app_roots == (str(tmp_path / "app"),)
    # `from . import x`: `x` may be a module of the package (`pkg.x`), so it is recorded too.
    assert imported_modules(tools, b"from . import x\nimport a.b\n", "pkg") == {"pkg", "pkg.x", "a.b"}
    assert imported_modules(tools, b"from pkg import (\n    mail as m,  # the mailer\n    sms,\n)\n", "pkg") >= {
        "pkg", "pkg.mail", "pkg.sms"}


def test_module_names_are_remembered_only_while_the_tree_is_held_still(tmp_path):
    write(tmp_path, {"app/tools.py": "def save(): ...\n"})
    tools = str(tmp_path / "app/tools.py")
    with tree_held_still():
        assert module_name_for(tools)[0] == "tools"
        (tmp_path / "app/__init__.py").write_text("")
        assert module_name_for(tools)[0] == "tools"  # one batch run: worked out once
        with tree_held_still():  # nested: the same memory
            assert module_name_for(str(tmp_path / "app" / ".." / "app" / "tools.py"))[0] == "tools"
    assert module_name_for(tools)[0] == "app.tools"  # outside a run (the editor): the tree as it is now
