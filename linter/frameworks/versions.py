"""Premises of the rules that hold only from one release of a framework on, as data.

A `Release` names the distribution whose release changed the behaviour, the first version with the
behaviour siblint's rules assume, and the distributions that bring it in with the first of their
versions that does (a project usually pins `langgraph`, not `langgraph-prebuilt`). Which version a
project runs is read from its pins (`siblint.settings.pins`); a project that pins none of them is
taken to run the newest release, as a fresh install would.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Release:
    distribution: str  # normalised distribution name (PEP 503): `langgraph-prebuilt`
    since: str  # the first version that behaves as the rules assume
    premise: str  # what that version does, as `--show-settings` says it
    before: str  # what earlier versions did
    # (distribution, first version) pairs whose installs resolve to `since` or later: `langgraph`
    # 1.0.0 requires `langgraph-prebuilt>=1.0.0,<1.1.0`, so a fresh install gets 1.0.2 or later.
    brought_by: tuple[tuple[str, str], ...] = ()


# langgraph-prebuilt 1.0.2 replaced ToolNode's default `handle_tool_errors=True` (every exception
# becomes a ToolMessage) with `_default_handle_tool_errors`, which re-raises all but argument errors
# (READ libs/prebuilt/langgraph/prebuilt/tool_node.py at tags prebuilt==1.0.1 and prebuilt==1.0.2;
# langgraph 0.6.x requires prebuilt <0.7, langgraph 1.0.0 requires >=1.0.0,<1.1.0).
TOOL_NODE_RERAISES = Release(
    distribution="langgraph-prebuilt",
    since="1.0.2",
    premise="ToolNode's default handle_tool_errors re-raises every tool error but argument errors",
    before="ToolNode's default handle_tool_errors=True returns every tool error to the model",
    brought_by=(("langgraph", "1.0.0"),),
)
