"""Bad TS/JS input never crashes siblint: each file gets one clear SIB900 (or is analysed), and the
run goes on to the next file."""

from __future__ import annotations

import pytest
from siblint.run.runner import run
from siblint.settings.config import Config

GOOD = ("import { tool } from '@openai/agents';\n"
        "export const t = tool({ name: 't', execute: async () => { await new Promise((r) => setTimeout(r, 5));\n"
        "  await fetch('https://p.example.com', { method: 'POST' }); return 'ok'; } });\n")
IMPORT = b"import { tool } from '@openai/agents';\n"

BAD = {
    "garbage": IMPORT + b"}{ ))) const = = => ;; class {{{ ((( \n" * 50,
    "binary": IMPORT + bytes(range(1, 256)) * 20 + b"\0\0",
    "undecodable": IMPORT + b"const s = '\xff\xfe\xfa';\n",
    "deeply nested": IMPORT + b"const x = " + b"[" * 20000 + b"]" * 20000 + b";\n",
    "deep calls": IMPORT + b"const y = " + b"f(" * 5000 + b")" * 5000 + b";\n",
    "huge": IMPORT + b"export const a = f(1, { b: [2] });\n" * 10_000,
}


@pytest.mark.parametrize("kind", list(BAD))
def test_bad_ts_file_is_reported_and_the_run_goes_on(kind, tmp_path):
    (tmp_path / "bad.ts").write_bytes(BAD[kind])
    (tmp_path / "good.ts").write_text(GOOD, encoding="utf-8")
    config = Config(root=str(tmp_path))
    result = run([str(tmp_path / "bad.ts"), str(tmp_path / "good.ts")], config)
    bad = [d for d in result.diagnostics if d.path.endswith("bad.ts")]
    assert all(d.code == "SIB900" for d in bad), bad
    assert all(d.message and d.loc.line >= 1 for d in bad)
    if kind in ("garbage", "binary", "undecodable"):
        assert len(bad) == 1, bad
    assert [d.code for d in result.diagnostics if d.path.endswith("good.ts")] == ["SIB101"]


def test_local_error_node_is_analysed(tmp_path):
    # The measured case on openai-agents-js: one ERROR node for `typeof import('x')` as a type argument.
    src = GOOD + "const m = await importOriginal<typeof import('node:fs/promises')>();\n"
    (tmp_path / "a.ts").write_text(src, encoding="utf-8")
    result = run([str(tmp_path / "a.ts")], Config(root=str(tmp_path)))
    assert [d.code for d in result.diagnostics] == ["SIB101"]
