"""How much of what agent tools call siblint understands.

    python benchmarks/coverage.py REPO... [--top N] [--json OUT]

For every tool of every repository, the engine's own call-graph walk (`siblint.model.callgraph.walk`)
is run, and each call it reaches is put in one of these bins:

* `project`: followed into a project function (the walk entered it);
* `effect`: a library call the effect table classifies as a side effect;
* `known`: a call into a library siblint knows (a root of the effect table, the standard library,
  a builtin, an agent framework, a library `siblint.effects.readonly.READ_ONLY_LIBRARIES` lists as
  one that only reads or computes): when no row matched, it reads;
* `unresolved`: a call into an imported third-party library the table does not know (by the
  callee's resolved name, or by the constructor that built its receiver);
* `local`: a method of a value siblint cannot type (`items.append`, `text.strip`), left out of the share.

It prints the resolved share, (project + effect + known) / (those + unresolved), and the
unresolved external calls ranked by how many tools they occur in. Nothing is imported or run from
the checked repositories.
"""

from __future__ import annotations

import argparse
import builtins
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from siblint.effects import LIBRARY_ROOTS, method_name, receiver_of
from siblint.effects.readonly import READ_ONLY_LIBRARIES
from siblint.lint.engine import load_facts
from siblint.model.callgraph import Site, Visit, walk
from siblint.model.groups import listed_by_importers
from siblint.model.project import ProjectIndex, project_root
from siblint.model.semantic import canonical
from siblint.model.tools import Tool, module_tools
from siblint.run.discovery import discover
from siblint.settings.config import Config
from siblint.settings.excludes import Skip
from siblint.syntax.facts import ModuleFacts

KNOWN_ROOTS = (frozenset(LIBRARY_ROOTS) | READ_ONLY_LIBRARIES | frozenset(sys.stdlib_module_names)
               | {"builtins", "typing_extensions"})
BUILTINS = frozenset(dir(builtins))


@dataclass
class Tally:
    bins: Counter = field(default_factory=Counter)
    tools: int = 0
    walked: int = 0
    unresolved: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # name -> tool keys

    def share(self) -> float:
        resolved = self.bins["project"] + self.bins["effect"] + self.bins["known"]
        total = resolved + self.bins["unresolved"]
        return resolved / total if total else 1.0


def _root(name: str) -> str:
    return name.split(".", 1)[0]


def _external(facts: ModuleFacts, project: ProjectIndex, name: str) -> bool:
    """`name` (a resolved dotted name) comes from an import that is not project code."""
    root = _root(name)
    if not name or root in ("self", "cls"):
        return False
    imported = any(_root(target) == root for target in facts.imports.values())
    return imported and project.locate(root) is None


def classify(site: Site, project: ProjectIndex) -> tuple[str, str]:
    """(bin, the name the call is ranked under) for a call the walk did not follow."""
    if site.effect is not None:
        return "effect", ""
    call, scope = site.call, site.scope
    callee = call.callee
    receiver = receiver_of(call.func)
    ctor = scope.constructor(receiver) if receiver is not None else ""
    for name, shown in ((ctor, f"{ctor}().{method_name(call.func)}"), (callee, callee)):
        if not name:
            continue
        if _root(name) in KNOWN_ROOTS or canonical(name)[0] is not None:
            return "known", ""
        if _external(site.facts, project, name):
            return "unresolved", shown
    if callee and "." not in callee and callee in BUILTINS:
        return "known", ""
    return "local", ""


def repo_tools(repo: str) -> tuple[ProjectIndex, Config, list[Tool]]:
    config = Config(root=os.path.abspath(repo))
    files = [f for f in discover([repo], config).files if f.endswith(".py")]
    # The roots a run uses: the project's, with every application root below it found as the engine finds them.
    project = ProjectIndex([project_root(config)], loader=lambda p: load_facts(p, config.max_file_size), skip=Skip(config))
    tools: dict[tuple, Tool] = {}
    for path in files:
        facts = project.facts_for_path(path)
        if facts is None:
            continue
        found = module_tools(facts, project)
        if not any(canonical(t)[0] is not None for t in facts.imports.values()):
            found += [t for t, _ in listed_by_importers(facts, project)]
        for tool in found:
            tools.setdefault((tool.path, tool.key), tool)
    return project, config, list(tools.values())


def measure(repo: str, tally: Tally) -> None:
    project, config, tools = repo_tools(repo)
    for tool in tools:
        tally.tools += 1
        w = walk(tool, project, config)
        if w is None:
            continue
        tally.walked += 1
        seen: set[tuple] = set()
        for event in w.events:
            if isinstance(event, Visit):
                if event.entered_at is not None and ("v", event.facts.path, event.entered_at) not in seen:
                    seen.add(("v", event.facts.path, event.entered_at))
                    tally.bins["project"] += 1
                continue
            key = (event.facts.path, event.call.loc)
            if key in seen:
                continue
            seen.add(key)
            where, name = classify(event, project)
            tally.bins[where] += 1
            if name:
                tally.unresolved[name].add(f"{os.path.basename(os.path.abspath(repo))}:{tool.path}:{tool.key}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", help="write the bins and the whole ranking here")
    parser.add_argument("--no-read-only-libraries", action="store_true",
                        help="count calls into READ_ONLY_LIBRARIES as unresolved (to compare with older releases)")
    args = parser.parse_args(argv)
    if args.no_read_only_libraries:
        global KNOWN_ROOTS
        KNOWN_ROOTS = KNOWN_ROOTS - (READ_ONLY_LIBRARIES - LIBRARY_ROOTS)
    tally = Tally()
    for repo in args.repos:
        try:
            measure(repo, tally)
        except RecursionError as exc:  # a pathological tree must not stop the survey
            print(f"coverage: {repo}: {exc}", file=sys.stderr)
    ranking = sorted(tally.unresolved.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    print(f"repos {len(args.repos)}  tools {tally.tools} (walked {tally.walked})")
    print("calls: " + "  ".join(f"{k} {tally.bins[k]}" for k in ("project", "effect", "known", "unresolved", "local")))
    print(f"resolved share {tally.share():.3f}")
    print("unresolved external calls, by tools they occur in:")
    for name, where in ranking[: args.top]:
        print(f"{len(where):5d}  {name}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"bins": dict(tally.bins), "share": tally.share(), "tools": tally.tools,
                       "ranking": [[n, sorted(w)] for n, w in ranking]}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
