"""A request to the app's own server: `fetch('/api/responses', { method: 'POST' })` from a tool of
a Next.js app runs the route handler the App Router maps that path to (`app/api/responses/route.ts`,
its exported `POST`). What the handler does is the request's effect, in place of "a POST to an API
siblint cannot see": a proxy to a model reads, a handler writing a table writes. Only a path the
source spells from its root (no host) is looked up, a part siblint cannot read (`${listId}`) standing
only for a dynamic segment (`[id]`), and only one route may match it; anything else stays the
request it was."""

from __future__ import annotations

import os

from ..effects import Effect
from ..syntax.facts import FunctionFacts, ModuleFacts
from ..syntax.prefilter import JS_EXTENSIONS
from .project import ProjectIndex


def route_pattern(path: str) -> str | None:
    """The URL path the App Router serves the file at `path` under (`/api/lists/[id]/words`), None
    when it is no route file. Route groups (`(shop)`) and parallel slots (`@modal`) add nothing."""
    parts = path.replace(os.sep, "/").split("/")
    if os.path.splitext(parts[-1])[0] != "route" or "app" not in parts[:-1]:
        return None
    start = len(parts) - 1 - parts[:-1][::-1].index("app")
    kept = [p for p in parts[start:-1] if not (p.startswith("(") and p.endswith(")")) and not p.startswith("@")]
    return "/" + "/".join(kept)


def _matches(pattern: list[str], path: list[str]) -> bool:
    """Does a route's pattern serve the path's segments (`[id]` any one, `[...slug]` one or more,
    `[[...slug]]` any number at the end)?"""
    if pattern and pattern[-1].startswith(("[...", "[[...")):
        least = len(pattern) - (1 if pattern[-1].startswith("[[") else 0)
        return len(path) >= least and _matches(pattern[:-1], path[:len(pattern) - 1])
    return len(pattern) == len(path) and all(
        (p == s and "{}" not in s) or (p.startswith("[") and p.endswith("]")) for p, s in zip(pattern, path))


def served_route(effect: Effect, facts: ModuleFacts, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The handler of the app's own route a TS/JS request names by its path (`/api/responses`)."""
    target = effect.target
    if effect.kind != "http" or not effect.method or not target.startswith("/") or target.startswith("//") \
            or "$" in target or not facts.path.endswith(JS_EXTENSIONS):
        return None
    wanted = target.partition("?")[0].partition("#")[0].strip("/").split("/")
    found = [path for pattern, path in project.served_routes().items() if _matches(pattern.strip("/").split("/"), wanted)]
    if len(found) != 1:
        return None
    route = project.facts_for_path(found[0])
    handler = route.functions.get(effect.method) if route is not None else None
    return (route, handler) if route is not None and handler is not None else None
