"""openai-agents `LocalShellTool(executor=fn)`: the SDK calls the executor inline and awaits its
result only when it is awaitable (agents/run_internal/tool_actions.py:435, 0.24.0), so a sync
executor's subprocess blocks the event loop: SIB103. An async executor awaiting its process is quiet."""

from __future__ import annotations

import textwrap

from siblint.settings.config import Config

SYNC = """\
    import subprocess
    from agents import Agent
    from agents.tool import LocalShellTool

    def shell_executor(request) -> str:
        return subprocess.run(request.data.action.command, shell=True, capture_output=True, text=True).stdout

    agent = Agent(name="sh", tools=[LocalShellTool(executor=shell_executor)])
"""
ASYNC = """\
    import asyncio
    from agents import Agent
    from agents.tool import LocalShellTool

    async def shell_executor(request) -> str:
        proc = await asyncio.create_subprocess_shell(request.data.action.command)
        await proc.wait()
        return "done"

    agent = Agent(name="sh", tools=[LocalShellTool(executor=shell_executor)])
"""


def _sib1(lint, tmp_path, text: str) -> list[tuple[str, int]]:
    found = lint(textwrap.dedent(text), None, Config(root=str(tmp_path)))
    return [(d.code, d.loc.line) for d in found if d.code.startswith("SIB1")]


def test_sync_executor_blocks_the_loop(lint, tmp_path):
    assert _sib1(lint, tmp_path, SYNC) == [("SIB103", 8)]


def test_async_executor_is_quiet(lint, tmp_path):
    assert _sib1(lint, tmp_path, ASYNC) == []
