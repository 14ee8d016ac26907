"""LangChain.js `createAgent` and LangGraph.js `ToolNode` (TypeScript): every tool spelling, every
fatal spelling with its default and benign twin, the signal a tool observes, name traps and a
cross-module case.

Runtime truth behind each expectation: /work/shared/reference/frameworks-wave3.md section 9 and its
correction (langchain 1.5.14, @langchain/langgraph 1.7.3, @langchain/core 1.4.0), and
tests/runtime/js/test_langchain_js.py."""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

from tests.conftest import lint_files

HEAD = "import { createAgent, createMiddleware, tool, toolRetryMiddleware, toolErrorMiddleware } from 'langchain';\n" \
       "import { z } from 'zod';\n"
WAIT = "  await new Promise((r) => setTimeout(r, 300));\n"
POST = "  await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount })%s });\n"


def _charge(signal: str = "", check: str = "") -> str:
    """chargeCard: waits, then POSTs; `signal` is added to fetch's options, `check` before it."""
    return ("export const chargeCard = tool(async ({ amount }, config) => {\n" + WAIT + check + POST % signal +
            "  return 'charged';\n}, { name: 'charge_card', description: 'Charge', schema: z.object({ amount: z.number() }) });\n")


LOOKUP = ("export const lookupTax = tool(async () => {\n  const res = await fetch('https://tax.example.com/rate');\n"
          "  return res.text();\n}, { name: 'lookup_tax', description: 'Tax rate', schema: z.object({}) });\n")


def _agent(middleware: str = "", tools: str = "chargeCard, lookupTax") -> str:
    mw = f", middleware: [{middleware}]" if middleware else ""
    return f"export const agent = createAgent({{ model: 'openai:gpt-4o', tools: [{tools}]{mw} }});\n"


