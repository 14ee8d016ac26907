"""The cache: a warm run parses nothing, a changed tools module re-evaluates its importer from cached
facts, a damaged or foreign cache is ignored and rewritten, and a cached run equals `--no-cache`
when modules appear, shadow others or the run's files change. Parses are counted, never timed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from siblint.lint import engine
from siblint.run import cache as cache_mod
from siblint.run import runner
from siblint.settings.config import Config
from support import CHECKOUT_TOOLS

TOOLS = CHECKOUT_TOOLS
SAFE_TOOLS = TOOLS.replace("@function_tool(failure_error_function=None)", "@function_tool")
AGENT = "from agents import Agent\nfrom .tools import charge_card, lookup_tax\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"


@pytest.fixture
def parses(monkeypatch):
    """Paths parsed by the engine, in order (every parse goes through engine.facts_from_text)."""
    seen: list[str] = []
    real = engine.facts_from_text

    def counting(text: str, path: str, *rest, **options):
        seen.append(os.path.basename(path))
        return real(text, path, *rest, **options)

    monkeypatch.setattr(engine, "facts_from_text", counting)
    return seen


@pytest.fixture
def project(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tools.py").write_text(TOOLS)
    (pkg / "agent.py").write_text(AGENT)
    (tmp_path / "plain.py").write_text("import os\n")
    return tmp_path


def lint(root: Path, cache: cache_mod.Cache | None, jobs: int = 1) -> list[tuple[str, int, str]]:
    config = Config(root=str(root))
    files = sorted(str(p) for p in root.rglob("*.py") if ".siblint_cache" not in p.parts)
    result = runner.run(files, config, jobs, cache=cache)
    return [(os.path.relpath(d.path, root), d.loc.line, d.code) for d in result.diagnostics]


def new_cache(root: Path) -> cache_mod.Cache:
    return cache_mod.Cache(str(root / ".cache"), cache_mod.config_key(Config(root=str(root))))


def test_warm_run_parses_nothing_and_reports_the_same(project: Path, parses: list[str]) -> None:
    cold = lint(project, new_cache(project))
    assert ("pkg/agent.py", 4, "SIB301") in cold
    assert sorted(set(parses)) == ["agent.py", "tools.py"]  # plain.py never passes the pre-filter
    parses.clear()
    c = new_cache(project)
    assert lint(project, c) == cold
    assert parses == []
    assert c.stats["findings_hit"] == 2 and c.stats["findings_miss"] == 0


def test_changed_tools_module_reevaluates_importer_without_reparsing_it(project: Path, parses: list[str]) -> None:
    cold = lint(project, new_cache(project))
    assert ("pkg/agent.py", 4, "SIB301") in cold
    (project / "pkg" / "tools.py").write_text(SAFE_TOOLS)
    parses.clear()
    c = new_cache(project)
    warm = lint(project, c)
    # The group finding of agent.py depended on tools.py: it is gone, agent.py was not re-parsed.
    assert not any(path == "pkg/agent.py" and code == "SIB301" for path, _, code in warm)
    assert parses == ["tools.py"]
    assert c.stats["findings_miss"] == 2  # agent.py (a dependency changed) and tools.py (its bytes)
    assert warm == lint(project, None)  # the same as a run without any cache
    # And back: the cached facts of the old tools.py are gone from use, findings come back.
    (project / "pkg" / "tools.py").write_text(TOOLS)
    assert lint(project, new_cache(project)) == cold


def test_changed_importer_alone_reuses_the_tools_facts(project: Path, parses: list[str]) -> None:
    lint(project, new_cache(project))
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")
    parses.clear()
    lint(project, new_cache(project))
    assert parses == ["agent.py"]


def test_config_change_misses_the_findings_but_keeps_the_facts(project: Path, parses: list[str]) -> None:
    lint(project, new_cache(project))
    parses.clear()
    config = Config(root=str(project), select=("SIB201",))
    c = cache_mod.Cache(str(project / ".cache"), cache_mod.config_key(config))
    files = sorted(str(p) for p in project.rglob("*.py") if ".cache" not in p.parts)
    found = runner.run(files, config, 1, cache=c).diagnostics
    assert {d.code for d in found} == {"SIB201"}
    assert c.stats["findings_hit"] == 0 and parses == []


def _cache_files(root: Path) -> list[Path]:
    return [p for p in (root / ".cache").rglob("*.json")]


@pytest.mark.parametrize("damage", ["garbage", "truncate", "payload", "foreign", "binary"])
def test_damaged_cache_is_ignored_and_rewritten(project: Path, parses: list[str], damage: str) -> None:
    cold = lint(project, new_cache(project))
    files = _cache_files(project)
    assert files
    for p in files:
        blob = p.read_bytes()
        if damage == "garbage":
            p.write_text("not json at all")
        elif damage == "truncate":
            p.write_bytes(blob[: len(blob) // 2])
        elif damage == "payload":  # valid JSON, but not what the header's hash says
            head, _, body = blob.partition(b"\n")
            p.write_bytes(head + b"\n" + body + b" ")
        elif damage == "foreign":  # a well-formed file from another siblint
            head, _, body = blob.partition(b"\n")
            header = json.loads(head)
            header["fingerprint"] = "0" * 32
            p.write_bytes(json.dumps(header).encode() + b"\n" + body)
        else:
            p.write_bytes(os.urandom(200))
    parses.clear()
    assert lint(project, new_cache(project)) == cold
    assert sorted(set(parses)) == ["agent.py", "tools.py"]  # re-parsed: nothing was trusted
    parses.clear()
    assert lint(project, new_cache(project)) == cold  # and rewritten: the next run is warm again
    assert parses == []


def test_unwritable_cache_folder_is_not_an_error(project: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    c = cache_mod.Cache(str(blocker / "cache"), cache_mod.config_key(Config(root=str(project))))
    assert lint(project, c) == lint(project, None)


def test_codec_round_trips_real_facts(project: Path) -> None:
    text = (project / "pkg" / "tools.py").read_text() + (
        "\nx = {'a': [1, 2.5, None, True], **y}\nz = f'{x}!' + b'raw'.decode()\nw = lambda q: q\n"
        "async def g():\n    async with s() as c:\n        try:\n            await c.send(1)\n"
        "        except (ValueError, KeyError):\n            raise\n        finally:\n            pass\n"
    )
    facts = engine.facts_from_text(text, str(project / "pkg" / "tools.py"))
    blob = cache_mod.dumps(cache_mod.encode(facts), "k", b"secret")
    again = cache_mod.decode(cache_mod.loads(blob, "k", b"secret"))
    assert again == facts
    assert type(again.functions) is dict and type(again.assignments) is list
    with pytest.raises(cache_mod.CodecError):
        cache_mod.loads(blob, "another-key", b"secret")
    with pytest.raises(cache_mod.CodecError):  # the same file, checked with another machine's key
        cache_mod.loads(blob, "k", b"another machine")


def test_codec_refuses_what_it_did_not_write() -> None:
    for bad in ({"c": "os.system", "f": []}, {"c": "Loc", "f": [1, 2]}, {"x": 1}, {"c": "Path", "f": ["/"]}):
        with pytest.raises(cache_mod.CodecError):
            cache_mod.decode(bad)
    with pytest.raises(cache_mod.CodecError):
        cache_mod.encode(object())


def test_default_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(cache_mod.ENV_VAR, raising=False)
    cfg = tmp_path / "pyproject.toml"
    assert cache_mod.default_dir(str(cfg), str(tmp_path), "src") == str(tmp_path / ".siblint_cache")
    assert cache_mod.default_dir("", str(tmp_path), str(tmp_path)) == str(tmp_path / ".siblint_cache")
    monkeypatch.setenv(cache_mod.ENV_VAR, str(tmp_path / "elsewhere"))
    assert cache_mod.default_dir(str(cfg), str(tmp_path), "src") == str(tmp_path / "elsewhere")


# ---- issue 12 (S8): a cached run always equals --no-cache -----------------------------------------
AGENT_OF = "from agents import Agent, function_tool\nfrom {module} import charge_card\n\n" \
           "@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    return ''\n\n" \
           "agent = Agent(name='c', tools=[charge_card, lookup_tax])\n"
SYNC_CHARGE = "import requests\nfrom agents import function_tool\n\n@function_tool\ndef charge_card(amount: int) -> str:\n" \
              "    requests.post('https://payments.example.com/charges', json={'amount': amount})\n    return 'charged'\n"
ASYNC_CHARGE = "from agents import function_tool\n\n@function_tool\nasync def charge_card(amount: int) -> str:\n    return 'charged'\n"


def lint_paths(root: Path, rels: list[str], cache: cache_mod.Cache | None) -> list[tuple[str, int, str]]:
    config = Config(root=str(root))
    result = runner.run([str(root / r) for r in rels], config, 1, cache=cache)
    return [(os.path.relpath(d.path, root), d.loc.line, d.code) for d in result.diagnostics]


def test_a_module_created_after_a_cached_run_is_seen(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT_OF.format(module="tools"))
    first = lint_paths(tmp_path, ["agent.py"], new_cache(tmp_path))
    assert "SIB301" not in {c for _, _, c in first}  # `tools` does not exist yet
    (tmp_path / "tools.py").write_text(SYNC_CHARGE)
    warm = lint_paths(tmp_path, ["agent.py"], new_cache(tmp_path))
    assert warm == lint_paths(tmp_path, ["agent.py"], None)
    assert ("agent.py", 8, "SIB301") in warm


def test_a_module_shadowed_from_an_earlier_root_is_seen(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "tools.py").write_text(ASYNC_CHARGE)
    (tmp_path / "agent.py").write_text(AGENT_OF.format(module="tools"))
    first = lint_paths(tmp_path, ["agent.py"], new_cache(tmp_path))
    assert "SIB301" not in {c for _, _, c in first}  # src/tools.py's tool is async
    (tmp_path / "tools.py").write_text(SYNC_CHARGE)  # the project root comes before src/
    warm = lint_paths(tmp_path, ["agent.py"], new_cache(tmp_path))
    assert warm == lint_paths(tmp_path, ["agent.py"], None)
    assert ("agent.py", 8, "SIB301") in warm


def test_runs_over_other_files_and_so_other_import_roots_agree_with_no_cache(tmp_path: Path) -> None:
    (tmp_path / "services" / "svc").mkdir(parents=True)
    (tmp_path / "libs").mkdir()
    (tmp_path / "services" / "svc" / "agent.py").write_text(AGENT_OF.format(module="mytools"))
    (tmp_path / "libs" / "mytools.py").write_text(SYNC_CHARGE)
    one, both = ["services/svc/agent.py"], ["services/svc/agent.py", "libs/mytools.py"]
    for order in ([one, both, one, both], [both, one, both]):
        c_dir = tmp_path / f"cache-{len(order)}"
        for rels in order:  # pre-commit style runs on one file, CI on all: the cache never mixes them
            cached = lint_paths(tmp_path, rels, cache_mod.Cache(str(c_dir), cache_mod.config_key(Config(root=str(tmp_path)))))
            assert cached == lint_paths(tmp_path, rels, None), rels
    assert ("services/svc/agent.py", 8, "SIB301") in lint_paths(tmp_path, both, None)



def test_a_new_implementation_of_a_protocol_reaches_a_cached_run(tmp_path):
    """A tool reaches its effect through a Protocol: the implementations come from the class index,
    so a file that adds one must make the cached run re-analyse, as --no-cache would."""
    import shutil

    from support import siblint, write

    protocol = "from typing import Protocol\n\nclass Gateway(Protocol):\n    def charge(self, n: int) -> str: ...\n"
    agent = ("from agents import Agent, function_tool\nfrom app.gateway import Gateway\n\n"
             "def make(gw: Gateway) -> Agent:\n    @function_tool\n    def charge_card(n: int) -> str:\n"
             "        return gw.charge(n)\n\n    return Agent(name='a', tools=[charge_card])\n")
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "app/__init__.py": "", "app/gateway.py": protocol,
                     "app/agent.py": agent})
    first = siblint(["check", "--format", "json", "app/agent.py"], tmp_path)
    assert first.stdout.strip() == "[]", first.stdout + first.stderr
    write(tmp_path, {"app/http_gateway.py": "import requests\n\nclass HttpGateway:\n    def charge(self, n: int) -> str:\n"
                                            "        requests.post('https://pay.example.com', json={'n': n})\n        return 'ok'\n"})
    cached = siblint(["check", "--format", "json", "app/agent.py"], tmp_path)
    fresh = siblint(["check", "--format", "json", "--no-cache", "app/agent.py"], tmp_path)
    assert '"SIB101"' in fresh.stdout and cached.stdout == fresh.stdout
    shutil.rmtree(tmp_path / ".siblint_cache", ignore_errors=True)


def test_a_new_class_implementing_a_typescript_interface_reaches_a_cached_run(tmp_path):
    """The same for TypeScript: which classes `implements` an interface comes from a byte scan of the
    TS/JS files, whose digest a cached answer records."""
    from support import siblint, write

    types = "export interface Store {\n  save(title: string): void;\n}\n"
    tools = ("import { tool } from '@langchain/core/tools';\nimport { z } from 'zod';\nimport type { Store } from './types';\n"
             "export function saveTool(store: Store) {\n  return tool(async ({ title }) => { store.save(title); return 'ok'; },\n"
             "    { name: 'save', description: 'Save', schema: z.object({ title: z.string() }) });\n}\n")
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "src/types.ts": types, "src/tools.ts": tools,
                     "src/memory.ts": "import type { Store } from './types';\n"
                                      "export class Memory implements Store {\n  save(title: string) {}\n}\n"})
    first = siblint(["check", "--format", "json", "src/tools.ts"], tmp_path)
    assert first.stdout.strip() == "[]", first.stdout + first.stderr
    write(tmp_path, {"src/http.ts": "import type { Store } from './types';\n"
                                    "export class Http implements Store {\n  save(title: string) {\n"
                                    "    fetch('https://x.example.com/items', { method: 'POST', body: title });\n  }\n}\n"})
    cached = siblint(["check", "--format", "json", "src/tools.ts"], tmp_path)
    fresh = siblint(["check", "--format", "json", "--no-cache", "src/tools.ts"], tmp_path)
    assert '"SIB101"' in fresh.stdout and cached.stdout == fresh.stdout


def test_a_route_of_the_app_added_after_a_cached_run_is_seen(tmp_path):
    """Which files are the app's own route handlers comes from a scan of the TS/JS files, whose
    digest a cached answer records: a route made later for the path a tool posts to decides again."""
    from support import siblint, write

    tools = ("import { tool } from '@openai/agents';\nimport { z } from 'zod';\n"
             "export const ask = tool({ name: 'ask', description: 'd', parameters: z.object({ q: z.string() }),\n"
             "  async execute({ q }) { return (await fetch('/api/answer', { method: 'POST', body: q })).json(); } });\n")
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "src/agents/tools.ts": tools})
    first = siblint(["check", "--format", "json", "src/agents/tools.ts"], tmp_path)
    assert '"SIB101"' in first.stdout, first.stdout + first.stderr
    write(tmp_path, {"src/app/api/answer/route.ts": "import OpenAI from 'openai';\n"
                                                    "export async function POST(req: Request) {\n"
                                                    "  return Response.json(await new OpenAI().responses.create(await req.json()));\n}\n"})
    cached = siblint(["check", "--format", "json", "src/agents/tools.ts"], tmp_path)
    fresh = siblint(["check", "--format", "json", "--no-cache", "src/agents/tools.ts"], tmp_path)
    assert fresh.stdout.strip() == "[]" and cached.stdout == fresh.stdout
