"""JUnit XML, for CI systems that show test reports (Jenkins, GitLab, Azure): one `testsuite` per
file, one failed `testcase` per finding, as ruff writes it; a clean run is one passing testcase.

XML 1.0 cannot carry most control characters at all, so every string from the checked tree goes
through `escape_text` first (a newline becomes `\\n`), and what is left outside XML's characters
(surrogates from undecodable file names, U+FFFE/U+FFFF) is spelled `\\uXXXX`; then ElementTree
escapes markup."""

from __future__ import annotations

import re
from itertools import groupby
from xml.etree import ElementTree as ET

from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from .paths import cell_said, shown_path

_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", escape_text(text))


def _suite(parent: ET.Element, path: str, findings: list[Diagnostic]) -> None:
    n = str(len(findings))
    suite = ET.SubElement(parent, "testsuite", name=path, tests=n, failures=n, errors="0", skipped="0")
    for d in findings:
        message = _xml(cell_said(d.concise or d.message, d.cell))
        case = ET.SubElement(suite, "testcase", name=f"siblint.{d.code}", classname=path,
                             file=path, line=str(d.loc.line))
        failure = ET.SubElement(case, "failure", message=message, type=d.severity)
        failure.text = f"line {d.loc.line}, col {d.loc.col + 1}, {d.code} {d.severity}: {message}"


def render(diagnostics: list[Diagnostic], base: str) -> str:
    total = str(len(diagnostics))
    root = ET.Element("testsuites", name="siblint", tests=total, failures=total, errors="0")
    for path, group in groupby(diagnostics, key=lambda d: _xml(shown_path(d.path))):
        _suite(root, path, list(group))
    if not diagnostics:
        suite = ET.SubElement(root, "testsuite", name="siblint", tests="1", failures="0", errors="0", skipped="0")
        ET.SubElement(suite, "testcase", name="No findings", classname="siblint")
        root.set("tests", "1")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