def _lint(tmp_path, files: dict[str, str], target: str = "main.ts", select: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    config = Config(root=str(tmp_path), select=select or ("SIB101", "SIB201", "SIB202", "SIB301"))
    return sorted((d.code, d.loc.line) for d in lint_files(tmp_path, files, target, config))


def _codes(tmp_path, src: str, select: tuple[str, ...] = ()) -> set[str]:
    return {c for c, _ in _lint(tmp_path, {"main.ts": src}, select=select)}


# ---- SIB101: every tool spelling, and its signal -----------------------------------------------
TOOL_SPELLINGS = {
    "tool(fn, {...})": _charge(),
    "DynamicStructuredTool": ("export const chargeCard = new DynamicStructuredTool({\n  name: 'charge_card', description: 'Charge',\n"
                              "  schema: z.object({ amount: z.number() }),\n  func: async ({ amount }, runManager, config) => {\n"
                              + WAIT + POST % "" + "    return 'charged';\n  },\n});\n"),
    "DynamicTool": ("export const chargeCard = new DynamicTool({\n  name: 'charge_card', description: 'Charge',\n"
                    "  func: async (amount) => {\n" + WAIT + POST % "" + "    return 'charged';\n  },\n});\n"),
    "StructuredTool subclass": ("class ChargeCard extends StructuredTool {\n  name = 'charge_card';\n  description = 'Charge';\n"
                                "  schema = z.object({ amount: z.number() });\n  async _call({ amount }, runManager, parentConfig) {\n"
                                + WAIT + POST % "" + "    return 'charged';\n  }\n}\nexport const chargeCard = new ChargeCard();\n"),
    # evalR3's ai-employee: a subclass whose constructor hands the tool's options to `super`.
    "DynamicStructuredTool subclass": ("export class ChargeCard extends DynamicStructuredTool {\n  constructor(settings: object) {\n"
                                       "    super({\n      name: 'charge_card', description: 'Charge',\n"
                                       "      schema: z.object({ amount: z.number() }),\n      func: async ({ amount }, runManager, config) => {\n"
                                       + WAIT + POST % "" + "        return 'charged';\n      },\n    });\n  }\n}\n"),
}
CORE_HEAD = "import { tool, DynamicStructuredTool, DynamicTool, StructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';\n"
# @langchain/community 0.0.x: the dynamic tools' own module (Hustle's HubSpot tools).
COMMUNITY_HEAD = "import { DynamicStructuredTool, DynamicTool } from '@langchain/community/tools/dynamic';\nimport { z } from 'zod';\n"


@pytest.mark.parametrize("head", [CORE_HEAD, HEAD.replace("createAgent,", "createAgent, DynamicStructuredTool, DynamicTool, "
                                                           "StructuredTool,"),
                                  CORE_HEAD.replace("'@langchain/core/tools'", '"langchain/tools"')],
                         ids=["@langchain/core/tools", "langchain", "langchain/tools"])  # langchain 0.x's entry point
@pytest.mark.parametrize("spelling", list(TOOL_SPELLINGS))
def test_sib101_every_tool_spelling(spelling, head, tmp_path):
    src = head + TOOL_SPELLINGS[spelling]
    assert "SIB101" in _codes(tmp_path, src), src


@pytest.mark.parametrize("specifier", ["npm:langchain/tools", "npm:langchain@0.3.13/tools",
                                       "https://esm.sh/@langchain/core@0.3.0/tools"])
def test_sib101_deno_and_cdn_specifiers_name_the_package(specifier, tmp_path):
    """evalO3's Supabase edge function (Deno): `import { StructuredTool } from "npm:langchain/tools"`."""
    head = CORE_HEAD.replace("'@langchain/core/tools'", f'"{specifier}"').replace("'zod'", '"npm:zod"')
    assert "SIB101" in _codes(tmp_path, head + TOOL_SPELLINGS["StructuredTool subclass"])


@pytest.mark.parametrize("spelling", ["DynamicStructuredTool", "DynamicTool"])
def test_sib101_dynamic_tools_from_the_community_package(spelling, tmp_path):
    """@langchain/community 0.0.x exports the dynamic tools from its own module (Hustle's HubSpot tools)."""
    assert "SIB101" in _codes(tmp_path, COMMUNITY_HEAD + TOOL_SPELLINGS[spelling])
    assert "SIB101" not in _codes(tmp_path, COMMUNITY_HEAD.replace("community/tools/dynamic", "community/tools/other")
                                  + TOOL_SPELLINGS[spelling])


# Each spelling's signal, passed to fetch: the fixed twin of the case above.
SIGNAL_TWINS = {
    "tool(fn, {...})": ("config", "config.signal"),
    "DynamicStructuredTool": ("config", "config?.signal"),
    "DynamicTool": ("amount, runManager, config", "config?.signal"),
    "StructuredTool subclass": ("parentConfig", "parentConfig?.signal"),
    "DynamicStructuredTool subclass": ("config", "config?.signal"),
}


@pytest.mark.parametrize("spelling", list(SIGNAL_TWINS))
def test_sib101_signal_passed_to_fetch_is_the_fix(spelling, tmp_path):
    param, signal = SIGNAL_TWINS[spelling]
    src = CORE_HEAD + TOOL_SPELLINGS[spelling]
    if spelling == "DynamicTool":
        src = src.replace("async (amount)", f"async ({param})")
    src = src.replace("JSON.stringify({ amount }) }", f"JSON.stringify({{ amount }}), signal: {signal} }}")
    assert f"signal: {signal}" in src
    assert "SIB101" not in _codes(tmp_path, src), src


def test_sib101_signal_in_the_wrong_place_does_not_protect(tmp_path):
    # DynamicStructuredTool's func gets (input, runManager, config): its second parameter holds no signal.
    src = CORE_HEAD + TOOL_SPELLINGS["DynamicStructuredTool"].replace(
        "async ({ amount }, runManager, config)", "async ({ amount }, config)").replace(
        "JSON.stringify({ amount }) }", "JSON.stringify({ amount }), signal: config?.signal }")
    assert "SIB101" in _codes(tmp_path, src), src


def test_sib101_throw_if_aborted_after_the_wait(tmp_path):
    assert "SIB101" not in _codes(tmp_path, HEAD + _charge(check="  config.signal?.throwIfAborted();\n"))


def test_sib101_read_only_tool(tmp_path):
    assert _codes(tmp_path, HEAD + LOOKUP + _agent(tools="lookupTax")) == set()


# ---- SIB202 / SIB301: middleware that passes errors on ----------------------------------------
PASS_THROUGH = "const audit = createMiddleware({ name: 'Audit', wrapToolCall: async (request, handler) => handler(request) });\n"
TIMING = ("const audit = createMiddleware({\n  name: 'Audit',\n  wrapToolCall: async (request, handler) => {\n"
          "    const started = Date.now();\n    const result = await handler(request);\n"
          "    console.log(Date.now() - started);\n    return result;\n  },\n});\n")
CATCHING = ("const audit = createMiddleware({\n  name: 'Audit',\n  wrapToolCall: async (request, handler) => {\n"
            "    try {\n      return await handler(request);\n    } catch (e) {\n"
            "      return new ToolMessage({ content: `failed: ${e}`, tool_call_id: request.toolCall.id ?? '', status: 'error' });\n"
            "    }\n  },\n});\n")
RETHROWING = CATCHING.replace("      return new ToolMessage", "      throw e;\n      return new ToolMessage")


@pytest.mark.parametrize("middleware", [PASS_THROUGH, TIMING, RETHROWING], ids=["pass-through", "timing", "rethrowing"])
def test_non_catching_wrap_tool_call_is_fatal(middleware, tmp_path):
    found = _lint(tmp_path, {"main.ts": HEAD + _charge() + LOOKUP + middleware + _agent("audit")})
    codes = [c for c, _ in found]
    assert codes.count("SIB202") == 2, found  # where it is built, and where it is registered
    assert "SIB301" in codes, found


def test_catching_wrap_tool_call_is_safe(tmp_path):
    src = HEAD + "import { ToolMessage } from '@langchain/core/messages';\n" + _charge() + LOOKUP + CATCHING + _agent("audit")
    assert {"SIB202", "SIB301"}.isdisjoint(_codes(tmp_path, src)), src


def test_inline_middleware_reported_once(tmp_path):
    inline = "createMiddleware({ name: 'Audit', wrapToolCall: async (request, handler) => handler(request) })"
    found = _lint(tmp_path, {"main.ts": HEAD + _charge() + LOOKUP + _agent(inline)})
    assert [c for c, _ in found].count("SIB202") == 1, found


def test_catching_middleware_elsewhere_in_the_list_saves_the_run(tmp_path):
    # Measured (probe_lc_middleware): a toolErrorMiddleware whose onError returns covers every tool.
    src = HEAD + _charge() + LOOKUP + PASS_THROUGH + "const errors = toolErrorMiddleware({ onError: (e) => `failed: ${e}` });\n" + \
        _agent("audit, errors")
    assert "SIB301" not in _codes(tmp_path, src), src


def test_default_create_agent_is_not_fatal(tmp_path):
    assert {"SIB202", "SIB301"}.isdisjoint(_codes(tmp_path, HEAD + _charge() + LOOKUP + _agent()))


RETRY = {
    "onFailure: 'error'": ("toolRetryMiddleware({ maxRetries: 1, onFailure: 'error' })", True),
    "deprecated onFailure: 'raise'": ("toolRetryMiddleware({ maxRetries: 1, onFailure: 'raise' })", True),
    "tools list leaves lookup_tax out": ("toolRetryMiddleware({ maxRetries: 1, tools: ['charge_card'] })", True),
    "default onFailure": ("toolRetryMiddleware({ maxRetries: 1 })", False),
    "onFailure: 'continue'": ("toolRetryMiddleware({ maxRetries: 1, onFailure: 'continue' })", False),
    "tools list names every tool": ("toolRetryMiddleware({ tools: ['charge_card', 'lookup_tax'] })", False),
    "tools list of tool objects": ("toolRetryMiddleware({ tools: [chargeCard, lookupTax] })", False),
    "onError returns undefined for one tool": (
        "toolErrorMiddleware({ onError: (e, r) => (r.toolCall.name === 'x' ? `failed: ${e}` : undefined) })", True),
    "onError with a bare return": ("toolErrorMiddleware({ onError: (e) => { if (!e) return 'x'; return; } })", True),
    "onError always returns": ("toolErrorMiddleware({ onError: (e) => { return `failed: ${e}`; } })", False),
}


@pytest.mark.parametrize("case", list(RETRY))
def test_prebuilt_middleware(case, tmp_path):
    middleware, fatal = RETRY[case]
    codes = _codes(tmp_path, HEAD + _charge() + LOOKUP + _agent(middleware))
    assert ("SIB202" in codes) is fatal and ("SIB301" in codes) is fatal, (case, codes)


def test_retry_tools_list_makes_only_the_unlisted_fatal(tmp_path):
    # lookup_tax is listed (its errors reach the model); charge_card, unlisted, can fail, but it is
    # the only side-effecting tool: it is its own sibling only.
    src = HEAD + _charge() + LOOKUP + _agent("toolRetryMiddleware({ tools: ['lookup_tax'] })")
    found = _lint(tmp_path, {"main.ts": src}, select=("SIB301",))
    assert found, src
    src = src.replace("fetch('https://pay.example.com/charges'", "console.log('https://pay.example.com/charges'")
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB301",)) == [], src


# ---- ToolNode -------------------------------------------------------------------------------
NODE_HEAD = HEAD + "import { ToolNode, createReactAgent } from '@langchain/langgraph/prebuilt';\n"


@pytest.mark.parametrize("options,fatal", [(", { handleToolErrors: false }", True), ("", False),
                                           (", { handleToolErrors: true }", False)])
def test_tool_node_handle_tool_errors(options, fatal, tmp_path):
    src = NODE_HEAD + _charge() + LOOKUP + f"export const tools = new ToolNode([chargeCard, lookupTax]{options});\n"
    codes = _codes(tmp_path, src)
    assert ("SIB201" in codes) is fatal and ("SIB301" in codes) is fatal, codes


def test_create_react_agent_default_is_not_fatal(tmp_path):
    src = NODE_HEAD + _charge() + LOOKUP + "export const agent = createReactAgent({ llm, tools: [chargeCard, lookupTax] });\n"
    assert {"SIB201", "SIB202", "SIB301"}.isdisjoint(_codes(tmp_path, src))
    assert "SIB101" in _codes(tmp_path, src)


@pytest.mark.parametrize("options,fatal", [(", { handleToolErrors: false }", True), ("", False)])
@pytest.mark.parametrize("member", ["chargeCard", "withAsyncAuthorization(chargeCard)"])
def test_create_react_agent_runs_the_tool_node_it_is_given(options, fatal, member, tmp_path):
    """evalJ4's Auth0 sample: `createReactAgent({ llm, tools: new ToolNode(tools, { handleToolErrors:
    false }) })` runs that node as it is (the runtime arm tool_node_handle_tool_errors_false.cjs),
    here written inline; a library's wrapper around a tool (`withAsyncAuthorization(tool)`) runs the tool."""
    src = (NODE_HEAD + "import { auth0AI } from './auth0-ai';\nconst withAsyncAuthorization = auth0AI.withAsync({});\n"
           + _charge() + LOOKUP + "export const agent = createReactAgent({\n  llm,\n"
           f"  tools: new ToolNode([{member}, lookupTax]{options}),\n}});\n")
    found = _lint(tmp_path, {"main.ts": src}, select=("SIB301",))
    assert found == ([("SIB301", src.count("\n", 0, src.index("  tools: new ToolNode")) + 1)] if fatal else []), found


@pytest.mark.parametrize("community, reported", [("GmailSendMessage", True), ("GmailCreateDraft", True),
                                               ("GmailSearch", False)])
def test_a_class_tool_running_a_community_gmail_tool(community, reported, tmp_path):
    # evalJ4's natie-ai: a StructuredTool subclass builds @langchain/community's Gmail tool and invokes it.
    src = (f"import {{ {community} }} from '@langchain/community/tools/gmail';\n"
           "import { StructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';\n\n"
           "export class SendTool extends StructuredTool {\n  name = 'gmail_send';\n  description = 'Send';\n"
           "  schema = z.object({ to: z.string() });\n  async _call(input: { to: string }) {\n"
           f"    const tool = new {community}({{ credentials: {{ accessToken: 't' }} }});\n"
           "    return tool.invoke({ to: input.to, subject: 's', message: 'm' });\n  }\n}\n")
    assert (_lint(tmp_path, {"main.ts": src}, select=("SIB101",)) != []) is reported, src


def test_a_member_typed_by_an_interface_no_class_implements(tmp_path):
    # evalJ5's ai-employee: `constructor(settings: FileManagerToolSettings)` where the interface
    # (another module) declares `fileManagerService: FileManagerService`; that class's method posts.
    files = {
        "service.ts": ("import axios from 'axios';\nexport class FileService {\n  async create(name: string) {\n"
                       "    const { data } = await axios.post(`${process.env.SERVER_URL}/files`, { name });\n"
                       "    return data;\n  }\n  async list() {\n"
                       "    return (await axios.get(`${process.env.SERVER_URL}/files`)).data;\n  }\n}\n"),
        "kit.ts": "import { FileService } from './service';\nexport interface Settings {\n  fileService: FileService;\n}\n",
        "main.ts": ("import { DynamicStructuredTool } from '@langchain/community/tools/dynamic';\n"
                    "import { z } from 'zod';\nimport { Settings } from './kit';\n\n"
                    "export class CreateTool extends DynamicStructuredTool {\n  constructor(settings: Settings) {\n"
                    "    super({\n      name: 'create', description: 'c', schema: z.object({ n: z.string() }),\n"
                    "      func: async ({ n }) => settings.fileService.{verb},\n    });\n  }\n}\n"),
    }
    for verb, found in (("create(n)", [("SIB101", 7)]), ("list()", [])):
        assert _lint(tmp_path, {**files, "main.ts": files["main.ts"].replace("{verb}", verb)}, select=("SIB101",)) == found


# ---- across modules, name traps --------------------------------------------------------------
def test_tool_and_middleware_in_other_files(tmp_path):
    files = {
        "tools.ts": HEAD + _charge() + LOOKUP,
        "audit.ts": HEAD + PASS_THROUGH.replace("const audit", "export const audit"),
        "main.ts": "import { createAgent } from 'langchain';\nimport { chargeCard, lookupTax } from './tools';\n"
                   "import { audit } from './audit.js';\n\n" + _agent("audit"),
    }
    found = _lint(tmp_path, files)
    assert ("SIB301", 5) in found and ("SIB202", 5) in found, found
    assert ("SIB202", 3) in _lint(tmp_path, files, target="audit.ts"), files["audit.ts"]


TRAPS = {
    "tool of another library": "import { tool } from 'ai';\n",
    "createMiddleware of another library": "import { createMiddleware, createAgent, tool } from 'my-agents';\n",
    "Python-looking langchain names": "import { create_agent as createAgent, tool } from 'langchain';\n",
}


@pytest.mark.parametrize("trap", list(TRAPS))
def test_name_traps(trap, tmp_path):
    src = TRAPS[trap] + "import { z } from 'zod';\n" + _charge() + LOOKUP + PASS_THROUGH.replace("createMiddleware", "makeMw") + \
        "const makeMw = (x: unknown) => x;\n" + _agent("audit")
    if trap == "createMiddleware of another library":
        src = src.replace("makeMw", "createMiddleware").replace("const createMiddleware = (x: unknown) => x;\n", "")
    assert {"SIB202", "SIB301"}.isdisjoint(_codes(tmp_path, src)), src


def test_python_langchain_still_its_own(tmp_path):
    src = ("from langchain.agents import create_agent\nfrom langchain_core.tools import tool\nimport httpx\n\n"
           "@tool\nasync def lookup(q: str) -> str:\n    return (await httpx.AsyncClient().get('https://x')).text\n\n"
           "agent = create_agent('openai:gpt-4o', [lookup])\n")
    config = Config(root=str(tmp_path), select=("SIB301", "SIB202"))
    assert lint_files(tmp_path, {"main.py": src}, "main.py", config) == []


def test_sib101_a_tool_func_that_is_a_class_fields_arrow_function(tmp_path):
    """evalS3's TeleGPT: `func: this.sendTelegramMessage` of `sendTelegramMessage = async (...) => {...}`,
    a class field, whose body uses the client the constructor built."""
    src = (CORE_HEAD + "import { TelegramClient } from 'telegram';\n"
           "export class Bot {\n  client: TelegramClient;\n  constructor() { this.client = new TelegramClient('s', 1, 'h', {}); }\n"
           "  send = async ({ to, text }: { to: string; text: string }) => {\n"
           "    await this.client.sendMessage(to, { message: text });\n    return 'sent';\n  };\n"
           "  look = async ({ to }: { to: string }) => to.length;\n"
           "  tools() {\n    return [\n"
           "      new DynamicStructuredTool({ name: 'send', description: 'd', schema: z.object({ to: z.string(), text: z.string() }), func: this.send }),\n"
           "      new DynamicStructuredTool({ name: 'look', description: 'd', schema: z.object({ to: z.string() }), func: this.look }),\n"
           "    ];\n  }\n}\n")
    assert sorted(_lint(tmp_path, {"main.ts": src}, select=("SIB101",))) == [("SIB101", 14)]


# ---- a store reached through a class field, a parameter property, or an interface (evalS3 ops-pilot) ----
TYPES = ("export interface Incident { id: string }\n"
         "export interface OpsStore {\n  createIncident(title: string): Incident;\n  incidents(): Incident[];\n}\n")
SQLITE_STORE = ("import { DatabaseSync } from 'node:sqlite';\nimport type { Incident, OpsStore } from './types.js';\n"
                "export class SqliteStore implements OpsStore {\n  private readonly db = new DatabaseSync('ops.db');\n"
                "  createIncident(title: string): Incident {\n"
                "    this.db.prepare('INSERT INTO incidents (title) VALUES (?)').run(title);\n    return { id: title };\n  }\n"
                "  incidents(): Incident[] {\n    return this.db.prepare('SELECT * FROM incidents').all() as Incident[];\n  }\n}\n")
MEMORY_STORE = ("import type { Incident, OpsStore } from './types.js';\n"
                "export class MemoryStore implements OpsStore {\n  private items: Incident[] = [];\n"
                "  createIncident(title: string): Incident {\n    this.items.push({ id: title });\n    return { id: title };\n  }\n"
                "  incidents(): Incident[] {\n    return this.items;\n  }\n}\n")


def _store_tools(store_type: str, head: str = "") -> str:
    return (CORE_HEAD + head +
            f"export function openIncident(store: {store_type}) {{\n"
            "  return tool(async ({ title }) => store.createIncident(title).id,\n"
            "    { name: 'open_incident', description: 'Open', schema: z.object({ title: z.string() }) });\n}\n"
            f"export function listIncidents(store: {store_type}) {{\n"
            "  return tool(async () => JSON.stringify(store.incidents()),\n"
            "    { name: 'list_incidents', description: 'List', schema: z.object({}) });\n}\n")


def test_sib101_a_store_typed_by_an_interface_stands_for_each_class_implementing_it(tmp_path):
    files = {"types.ts": TYPES, "sqlite-store.ts": SQLITE_STORE, "memory-store.ts": MEMORY_STORE,
             "main.ts": _store_tools("OpsStore", "import type { OpsStore } from './types.js';\n")}
    assert _lint(tmp_path / "both", files, select=("SIB101",)) == [("SIB101", 5)]
    del files["sqlite-store.ts"]  # only the in-memory store implements it: nothing writes
    assert _lint(tmp_path / "memory", files, select=("SIB101",)) == []


def test_sib101_a_store_held_in_a_class_field_or_a_constructor_parameter_property(tmp_path):
    head = "import { SqliteStore } from './sqlite-store.js';\n"
    held = (CORE_HEAD + head + "export class Tools {\n  constructor(private readonly store: SqliteStore) {}\n"
            "  open() {\n    return tool(async ({ title }) => this.store.createIncident(title).id,\n"
            "      { name: 'open_incident', description: 'Open', schema: z.object({ title: z.string() }) });\n  }\n}\n"
            "export class Lister {\n  store: SqliteStore;\n  constructor(store: SqliteStore) { this.store = store; }\n"
            "  list() {\n    return tool(async () => JSON.stringify(this.store.incidents()),\n"
            "      { name: 'list_incidents', description: 'List', schema: z.object({}) });\n  }\n}\n")
    files = {"types.ts": TYPES, "sqlite-store.ts": SQLITE_STORE, "main.ts": held}
    assert _lint(tmp_path, files, select=("SIB101",)) == [("SIB101", 7)]


# ---- an abstract tool class whose constructor makes the tool, and its subclasses (evalT4 botify) ----
ABSTRACT_BASE = (CORE_HEAD + "export abstract class SpotifyTool<T> extends DynamicStructuredTool {\n"
                 "  constructor(name: string, description: string, schema: z.ZodType<T>) {\n"
                 "    super({ name, description, schema, func: async (input: T) => this.guarded(() => this.execute(input)) });\n"
                 "  }\n"
                 "  protected abstract execute(params: T): Promise<string>;\n"
                 "  protected async guarded(op: () => Promise<string>): Promise<string> {\n"
                 "    try { return await op(); } catch (e) { return 'failed'; }\n  }\n}\n")
SUBCLASSES = ("import axios from 'axios';\nimport { z } from 'zod';\nimport { SpotifyTool } from './base';\n"
              "export class CreatePlaylist extends SpotifyTool<{ name: string }> {\n"
              "  constructor() { super('createPlaylist', 'Create', z.object({ name: z.string() })); }\n"
              "  protected async execute(p: { name: string }) {\n"
              "    await axios.post('https://api.example.com/playlists', { name: p.name });\n    return 'created';\n  }\n}\n"
              "export class Search extends SpotifyTool<{ q: string }> {\n"
              "  constructor() { super('search', 'Search', z.object({ q: z.string() })); }\n"
              "  protected async execute(p: { q: string }) {\n"
              "    return JSON.stringify((await axios.get('https://api.example.com/search?q=' + p.q)).data);\n  }\n}\n")


def test_sib101_each_subclass_of_an_abstract_tool_class_is_a_tool_running_its_own_hook(tmp_path):
    """The subclass module imports no framework; `this.execute()` in the base's `func` is the
    subclass's; the abstract base, never instantiated, is not reported itself."""
    files = {"base.ts": ABSTRACT_BASE, "tools.ts": SUBCLASSES}
    config = Config(root=str(tmp_path), select=("SIB101",))
    found = lint_files(tmp_path, files, "tools.ts", config)
    assert [(d.code, d.loc.line, d.message.split(" ")[0]) for d in found] == [("SIB101", 4, "createPlaylist")]
    assert lint_files(tmp_path, files, "base.ts", config) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sib101_a_tree_run_analyses_the_subclass_module_that_imports_no_framework(tmp_path, jobs):
    from tests.support import cli_findings, write

    write(tmp_path, {"package.json": '{"dependencies": {"@langchain/core": "0.3.57"}}\n', "src/base.ts": ABSTRACT_BASE,
                     "src/tools.ts": SUBCLASSES, "src/util.ts": "export class Cache extends Map<string, string> {}\n"})
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, code) for path, line, _, code, _ in found] == [("src/tools.ts", 4, "SIB101")]


