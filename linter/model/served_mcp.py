"""An MCP server of the same repository that a tool's client starts by its script's path
(fastmcp's `Client("server_calculator.py")`): the tool it calls by name is the server's own, so what
that tool does is the call's effect, in place of what its name suggests. A calculator's `add` only
adds: its name's write verb names no effect. Only a served tool found with no effect of its own
changes the verdict; anything siblint cannot find stays the call it was (`siblint.effects.mcp`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..effects import Effect, receiver_of
from ..syntax.facts import Call, ModuleFacts, Ref
from .project import ProjectIndex
from .semantic import Scope, canonical

if TYPE_CHECKING:
    from .tools import Tool

# Clients that start the server they are given as a Python script's path.
SCRIPT_CLIENTS = frozenset({"fastmcp.Client", "fastmcp.client.Client"})


def served_tool(effect: Effect, scope: Scope, project: ProjectIndex) -> "Tool | None":
    """The tool named by an MCP call (`client.call_tool("add", ...)`) on a client built with a
    script of this repository, found in that script's server."""
    from .tools import tools_in

    receiver = receiver_of(effect.call.func)
    made = scope.value(receiver.text) if isinstance(receiver, Ref) else None
    if not isinstance(made, Call) or not isinstance(made.func, Ref) or canonical(made.func.name)[1] not in SCRIPT_CLIENTS:
        return None
    script = scope.text(made.arg(0, "transport"))
    if not script or not script.endswith(".py") or os.path.isabs(script):
        return None
    server = _server_facts(scope.facts, script, project)
    found = [t for t in tools_in(server) if t.name == effect.target] if server is not None else []
    return found[0] if len(found) == 1 else None


def _server_facts(client: ModuleFacts, script: str, project: ProjectIndex) -> ModuleFacts | None:
    """The script beside the client's module, else under one of the run's roots; only a file the
    run itself checks (not `../../elsewhere.py`, nor an excluded one)."""
    for base in (os.path.dirname(client.path), *project.roots):
        path = os.path.normpath(os.path.join(base, script))
        if os.path.isfile(path) and project.scans(path):
            return project.facts_for_path(path)
    return None
