"""The TS/JS front end: tree-sitter tree -> the same language-neutral facts the rules read."""

from __future__ import annotations

import pytest
from siblint.js import modules
from siblint.js.frontend import facts_from_text
from siblint.syntax.facts import Call, Const, Mapping, Ref, Seq, Starred
from siblint.syntax.source import SourceError


def _facts(tmp_path, text: str, name: str = "main.ts", others: dict[str, str] | None = None):
    for rel, body in (others or {}).items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(body, encoding="utf-8")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return facts_from_text(text, str(path))


def test_imports_of_every_form(tmp_path):
    facts = _facts(tmp_path, (
        "import axios from 'axios';\n"
        "import * as agents from '@openai/agents';\n"
        "import { tool as defineTool, Agent } from '@openai/agents-core';\n"
        "import fs from 'node:fs/promises';\n"
        "const cp = require('child_process');\n"
        "const { execFile, spawn: run } = require('child_process');\n"
        "async function f() {\n  const { createServerClient } = await import('@supabase/ssr');\n"
        "  const pg = await import('pg');\n}\n"
        "import helper from './helper';\n"
        "import { send } from './mail.js';\n"
        "export { charge as chargeTool } from './tools/index';\n"
    ), others={"helper.ts": "export default function h() {}\n", "mail.ts": "export const send = 1;\n",
               "tools/index.ts": "export const charge = 1;\n"})
    mod = lambda rel: modules.module_name(str(tmp_path / rel))  # noqa: E731
    assert facts.imports == {
        "axios": "axios", "agents": "@openai/agents", "defineTool": "@openai/agents-core.tool",
        "Agent": "@openai/agents-core.Agent", "fs": "fs/promises", "cp": "child_process",
        "execFile": "child_process.execFile", "run": "child_process.spawn",
        "createServerClient": "@supabase/ssr.createServerClient", "pg": "pg",  # a dynamic import binds as require
        "helper": f"{mod('helper.ts')}.default", "send": f"{mod('mail.ts')}.send",
        "chargeTool": f"{mod('tools/index.ts')}.charge",
    }


@pytest.mark.parametrize("cast", [
    "as Promise<import('@supabase/supabase-js').SupabaseClient<Database>>",
    "as Promise<\n    import('@supabase/supabase-js').SupabaseClient<Database>\n  >",
    "as unknown as import('./types').Client",
])
def test_a_cast_tree_sitter_splits_at_a_type_argument_keeps_its_value(cast, tmp_path):
    # booksite: tree-sitter reads the `<` of these types as a comparison; the value is the call's.
    facts = _facts(tmp_path, f"import {{ make }} from './db';\nexport async function getDb() {{\n  return make() {cast};\n}}\n",
                   others={"db.ts": "export function make() {}\n"})
    (returned,) = facts.functions["getDb"].return_values
    assert isinstance(returned, Call) and returned.callee == f"{modules.module_name(str(tmp_path / 'db.ts'))}.make"


def test_a_symlinked_tsconfig_is_not_read(tmp_path):
    # A pull request controls the tree: a config that links elsewhere maps nothing. (`@/` maps to a
    # folder no conventional reading finds from the importer: `lib/`, beside `src/`.)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{ "compilerOptions": { "paths": { "@/*": ["./lib/*"] } } }')
    facts_dir = tmp_path / "app"
    (facts_dir / "src").mkdir(parents=True)
    (facts_dir / "lib").mkdir()
    (facts_dir / "lib" / "db.ts").write_text("export const db = 1;\n")
    (facts_dir / "package.json").write_text("{}")
    (facts_dir / "tsconfig.json").symlink_to(elsewhere)
    assert modules.resolve_specifier("@/db", str(facts_dir / "src" / "main.ts")) == "@/db"
    (facts_dir / "tsconfig.json").unlink()
    (facts_dir / "tsconfig.json").write_text(elsewhere.read_text())
    assert modules.resolve_specifier("@/db", str(facts_dir / "src" / "main.ts")) == modules.module_name(
        str(facts_dir / "lib" / "db.ts"))