SERVICE = """const { google } = require('googleapis');
class CalendarService {
  constructor() { this.calendar = google.calendar({ version: 'v3' }); }
  async updateAppointment(id, data) {
    return await this.calendar.events.patch({ calendarId: 'primary', eventId: id, requestBody: data });
  }
  async listAppointments() { return await this.calendar.events.list({ calendarId: 'primary' }); }
}
%s
"""
CJS_TOOLS = """const { DynamicStructuredTool } = require('@langchain/core/tools');
const { z } = require('zod');
%s
function createCalendarTools() {
  const shift = new DynamicStructuredTool({
    name: 'shift_appointment', description: 'Shift', schema: z.object({ id: z.string() }),
    func: async ({ id }) => { %s await calendar.updateAppointment(id, {}); return 'shifted'; },
  });
  const list = new DynamicStructuredTool({
    name: 'list_appointments', description: 'List', schema: z.object({}),
    func: async () => { %s return JSON.stringify(await calendar.listAppointments()); },
  });
  return [shift, list];
}
module.exports = { createCalendarTools };
"""


@pytest.mark.parametrize("exported, required_at_top", [
    ("module.exports = new CalendarService();", True),
    ("module.exports = new CalendarService();", False),  # `require` inside the tool's function
    ("const service = new CalendarService();\nmodule.exports = { calendarApi: service };", None),
])
def test_a_commonjs_module_exporting_a_service_instance(tmp_path, exported, required_at_top):
    """evalU3's voice agent: `module.exports = new GoogleCalendarService()`, required by the tools."""
    if required_at_top is None:
        head, inner = "const { calendarApi: calendar } = require('./calendarService');", ""
    else:
        require = "const calendar = require('./calendarService');"
        head, inner = (require, "") if required_at_top else ("", require)
    files = {"calendarService.js": SERVICE % exported, "calendarTools.js": CJS_TOOLS % (head, inner, inner)}
    found = _lint(tmp_path, files, "calendarTools.js", select=("SIB101",))
    assert found == [("SIB101", 5)]  # the patch, not the list


