"""Framework knowledge as data: one module per framework, registered here.

Adding a framework means adding its module to FRAMEWORKS; no rule changes.
"""

from __future__ import annotations

from siblint.frameworks import langchain, openai_agents, pydantic_ai, strands
from siblint.frameworks.spec import Framework

FRAMEWORKS: tuple[Framework, ...] = (openai_agents.FRAMEWORK, langchain.FRAMEWORK, pydantic_ai.FRAMEWORK,
                                     strands.FRAMEWORK)


def import_roots() -> tuple[str, ...]:
    """Top-level modules whose import makes a file worth parsing."""
    return tuple(sorted({root for fw in FRAMEWORKS for root in fw.import_roots}))