def test_module_names_hold_no_dot_and_round_trip(tmp_path):
    path = str(tmp_path / "a.b" / "x%y.ts")
    name = modules.module_name(path)
    assert "." not in name and modules.path_of(name) == path


@pytest.mark.parametrize("spec,found", [("./x.js", "x.ts"), ("./x", "x.ts"), ("./dir", "dir/index.ts"),
                                        ("./y.mjs", "y.mts"), ("./z.jsx", "z.tsx"), ("./w.js", "w.js")])
def test_relative_specifiers_resolve_like_typescript(spec, found, tmp_path):
    for rel in ("x.ts", "dir/index.ts", "y.mts", "z.tsx", "w.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("", encoding="utf-8")
    assert modules.resolve_specifier(spec, str(tmp_path / "main.ts")) == modules.module_name(str(tmp_path / found))


def test_options_object_is_also_keywords(tmp_path):
    facts = _facts(tmp_path, "import { tool } from '@openai/agents';\n"
                             "const t = tool({ name: 'n', errorFunction: null, execute, ...rest, timeoutMs: 5 });\n")
    [call] = facts.module_calls
    assert call.callee == "@openai/agents.tool"
    assert isinstance(call.args[0], Mapping)
    keys = [k for k, _ in call.kwargs]
    assert keys == ["name", "errorFunction", "execute", None, "timeoutMs"]
    assert call.kwarg("errorFunction") == Const(None, call.kwarg("errorFunction").loc)
    assert isinstance(call.kwarg("execute"), Ref)


def test_inline_functions_are_named_and_referenced(tmp_path):
    facts = _facts(tmp_path, (
        "import { tool } from '@openai/agents';\n"
        "export const charge = tool({\n"
        "  async execute(input, ctx, { signal }) {\n"
        "    if (signal.aborted) return 'x';\n"
        "    await wait(1);\n"
        "    signal.throwIfAborted();\n"
        "    await fetch('u', { method: 'POST', signal });\n"
        "  },\n"
        "  errorFunction: (c, e) => { throw e; },\n"
        "});\n"
    ))
    execute = facts.functions["execute@3:2"]
    handler = facts.functions["errorFunction@9:17"]
    assert execute.is_async and execute.params == ("input", "ctx", "#2")
    assert [(s.call.callee, s.awaits_before, s.awaited) for s in execute.calls] == [
        ("wait", 0, True), ("signal.throwIfAborted", 1, False), ("fetch", 1, True)]
    assert [(text, awaits) for text, awaits, _ in execute.state_reads] == [("signal.aborted", 0)]
    assert any(a.target == "signal" and a.value.text == "#2.signal" for a in facts.assignments)
    assert handler.raises and not execute.raises
    [call] = facts.module_calls
    assert call.kwarg("execute").text == "execute@3:2" and call.kwarg("errorFunction").text == "errorFunction@9:17"


def test_values_arrays_spreads_templates(tmp_path):
    facts = _facts(tmp_path, "const a = new Agent({ tools: [...base.tools, x], name: `n` });\nconst u = `https://${h}/x`;\n")
    agent, url = facts.assignments[0].value, facts.assignments[1].value
    assert isinstance(agent, Call) and agent.callee == "Agent"
    tools = agent.kwarg("tools")
    assert isinstance(tools, Seq) and isinstance(tools.items[0], Starred) and tools.items[1].text == "x"
    assert agent.kwarg("name").value == "n"
    assert getattr(url, "text", None) == "https://{}/x"


def test_catch_guards_and_rethrow(tmp_path):
    facts = _facts(tmp_path, "async function f() {\n  try { await g(); throw new Error('a'); } catch (e) { throw e; }\n}\n")
    fn = facts.functions["f"]
    assert len(fn.raises) == 1  # the throw inside try is caught; the one in catch escapes
    assert fn.calls[0].guarded_by and fn.calls[0].guarded_by[0].reraises


def test_class_methods(tmp_path):
    facts = _facts(tmp_path, "class Billing extends Base {\n  async charge(n: number) { await this.client.post(n); }\n}\n")
    assert facts.classes == {"Billing": ("Base",)}
    assert facts.functions["Billing.charge"].class_name == "Billing"


def test_unparsable_and_local_errors(tmp_path):
    with pytest.raises(SourceError):
        _facts(tmp_path, "}{ ))) const = = => ;; class {{{ (((\n" * 20)
    facts = _facts(tmp_path, "const m = await importOriginal<typeof import('node:fs/promises')>();\nconst ok = f(1);\n")
    assert [c.callee for c in facts.module_calls][-1] == "f"


def test_switch_cases_are_arms_with_the_values_that_reach_them(tmp_path):
    # A case falls through into the next unless it ends; an empty one shares the next one's body;
    # the default runs for any value no case takes. Mixed or computed cases make no arms.
    facts = _facts(tmp_path, (
        "import { a, b, c, d, e } from './x';\n"
        "export function f(kind: string, n: number) {\n"
        "  switch (kind) {\n    case 'a':\n      a()\n    case 'b':\n      b()\n      break\n"
        "    case 'c':\n    case 'd':\n      c()\n      return\n    default:\n      d()\n  }\n"
        "  switch (n) {\n    case 1:\n      e()\n  }\n}\n"))
    arms = {s.call.func.text: [(b.values, b.equals, b.test) for b in s.branches] for s in facts.functions["f"].calls}
    assert arms == {"a": [(("a",), True, "in")], "b": [(("a", "b"), True, "in")], "c": [(("c", "d"), True, "in")],
                    "d": [(("a", "b", "c", "d"), False, "in")], "e": []}


def test_class_fields_parameter_properties_interfaces_and_implements(tmp_path):
    facts = _facts(tmp_path, (
        "interface Store extends Base<T>, M.Other { save(x: string): void; name: string }\n"
        "class Sql extends Db implements Store, M.Other<T> {\n"
        "  private readonly db = new Pool();\n  pending: Job[];\n  send = async () => 1;\n  #secret = 2;\n"
        "  constructor(private store: Store, plain: string, readonly cfg: Cfg) {}\n}\n"
    ))
    from siblint.syntax.facts import TS_INTERFACE
    assert facts.classes == {"Store": (TS_INTERFACE, "Base", "M.Other"), "Sql": ("Db", "Store", "M.Other")}
    got = {(a.target, a.scope, a.op, a.annotation) for a in facts.assignments}
    assert ("db", "Sql", "=", ()) in got and ("pending", "Sql", ":", ("Job",)) in got
    assert ("this.store", "Sql.constructor", "=", ("Store",)) in got and ("this.cfg", "Sql.constructor", "=", ("Cfg",)) in got
    assert not {t for t, *_ in got} & {"send", "#secret", "this.plain"}  # a method, a private name, a plain parameter
    assert "Sql.send" in facts.functions
    js = _facts(tmp_path, "class Bot {\n  client = new Client();\n  send = async () => this.client.post();\n}\n", name="bot.js")
    assert ("client", "Bot") in {(a.target, a.scope) for a in js.assignments} and "Bot.send" in js.functions


def test_abstract_classes_are_marked_and_every_class_has_its_location(tmp_path):
    from siblint.syntax.facts import TS_ABSTRACT
    facts = _facts(tmp_path, "export abstract class Base extends Tool {}\n\nclass Leaf extends Base {}\n")
    assert facts.classes == {"Base": ("Tool", TS_ABSTRACT), "Leaf": ("Base",)}
    assert (facts.class_locs["Base"].line, facts.class_locs["Leaf"].line) == (1, 3)