KUBECTL = """\
import { spawnSync } from 'child_process';
import { trace } from '@opentelemetry/api';

function executeKubectl(args: string[], options?: { kubeconfig?: string }) {
  if (options?.kubeconfig) {
    args = ['--kubeconfig', options.kubeconfig, ...args];
  }
  return trace.getTracer('k').startActiveSpan('kubectl', (span) => {
    const result = spawnSync('kubectl', args, { encoding: 'utf-8' });
    span.end();
    return result.stdout;
  });
}
export async function kubectlGet(resource: string, options?: { kubeconfig?: string }) {
  const args: string[] = ['get', resource];
  return executeKubectl(args, options);
}
export async function kubectlApply(manifest: string, options?: { kubeconfig?: string }) {
  return executeKubectl(['apply', '-f', manifest], options);
}
"""
TRACING = """\
export function withToolTracing<T, R>(config: { name: string }, handler: (input: T) => Promise<R>) {
  return async (input: T): Promise<R> => handler(input);
}
"""


def test_sib101_a_tool_function_handed_to_a_project_wrapper(tmp_path):
    """evalW4 cluster-whisperer: `tool(withToolTracing(cfg, async (input) => ...), {...})` inside a
    factory: the wrapper's result runs the function it is handed, so that function is the tool's;
    `kubectl get` stays a read, through `args = ['--kubeconfig', k, ...args]` rebinding the
    parameter and a callback that the tracer runs in place."""
    files = {
        "core.ts": KUBECTL,
        "tracing.ts": TRACING,
        "main.ts": HEAD + "import { kubectlGet, kubectlApply } from './core';\nimport { withToolTracing } from './tracing';\n"
                   "export function createTools(options?: { kubeconfig?: string }) {\n"
                   "  const get = tool(withToolTracing({ name: 'kubectl_get' }, async (input: { r: string }) => {\n"
                   "    return kubectlGet(input.r, options);\n  }), { name: 'kubectl_get', schema: z.object({}) });\n"
                   "  const apply = tool(withToolTracing({ name: 'kubectl_apply' }, async (input: { m: string }) => {\n"
                   "    return kubectlApply(input.m, options);\n  }), { name: 'kubectl_apply', schema: z.object({}) });\n"
                   "  return [get, apply];\n}\n",
    }
    assert _lint(tmp_path, files, select=("SIB101",)) == [("SIB101", 9)]  # apply


