"""semantic-kernel (`semantic-kernel`), as measured at 1.45.0.

The runtime behaviour is shown by tests/runtime/test_semantic_kernel_runtime.py, run with that
version (and by `frameworks-wave3.md` section 5). Signatures re-checked with `inspect.signature`.

The auto-invoke loop runs every function call of a response with `asyncio.gather`, without
`return_exceptions` and without cancelling anything; a sync `@kernel_function` runs inline on the
event loop. A function's exception (and a raising `FUNCTION_INVOCATION` filter) becomes a result
the model sees; an `AUTO_FUNCTION_INVOCATION` filter that raises ends the run: the gather raises at
once and every async sibling, awaiting ones too, lands after the raise, with no result in the
thread. `context.terminate = True` in that filter stops gracefully instead. No switch serialises
the calls (`parallel_tool_calls` only goes to the provider).
"""

from __future__ import annotations

from .spec import (
    Framework,
    GroupMaker,
    GroupSpec,
    HookSpec,
    Param,
    ToolMaker,
    ToolSpec,
)

KERNEL_FUNCTION = "semantic_kernel.functions.kernel_function"
AGENT = "semantic_kernel.agents.ChatCompletionAgent"
AUTO_INVOCATION = "semantic_kernel.filters.FilterTypes.AUTO_FUNCTION_INVOCATION"

FRAMEWORK = Framework(
    name="semantic-kernel",
    import_roots=("semantic_kernel",),
    aliases={
        "semantic_kernel.functions.kernel_function_decorator.kernel_function": KERNEL_FUNCTION,
        "semantic_kernel.agents.chat_completion.chat_completion_agent.ChatCompletionAgent": AGENT,
        "semantic_kernel.filters.filter_types.FilterTypes.AUTO_FUNCTION_INVOCATION": AUTO_INVOCATION,
    },
    tools=ToolSpec(
        # kernel_function(func=None, name=None, description=None): `@kernel_function`, `@kernel_function(...)`
        # on a plugin class's methods.
        makers={KERNEL_FUNCTION: ToolMaker("decorator", function=Param("func", 0), name=Param("name", 1))},
        # A plugin is any object with such methods (`plugins=[Billing()]`, `kernel.add_plugin(Billing())`).
        any_class_members=True,
        # KernelFunctionFromMethod._invoke_internal calls a sync method inline (kernel_function_from_method.py:103-107).
        sync_runs_in="loop",
        sync_fix=("semantic-kernel cancels nothing, so an async function would land all the same: make sure no "
                  "AUTO_FUNCTION_INVOCATION filter of its kernel raises (set context.terminate = True instead)"),
    ),
    groups=GroupSpec(
        # ChatCompletionAgent(*, ..., kernel=None, name=None, plugins=None, service=None, ...): the agent's
        # plugins and its kernel's (`kernel.add_plugin(obj, plugin_name=None, ...)`) are offered together.
        makers={AGENT: GroupMaker(toolsets=Param("plugins"), name=Param("name"), holder=Param("kernel"),
                                  cancels_siblings=False)},
        holder_methods={"add_plugin": Param("plugin", 0)},
        fix=(
            "set context.terminate = True in the filter instead of raising, so the run returns with every result; "
            "semantic-kernel cancels nothing, so {victim} lands after the raise whatever it awaits, and the thread "
            "keeps none of the turn's results"
        ),
    ),
    hooks=HookSpec(
        # kernel.add_filter(filter_type, filter): an AUTO_FUNCTION_INVOCATION filter runs around every call
        # outside the function's own error handling, before or after `await next(context)` (kernel.py:444-448).
        events={AUTO_INVOCATION: "before"},
        register={"add_filter": (Param("filter", 1), Param("filter_type", 0))},
        # @kernel.filter(filter_type) on the filter function (kernel_filters_extension.py:60).
        register_decorators={"filter": Param("filter_type", 0)},
        noun="auto function invocation filter",
        fix=("set context.terminate = True (or put an error message in context.function_result) so the run "
             "returns; a raise leaves every other call of the turn running, and the thread keeps none of their results"),
    ),
    # No SIB1xx example spelling: a sync function runs inline (SIB103, not SIB101), and functions are
    # methods of a plugin class, which the examples' module-level functions are not.
)
