"""Framework knowledge as data: one module per framework, registered here.

Adding a framework means adding its module to FRAMEWORKS; no rule changes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from functools import lru_cache

from . import (
    agent_framework,
    claude_agent_sdk,
    crewai,
    fastmcp,
    google_adk,
    haystack,
    langchain,
    langchain_js,
    llama_index,
    mcp_sdk,
    openai_agents,
    openai_agents_js,
    pydantic_ai,
    semantic_kernel,
    strands,
    vercel_ai,
)
from .spec import Framework

FRAMEWORKS: tuple[Framework, ...] = (openai_agents.FRAMEWORK, langchain.FRAMEWORK, pydantic_ai.FRAMEWORK,
                                     google_adk.FRAMEWORK, llama_index.FRAMEWORK, crewai.FRAMEWORK,
                                     strands.FRAMEWORK, openai_agents_js.FRAMEWORK,
                                     agent_framework.FRAMEWORK, haystack.FRAMEWORK,
                                     semantic_kernel.FRAMEWORK, claude_agent_sdk.FRAMEWORK,
                                     langchain_js.FRAMEWORK, vercel_ai.FRAMEWORK, fastmcp.FRAMEWORK,
                                     mcp_sdk.V1, mcp_sdk.V2)


def import_roots(language: str | None = None) -> tuple[str, ...]:
    """Top-level modules whose import makes a file worth parsing (of one language's frameworks when given)."""
    return tuple(sorted({root for fw in FRAMEWORKS if language in (None, fw.language) for root in fw.import_roots}))


def plain_function_roots() -> tuple[str, ...]:
    """Import roots of the frameworks whose groups make tools of plain functions (`Agent(tools=[f])`):
    only a module importing one of them can make a tool of a function defined elsewhere."""
    return tuple(sorted({root for fw in FRAMEWORKS
                         if any(m.plain_functions_are_tools for m in fw.groups.makers.values())
                         for root in fw.import_roots}))


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


@lru_cache(maxsize=1)
def tool_body_names() -> frozenset[str]:
    """What a tool function uses of its framework without making a tool or a group: what the framework
    hands it as a parameter (ADK's `ToolContext`, pydantic-ai's `RunContext`, LangChain's
    `ToolRuntime`) and the exceptions it raises to be heard or to end the run (`ModelRetry`,
    `ToolException`), and the markers of the parameters it fills in (`InjectedToolArg`). A module
    importing only these hands its functions to agent code elsewhere."""
    return frozenset(name for fw in FRAMEWORKS for name in (
        *fw.tools.context_attrs, *fw.tools.call_ids, *fw.tools.injected, *fw.failure.visible_exceptions,
        *fw.failure.fatal_exceptions,
        *(e for names in fw.failure.visible_when.values() for e in names)))


@lru_cache(maxsize=1)
def context_wrappers() -> frozenset[str]:
    """The generic types a tool receives its run context in (`RunContextWrapper[AppCtx]`,
    `RunContext<AppContext>`): their type argument is the context object's type."""
    return frozenset(name for fw in FRAMEWORKS for name in fw.tools.context_attrs)


@lru_cache(maxsize=1)
def tool_runners() -> frozenset[str]:
    """Attributes of a tool object that run the function it was made of (`tool.invoke`, `tool.func`)."""
    return frozenset(name for fw in FRAMEWORKS for name in fw.tools.runners)


@lru_cache(maxsize=1)
def framework_modules() -> frozenset[str]:
    """Modules the frameworks' data names inside their packages (`agents.tool`, `agents.run`): a
    project package holding one of them is that framework's own code (its repository, a vendored copy)."""
    return frozenset(text.rsplit(".", 1)[0] for fw in FRAMEWORKS for text in _strings(fw)
                     if _DOTTED.fullmatch(text) and text.count(".") >= 2)


@lru_cache(maxsize=1)
def tool_making_names() -> frozenset[str]:
    """Canonical names that make tools or groups: tool makers, tool base classes, toolsets, group
    makers and the constructors whose methods make either (`Agent` of `@agent.tool`). A module that
    imports none of them makes no tool of its own functions: importers may list them."""
    return frozenset(name for fw in FRAMEWORKS for name in (
        *fw.tools.makers, *fw.tools.base_classes, *fw.tools.method_toolsets, *fw.tools.toolsets,
        *fw.tools.member_classes, *(ctor for ctor, _ in fw.tools.methods), *fw.groups.makers,
        *(ctor for ctor, _ in fw.groups.methods)))


@lru_cache(maxsize=1)
def maker_words() -> frozenset[str]:
    """The last parts of the Python frameworks' tool makers (`function_tool`, `tool`): a project
    module may hand one on under its own name (`from app.common import function_tool`)."""
    return frozenset(name.rpartition(".")[2] for fw in FRAMEWORKS if fw.language == "python" for name in fw.tools.makers)


@lru_cache(maxsize=1)
def method_maker_words() -> frozenset[str]:
    """The Python frameworks' decorator methods that make a tool of what they decorate (`tool` of
    `@mcp.tool()`, `tool_plain` of `@agent.tool_plain`): its receiver may be another module's."""
    return frozenset(method for fw in FRAMEWORKS if fw.language == "python"
                     for (_, method), maker in fw.tools.methods.items() if maker.kind == "decorator")


@lru_cache(maxsize=1)
def tool_base_words() -> frozenset[str]:
    """The last parts of the Python frameworks' tool base classes (`BaseTool`, `BaseToolSpec`): a
    project class naming one among its bases may hand it on to subclasses in other modules."""
    return frozenset(name.rpartition(".")[2] for fw in FRAMEWORKS if fw.language == "python"
                     for name in (*fw.tools.base_classes, *fw.tools.method_toolsets, *fw.tools.member_classes))


def _strings(value: object) -> Iterator[str]:
    """Every string in a piece of framework data: dataclass fields, dict keys and values, sequences."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _strings(item)


@lru_cache(maxsize=None)
def vocabulary() -> frozenset[str]:
    """The names a Python module spells where it uses a framework: the symbol each dotted framework
    name in the data ends with (`agents.function_tool` -> `function_tool`), or the class of a
    method (`agents.Runner.run` -> `Runner`: the engine knows a receiver only from a constructor
    or an annotation, which names the class). From every part of every framework's data (tool and
    group makers, settings, hooks, middleware, retries), so a new entry is covered; but for graph
    builders (`StateGraph`) and their aliases, which anchor nothing alone: a node's retry policy is
    judged only when the node runs a group made in the same module (`analyses.retries.node_retries`),
    which spells that group's maker."""
    roots = import_roots("python")
    words: set[str] = set()
    for fw in FRAMEWORKS:
        if fw.language != "python":
            continue
        builders = fw.retries.builders
        anchors = dataclasses.replace(fw, retries=dataclasses.replace(fw.retries, builders=()),
                                      aliases={k: v for k, v in fw.aliases.items() if v not in builders})
        for text in _strings(anchors):
            if _DOTTED.fullmatch(text) and any(text == r or text.startswith(r + ".") for r in roots):
                parts = text.split(".")
                words.add(parts[-2] if parts[-2][:1].isupper() else parts[-1])
        # A method of a receiver named by a pattern (`agent_framework.*Client`): the method names it.
        words.update(method for built, method in (*fw.groups.methods, *fw.tools.methods) if "*" in built)
    return frozenset(words)


_IDENTIFIERS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


@lru_cache(maxsize=None)
def data_words() -> frozenset[str]:
    """Every identifier the Python frameworks' data spells, as its dotted parts (`agents.Runner.run`
    -> `agents`, `Runner`, `run`), keyword and attribute names included (`failure_error_function`,
    `tools`, `append`), with `vocabulary()`: a statement of a test function that spells none of them
    makes no tool, group or setting (siblint.syntax.elision). Broader than `vocabulary` on purpose."""
    words: set[str] = set(vocabulary())
    for fw in FRAMEWORKS:
        if fw.language != "python":
            continue
        for text in _strings(fw):
            if _IDENTIFIERS.fullmatch(text):
                words.update(text.split("."))
    return frozenset(words)