@pytest.mark.parametrize("framework", ["grammy", "telegraf"])
def test_sib101_a_telegram_bot_context_replying_from_a_tool(tmp_path, framework):
    """evalJ10's revelio: a tool factory handed the bot's context sends a photo to the chat
    (`ctx.replyWithPhoto(url)`); `replyWithChatAction` only shows "uploading"."""
    src = (CORE_HEAD + f"import {{ Context }} from '{framework}';\n"
           "export function imageTool(ctx: Context) {\n"
           "  return tool(async ({ url }) => {\n    await ctx.replyWithChatAction('upload_photo');\n"
           "    await ctx.replyWithPhoto(url);\n    return 'sent';\n"
           "  }, { name: 'image', description: 'd', schema: z.object({ url: z.string() }) });\n}\n"
           "export function typingTool(ctx: Context) {\n"
           "  return tool(async () => {\n    await ctx.replyWithChatAction('typing');\n    return 'ok';\n"
           "  }, { name: 'typing', description: 'd', schema: z.object({}) });\n}\n")
    line = src.splitlines().index("  return tool(async ({ url }) => {") + 1
    assert sorted(_lint(tmp_path, {"main.ts": src}, select=("SIB101",))) == [("SIB101", line)]


def test_sib101_a_context_a_project_function_returns_as_a_type_alias(tmp_path):
    """evalJ10's revelio: `const ctx = injectBotContext()` in the tool factory, declared in another
    module as `(): BotContext`, where `type BotContext = Context & SessionFlavor<S> & {...}` (grammY);
    the alias is declared after the function. A `Promise<BotContext>` reads the same."""
    context = ("import { Context, SessionFlavor } from 'grammy';\n"
               "export function injectBotContext(): BotContext {\n  return inject(TOKEN);\n}\n"
               "export async function loadBotContext(): Promise<BotContext> {\n  return inject(TOKEN);\n}\n"
               "export type BotContext = Context &\n  SessionFlavor<{ plan?: string }> & { photoUrl?: string };\n")
    tools = (CORE_HEAD + "import { injectBotContext, loadBotContext } from './context';\n"
             "export function imageTool() {\n  const ctx = injectBotContext();\n"
             "  return tool(async ({ url }) => {\n    await ctx.replyWithPhoto(url);\n    return 'sent';\n"
             "  }, { name: 'image', description: 'd', schema: z.object({ url: z.string() }) });\n}\n"
             "export function voiceTool() {\n"
             "  return tool(async ({ url }) => {\n    const ctx = await loadBotContext();\n"
             "    await ctx.replyWithVoice(url);\n    return 'sent';\n"
             "  }, { name: 'voice', description: 'd', schema: z.object({ url: z.string() }) });\n}\n")
    lines = tools.splitlines()
    expected = [("SIB101", i) for i, ln in enumerate(lines, 1) if ln.startswith("  return tool(")]
    assert sorted(_lint(tmp_path, {"main.ts": tools, "context.ts": context}, select=("SIB101",))) == expected


# evalJ12's SimieBot: the agent's tools are picked from a local catalog object (`catalog.slackWrite`),
# by hint or a default list (`(hint && byHint[hint]) || [...]`), each wrapped by project wrappers:
# a curried `withConnection(c)(tool)` whose product is a library wrapper of its parameter, and a local
# arrow function handing it to another (`protect(tool, msg)`). The ToolNode rethrows every error.
SIMIE_AUTH = ("import { Auth0AI } from '@auth0/ai-langchain';\n"
              "export const withConnection = (connection: string) => {\n  return <T>(tool: T): T => {\n"
              "    if (!process.env.VAULT) {\n      return tool;\n    }\n"
              "    return new Auth0AI().withTokenVault({ connection }, tool as never) as T;\n  };\n};\n"
              "export const withSlackWrite = withConnection('slack');\n")
SIMIE_TOOLS = (CORE_HEAD + "import { WebClient } from '@slack/web-api';\n"
               "export const postSlackTool = tool(async ({ text }) => {\n"
               "  await new WebClient('t').chat.postMessage({ channel: 'c', text });\n  return 'posted';\n"
               "}, { name: 'post_slack', description: 'd', schema: z.object({ text: z.string() }) });\n"
               "export const lookupTool = tool(async ({ q }) => {\n  throw new Error('down');\n"
               "}, { name: 'lookup', description: 'd', schema: z.object({ q: z.string() }) });\n")
SIMIE_NODE = ("import { createReactAgent, ToolNode } from '@langchain/langgraph/prebuilt';\n"
              "import { postSlackTool, lookupTool } from './tools';\nimport { withSlackWrite } from './auth';\n"
              "import { withAsyncAuthorization } from './authz';\n"
              "export async function generalNode(state: any, llm: any) {\n"
              "  const protect = (tool: any, message: string) => withAsyncAuthorization({ message })(tool);\n"
              "  const catalog = {\n    slackWrite: protect(withSlackWrite(postSlackTool), 'post?'),\n"
              "    lookup: lookupTool,\n  };\n"
              "  const byHint: Record<string, any[]> = { slack: [catalog.slackWrite] };\n"
              "  const hint = state.hint;\n"
              "  const tools = (hint && byHint[hint]) || [catalog.slackWrite, catalog.lookup];\n"
              "  const agent = createReactAgent({\n    llm,\n    tools: new ToolNode(tools, { handleToolErrors: false }),\n  });\n"
              "  return agent.invoke(state);\n}\n")


def test_sib301_tools_picked_from_a_catalog_through_project_wrappers(tmp_path):
    files = {"auth.ts": SIMIE_AUTH, "tools.ts": SIMIE_TOOLS, "node.ts": SIMIE_NODE,
             "authz.ts": "export const withAsyncAuthorization = (o: any) => <T>(t: T): T => t;\n"}
    node_line = SIMIE_NODE.splitlines().index("    tools: new ToolNode(tools, { handleToolErrors: false }),") + 1
    assert _lint(tmp_path, files, "node.ts", select=("SIB301",)) == [("SIB301", node_line)]
    assert _lint(tmp_path / "t", files, "tools.ts", select=("SIB101",)) == [("SIB101", 4)]


