"""Vercel AI SDK (npm `ai`), as measured at 7.0.173 and 6.0.326 (`frameworks-wave3.md` section 8;
tests/runtime/js/test_vercel_ai.py runs 7.0.173 against the loopback fake Messages API).

A tool's error is never fatal: a throwing `execute` becomes a `tool-error` part the model sees, and
its siblings run on. What ends a run is the caller: `abortSignal` or a run `timeout` (a number of
ms, or `{ totalMs }` / `{ stepMs }`) on `generateText` / `streamText`. It aborts every running
tool's `options.abortSignal`; a tool that never observes it keeps running. v7 `streamText` ends at
once and the tool lands ~0.1 s later; `generateText` (and v6 `streamText`) waits for it, then
rejects: either way the caller holds no result for the effect. So the only hazard is the run
deadline (`Deadline`), and a tool's signal matters only where one is set (`signal_aborted_by="run"`).

`timeout: { toolMs }` and `{ tools: { <name>Ms } }` abort only that tool's own signal and keep its
result: not run deadlines. `toolCallConcurrency: 1` (v7; v6 ignores it) runs the calls one by one,
but the call running when the caller aborts still lands unrecorded, so it is no fix for this hazard
and is not read as a cap.
"""

from __future__ import annotations

from .spec import Deadline, Framework, GroupMaker, GroupSpec, Param, ToolMaker, ToolSpec

ROOT = "ai"
TOOL = f"{ROOT}.tool"
DYNAMIC_TOOL = f"{ROOT}.dynamicTool"
GENERATE = f"{ROOT}.generateText"
STREAM = f"{ROOT}.streamText"
AGENT = f"{ROOT}.ToolLoopAgent"

# The caller's run-level stops (index.js:9995-10018 in v7): a signal, or a total/step time limit.
_RUN_STOPS = (Deadline(Param("abortSignal")), Deadline(Param("timeout"), keys=("totalMs", "stepMs")))
_FIX = (
    "pass execute's options.abortSignal on to every wait and request of {victim} (fetch(url, {{ signal: "
    "abortSignal }})) or call abortSignal?.throwIfAborted() after its last await before the effect: the SDK "
    "aborts that signal when the caller's abortSignal or run timeout fires, then ends the call (v7 streamText at "
    "once, generateText once the tool returns) with no result for it; toolCallConcurrency: 1 does not help"
)

FRAMEWORK = Framework(
    name="vercel-ai",
    language="js",
    import_roots=(ROOT,),
    aliases={f"{ROOT}.Experimental_Agent": AGENT},
    tools=ToolSpec(
        # tool({ description, inputSchema, execute: async (input, { abortSignal, toolCallId, messages }) => ... });
        # dynamicTool({...}) takes the same execute.
        makers={TOOL: ToolMaker("constructor", function=Param("execute")),
                DYNAMIC_TOOL: ToolMaker("constructor", function=Param("execute"))},
        sync_runs_in="loop",
        signal=Param("options", 1),
        signal_attr="abortSignal",
        signal_aborted_by="run",
        runners=("execute",),  # `sendEmail.execute(input, options)` from another tool
        # `tool()` is an identity function that only types its argument: a plain object of that shape
        # in a tools object is a tool all the same.
        object_tool=(TOOL, ("execute",), ("inputSchema", "parameters")),
    ),
    groups=GroupSpec(
        # generateText / streamText({ model, tools: { name: tool(...) }, abortSignal, timeout, ... }): the
        # calls of one step run together (Promise.all); new ToolLoopAgent({ model, tools }) likewise.
        makers={
            GENERATE: GroupMaker(tools=Param("tools"), tools_by_name=True, deadlines=_RUN_STOPS),
            STREAM: GroupMaker(tools=Param("tools"), tools_by_name=True, deadlines=_RUN_STOPS),
            # new ToolLoopAgent({ model, tools, timeout }).generate / .stream({ prompt, abortSignal, timeout }):
            # the call's stops, else the constructor's `timeout`, go to generateText / streamText
            # (index.js:11285-11300 in v7; a constructor's `abortSignal` is overridden by the call's).
            AGENT: GroupMaker(tools=Param("tools"), tools_by_name=True, deadlines=_RUN_STOPS[1:],
                              run_methods=("generate", "stream"), run_deadlines=_RUN_STOPS),
        },
        fix=_FIX,
    ),
)
