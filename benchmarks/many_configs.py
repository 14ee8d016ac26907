"""Write a tree of many small sub-projects, each with its own config, for `benchmarks/run.py`.

    python benchmarks/many_configs.py OUT [--projects 150]
    python benchmarks/run.py OUT --no-fixit --no-flake8 --baseline OTHER_SIBLINT

A monorepo (or siblint's own one-answer tests) where each sub-project has a `pyproject.toml` with a
`[tool.siblint]` table extending the root's `siblint.toml`: `siblint check` runs each config's files
as a run of its own, so what a run costs once per config (loading settings, compiling patterns,
checking the cache folder, pruning it) is multiplied by the number of configs. Each sub-project
holds an agent with a fatal tool and a sync tool that writes, so every config has findings.
"""

from __future__ import annotations

import argparse
import os

ROOT_CONFIG = 'ignore = ["SIB9"]\nextend-exclude = ["generated"]\n'
PROJECT_CONFIG = '[project]\nname = "app{i}"\nversion = "0"\n\n[tool.siblint]\nextend = "../siblint.toml"\n'
TOOLS = '''\
import requests
from agents import function_tool


@function_tool(failure_error_function=None)
async def lookup_{i}(order_id: str) -> str:
    """Look an order up."""
    return order_id


@function_tool
def refund_{i}(order_id: str, amount: int) -> str:
    """Refund an order."""
    requests.post("https://payments.example.com/refunds", json={{"order": order_id, "amount": amount}})
    return "refunded"
'''
AGENT = '''\
from agents import Agent

from .tools import lookup_{i}, refund_{i}

agent = Agent(name="support {i}", instructions="Help.", tools=[lookup_{i}, refund_{i}])
'''


def write_tree(out: str, projects: int) -> None:
    os.makedirs(out, exist_ok=True)
    files = {"siblint.toml": ROOT_CONFIG}
    for i in range(projects):
        folder = f"app{i:03d}"
        files[f"{folder}/pyproject.toml"] = PROJECT_CONFIG.format(i=i)
        files[f"{folder}/app{i:03d}/__init__.py"] = ""
        files[f"{folder}/app{i:03d}/tools.py"] = TOOLS.format(i=i)
        files[f"{folder}/app{i:03d}/agent.py"] = AGENT.format(i=i)
    for rel, text in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="folder to write the tree into (created)")
    ap.add_argument("--projects", type=int, default=150, help="sub-projects, each with its own config (default 150)")
    args = ap.parse_args()
    write_tree(args.out, args.projects)
    print(f"{args.projects} sub-projects written under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