def test_sib201_at_a_tool_handed_on_through_two_barrels(tmp_path):
    """A blind set's Auth0 assistant: `lib/agent.ts` imports the tool from `tools/microsoft`, whose
    `index.ts` re-exports `./calendar`, which re-exports `./calendar-read`; the ToolNode's
    `handleToolErrors: false` is reported at the tool three importers down."""
    tool = ("import { DynamicStructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';\n"
            "export const CalendarRead = new DynamicStructuredTool({\n  name: 'calendar_read', description: 'd',\n"
            "  schema: z.object({}),\n  func: async () => { throw new Error('down'); },\n});\n")
    agent = ("import { ToolNode } from '@langchain/langgraph/prebuilt';\nimport { CalendarRead } from '../tools/microsoft';\n"
             "export const node = new ToolNode([CalendarRead], { handleToolErrors: false });\n")
    files = {"tools/microsoft/calendar-read.ts": tool,
             "tools/microsoft/calendar.ts": "export { CalendarRead } from './calendar-read';\n",
             "tools/microsoft/index.ts": "export * from './calendar';\n", "lib/agent.ts": agent}
    assert _lint(tmp_path, files, "tools/microsoft/calendar-read.ts", select=("SIB201",)) == [("SIB201", 3)]


def test_a_file_written_into_a_scratch_folder_is_no_effect(tmp_path):
    """evalJ12's SimieBot: `await mkdtemp(path.join(tmpdir(), 'x-'))`, then a file under it written
    by a helper handed the path, and the folder removed after reading a helper's `{ directory }`."""
    src = (CORE_HEAD + "import { createWriteStream } from 'node:fs';\n"
           "import { mkdtemp, rm, writeFile } from 'node:fs/promises';\nimport { tmpdir } from 'node:os';\n"
           "import path from 'node:path';\n"
           "const toFile = async (body: string, outputPath: string) => {\n  createWriteStream(outputPath).write(body);\n};\n"
           "const makeTemp = async () => {\n  const directory = await mkdtemp(path.join(tmpdir(), 'x-'));\n"
           "  return { directory, filePath: path.join(directory, 'a.mp4') };\n};\n"
           "export const probe = tool(async ({ body }) => {\n  const { directory, filePath } = await makeTemp();\n"
           "  await toFile(body, filePath);\n  await writeFile(path.join(directory, 'b.txt'), body);\n"
           "  await rm(directory, { recursive: true, force: true });\n  return 'ok';\n"
           "}, { name: 'probe', description: 'd', schema: z.object({ body: z.string() }) });\n"
           "export const save = tool(async ({ body }) => {\n  await writeFile('report.txt', body);\n  return 'ok';\n"
           "}, { name: 'save', description: 'd', schema: z.object({ body: z.string() }) });\n")
    save_line = src.splitlines().index("export const save = tool(async ({ body }) => {") + 1
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [("SIB101", save_line)]


def test_sib101_writes_through_a_transaction_callbacks_client(tmp_path):
    """evalJ16's campaign manager: `DBClient.$transaction(async (tx) => { await tx.sessionEvent.update(...) })`
    (Prisma; Drizzle's and Knex's `db.transaction(async (tx) => ...)` alike): `tx` is a client of the
    receiver's kind. A callback handed to another method is not one."""
    db = "import { PrismaClient } from '@prisma/client';\nexport const DBClient = new PrismaClient();\n"
    helper = ("import { DBClient } from './db';\n"
              "export async function deleteAsset(id: string) {\n"
              "  await DBClient.$transaction(async (tx) => {\n    await tx.sessionEvent.update({ where: { id }, data: {} });\n  });\n}\n"
              "export async function countAssets(ids: string[]) {\n"
              "  await Promise.all(ids.map(async (tx) => tx.sessionEvent.update({ where: { id: tx }, data: {} })));\n}\n")
    tools = (CORE_HEAD + "import { deleteAsset, countAssets } from './helper';\n"
             "export const del = tool(async ({ id }) => {\n  await deleteAsset(id);\n  return 'ok';\n"
             "}, { name: 'del', description: 'd', schema: z.object({ id: z.string() }) });\n"
             "export const count = tool(async ({ id }) => {\n  await countAssets([id]);\n  return 'ok';\n"
             "}, { name: 'count', description: 'd', schema: z.object({ id: z.string() }) });\n")
    line = tools.splitlines().index("export const del = tool(async ({ id }) => {") + 1
    assert _lint(tmp_path, {"db.ts": db, "helper.ts": helper, "main.ts": tools}, select=("SIB101",)) == [("SIB101", line)]


def test_sib101_a_client_held_by_the_result_object_a_helper_returns(tmp_path):
    """evalJ16's media assistant: `const result = getClient(settings)` returns `{ ok: true, client }`,
    then `result.client.createRequest(...)` (a project class whose method POSTs); also
    `const { client } = getClient(...)`."""
    client = ("export class MediaClient {\n  async createRequest(id: number) {\n"
              "    await fetch('https://media.example.com/api/request', { method: 'POST', body: String(id) });\n  }\n}\n"
              "export function getClient(url?: string): { ok: true; client: MediaClient } | { ok: false; reason: string } {\n"
              "  if (!url) {\n    return { ok: false, reason: 'no url' };\n  }\n"
              "  const client = new MediaClient();\n  return { ok: true, client };\n}\n")
    tools = (CORE_HEAD + "import { getClient } from './client';\n"
             "export const request = tool(async ({ id }) => {\n  const result = getClient('u');\n"
             "  if (!result.ok) return 'no';\n  await result.client.createRequest(id);\n  return 'ok';\n"
             "}, { name: 'request', description: 'd', schema: z.object({ id: z.number() }) });\n"
             "export const request2 = tool(async ({ id }) => {\n  const { client } = getClient('u');\n"
             "  await client.createRequest(id);\n  return 'ok';\n"
             "}, { name: 'request2', description: 'd', schema: z.object({ id: z.number() }) });\n")
    lines = tools.splitlines()
    expected = [("SIB101", lines.index(f"export const {n} = tool(async ({{ id }}) => {{") + 1) for n in ("request", "request2")]
    assert _lint(tmp_path, {"client.ts": client, "main.ts": tools}, select=("SIB101",)) == expected


def test_a_cache_file_node_reads_back_when_it_exists_is_filled_not_written(tmp_path):
    """`existsSync(p)` / `readFileSync(p)` / `writeFileSync(p, ...)` in one helper, which answers from
    what it loaded either way (no early return: not the read-through shape): a cache it fills."""
    src = (CORE_HEAD + "import { existsSync, readFileSync, writeFileSync } from 'node:fs';\n"
           "async function defs(key: string): Promise<string> {\n  const p = 'defs.json';\n  let data;\n"
           "  if (existsSync(p)) {\n    data = JSON.parse(readFileSync(p, 'utf8'));\n  } else {\n"
           "    data = await (await fetch('https://defs.example.com/all')).json();\n"
           "    writeFileSync(p, JSON.stringify(data));\n  }\n  return data[key];\n}\n"
           "export const lookup = tool(async () => defs('x'), { name: 'lookup', description: 'd', schema: z.object({}) });\n"
           "export const save = tool(async ({ body }) => {\n  writeFileSync('report.txt', body);\n  return 'ok';\n"
           "}, { name: 'save', description: 'd', schema: z.object({ body: z.string() }) });\n")
    line = src.splitlines().index("export const save = tool(async ({ body }) => {") + 1
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [("SIB101", line)]


