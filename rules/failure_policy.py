"""SIB2xx: tool settings that turn one tool's failure into the end of the run.

A fatal failure makes the SDK cancel every sibling call of the same turn and raise out of the run.
Measured with openai-agents 0.24.0: ../shared/reference/openai-agents-runtime.md, S1-S3, S8, S17.
"""

from __future__ import annotations

from collections.abc import Iterator

from siblint.diagnostics import Diagnostic
from siblint.model import fatal_settings
from siblint.rule import Context, Invalid, Rule, Valid


class _FatalArgumentRule(Rule):
    """Shared check: report each argument the framework data marks as fatal under this code."""

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for setting in fatal_settings(ctx.facts):
            if setting.arg.code == self.code:
                yield self.finding(ctx, setting.value.loc, setting=setting.arg.label)


class FailureHandlerDisabled(_FatalArgumentRule):
    """
    ## What it does
    Flags a tool whose failure handler is disabled: `failure_error_function=None` on
    `function_tool` (decorator or call form, any alias, a literal `**{...}`), on `Agent.as_tool`,
    on an MCP server, or in `Agent(mcp_config=...)`.

    ## Why is this bad?
    With the handler disabled, any exception the tool raises ends the run. The SDK then cancels
    every other tool call of the same turn. A sibling that cannot observe cancellation (a sync
    tool running in a worker thread, a shielded await) still lands its side effect after the run
    has raised, and the error carries no record of it: `exc.run_data.new_items == []`.

    ## Example
    ```python
    from agents import function_tool

    @function_tool(failure_error_function=None)
    async def lookup_tax(region: str) -> str: ...
    ```

    Use instead:
    ```python
    @function_tool
    async def lookup_tax(region: str) -> str: ...
    ```
    The default handler turns the exception into a message the model sees, and the run goes on.

    ## Options
    None.
    """

    code = "SIB201"
    name = "tool-failure-handler-disabled"
    summary = "a tool's failure handler is disabled, so its errors end the run and cancel its siblings"
    message = (
        "{setting}: this tool's errors end the run and cancel every sibling call; "
        "keep the default handler or pass one that returns a message for the model"
    )
    VALID = [
        Valid("from agents import function_tool\n\n@function_tool\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\n@function_tool(failure_error_function=my_handler)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from mylib import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n"),
    ]
    INVALID = [
        Invalid("from agents import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("from agents.decorators import tool as t\n\n@t(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("import agents\n\nasync def f() -> str:\n    return 'x'\n\nT = agents.function_tool(f, failure_error_function=None)\n", lines=(6,)),
        Invalid("from agents import function_tool\n\n@function_tool(**{'failure_error_function': None})\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
    ]


class TimeoutRaises(_FatalArgumentRule):
    """
    ## What it does
    Flags a tool whose timeout raises: `timeout_behavior="raise_exception"` on `function_tool`
    or `FunctionTool` (keyword or positional index 10).

    ## Why is this bad?
    When the timeout fires, `ToolTimeoutError` escapes the run: the timeout is enforced outside
    the failure handler, so no handler can turn it into a message. Every sibling call of the same
    turn is cancelled, and a sibling that cannot observe cancellation lands its side effect after
    the run has raised (arm 7a).

    ## Example
    ```python
    @function_tool(timeout=5, timeout_behavior="raise_exception")
    async def lookup_tax(region: str) -> str: ...
    ```

    Use instead:
    ```python
    @function_tool(timeout=5)  # default "error_as_result": the model is told it timed out
    async def lookup_tax(region: str) -> str: ...
    ```

    ## Options
    None.
    """

    code = "SIB203"
    name = "tool-timeout-raises"
    summary = "a tool's timeout raises, so a slow call ends the run and cancels its siblings"
    message = (
        "{setting}: a timeout of this tool ends the run and cancels every sibling call; "
        'use the default timeout_behavior="error_as_result" so the model is told instead'
    )
    VALID = [
        Valid("from agents import function_tool\n\n@function_tool(timeout=5)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='error_as_result')\nasync def f() -> str:\n    return 'x'\n"),
    ]
    INVALID = [
        Invalid("from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='raise_exception')\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid(
            "from agents import FunctionTool\n\n"
            "T = FunctionTool('t', 'd', {}, invoke, True, True, None, None, False, 0.05, 'raise_exception')\n",
            lines=(3,),
        ),
    ]
