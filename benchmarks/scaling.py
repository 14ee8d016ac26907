"""The scaling arm of the benchmark (`run.py --scaling`): does one module's cost grow linearly?

For each shape of reliability-findings.md's table 3e, a module is generated with N and 4N units
(tools, agents, helpers...) and analysed in a fresh process; the growth exponent is
log(t4N / tN) / log(4): 1.0 is linear, 2.0 quadratic. For the 4N module it also times a whole
`siblint check --no-cache` against libcst's own parse of the same file. Real files given on the
command line get the second figure only. Every figure is the median CPU time (user+sys, which a
busy machine moves far less than wall time) of `--scaling-runs` runs.
"""

from __future__ import annotations

import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

POST = "    requests.post('https://x.example/{i}')\n    return ''\n"
HEAD = "import requests\nfrom agents import Agent, function_tool\n\n" \
       "@function_tool(failure_error_function=None)\nasync def fatal(x: str) -> str:\n    return ''\n\n"


def many_tools(n: int) -> str:
    """n decorated sync tools beside one fatal tool, in one Agent."""
    tools = "".join(f"@function_tool\ndef t{i}(a: int) -> str:\n" + POST.format(i=i) + "\n" for i in range(n))
    return HEAD + tools + "agent = Agent(name='a', tools=[fatal, " + ", ".join(f"t{i}" for i in range(n)) + "])\n"


def module_bindings(n: int) -> str:
    """A module-level client and URL per tool (S5's reproduction)."""
    out = ["import httpx\nfrom agents import Agent, function_tool\n\n"]
    out += [f"C{i} = httpx.Client()\nU{i} = 'https://x.example/{i}'\n" for i in range(n)]
    out.append("@function_tool(failure_error_function=None)\nasync def fatal(x: str) -> str: ...\n\n")
    out += [f"@function_tool\ndef t{i}(a: int) -> str:\n    C{i}.post(U{i})\n    return ''\n\n" for i in range(n)]
    out.append("agent = Agent(name='a', tools=[fatal, " + ", ".join(f"t{i}" for i in range(n)) + "])\n")
    return "".join(out)


def many_agents(n: int) -> str:
    """Agents each wrapping the previous one with `as_tool`."""
    out = [HEAD]
    for i in range(n):
        out.append(f"@function_tool\ndef t{i}(a: int) -> str:\n" + POST.format(i=i) + "\n")
        prev = f"a{i - 1}.as_tool(tool_name='x{i}', tool_description='d'), " if i else "fatal, "
        out.append(f"a{i} = Agent(name='a{i}', tools=[{prev}t{i}])\n\n")
    return "".join(out)


def lc_graph(n: int) -> str:
    """LangGraph: a ToolNode per pair of tools, added to one graph, and a react agent per tool."""
    out = ["import requests\nfrom langchain_core.tools import tool\nfrom langgraph.graph import StateGraph\n"
           "from langgraph.prebuilt import ToolNode, create_react_agent\n\ng = StateGraph(dict)\n\n"]
    for i in range(n):
        out.append(f"@tool\ndef t{i}(a: int) -> str:\n    \"\"\"d\"\"\"\n" + POST.format(i=i) + "\n")
        out.append(f"node{i} = ToolNode([t{i}, t{max(0, i - 1)}], handle_tool_errors=False)\n"
                   f"g.add_node('n{i}', node{i})\nagent{i} = create_react_agent('openai:gpt-4o', [t{i}])\n\n")
    return "".join(out)


def pairs(n: int) -> str:
    """n fatal and n unstoppable tools in one group."""
    out = ["import requests\nfrom agents import Agent, function_tool\n\n"]
    for i in range(n):
        out.append(f"@function_tool(failure_error_function=None)\nasync def f{i}(x: str) -> str:\n    return ''\n\n")
        out.append(f"@function_tool\ndef t{i}(a: int) -> str:\n" + POST.format(i=i) + "\n")
    names = ", ".join(f"f{i}, t{i}" for i in range(n))
    return "".join(out) + f"agent = Agent(name='a', tools=[{names}])\n"


def helper_graph(n: int) -> str:
    """Helpers that each call the previous three; the side effect sits at the bottom."""
    out = [HEAD, "def h0():\n    requests.post('https://x.example/0')\n\n"]
    for i in range(1, n):
        calls = "".join(f"    h{j}()\n" for j in range(max(0, i - 3), i))
        out.append(f"def h{i}():\n{calls}\n")
    out += [f"@function_tool\ndef t{i}(a: int) -> str:\n    h{i}()\n    return ''\n\n" for i in range(n)]
    return "".join(out) + "agent = Agent(name='a', tools=[fatal, " + ", ".join(f"t{i}" for i in range(n)) + "])\n"


def inline_tool_list(n: int) -> str:
    """A huge inline `function_tool(f)` list."""
    out = [HEAD]
    out += [f"def f{i}(a: int) -> str:\n" + POST.format(i=i) + "\n" for i in range(n)]
    return "".join(out) + "agent = Agent(name='a', tools=[fatal, " + ", ".join(f"function_tool(f{i})" for i in range(n)) + "])\n"