def test_a_file_read_when_it_exists_then_written_back_edited_is_a_write(tmp_path):
    """evalJ1's harper-agent `updateEnv(key, value)`: `existsSync(envPath)`, `content = await
    readFile(envPath)`, the key replaced in `content`, `writeFile(envPath, content)`: it edits the
    file it read, whatever `existsSync` guards (not the cache shape above)."""
    src = (CORE_HEAD + "import { existsSync } from 'node:fs';\nimport { readFile, writeFile } from 'node:fs/promises';\n"
           "async function updateEnv(key: string, value: string) {\n  const envPath = '.env';\n  let content = '';\n"
           "  if (existsSync(envPath)) {\n    content = await readFile(envPath, 'utf8');\n  }\n"
           "  content = content.replace(new RegExp(`^${key}=.*`, 'm'), `${key}=${value}`);\n"
           "  await writeFile(envPath, content);\n}\n"
           "export const setFlag = tool(async ({ on }) => {\n  await updateEnv('FLAG', on ? '1' : '0');\n  return 'ok';\n"
           "}, { name: 'set_flag', description: 'd', schema: z.object({ on: z.boolean() }) });\n")
    line = src.splitlines().index("export const setFlag = tool(async ({ on }) => {") + 1
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [("SIB101", line)]


def test_a_log_file_read_when_it_exists_then_appended_to_is_a_write(tmp_path):
    """evalJ11's task memory: `memory = JSON.parse(readFileSync(path))` when it exists, `memory.push(entry)`,
    `writeFileSync(path, JSON.stringify(memory))`, then a fixed answer: nothing read is answered."""
    src = (CORE_HEAD + "import * as fs from 'fs';\n"
           "export const logTask = tool(async ({ outcome }) => {\n  const path = `${process.cwd()}/memory.json`;\n"
           "  let memory: any[] = [];\n  if (fs.existsSync(path)) {\n    const raw = fs.readFileSync(path, 'utf8');\n"
           "    memory = JSON.parse(raw);\n  }\n  memory.push({ outcome });\n"
           "  fs.writeFileSync(path, JSON.stringify(memory));\n  return 'logged';\n"
           "}, { name: 'log_task', description: 'd', schema: z.object({ outcome: z.string() }) });\n")
    line = src.splitlines().index("export const logTask = tool(async ({ outcome }) => {") + 1
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [("SIB101", line)]


def test_service_clients_typed_through_declaration_files_and_default_exports(tmp_path):
    """evalJ21's Slack bot (quix): per-integration services whose clients are a class exported with
    `export default JiraClient;`, an Octokit typed `client: OctokitType` through `types/octokit.d.ts`
    (`export type { Octokit as OctokitType }`), Slack's `conversations.join`, Okta's
    `userApi.deleteUser`; their reads (`list`, `getUser`, a history's texts joined) stay reads."""
    files = {
        "jira/client.ts": "import axios from 'axios';\nexport class JiraClient {\n"
                          "  private http = axios.create({ baseURL: 'https://jira.example.com' });\n"
                          "  async createIssue(data: object) { return (await this.http.post('/rest/api/3/issue', data)).data; }\n"
                          "}\nexport default JiraClient;\n",
        "jira/service.ts": "import JiraClient from './client';\nexport class JiraService {\n  private client: JiraClient;\n"
                           "  constructor() { this.client = new JiraClient(); }\n"
                           "  createIssue(args: object) { return this.client.createIssue(args); }\n}\n",
        "github/types/octokit.d.ts": "import type { Octokit as OctokitType } from '@octokit/rest';\nexport type { OctokitType };\n",
        "github/service.ts": "import type { OctokitType } from './types/octokit';\nlet Octokit: any;\n"
                             "export class GitHubService {\n  private client: OctokitType;\n"
                             "  constructor(token: string) { this.client = new Octokit({ auth: token }); }\n"
                             "  createIssue(title: string) { return this.client.issues.create({ owner: 'o', repo: 'r', title }); }\n"
                             "  listIssues() { return this.client.issues.listForRepo({ owner: 'o', repo: 'r' }); }\n}\n",
        "slack/service.ts": "import { WebClient } from '@slack/web-api';\nexport class SlackService {\n"
                            "  private client = new WebClient('xoxb');\n"
                            "  join(channel: string) { return this.client.conversations.join({ channel }); }\n"
                            "  channels() { return this.client.conversations.list(); }\n"
                            "  async text(channel: string) {\n"
                            "    const res = await this.client.conversations.history({ channel });\n"
                            "    return res.messages.map((m) => m.text).join('\\n');\n  }\n}\n",
        "okta/service.ts": "import { Client } from '@okta/okta-sdk-nodejs';\nexport class OktaService {\n"
                           "  private client = new Client({ orgUrl: 'https://o.okta.com', token: 't' });\n"
                           "  remove(userId: string) { return this.client.userApi.deleteUser({ userId }); }\n"
                           "  get(userId: string) { return this.client.userApi.getUser({ userId }); }\n}\n",
    }
    calls = {"create_issue": "new JiraService().createIssue(args)", "open_issue": "github.createIssue('t')",
             "list_issues": "github.listIssues()", "join": "new SlackService().join('c')",
             "channels": "new SlackService().channels()", "history": "new SlackService().text('c')",
             "remove_user": "new OktaService().remove('u')",
             "get_user": "new OktaService().get('u')"}
    src = (CORE_HEAD + "import { JiraService } from './jira/service';\nimport { GitHubService } from './github/service';\n"
           "import { SlackService } from './slack/service';\nimport { OktaService } from './okta/service';\n"
           "const github = new GitHubService('t');\n"
           + "".join(f"export const {n} = tool(async (args: object) => {c}, {{ name: '{n}', description: 'd', schema: z.object({{}}) }});\n"
                     for n, c in calls.items()))
    found = {line for _, line in _lint(tmp_path, {**files, "main.ts": src}, select=("SIB101",))}
    line_of = {n: next(i for i, text in enumerate(src.splitlines(), 1) if text.startswith(f"export const {n} ")) for n in calls}
    assert [n for n in calls if line_of[n] in found] == ["create_issue", "open_issue", "join", "remove_user"]


def test_supabase_auth_admin_writes_and_reads(tmp_path):
    """Supabase Auth's admin API creates and deletes users (`auth.admin.createUser`); listing reads."""
    src = (CORE_HEAD + "import { createClient } from '@supabase/supabase-js';\nconst supabase = createClient('u', 'k');\n"
           "export const invite = tool(async ({ email }) => { await supabase.auth.admin.createUser({ email }); return 'ok'; },"
           " { name: 'invite', description: 'd', schema: z.object({ email: z.string() }) });\n"
           "export const users = tool(async () => JSON.stringify(await supabase.auth.admin.listUsers()),"
           " { name: 'users', description: 'd', schema: z.object({}) });\n")
    line = src.splitlines().index(next(x for x in src.splitlines() if x.startswith("export const invite"))) + 1
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [("SIB101", line)]


def test_nestjs_http_service_writes_and_reads(tmp_path):
    """evalJ25's triage-panda: a NestJS service's tools call its methods, which post through the
    injected `HttpService` of `@nestjs/axios` (`this.httpService.post(...)` inside `firstValueFrom`);
    its `get` reads."""
    src = (HEAD + "import { Injectable } from '@nestjs/common';\nimport { HttpService } from '@nestjs/axios';\n"
           "import { firstValueFrom } from 'rxjs';\n\n"
           "@Injectable()\nexport class GithubService {\n"
           "  constructor(private readonly httpService: HttpService) {}\n\n"
           "  private async postComment(n: number, body: string) {\n"
           "    const r = await firstValueFrom(this.httpService.post(`https://api.github.com/issues/${n}/comments`, { body }));\n"
           "    return r.data;\n  }\n\n"
           "  private async getIssue(n: number) {\n"
           "    const r = await firstValueFrom(this.httpService.get(`https://api.github.com/issues/${n}`));\n"
           "    return r.data;\n  }\n\n"
           "  getTools() {\n"
           "    const comment = tool(async ({ n, body }) => {\n      return await this.postComment(n, body);\n"
           "    }, { name: 'post_comment', description: 'c', schema: z.object({ n: z.number(), body: z.string() }) });\n"
           "    const issue = tool(async ({ n }) => {\n      return await this.getIssue(n);\n"
           "    }, { name: 'get_issue', description: 'i', schema: z.object({ n: z.number() }) });\n"
           "    return createAgent({ model: 'openai:gpt-4o', tools: [comment, issue] });\n  }\n}\n")
    lines = src.splitlines()
    assert _lint(tmp_path, {"main.ts": src}, select=("SIB101",)) == [
        ("SIB101", next(i for i, ln in enumerate(lines, 1) if "const comment = tool(" in ln))]


