"""The Vercel AI SDK (issue 25): `tool({ execute })` / `dynamicTool` in `generateText` / `streamText`
/ `ToolLoopAgent`, where a tool's error is never fatal and only the caller's `abortSignal` or run
`timeout` (`totalMs`, `stepMs`, a number) ends the call: SIB101 and SIB301 for a side-effecting tool
that never observes `options.abortSignal` under such a stop, nothing without one.

Measured behaviour behind these expectations: tests/runtime/js/test_vercel_ai.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

from siblint.rules.examples_vercel import TOOL

from tests.frameworks.wave3_lint import ALL, line_of, lines

HEAD = """\
import { generateText, streamText, tool, dynamicTool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

"""

CHARGE = TOOL

RUN = """
export async function checkout(prompt: string) {
  const result = {api}({
    model: openai('gpt-5'),
    tools: {tools},
    prompt,
{stop}  });
  return result.text;
}
"""


def _charge(params: str = "", check: str = "", signal: str = "") -> str:
    return CHARGE.replace("{params}", params).replace("{check}", check).replace("{signal}", signal)


def _run(stop: str = "    timeout: { totalMs: 5000 },\n", api: str = "streamText", tools: str = "{ chargeCard }") -> str:
    return RUN.replace("{api}", api).replace("{tools}", tools).replace("{stop}", stop)


@pytest.fixture
def found(lint, tmp_path):
    def run(text: str, files: dict[str, str] | None = None) -> list[tuple[str, int]]:
        config = Config(root=str(tmp_path), select=ALL)
        return sorted((d.code, d.loc.line) for d in lint(text, files, config, filename="main.ts"))

    return run


@pytest.mark.parametrize("api", ["streamText", "generateText"])
@pytest.mark.parametrize("stop", [
    "    timeout: { totalMs: 5000 },\n",
    "    timeout: { stepMs: 2000 },\n",
    "    timeout: 5000,\n",
    "    abortSignal: controller.signal,\n",
    "    abortSignal: AbortSignal.timeout(5000),\n",
    "    abortSignal: req.signal,\n    timeout: { toolMs: 100 },\n",
])
def test_an_ignoring_tool_under_a_run_stop(found, api, stop):
    text = HEAD + _charge() + _run(stop, api)
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "export const chargeCard")], got
    assert lines(got, "SIB301") == [line_of(text, "tools: {")], got


@pytest.mark.parametrize("stop", [
    "",  # no caller stop: tool errors are never fatal, nothing ends the call
    "    timeout: { toolMs: 100 },\n",  # aborts only the tool's own signal; its result is kept
    "    timeout: { tools: { chargeCardMs: 100 } },\n",
    "    abortSignal: undefined,\n",
    "    timeout: undefined,\n",
])
def test_no_run_stop_no_finding(found, stop):
    assert found(HEAD + _charge() + _run(stop)) == []


@pytest.mark.parametrize("observes", [
    {"params": ", { abortSignal }", "signal": ", signal: abortSignal"},
    {"params": ", { abortSignal }", "check": "    abortSignal?.throwIfAborted();\n"},
    {"params": ", options", "signal": ", signal: options.abortSignal"},
])
def test_an_observing_tool_is_the_fix(found, observes):
    assert found(HEAD + _charge(**observes) + _run()) == []


def test_a_check_before_the_last_await_protects_nothing(found):
    text = HEAD + _charge(", { abortSignal }").replace(
        "    await new Promise(", "    if (abortSignal?.aborted) return 'cancelled';\n    await new Promise(") + _run()
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "export const chargeCard")], got


def test_a_read_only_tool_is_not_reported(found):
    text = HEAD + _charge().replace("{ method: 'POST', body: JSON.stringify({ amount }) }", "{ method: 'GET' }") + _run()
    assert found(text) == []


@pytest.mark.parametrize("tools, defs", [
    ("tools", "  const tools = { chargeCard };\n"),
    ("{ ...base, lookup }", "  const base = { chargeCard };\n  const lookup = tool({ description: 'x', inputSchema: z.object({}), "
                            "execute: async () => 'found' });\n"),
    ("{ charge_card: chargeCard }", ""),
])
def test_tools_objects(found, tools, defs):
    text = HEAD + _charge() + _run(tools=tools).replace("  const result", defs + "  const result")
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "export const chargeCard")], got
    assert len(lines(got, "SIB301")) == 1, got


def test_a_tool_running_another_tools_execute(found):
    """`chargeCard.execute(input, options)` from another tool runs chargeCard's function; a tool that
    calls something else's `execute` (a prepared statement) runs nothing of chargeCard's."""
    checkout = ("export const checkout = tool({\n  description: 'Checkout',\n  inputSchema: z.object({ amount: z.number() }),\n"
                "  execute: async ({ amount }, options) => {\n    await chargeCard.execute({ amount }, {} as any);\n"
                "    return 'done';\n  },\n});\n")
    text = HEAD + _charge() + checkout + _run(tools="{ checkout }")
    assert lines(found(text), "SIB101") == [line_of(text, "export const checkout")]
    other = text.replace("await chargeCard.execute(", "await statement.execute(")
    assert lines(found(other), "SIB101") == []


def test_dynamic_tool(found):
    text = HEAD + _charge().replace("tool({", "dynamicTool({") + _run()
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "export const chargeCard")], got


def test_the_tool_is_named_by_its_variable(lint, tmp_path):
    found = lint(HEAD + _charge() + _run(), config=Config(root=str(tmp_path), select=("SIB101",)), filename="main.ts")
    assert [d.message.split(" ", 1)[0] for d in found] == ["chargeCard"]


def test_across_modules(found):
    tools = "import { tool } from 'ai';\nimport { z } from 'zod';\n\n" + _charge()
    main = ("import { streamText } from 'ai';\nimport { openai } from '@ai-sdk/openai';\n"
            "import { chargeCard } from './tools';\n" + _run())
    got = found(main, {"tools.ts": tools})
    assert lines(got, "SIB301") == [line_of(main, "tools: {")], got
    assert found(main.replace("    timeout: { totalMs: 5000 },\n", ""), {"tools.ts": tools}) == []
    # The tool's own module names no run stop: the TS/JS files importing it do (evalW4, evalW3).
    importer = main.replace("'./tools'", "'./main'")  # the module linted is main.ts
    assert lines(found(tools, {"app.ts": importer}), "SIB101") == [line_of(tools, "export const chargeCard")]
    assert found(tools, {"app.ts": importer.replace("    timeout: { totalMs: 5000 },\n", "")}) == []


@pytest.mark.parametrize("layout", ["relative", "tsconfig alias", "through a registry"])
def test_a_tool_in_another_folder_than_the_route_that_runs_it(lint, tmp_path, layout):
    """A Next.js route (`app/api/chat/route.ts`) runs the tools of `lib/tools.ts` with the request's
    signal: by a relative specifier, a tsconfig alias, or through a module gathering them."""
    tools = "import { tool } from 'ai';\nimport { z } from 'zod';\n\n" + _charge()
    spec = {"relative": "../../../lib/tools", "tsconfig alias": "@/lib/tools", "through a registry": "@/lib/registry"}[layout]
    route = ("import { streamText } from 'ai';\nimport { openai } from '@ai-sdk/openai';\n"
             f"import {{ chargeCard }} from '{spec}';\n"
             "export async function POST(req: Request) {\n"
             "  return streamText({ model: openai('gpt-5'), tools: { chargeCard }, abortSignal: req.signal });\n}\n")
    files = {"app/api/chat/route.ts": route, "tsconfig.json": '{ "compilerOptions": { "paths": { "@/*": ["./*"] } } }',
             "lib/registry.ts": "export { chargeCard } from './tools';\n"}

    def sib101(route_text: str) -> list[int]:
        found = lint(tools, {**files, "app/api/chat/route.ts": route_text}, Config(root=str(tmp_path), select=("SIB101",)),
                     filename="lib/tools.ts")
        return [d.loc.line for d in found]

    assert sib101(route) == [line_of(tools, "export const chargeCard")]
    assert sib101(route.replace(", abortSignal: req.signal", "")) == []


@pytest.mark.parametrize("spread", [
    "    ...(signal ? { abortSignal: signal } : {}),\n",
    "    ...stops,\n",
], ids=["conditional", "named object"])
def test_a_run_stop_spread_into_the_options(found, spread):
    """evalW4 cluster-whisperer: `...(options?.signal ? { abortSignal: options.signal } : {})`."""
    text = HEAD + _charge() + _run(stop=spread).replace(
        "export async function checkout(prompt: string) {\n",
        "export async function checkout(prompt: string, signal?: AbortSignal) {\n  const stops = { abortSignal: signal };\n")
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "export const chargeCard")], got
    assert found(text.replace("abortSignal: signal", "maxRetries: 1")) == []


def test_a_tools_object_grown_by_spreads_in_a_builder(found):
    """`let tools = {}; tools = { ...tools, ...createApplyTools() }` in a method building the set; a
    tool keyed by name under a wrapper's inline function goes by its key."""
    lib = ("import { tool } from 'ai';\nimport { z } from 'zod';\n\n"
           "function traced<T>(name: string, fn: (input: T) => Promise<string>) {\n  return async (input: T) => fn(input);\n}\n"
           "export function createApplyTools() {\n  return {\n    charge_card: tool({\n      description: 'Charge',\n"
           "      inputSchema: z.object({ amount: z.number() }),\n      execute: traced('charge_card', async ({ amount }) => {\n"
           "        await new Promise((r) => setTimeout(r, 300));\n"
           "        await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }) });\n"
           "        return 'charged';\n      }),\n    }),\n  };\n}\n")
    main = ("import { streamText } from 'ai';\nimport { openai } from '@ai-sdk/openai';\n"
            "import { createApplyTools } from './main';\n"
            "class Investigator {\n  private build(apply: boolean) {\n    let tools = {};\n"
            "    if (apply) {\n      tools = { ...tools, ...createApplyTools() };\n    }\n    return tools;\n  }\n"
            "  run(prompt: string, signal: AbortSignal) {\n"
            "    return streamText({ model: openai('gpt-5'), prompt, tools: this.build(true), abortSignal: signal });\n  }\n}\n")
    got = found(lib, {"agent.ts": main})
    assert lines(got, "SIB101") == [line_of(lib, "charge_card: tool({")], got


FILTER = """\
import type { ToolSet } from 'ai';

export function filterTools(allTools: ToolSet, allowedNames: string[]): ToolSet {
  const filtered: ToolSet = {};
  for (const name of allowedNames) {
    if (allTools[name]) {
      filtered[name] = allTools[name];
    }
  }
  return filtered;
}
"""


RESOLVER = """\
import type { Tool } from 'ai';
import { createTools } from './tools';

const registry: Record<string, Tool> = createTools();

export function resolveTools(names: string[]): Record<string, Tool> {
  const resolved: Record<string, Tool> = {};
  for (const name of names) {
    const tool = registry[name];
    if (tool) {
      resolved[name] = tool;
    }
  }
  return resolved;
}
"""


@pytest.mark.parametrize("tools, defs", [
    ("createTools()", ""),
    ("all", "  const all = createTools();\n"),
    ("agentTools", "  const all = createTools();\n  const agentTools = filterTools(all as unknown as ToolSet, ['chargeCard']);\n"),
    ("resolveTools(['chargeCard'])", ""),
], ids=["factory", "factory product", "filtered by name", "picked from a registry by name"])
def test_a_tools_object_a_factory_returns(found, tools, defs):
    """evalL3's Palmkit: `createAgentTools(...)` returns `{ write_file: tool({...}), ... }` from another
    module, passed as it is or through the name it is bound to, or (evalJ2, Palmkit again) through a
    helper of a third module that keeps the entries an agent may use, or (evalJ7's cred-ai) through
    a resolver that stores a module registry's entries by the names it is given. SIB301 is reported
    at the `tools:` argument, not at what it names."""
    lib = ("import { tool } from 'ai';\nimport { z } from 'zod';\n\nexport function createTools() {\n  return {\n    chargeCard: "
           + _charge().replace("export const chargeCard = ", "").rstrip().rstrip(";") + ",\n  };\n}\n")
    main = ("import { streamText, type ToolSet } from 'ai';\nimport { openai } from '@ai-sdk/openai';\n"
            "import { createTools } from './tools';\nimport { filterTools } from './registry';\n"
            "import { resolveTools } from './resolver';\n"
            + _run(tools=tools).replace("  const result", defs + "  const result"))
    files = {"tools.ts": lib, "registry.ts": FILTER, "resolver.ts": RESOLVER}
    got = found(main, files)
    assert lines(got, "SIB301") == [line_of(main, "    tools: ")], got
    assert found(main.replace("    timeout: { totalMs: 5000 },\n", ""), files) == []


@pytest.mark.parametrize("head", [
    "import { generateText, streamText, tool } from './ai';\nimport { z } from 'zod';\nconst openai = (m: string) => m;\n\n",
    "import { generateText, streamText } from 'ai';\nimport { tool } from '@openai/agents-extensions-not';\n"
    "import { z } from 'zod';\nconst openai = (m: string) => m;\n\n",
])
def test_name_traps(found, head):
    assert [c for c in found(head + _charge() + _run()) if c[0] == "SIB101"] == []


@pytest.mark.parametrize("settings, run, reported", [
    ("", "agent.generate({ prompt })", False),
    ("", "agent.generate({ prompt, abortSignal: signal })", True),
    ("", "agent.stream({ prompt, timeout: { totalMs: 5000 } })", True),
    ("", "agent.stream({ prompt, timeout: { toolMs: 5000 } })", False),
    ("timeout: 5000, ", "agent.stream({ prompt })", True),
    ("abortSignal: signal, ", "agent.generate({ prompt })", False),  # the call's own (undefined) signal wins
], ids=["no stop", "call signal", "call total", "call tool budget", "settings timeout", "settings signal"])
def test_a_tool_loop_agent_run_stop(found, settings, run, reported):
    """`new ToolLoopAgent({...}).generate / .stream(...)`: the call's stops, else the agent's `timeout`
    (tests/runtime/js/test_vercel_ai.py runs both kinds)."""
    text = (HEAD.replace("dynamicTool }", "dynamicTool, ToolLoopAgent }") + _charge() +
            f"const agent = new ToolLoopAgent({{ model: openai('gpt-5'), {settings}tools: {{ chargeCard }} }});\n"
            f"export function checkout(prompt: string, signal: AbortSignal) {{\n  return {run};\n}}\n")
    got = found(text)
    assert bool(lines(got, "SIB101")) == reported, got


@pytest.mark.parametrize("run, reported", [("webAgent.stream({ prompt, abortSignal: signal })", True),
                                           ("webAgent.stream({ prompt })", False)])
def test_a_tool_loop_agent_run_from_another_module(found, run, reported):
    """evalJ4's open-agents: the agent module exports it, a package index re-exports it, the app's
    config binds it again (`export const webAgent = openAgent`), and a route imports that name
    (dynamically) and runs it with the caller's abort signal."""
    agent = (HEAD.replace("dynamicTool }", "dynamicTool, ToolLoopAgent }") + _charge() +
             "export const openAgent = new ToolLoopAgent({ model: openai('gpt-5'), tools: { chargeCard } });\n")
    files = {
        "index.ts": "export { openAgent } from './main';\n",
        "config.ts": "import { openAgent } from './index';\nexport const webAgent = openAgent;\n",
        "route.ts": ("export async function chat(prompt: string, signal: AbortSignal) {\n"
                     "  const { webAgent } = await import('./config');\n"
                     f"  return {run};\n}}\n"),
    }
    got = found(agent, files)
    assert bool(lines(got, "SIB101")) == reported and bool(lines(got, "SIB301")) == reported, got


@pytest.mark.parametrize("made, stop", [
    ("(() => {\n    return {tool};\n  })()", "    abortSignal: signal,\n"),
    ("{tool}", "    ...(signal && { abortSignal: signal }),\n"),
], ids=["made by an immediately invoked function", "stop in a spread guarded by &&"])
def test_a_tool_an_immediately_invoked_function_makes_under_a_guarded_stop(found, made, stop):
    """evalJ9's HAL: `const moveTicketTool = (() => { return tool({...}) })()`, kept under a key of
    the tools object; the call's stop is `...(config.abortSignal && { abortSignal: config.abortSignal })`."""
    charge = _charge().replace("export const chargeCard = ", "").rstrip().rstrip(";")
    text = (HEAD + "export function checkout(prompt: string, signal?: AbortSignal) {\n"
            f"  const chargeCard = {made.replace('{tool}', charge)};\n"
            "  return streamText({\n    model: openai('gpt-5'),\n    tools: { charge_card: chargeCard },\n    prompt,\n"
            f"{stop}  }});\n}}\n")
    got = found(text)
    assert lines(got, "SIB101") and lines(got, "SIB301") == [line_of(text, "tools: {")], got


def test_a_cloudflare_agent_schedules_work_through_this(found):
    """evalJ9's agents-starter: a tool written in a method of a class deriving `AIChatAgent`
    schedules work in the agent's own storage (`this.schedule(...)`), which runs later whatever the
    caller's abort did; `this.getSchedules()` reads. The tool goes by its key in the call."""
    text = ("import { AIChatAgent } from '@cloudflare/ai-chat';\nimport { streamText, tool } from 'ai';\n"
            "import { z } from 'zod';\n\nexport class ChatAgent extends AIChatAgent<Env> {\n"
            "  async onChatMessage(_f: unknown, options?: { abortSignal?: AbortSignal }) {\n"
            "    return streamText({\n      model: 'm',\n      tools: {\n"
            "        scheduleTask: tool({\n          description: 'Schedule',\n"
            "          inputSchema: z.object({ when: z.string() }),\n"
            "          execute: async ({ when }) => {\n            this.schedule(when, 'executeTask', 'x');\n"
            "            return 'ok';\n          },\n        }),\n"
            "        listTasks: tool({\n          description: 'List',\n          inputSchema: z.object({}),\n"
            "          execute: async () => this.getSchedules(),\n        }),\n      },\n"
            "      abortSignal: options?.abortSignal,\n    });\n  }\n}\n")
    got = found(text)
    assert lines(got, "SIB101") == [line_of(text, "scheduleTask: tool({")], got


# evalJ10's calendar assistant: the tools object lives in one module, a helper copies it into a local
# object (`Object.assign`), another wraps each tool (a loop over `Object.entries`, each entry a copy
# `{ ...toolDef, execute }` whose `execute` calls the original), a factory returns `{ tools, model }`,
# and the route passes `agent.tools` to `streamText` under the request's signal.
_CALENDAR = {
    "tools/calendar.ts": "import { tool } from 'ai';\nimport { z } from 'zod';\n\nexport const calendarTools = {\n"
                         "  createEvent: tool({\n    description: 'create',\n    inputSchema: z.object({ title: z.string() }),\n"
                         "    execute: async ({ title }) => {\n"
                         "      await fetch('https://cal.example.com/events', { method: 'POST', body: title });\n"
                         "      return 'ok';\n    },\n  }),\n};\n",
    "lib/wrap.ts": "export function withUser(tools: Record<string, any>, userId: string) {\n  const wrapped = {} as any;\n"
                   "  for (const [name, toolDef] of Object.entries(tools)) {\n"
                   "    if (!toolDef.execute) { wrapped[name] = toolDef; continue; }\n"
                   "    const original = toolDef.execute;\n"
                   "    wrapped[name] = { ...toolDef, execute: async (args: any, o: any) => original({ ...args, userId }, o) };\n"
                   "  }\n  return wrapped;\n}\n",
    "agent.ts": "import { calendarTools } from './tools/calendar';\nimport { withUser } from './lib/wrap';\n\n"
                "export function toolsFor(kinds: string[]) {\n  const tools: Record<string, any> = {};\n"
                "  if (kinds.includes('calendar')) {\n    Object.assign(tools, calendarTools);\n  }\n  return tools;\n}\n\n"
                "export function createChatAgent(userId: string) {\n  const tools = toolsFor(['calendar']);\n"
                "  return { tools: withUser(tools, userId), model: 'm' };\n}\n",
}
_ROUTES = {
    "imported object": "import { calendarTools } from './tools/calendar';\n\nexport async function POST(req: Request) {\n"
                       "  return streamText({ model: 'm', tools: calendarTools, abortSignal: req.signal });\n}\n",
    "assigned into": "import { toolsFor } from './agent';\n\nexport async function POST(req: Request) {\n"
                     "  return streamText({ model: 'm', tools: toolsFor(['calendar']), abortSignal: req.signal });\n}\n",
    "wrapped": "import { calendarTools } from './tools/calendar';\nimport { withUser } from './lib/wrap';\n\n"
               "export async function POST(req: Request) {\n"
               "  return streamText({ model: 'm', tools: withUser(calendarTools, 'u'), abortSignal: req.signal });\n}\n",
    "returned entry": "import { createChatAgent } from './agent';\n\nexport async function POST(req: Request) {\n"
                      "  const agent = createChatAgent('u');\n"
                      "  return streamText({ model: agent.model, tools: agent.tools, abortSignal: req.signal });\n}\n",
}


@pytest.mark.parametrize("route", list(_ROUTES), ids=list(_ROUTES))
def test_a_tools_object_handed_through_modules_helpers_and_wrappers(tmp_path, route):
    from tests.conftest import lint_files

    files = {**_CALENDAR, "route.ts": "import { streamText } from 'ai';\n" + _ROUTES[route]}
    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    found = sorted((target, d.code, d.loc.line) for target in ("route.ts", "tools/calendar.ts")
                   for d in lint_files(tmp_path, files, target, config))
    group_line = next(i for i, ln in enumerate(files["route.ts"].splitlines(), 1) if "streamText({" in ln)
    assert found == [("route.ts", "SIB301", group_line), ("tools/calendar.ts", "SIB101", 5)]


def test_a_tools_object_the_call_does_not_run_under_a_signal_is_quiet(tmp_path):
    from tests.conftest import lint_files

    files = {**_CALENDAR, "route.ts": "import { streamText } from 'ai';\n"
             + _ROUTES["returned entry"].replace(", abortSignal: req.signal", "")}
    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    assert [d for target in ("route.ts", "tools/calendar.ts") for d in lint_files(tmp_path, files, target, config)] == []


def test_tools_written_as_plain_objects_without_the_tool_helper(tmp_path):
    """evalJ15's docsbot: `tool()` only types its argument, so `{ description, inputSchema, execute }`
    objects under keys of a tools object (spread into the call) are tools; an object without
    `execute` (a client-side tool) or without a schema is not."""
    from tests.conftest import lint_files

    src = ("import { streamText } from 'ai';\nimport { z } from 'zod';\n\n"
           "export async function POST(request: Request) {\n  const tools = {\n"
           "    update_manifest: {\n      description: 'update',\n      inputSchema: z.object({ name: z.string() }),\n"
           "      execute: async ({ name }) => {\n"
           "        await fetch('https://api.example.com/manifest', { method: 'PUT', body: name });\n"
           "        return 'ok';\n      },\n    },\n"
           "    ask_user: {\n      description: 'ask',\n      inputSchema: z.object({ q: z.string() }),\n    },\n"
           "    not_a_tool: {\n      execute: async () => {\n"
           "        await fetch('https://api.example.com/x', { method: 'POST' });\n      },\n    },\n  };\n"
           "  return streamText({ model: 'm', tools: { ...tools }, abortSignal: request.signal });\n}\n")
    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    found = sorted((d.code, d.loc.line) for d in lint_files(tmp_path, {"route.ts": src}, "route.ts", config))
    lines = src.splitlines()
    assert found == [("SIB101", lines.index("    update_manifest: {") + 1),
                     ("SIB301", next(i for i, ln in enumerate(lines, 1) if "streamText({" in ln))]


_DEVICES = {
    "tools.ts": "import { Tool } from 'ai';\nimport { z } from 'zod';\nimport { callService, areaOf } from './ha.ts';\n\n"
                "export const tools: Record<string, Tool> = {\n"
                "  setLight: {\n    description: 'set',\n    parameters: z.object({ id: z.string() }),\n"
                "    execute: async ({ id }) => await callService('light', 'turn_on', { id }),\n  },\n"
                "  searchMusic: {\n    description: 'search',\n    parameters: z.object({ q: z.string() }),\n"
                "    execute: async ({ q }) => await callService('music_assistant', 'search', { q }),\n  },\n"
                "  lightArea: {\n    description: 'area',\n    parameters: z.object({ id: z.string() }),\n"
                "    execute: async ({ id }) => await areaOf(id),\n  },\n};\n",
    "config.ts": "export const HA_URL = Deno.env.get('HA_URL') || 'http://homeassistant.local:8123';\n",
    "ha.ts": "import { HA_URL } from './config.ts';\n\n"
             "export async function callService(domain: string, service: string, data: object) {\n"
             "  return await fetch(`${HA_URL}/api/services/${domain}/${service}`, { method: 'POST', body: JSON.stringify(data) });\n}\n\n"
             "export async function areaOf(id: string) {\n"
             "  const r = await fetch(`${HA_URL}/api/template`, { method: 'POST', body: JSON.stringify({ template: id }) });\n"
             "  return r.text();\n}\n",
    "ai.ts": "import { streamText, Tool } from 'ai';\n\nexport let abortController = new AbortController();\n\n"
             "export async function analyse(text: string, tools: Record<string, Tool>): Promise<string> {\n"
             "  const { textStream } = streamText({ model: 'm', prompt: text, abortSignal: abortController.signal, tools });\n"
             "  return '';\n}\n",
    "main.ts": "import { analyse } from './ai.ts';\nimport { tools } from './tools.ts';\n\n"
               "export async function handle(text: string) {\n  return await analyse(text, tools);\n}\n",
}


def test_a_tools_object_handed_to_another_modules_runner_and_home_assistant_reads(tmp_path):
    """evalJ25's parakeet: `main.ts` hands the tools object of `tools.ts` to `analyse(text, tools)` of
    `ai.ts`, whose `streamText({ tools })` runs it under a signal: the tools' module hears of that
    group. Home Assistant's POST /api/template renders a template and a service named `search` reads
    (its name handed to the helper that builds the URL); `light.turn_on` is the write."""
    from tests.conftest import lint_files

    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    found = sorted((target, d.code, d.loc.line) for target in ("ai.ts", "tools.ts")
                   for d in lint_files(tmp_path, _DEVICES, target, config))
    assert found == [("ai.ts", "SIB301", 6), ("tools.ts", "SIB101", 6)]
    quiet = {**_DEVICES, "ai.ts": _DEVICES["ai.ts"].replace("abortSignal: abortController.signal, ", "")}
    assert [d for target in ("ai.ts", "tools.ts") for d in lint_files(tmp_path, quiet, target, config)] == []


def test_a_callback_written_in_place_is_no_level_of_the_walk(tmp_path):
    """evalJ25's parakeet: a tool calls another tool's `execute`, which calls a helper whose write is in
    a `lights.map(async (l) => ...)` callback: the callback is its function's own work, not a level
    more, so the write is within the walk's depth."""
    from tests.conftest import lint_files

    src = ("import { streamText, tool } from 'ai';\n\n"
           "async function post(id: string) {\n"
           "  await fetch(`https://ha.example.com/api/services/light/turn_on`, { method: 'POST', body: id });\n}\n\n"
           "async function control(ids: string[]) {\n"
           "  await Promise.all(ids.map(async (id) => {\n    await post(id);\n  }));\n}\n\n"
           "async function setLights(ids: string[]) {\n  return await control(ids);\n}\n\n"
           "const tools = {\n"
           "  setLight: tool({ description: 'd', parameters: {}, execute: async ({ ids }) => await setLights(ids) }),\n"
           "  setArea: tool({ description: 'd', parameters: {}, execute: async ({ ids }) => {\n"
           "    const run = tools.setLight.execute as (p: { ids: string[] }) => Promise<string>;\n"
           "    return await run({ ids });\n  } }),\n};\n\n"
           "export async function POST(req: Request) {\n"
           "  return streamText({ model: 'm', tools, abortSignal: req.signal });\n}\n")
    config = Config(root=str(tmp_path), select=("SIB101",))
    found = sorted(d.loc.line for d in lint_files(tmp_path, {"route.ts": src}, "route.ts", config))
    lines = src.splitlines()
    assert found == [i for i, ln in enumerate(lines, 1) if ln.startswith(("  setLight:", "  setArea:"))]


def test_a_request_that_passes_on_the_callers_own_signal_observes_it(tmp_path):
    """evalJ9's portfolio-hal: the tools' requests go through a closure that hands the caller's own
    `config.abortSignal` (the signal `streamText` runs under) to the helper making the request: that
    request observes the abort as one passed `options.abortSignal` would, for SIB101 and the group's
    SIB301 alike. Without it, both; under a run `timeout` (which aborts only the tool's own signal),
    both too. Runtime: tests/runtime/js/test_vercel_ai.py, stream_caller_signal_passed_on."""
    from tests.conftest import lint_files

    def src(passed: str, stop: str = "abortSignal: config.abortSignal") -> str:
        return ("import { streamText, tool } from 'ai';\n\n"
                "async function post(path: string, opts: { abortSignal?: AbortSignal }) {\n"
                "  const c = new AbortController();\n"
                "  opts.abortSignal?.addEventListener('abort', () => c.abort());\n"
                "  return await fetch(`https://hal.example.com${path}`, { method: 'POST', signal: c.signal });\n}\n\n"
                "export async function run(config: { abortSignal?: AbortSignal }) {\n"
                f"  const send = async (path: string) => post(path, {{ {passed} }});\n"
                "  const tools = { move: tool({ description: 'd', parameters: {}, execute: async () => await send('/api/tickets/move') }) };\n"
                f"  return streamText({{ model: 'm', tools, {stop} }});\n}}\n")

    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    assert [d for d in lint_files(tmp_path, {"route.ts": src("abortSignal: config.abortSignal")}, "route.ts", config)] == []
    assert sorted(d.code for d in lint_files(tmp_path, {"route.ts": src("")}, "route.ts", config)) == ["SIB101", "SIB301"]
    timed = src("abortSignal: config.abortSignal", "timeout: 5000")
    assert sorted(d.code for d in lint_files(tmp_path, {"route.ts": timed}, "route.ts", config)) == ["SIB101", "SIB301"]


@pytest.mark.parametrize("url, writes", [
    ("`${process.env.SEARCH_API_URL}`", False),
    ("`${process.env.ORDERS_API_URL}`", True),
    ("`${SEARCH}/v1`", False),
    ("`${ORDERS}/v1`", True),
], ids=["env-search", "env-orders", "default-search", "default-orders"])
def test_a_template_literal_url_is_read_as_a_python_f_string_is(tmp_path, url, writes):
    """A JS request's URL is read as `url_text` reads a Python one: an environment variable that is
    the whole URL by its name (`process.env.SEARCH_API_URL`), one with a default
    (`process.env.SEARCH || 'https://...'`) by the default."""
    from tests.conftest import lint_files

    src = ("import { streamText, tool } from 'ai';\n\nconst SEARCH = process.env.SEARCH || 'https://api.example.com/search';\n"
           "const ORDERS = process.env.ORDERS || 'https://api.example.com/orders';\n\n"
           "const send = tool({ description: 'd', parameters: {}, execute: async ({ q }) => {\n"
           f"  return await fetch({url}, {{ method: 'POST', body: q }});\n}} }});\n\n"
           "export async function POST(req: Request) {\n"
           "  return streamText({ model: 'm', tools: { send }, abortSignal: req.signal });\n}\n")
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert bool(lint_files(tmp_path, {"route.ts": src}, "route.ts", config)) == writes


def test_tools_destructured_from_what_a_method_returns_form_the_group(tmp_path):
    """evalJ29's hot-metal: `const { systemPrompt, tools } = await this.prepareLlmCall()`, whose
    method returns `{ systemPrompt, tools }` of `const tools = createToolSet(this)` (another module);
    `streamText` runs them inside `createUIMessageStream`'s callback under the chat's abortSignal."""
    from tests.conftest import lint_files

    tools = ("import { tool } from 'ai';\nimport { z } from 'zod';\n\n"
             "export function createToolSet(agent: { url: string }) {\n"
             "  const publish = tool({ description: 'p', inputSchema: z.object({ q: z.string() }),\n"
             "    execute: async ({ q }) => {\n"
             "      await fetch(`${agent.url}/posts`, { method: 'POST', body: q });\n      return 'ok';\n    } });\n"
             "  return { publish };\n}\n")
    agent = ("import { streamText, createUIMessageStream } from 'ai';\nimport { createToolSet } from './tools';\n\n"
             "export class Writer {\n  url = 'https://cms.example';\n\n"
             "  private async prepareLlmCall() {\n    const tools = createToolSet(this);\n"
             "    return { systemPrompt: 'hi', tools };\n  }\n\n"
             "  async onChatMessage(options?: { abortSignal?: AbortSignal }) {\n"
             "    const { systemPrompt, tools } = await this.prepareLlmCall();\n"
             "    return createUIMessageStream({ execute: async ({ writer }) => {\n"
             "      const result = streamText({ model: 'm', system: systemPrompt, tools, abortSignal: options?.abortSignal });\n"
             "      writer.merge(result.toUIMessageStream());\n    } });\n  }\n}\n")
    files = {"tools.ts": tools, "agent.ts": agent}
    config = Config(root=str(tmp_path), select=("SIB101", "SIB301"))
    assert [(d.code, d.loc.line) for d in lint_files(tmp_path, files, "tools.ts", config)] == [("SIB101", 5)]
    assert [(d.code, d.loc.line) for d in lint_files(tmp_path, files, "agent.ts", config)] == \
        [("SIB301", line_of(agent, "streamText({"))]


@pytest.mark.parametrize("base", ["import { AIChatAgent as Base } from '@cloudflare/ai-chat';",
                                  "import { Agent as Base } from 'agents';"])
def test_a_cloudflare_agents_sql_write_through_the_agent_a_tool_is_handed(tmp_path, base):
    """evalJ29's hot-metal: the tool factory is handed the agent, whose method writes its Durable
    Object's SQLite through `this.sql` (a tagged template); a SELECT through it reads."""
    from tests.conftest import lint_files

    src = (base + "\nimport { streamText, tool } from 'ai';\nimport { z } from 'zod';\n\n"
           "export class Writer extends Base<Env> {\n"
           "  saveDraft(title: string) {\n"
           "    this.sql`INSERT INTO drafts (id, title) VALUES (${crypto.randomUUID()}, ${title})`;\n"
           "    return { ok: true };\n  }\n\n"
           "  currentDraft() {\n    return this.sql`SELECT * FROM drafts ORDER BY version DESC LIMIT 1`;\n  }\n\n"
           "  async onChatMessage(onFinish: unknown, options?: { abortSignal?: AbortSignal }) {\n"
           "    return streamText({ model: 'm', tools: createTools(this), abortSignal: options?.abortSignal });\n  }\n}\n\n"
           "export function createTools(agent: Writer) {\n"
           "  const save_draft = tool({ description: 'd', inputSchema: z.object({ t: z.string() }),\n"
           "    execute: async ({ t }) => agent.saveDraft(t) });\n"
           "  const get_draft = tool({ description: 'd', inputSchema: z.object({}),\n"
           "    execute: async () => agent.currentDraft() });\n"
           "  return { save_draft, get_draft };\n}\n")
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [d.loc.line for d in lint_files(tmp_path, {"agent.ts": src}, "agent.ts", config)] == \
        [line_of(src, "const save_draft")]


@pytest.mark.parametrize("driver, writes", [
    ("import postgres from 'postgres';\nexport const sql = postgres(process.env.DATABASE_URL!);\n", True),
    ("import { neon } from '@neondatabase/serverless';\nexport const sql = neon(process.env.DATABASE_URL!);\n", True),
    ("export const sql = (s: TemplateStringsArray, ...v: unknown[]) => [s, v];\n", False),
], ids=["postgres.js", "neon", "a project function"])
def test_a_sql_tagged_template_of_a_driver_in_another_module(tmp_path, driver, writes):
    """evalJ30's Alfred: `sql<Reminder[]>\\`INSERT ...\\`` (a generic tagged template) of `export const
    sql = postgres(url)` in the client module, from a query helper a tool awaits; a SELECT reads."""
    from tests.conftest import lint_files

    queries = ("import { sql } from './client';\n\n"
               "export async function createReminder(title: string) {\n"
               "  const rows = await sql<{ id: string }[]>`INSERT INTO reminders (title) VALUES (${title}) RETURNING *`;\n"
               "  return rows[0];\n}\n\n"
               "export async function listReminders() {\n  return await sql`SELECT * FROM reminders`;\n}\n")
    main = ("import { generateText, tool } from 'ai';\nimport { z } from 'zod';\n"
            "import { createReminder, listReminders } from './queries';\n\n"
            "const tools = {\n"
            "  create: tool({ description: 'd', inputSchema: z.object({ t: z.string() }), execute: async ({ t }) => createReminder(t) }),\n"
            "  list: tool({ description: 'd', inputSchema: z.object({}), execute: async () => listReminders() }),\n};\n\n"
            "export async function run(prompt: string) {\n"
            "  return generateText({ model: 'm', tools, prompt, abortSignal: AbortSignal.timeout(60000) });\n}\n")
    files = {"main.ts": main, "queries.ts": queries, "client.ts": driver}
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [d.loc.line for d in lint_files(tmp_path, files, "main.ts", config)] == ([6] if writes else [])
