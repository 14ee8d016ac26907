"""OpenAI Agents SDK for JavaScript/TypeScript (`@openai/agents`, `@openai/agents-core`), as measured
at 0.18.0 and 0.20.0 (same behaviour; /work/shared/reference/openai-agents-js.md, dist file:line
there).

One turn's tool calls share one AbortController: the first fatal failure aborts every sibling's
`details.signal` with SiblingCancellationError, `Promise.allSettled` waits for them all, then the
run throws. A sibling that never observes its signal lands its effect and `err.state` keeps no
output of it. Options are properties of one object (`tool({ ... })`): the JS collector lists them
as keyword arguments (siblint.js.collector), so `Param("errorFunction")` reads them.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    FailureSpec,
    FatalArg,
    Framework,
    GroupMaker,
    GroupSpec,
    Param,
    ToolMaker,
    ToolSpec,
)

ROOT = "@openai/agents"
CORE = "@openai/agents-core"
# Voice agents' package (also `@openai/agents/realtime`): its `tool` is the core's, re-exported.
REALTIME = "@openai/agents-realtime"
TOOL = f"{ROOT}.tool"
AGENT = f"{ROOT}.Agent"
RUN = f"{ROOT}.run"
RUNNER = f"{ROOT}.Runner"
MCP_SERVERS = tuple(f"{ROOT}.{n}" for n in ("MCPServerStdio", "MCPServerStreamableHttp", "MCPServerSSE"))
# Agents of the SDK's other entry points take the same `tools` (sandbox agents run tools the same way).
_AGENT_CLASSES = ("Agent", "SandboxAgent")

# `errorFunction` default is defaultToolErrorFunction; null rethrows (tool.js:863); a handler that
# throws rethrows too (tool.js:929). Undefined with `outputSchema` becomes null (tool.js:748-752).
_HANDLER = (
    FatalArg("handler_disabled", Param("errorFunction"), (None,), "errorFunction: null"),
    FatalArg("handler_disabled", Param("errorFunction"), (), "errorFunction {fault}", when=("raises",)),
)
_TOOL_FATAL = (
    *_HANDLER,
    FatalArg("handler_disabled", Param("outputSchema"), (), "outputSchema without errorFunction (the SDK then sets "
             "errorFunction to null; fatal on the Responses API, the default)", present=True, unless="errorFunction"),
    # timeoutBehavior defaults to 'error_as_result' (tool.js:595); 'raise_exception' throws
    # ToolTimeoutError (tool.js:661); with outputSchema the default is 'raise_exception' (tool.js:757).
    FatalArg("timeout_raises", Param("timeoutBehavior"), ("raise_exception",), "timeoutBehavior: 'raise_exception'"),
    FatalArg("timeout_raises", Param("timeoutMs"), (), "timeoutMs with outputSchema (timeoutBehavior then defaults to "
             "'raise_exception')", present=True, unless="timeoutBehavior", requires="outputSchema"),
)
_MCP_CONFIG = (FatalArg("handler_disabled", Param("mcpConfig"), (None,), "mcpConfig.errorFunction: null", key="errorFunction"),
               FatalArg("handler_disabled", Param("mcpConfig"), (), "mcpConfig.errorFunction {fault}", key="errorFunction",
                        when=("raises",)))

FRAMEWORK = Framework(
    name="openai-agents-js",
    language="js",
    import_roots=(ROOT, CORE, REALTIME, f"{ROOT}/realtime"),
    aliases={
        f"{CORE}.tool": TOOL,
        f"{REALTIME}.tool": TOOL,
        f"{ROOT}/realtime.tool": TOOL,
        **{f"{r}.{n}": f"{ROOT}.{n}" for r in (CORE,) for n in ("Agent", "run", "Runner", "MCPServerStdio",
                                                                  "MCPServerStreamableHttp", "MCPServerSSE")},
        # `Agent.create({...})` builds the same agent as `new Agent({...})`.
        **{f"{r}.{a}.create": AGENT for r in (ROOT, CORE) for a in _AGENT_CLASSES},
        **{f"{r}.SandboxAgent": AGENT for r in (ROOT, CORE)},
    },
    tools=ToolSpec(
        # tool({ name, parameters, execute, errorFunction, timeoutMs, timeoutBehavior, outputSchema, ... })
        makers={TOOL: ToolMaker("constructor", function=Param("execute"), name=Param("name"))},
        runners=("invoke",),  # FunctionTool.invoke(runContext, input) from another tool
        methods={(AGENT, "asTool"): ToolMaker("constructor", name=Param("toolName"))},
        servers=MCP_SERVERS,
        sync_runs_in="loop",  # a non-async execute runs on the event loop like any other
        # execute(input, runContext, details): details.signal is the sibling controller's signal
        # (runner/toolExecution.js:833), undefined on a one-call turn without a run signal.
        signal=Param("details", 2),
        signal_attr="signal",
        # execute(input, runContext): `runContext.context` is the object `run(agent, input, { context })`
        # was given, of the type `RunContext<AppContext>` names.
        context_attrs={f"{ROOT}.RunContext": "context", f"{CORE}.RunContext": "context"},
    ),
    groups=GroupSpec(
        makers={AGENT: GroupMaker(tools=Param("tools"), servers=Param("mcpServers"), name=Param("name"))},
        # agent.clone({...}) is new Agent({ ...this, ...config }): without `tools` it shares the array (agent.js:221).
        methods={(AGENT, "clone"): GroupMaker(tools=Param("tools"), servers=Param("mcpServers"), keeps_receiver_tools=True)},
        tools_attr="tools",
        add_methods={"push": "items", "unshift": "items"},
        fix=("serialise the turn with toolExecution: {{ maxFunctionToolConcurrency: 1 }} (new Runner({{...}}) or run(agent, "
             "input, {{...}})), make {victim} observe details.signal, or let {fatal}'s errors reach the model"),
    ),
    failure=FailureSpec(
        args={
            TOOL: _TOOL_FATAL,
            **{n: _HANDLER for n in MCP_SERVERS},  # a server's own errorFunction (mcp.js:670)
            AGENT: _MCP_CONFIG,
        },
        # A server-level errorFunction wins over mcpConfig's (mcp.js:670, measured: handler + mcpConfig null completes).
        inherited_by_servers={AGENT: (_MCP_CONFIG, "errorFunction")},
    ),
    concurrency=ConcurrencySpec(
        # run(agent, input, { toolExecution: { maxFunctionToolConcurrency: 1 } }) (run.js:228).
        runners={RUN: (Param("agent", 0), Param("options", 2))},
        # new Runner({ toolExecution: {...} }).run(agent, input, options): the per-run option wins.
        runner_objects={RUNNER: (Param("config", 0), {"run": (Param("agent", 0), Param("options", 2))})},
        cap=("toolExecution", "maxFunctionToolConcurrency"),
        # modelSettings.parallelToolCalls is only sent to the provider as parallel_tool_calls
        # (openaiChatCompletionsModel.js:445): measured, two returned calls still ran together.
        hint=("modelSettings", "parallelToolCalls"),
        hint_note="; modelSettings.parallelToolCalls: false is only a provider hint: the SDK still runs every "
                  "returned call concurrently",
    ),
)