# name -> (generator, N). N is chosen so that 4N takes seconds, not minutes, before the analysis
# indexing (issue 12); scale them with --scaling-factor.
SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "many_tools": (many_tools, 400),
    "module_bindings": (module_bindings, 400),
    "many_agents": (many_agents, 200),
    "lc_graph": (lc_graph, 100),
    "pairs": (pairs, 200),
    "helper_graph": (helper_graph, 200),
    "inline_tool_list": (inline_tool_list, 400),
}

# Run in a fresh interpreter, from a folder of its own (nothing of the caller's cwd is imported).
ANALYSE = """
import os, sys, time
from siblint.settings.config import Config
from siblint.lint.engine import analyse, new_project
path = sys.argv[1]
data = open(path, "rb").read()
config = Config(root=os.path.dirname(path), max_file_size=len(data) + 1)
# Warm-up, untimed: the rules' registry and libcst's first parse are a fixed cost that would
# flatten the exponent of small modules.
warm = b"from agents import Agent, function_tool\\n@function_tool\\ndef t(a: int) -> str:\\n    return ''\\n"
analyse(os.path.join(os.path.dirname(path), "warm.py"), warm, config, new_project(config), prefiltered=False)
t = time.process_time()
result = analyse(path, data, config, new_project(config), prefiltered=False)
print(time.process_time() - t, len(result.diagnostics))
"""
PARSE = """
import sys, time
import libcst
text = open(sys.argv[1], encoding="utf-8").read()
t = time.process_time()
libcst.parse_module(text)
print(time.process_time() - t)
"""


def _child(code: str, path: str, cwd: str) -> float:
    out = subprocess.run([sys.executable, "-c", code, path], cwd=cwd, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


def _check_cpu(siblint: str, path: str, cwd: str) -> float:
    """CPU seconds (user+sys) of a whole `siblint check --no-cache -j1` of one file."""
    before = os.times()
    subprocess.run([siblint, "check", "--no-cache", "-j1", "--exit-zero", "--max-file-size", str(os.path.getsize(path) + 1),
                    path], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _median(runs: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(runs))


def run(siblint: str, real_files: list[str], runs: int, factor: float) -> int:
    work = tempfile.mkdtemp(prefix="siblint-scaling-")
    print(f"scaling: median CPU seconds of {runs} runs; python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'shape':<22} {'N':>6} {'t(N)':>8} {'t(4N)':>8} {'exponent':>9} {'check N':>8} {'check 4N':>9} "
          f"{'check exp':>9} {'parse 4N':>9} {'ratio':>6}")
    for name, (make, base) in SHAPES.items():
        n = max(1, round(base * factor))
        paths = []
        for size in (n, 4 * n):
            p = os.path.join(work, f"{name}_{size}.py")
            with open(p, "w", encoding="utf-8") as fh:
                fh.write(make(size))
            paths.append(p)
        t1 = _median(runs, lambda: _child(ANALYSE, paths[0], work))
        t4 = _median(runs, lambda: _child(ANALYSE, paths[1], work))
        exponent = math.log(t4 / t1) / math.log(4) if t1 > 0 and t4 > 0 else float("nan")
        _print_row(name, n, t1, t4, exponent, siblint, paths[1], work, runs, small=paths[0])
    for path in real_files:
        path = os.path.abspath(path)
        t = _median(runs, lambda: _child(ANALYSE, path, work))
        _print_row(os.path.basename(path), None, t, None, None, siblint, path, work, runs)
    print("(t: analysis of one module in process, parse to findings; check: the whole command, start-up "
          "and the summary's fix hint included, whose exponent start-up flattens; ratio = check 4N / parse 4N)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _print_row(name: str, n: int | None, t1: float, t4: float | None, exponent: float | None, siblint: str,
               path: str, work: str, runs: int, small: str | None = None) -> None:
    """`small`: the N module, whose whole check gives the command's own exponent (the in-process
    figure leaves out what only the command does, like the fix hint that was once quadratic)."""
    check = _median(runs, lambda: _check_cpu(siblint, path, work))
    check_n = _median(runs, lambda: _check_cpu(siblint, small, work)) if small else None
    check_exp = math.log(check / check_n) / math.log(4) if check_n and check > 0 else None
    parse = _median(runs, lambda: _child(PARSE, path, work))
    cols = [f"{name:<22}", f"{n if n is not None else '-':>6}", f"{t1:>8.2f}",
            f"{t4:>8.2f}" if t4 is not None else f"{'-':>8}",
            f"{exponent:>9.2f}" if exponent is not None else f"{'-':>9}",
            f"{check_n:>8.2f}" if check_n is not None else f"{'-':>8}", f"{check:>9.2f}",
            f"{check_exp:>9.2f}" if check_exp is not None else f"{'-':>9}",
            f"{parse:>9.2f}", f"{check / parse:>6.1f}" if parse > 0 else f"{'-':>6}"]
    print(" ".join(cols), flush=True)
