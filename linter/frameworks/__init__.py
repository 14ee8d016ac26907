"""Framework knowledge as data: one module per framework, registered here.

Adding a framework means adding its module to FRAMEWORKS; no rule changes.
"""

from __future__ import annotations

from . import (
    agent_framework,
    claude_agent_sdk,
    crewai,
    google_adk,
    haystack,
    langchain,
    langchain_js,
    llama_index,
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
                                     langchain_js.FRAMEWORK, vercel_ai.FRAMEWORK)


def import_roots(language: str | None = None) -> tuple[str, ...]:
    """Top-level modules whose import makes a file worth parsing (of one language's frameworks when given)."""
    return tuple(sorted({root for fw in FRAMEWORKS if language in (None, fw.language) for root in fw.import_roots}))


def plain_function_roots() -> tuple[str, ...]:
    """Import roots of the frameworks whose groups make tools of plain functions (`Agent(tools=[f])`):
    only a module importing one of them can make a tool of a function defined elsewhere."""
    return tuple(sorted({root for fw in FRAMEWORKS
                         if any(m.plain_functions_are_tools for m in fw.groups.makers.values())
                         for root in fw.import_roots}))