def test_a_mongoose_document_saved(tmp_path):
    """evalJ27's VintelliTour: `new Itinerary({...}).save()` of `const Itinerary = mongoose.model(...)`
    in another module (its default export) writes, as `Itinerary.create(...)` does; `findOne` reads."""
    files = {
        "models/item.ts": "import mongoose from 'mongoose';\nconst schema = new mongoose.Schema({ name: String });\n"
                          "const Item = mongoose.model('Item', schema);\nexport default Item;\n",
        "main.ts": HEAD + "import Item from './models/item';\n\n"
                   "export const addItem = tool(async ({ name }) => {\n  const doc = new Item({ name });\n  await doc.save();\n"
                   "  return 'ok';\n}, { name: 'add_item', description: 'd', schema: z.object({ name: z.string() }) });\n"
                   "export const getItem = tool(async ({ name }) => {\n  return await Item.findOne({ name });\n"
                   "}, { name: 'get_item', description: 'd', schema: z.object({ name: z.string() }) });\n"
                   + _agent(tools="addItem, getItem"),
    }
    lines = files["main.ts"].splitlines()
    assert _lint(tmp_path, files, select=("SIB101",)) == [
        ("SIB101", next(i for i, ln in enumerate(lines, 1) if ln.startswith("export const addItem")))]


def test_a_sub_client_of_a_project_class_deriving_the_client(tmp_path):
    """evalJ26's WhatsApp builder: `prisma.lead.create(...)` where `prisma: PrismaService` (a field of
    the factory's parameter interface, or the parameter itself) and `class PrismaService extends
    PrismaClient` in another module: the sub-client is Prisma's."""
    files = {
        "prisma/prisma.service.ts": "import { PrismaClient } from '@prisma/client';\n\n"
                                    "export class PrismaService extends PrismaClient {}\n",
        "main.ts": HEAD + "import { DynamicTool } from '@langchain/core/tools';\n"
                   "import { PrismaService } from './prisma/prisma.service';\n\n"
                   "interface Params {\n  prisma: PrismaService;\n  agentId: string;\n}\n\n"
                   "export function makeLeadTool({ prisma, agentId }: Params) {\n"
                   "  return new DynamicTool({ name: 'collect', description: 'd', func: async (input: any) => {\n"
                   "    await prisma.lead.create({ data: { agentId } });\n    return 'ok';\n  } });\n}\n\n"
                   "export function makeLookupTool(prisma: PrismaService) {\n"
                   "  return new DynamicTool({ name: 'lookup', description: 'd', func: async (input: any) => {\n"
                   "    return JSON.stringify(await prisma.lead.findMany());\n  } });\n}\n\n"
                   "export const agent = createAgent({ model: 'openai:gpt-4o', tools: [makeLeadTool({ prisma: new PrismaService(), "
                   "agentId: 'a' }), makeLookupTool(new PrismaService())] });\n",
    }
    lines = files["main.ts"].splitlines()
    assert _lint(tmp_path, files, select=("SIB101",)) == [
        ("SIB101", next(i for i, ln in enumerate(lines, 1) if "name: 'collect'" in ln))]


@pytest.mark.parametrize("method, writes", [("POST", True), ("GET", False)])
def test_sib101_a_request_method_handed_through_spreads_and_a_rest_pattern(tmp_path, method, writes):
    """evalJ29's slack-jira-agent: the tool spreads `requestOptions` (`{ method: "POST" }`) into the
    options of a helper in another module, which takes them apart (`const { onMessage,
    ...fetchOptions } = options`) and spreads the rest into `fetch`; the call is inside the
    tool's `new Promise((resolve) => ...)` executor."""
    sse = ("export async function fetchSse(url: string, options: RequestInit & { onMessage: (e: string) => void }) {\n"
           "  const { onMessage, ...fetchOptions } = options;\n"
           "  const response = await fetch(url, { ...fetchOptions, headers: { Accept: 'text/event-stream' } });\n"
           "  onMessage(await response.text());\n}\n")
    main = (CORE_HEAD + "import { fetchSse } from './sse';\n\n"
            "export const sendTask = tool(async ({ query }: { query: string }) => {\n"
            f"  const requestOptions: RequestInit = {{ method: '{method}', body: JSON.stringify({{ query }}) }};\n"
            "  return new Promise<string>((resolve) => {\n"
            "    fetchSse('https://dev-agent.example.com/tasks', { ...requestOptions, onMessage: (e) => resolve(e) });\n"
            "  });\n}, { name: 'send_task', description: 'd', schema: z.object({ query: z.string() }) });\n")
    assert _lint(tmp_path, {"main.ts": main, "sse.ts": sse}, select=("SIB101",)) == ([("SIB101", 5)] if writes else [])


@pytest.mark.parametrize("helper", [False, True], ids=["in-the-tool", "through-a-helper"])
def test_sib101_a_dependency_the_factorys_callers_pass_under_a_key(tmp_path, helper):
    """evalJ31's aura-expense-agent: `createLogExpenseTool(deps)` types `deps.transactionRepo` inline
    (`{ create(...) }`); its caller passes `{ transactionRepo: deps.transactionRepo }`, typed there by
    an interface whose class writes (Appwrite's `TablesDB.createRow`), the tool reaching it directly
    or through a helper it hands `deps` (`logExpense(params, deps)`)."""
    repo = ("import { type TablesDB } from 'node-appwrite';\n\n"
            "export interface ITransactionRepository {\n  create(data: { a: string }): Promise<{ id: string }>;\n}\n\n"
            "export class AppwriteTransactionRepository implements ITransactionRepository {\n"
            "  constructor(private readonly tablesDb: TablesDB) {}\n\n"
            "  async create(data: { a: string }) {\n"
            "    return await this.tablesDb.createRow({ databaseId: 'd', tableId: 't', rowId: 'x', data });\n  }\n}\n")
    call = "logExpense(params, deps)" if helper else "deps.transactionRepo.create({ a: params.a })"
    tool = (CORE_HEAD + "\nexport interface LogExpenseDeps {\n"
            "  transactionRepo: { create(data: { a: string }): Promise<{ id: string }> };\n}\n\n"
            "export async function logExpense(params: { a: string }, deps: LogExpenseDeps) {\n"
            "  return deps.transactionRepo.create({ a: params.a });\n}\n\n"
            "export function createLogExpenseTool(deps: LogExpenseDeps) {\n"
            f"  return tool(async (params) => JSON.stringify(await {call}),\n"
            "    { name: 'log_expense', description: 'd', schema: z.object({ a: z.string() }) });\n}\n")
    factory = ("import { createLogExpenseTool } from './tool';\nimport type { ITransactionRepository } from './repo';\n\n"
               "export interface ToolFactoryDeps {\n  transactionRepo: ITransactionRepository;\n}\n\n"
               "export function createAgentTools(deps: ToolFactoryDeps) {\n"
               "  return [createLogExpenseTool({ transactionRepo: deps.transactionRepo })];\n}\n")
    files = {"tool.ts": tool, "repo.ts": repo, "factory.ts": factory}
    line = tool.splitlines().index(next(t for t in tool.splitlines() if t.startswith("  return tool("))) + 1
    assert _lint(tmp_path, files, "tool.ts", select=("SIB101",)) == [("SIB101", line)]
