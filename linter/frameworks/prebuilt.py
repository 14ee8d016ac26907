"""Prebuilt tools of tool packages, as data: the ones whose call writes to the outside world.

An agent is often built from tools nobody in the project wrote: `Agent(tools=[shell, file_write])`
from `strands_tools`, LangChain community tools and toolkits (`GmailSendMessage(...)`,
`FileManagementToolkit(...).get_tools()`), `crewai_tools` (`FileWriterTool()`), llama-index tool
specs (`GmailToolSpec().to_tool_list()`). Each entry says what the tool does that cannot be taken
back, and which framework's tool protocol it implements: that framework's runner decides how it
runs (every entry is a sync function or `_run`, so a worker thread where `ToolSpec.sync_runs_in` is
"thread"). Read-only tools (search, file readers, calculators) are not listed. google-adk's
built-ins (`google_search`, code execution) run on the model provider's side: none is listed.

A name is matched by its package root and its last dotted part, since each package re-exports its
tools from several modules (`langchain_community.tools.GmailSendMessage`,
`langchain_community.tools.gmail.send_message.GmailSendMessage`; in JS the npm package of the
module, `@langchain/community/tools/gmail.GmailSendMessage`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Prebuilt:
    effect: str  # what one call does that cannot be taken back
    framework: str  # the framework whose tool protocol it implements (`Framework.name`)


def _entries(framework: str, roots: tuple[str, ...], names: dict[str, str]) -> dict[tuple[str, str], Prebuilt]:
    return {(root, name): Prebuilt(effect, framework) for root in roots for name, effect in names.items()}


_STRANDS_TOOLS = {  # module tools (`TOOL_SPEC` + a sync function) and `@tool` functions of strands-agents-tools
    "shell": "runs shell commands",
    "python_repl": "runs Python code",
    "file_write": "writes a file",
    "editor": "edits files",
    "use_aws": "calls any AWS API operation",
    "http_request": "sends HTTP requests of any method",
    "mem0_memory": "writes to a mem0 memory store",
    "journal": "writes journal files",
    "cron": "edits the crontab",
    "slack": "posts to Slack",
    "use_computer": "clicks and types on the desktop",
    "generate_image": "writes generated images to files",
    "nova_reels": "starts Nova Reel video jobs",
    "agent_core_memory": "writes to AgentCore memory",
    "store_in_kb": "writes to a knowledge base",
}
_LANGCHAIN_TOOLS = {  # BaseTool subclasses with a sync `_run`
    "GmailCreateDraft": "creates a Gmail draft",
    "GmailSendMessage": "sends an email",
    "WriteFileTool": "writes a file",
    "DeleteFileTool": "deletes a file",
    "MoveFileTool": "moves a file",
    "CopyFileTool": "copies a file",
    "ShellTool": "runs shell commands",
    "PythonREPLTool": "runs Python code",
    "PythonAstREPLTool": "runs Python code",
    "SlackSendMessage": "posts to Slack",
    "SlackScheduleMessage": "schedules a Slack message",
    "RequestsPostTool": "sends a POST request",
    "RequestsPutTool": "sends a PUT request",
    "RequestsPatchTool": "sends a PATCH request",
    "RequestsDeleteTool": "sends a DELETE request",
    "JiraAction": "creates and changes Jira issues",
    "GitHubAction": "changes a GitHub repository",
}
_LANGCHAIN_TOOLKITS = {  # toolkits whose `get_tools()` includes writing tools
    "GmailToolkit": "sends email and creates drafts",
    "FileManagementToolkit": "writes, moves and deletes files",
    "JiraToolkit": "creates and changes Jira issues",
    "GitHubToolkit": "changes a GitHub repository",
    "SlackToolkit": "posts to Slack",
    "RequestsToolkit": "sends HTTP requests of any method",
    "SQLDatabaseToolkit": "runs SQL the model writes",
}
_CREWAI_TOOLS = {
    "FileWriterTool": "writes a file",
    "CodeInterpreterTool": "runs Python code",
    "S3WriterTool": "writes to S3",
    "NL2SQLTool": "runs SQL the model writes",
}
_LLAMA_SPECS = {  # BaseToolSpec classes whose `to_tool_list()` includes writing tools
    "GmailToolSpec": "creates and sends Gmail drafts",
    "SlackToolSpec": "posts to Slack",
    "CodeInterpreterToolSpec": "runs Python code",
    "GoogleCalendarToolSpec": "creates calendar events",
    "NotionToolSpec": "writes Notion pages",
    "ShopifyToolSpec": "changes a Shopify store",
    "DatabaseToolSpec": "runs SQL the model writes",
}
_LANGCHAIN_ROOTS = ("langchain_community", "langchain_google_community", "langchain_experimental", "langchain")
_LANGCHAIN_JS_TOOLS = {  # `@langchain/community/tools/gmail`, `.../google_calendar`: StructuredTools
    "GmailCreateDraft": "creates a Gmail draft",
    "GmailSendMessage": "sends an email",
    "GoogleCalendarCreateTool": "creates calendar events",
}

TOOLS: dict[tuple[str, str], Prebuilt] = {
    **_entries("strands", ("strands_tools",), _STRANDS_TOOLS),
    **_entries("langgraph", _LANGCHAIN_ROOTS, _LANGCHAIN_TOOLS),
    **_entries("crewai", ("crewai_tools",), _CREWAI_TOOLS),
    **_entries("langchain-js", ("@langchain/community",), _LANGCHAIN_JS_TOOLS),
}
# Toolkits and tool specs: the object's method that returns its tools.
TOOLKITS: dict[tuple[str, str], Prebuilt] = {
    **_entries("langgraph", _LANGCHAIN_ROOTS, _LANGCHAIN_TOOLKITS),
    **_entries("llama-index", ("llama_index",), _LLAMA_SPECS),
}
TOOLKIT_METHODS = frozenset({"get_tools", "to_tool_list"})
# How a prebuilt tool object is run by hand inside another tool (`GmailCreateDraft(...)({...})`).
RUN_METHODS = frozenset({"run", "invoke", "_run", "__call__"})


def prebuilt(name: str, table: dict[tuple[str, str], Prebuilt] = TOOLS) -> Prebuilt | None:
    """The entry a resolved dotted name stands for: `strands_tools.shell`, `strands_tools.shell.shell`,
    `langchain_community.tools.GmailSendMessage`."""
    parts = name.split(".")
    if len(parts) < 2:
        return None
    if parts[0].startswith("@"):  # a JS module: its package (`@langchain/community/tools/gmail`)
        parts[0] = "/".join(parts[0].split("/")[:2])
    found = table.get((parts[0], parts[-1]))
    if found is None and len(parts) >= 3 and parts[-1] == parts[-2]:
        found = table.get((parts[0], parts[-2]))
    return found


def prebuilt_or_kit(name: str) -> Prebuilt | None:
    """A prebuilt tool's entry, or its toolkit's (a member made by `kit.get_tools()`)."""
    return prebuilt(name) or prebuilt(name, TOOLKITS)
