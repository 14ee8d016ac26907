"""`siblint check` on TypeScript/JavaScript, in real processes: the same findings cold, warm (from
the cache) and with `-j2`; every reporter; per-folder config, `exclude`, `.gitignore`; exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from support import siblint, write

AGENT = """\
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import { sendReceipt } from './mail.js';

export const chargeCard = tool({
  name: 'charge_card',
  parameters: z.object({ amount: z.number() }),
  async execute({ amount }) {
    await new Promise((r) => setTimeout(r, 300));
    await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }) });
    await sendReceipt('a@b.c');
    return 'charged';
  },
});

export const lookupTax = tool({
  name: 'lookup_tax',
  parameters: z.object({}),
  execute: async () => { throw new Error('down'); },
  errorFunction: null,
});

export const agent = new Agent({ name: 'checkout', tools: [chargeCard, lookupTax] });
"""
MAIL = "import nodemailer from 'nodemailer';\nconst m = nodemailer.createTransport({});\n" \
       "export async function sendReceipt(to: string) {\n  await m.sendMail({ to });\n}\n"
EXPECTED = [("app/agent.ts", 5, "SIB101"), ("app/agent.ts", 20, "SIB201"), ("app/agent.ts", 23, "SIB301")]


def _tree(root: Path) -> None:
    write(root, {"app/agent.ts": AGENT, "app/mail.ts": MAIL,
                 "legacy/old.ts": AGENT, "gen/out.js": AGENT.replace(": string", ""), "ignored/x.mts": AGENT,
                 ".gitignore": "ignored/\n",
                 "pyproject.toml": '[tool.siblint]\nextend-exclude = ["legacy"]\n',
                 "gen/pyproject.toml": '[tool.siblint]\nignore = ["SIB1", "SIB2", "SIB3"]\n'})


def _found(proc, root: Path) -> list[tuple[str, int, str]]:
    assert proc.returncode == 1, proc.stderr
    return sorted((Path(os.path.relpath(root / d["path"], root)).as_posix(), d["line"], d["code"])
                  for d in json.loads(proc.stdout))


def test_cold_warm_and_parallel_runs_agree(tmp_path):
    _tree(tmp_path)
    (tmp_path / ".git").mkdir()  # .gitignore applies inside a repository
    cache = ["--cache-dir", str(tmp_path / ".cache")]
    cold = _found(siblint(["check", "--format", "json", *cache, "."], tmp_path), tmp_path)
    warm = _found(siblint(["check", "--format", "json", *cache, "."], tmp_path), tmp_path)
    parallel = _found(siblint(["check", "--format", "json", "--no-cache", "-j2", "."], tmp_path), tmp_path)
    assert cold == EXPECTED
    assert cold == warm == parallel


def test_reporters_and_exit_codes(tmp_path):
    write(tmp_path, {"app/agent.ts": AGENT, "app/mail.ts": MAIL})
    sarif = siblint(["check", "--format", "sarif", "--no-cache", "app"], tmp_path)
    assert sarif.returncode == 1
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["SIB101", "SIB201", "SIB301"]
    github = siblint(["check", "--format", "github", "--no-cache", "app"], tmp_path)
    assert github.returncode == 1 and github.stdout.count("::") >= 3 and "app/agent.ts" in github.stdout
    text = siblint(["check", "--no-cache", "app"], tmp_path)
    assert text.returncode == 1 and "app/agent.ts:5:" in text.stdout and "SIB101" in text.stdout
    clean = siblint(["check", "--no-cache", "--select", "SIB203", "app"], tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_an_edited_tsconfig_alias_outdates_the_cached_findings(tmp_path):
    """`import { sendReceipt } from '@/mail'` resolves through tsconfig `paths`; a warm run after the
    alias changes answers as a cold one, not from the cache."""
    write(tmp_path, {"app/agent.ts": AGENT.replace("'./mail.js'", "'@/mail'"), "app/mail.ts": MAIL,
                     "package.json": "{}"})
    only_mail = AGENT.replace("    await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }) });\n", "")
    (tmp_path / "app/agent.ts").write_text(only_mail.replace("'./mail.js'", "'@/mail'"))
    cache = ["--cache-dir", str(tmp_path / ".cache"), "--select", "SIB101"]
    config = tmp_path / "tsconfig.json"
    for paths, expected in (('["./app/*"]', [("app/agent.ts", 5, "SIB101")]), ('["./lib/*"]', []),
                            ('["./app/*"]', [("app/agent.ts", 5, "SIB101")])):
        config.write_text('{ "compilerOptions": { "paths": { "@/*": %s } } }' % paths)
        for _ in range(2):  # cold for this config, then warm
            proc = siblint(["check", "--format", "json", *cache, "."], tmp_path)
            found = json.loads(proc.stdout) if proc.returncode == 1 else []
            assert [(d["path"], d["line"], d["code"]) for d in found] == expected, (paths, proc.stderr)


VERCEL_TOOL = """\
import { tool } from 'ai';
import { z } from 'zod';

export const chargeCard = tool({
  description: 'Charge',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }) => {
    await new Promise((r) => setTimeout(r, 300));
    await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }) });
    return 'charged';
  },
});
"""
VERCEL_ROUTE = """\
import { streamText } from 'ai';
import { chargeCard } from '../../../lib/tools';

export async function POST(req: Request) {
  return streamText({ model: 'm' as any, prompt: 'x', tools: { chargeCard }, abortSignal: req.signal });
}
"""


def test_a_warm_run_follows_the_route_that_runs_a_tool_of_another_folder(tmp_path):
    """lib/tools.ts's finding comes from the route importing it: a warm run after the route drops its
    abort signal, or after a second route with one appears, answers as a cold one."""
    write(tmp_path, {"lib/tools.ts": VERCEL_TOOL, "app/api/chat/route.ts": VERCEL_ROUTE, "package.json": "{}"})
    cache = ["--cache-dir", str(tmp_path / ".cache"), "--select", "SIB101"]
    steps = (
        (None, [("lib/tools.ts", 4, "SIB101")]),
        (("app/api/chat/route.ts", VERCEL_ROUTE.replace(", abortSignal: req.signal", "")), []),
        (("app/api/other/route.ts", VERCEL_ROUTE), [("lib/tools.ts", 4, "SIB101")]),
    )
    for change, expected in steps:
        if change is not None:
            (tmp_path / change[0]).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / change[0]).write_text(change[1])
        for extra in ([], ["--no-cache"]):  # warm (or cold the first time), then without the cache
            proc = siblint(["check", "--format", "json", *cache, *extra, "."], tmp_path)
            found = json.loads(proc.stdout) if proc.returncode == 1 else []
            assert [(d["path"], d["line"], d["code"]) for d in found] == expected, (change, extra, proc.stderr)
