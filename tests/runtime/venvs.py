"""The pins of the venvs the runtime suites build (environments.py) for the frameworks whose pins
conflict with the test extras, at the versions the reference reports measured.

Suites whose pins resolve together share one venv: google-adk, strands-agents and llama-index
resolve as one (`uv pip compile`: against each alone only requests, tenacity and opentelemetry
differ, by minor releases), so one build serves all three. crewai keeps a venv of its own:
crewai 1.15.30 needs opentelemetry-sdk>=1.45.1, google-adk 2.13.0 <=1.44.
"""

from __future__ import annotations

GOOGLE_ADK = ("google-adk==2.13.0", "google-genai==2.34.0")
STRANDS = ("strands-agents==1.62.0", "requests==2.32.5")  # requests: the sync charge's HTTP client
LLAMA_INDEX = ("llama-index-core==0.14.25", "llama-index-workflows==2.26.1", "llama-index-llms-openai==0.8.3")
SHARED = ("agent-frameworks", GOOGLE_ADK + STRANDS + LLAMA_INDEX)

CREWAI = ("crewai", ("crewai==1.15.30",))

# The wave-3 frameworks (frameworks-wave3.md): their pins resolve together (`uv pip compile`), so
# one venv serves all four suites. openai: the chat client MAF, semantic-kernel and haystack drive.
MAF = ("agent-framework-core==1.23.0", "agent-framework-openai==1.17.0")
SEMANTIC_KERNEL = ("semantic-kernel==1.45.0",)
HAYSTACK = ("haystack-ai==3.4.1",)
CLAUDE = ("claude-agent-sdk==0.2.189",)  # bundles the Claude Code CLI 2.1.332
WAVE3 = ("wave3-frameworks", MAF + SEMANTIC_KERNEL + HAYSTACK + CLAUDE + ("openai==3.57.0", "requests==2.32.5"))

# fastmcp at the version frameworks.md measured, with the official SDK's 2.x it brings (whose
# `MCPServer` test_mcp_sdk_runtime.py also runs); requests and httpx: the charges' HTTP clients.
FASTMCP = ("fastmcp", ("fastmcp==4.1.1", "mcp==2.3.0", "requests==2.32.5", "httpx==0.28.1"))
# The official SDK's last 1.x, whose `mcp.server.fastmcp.FastMCP` 2.x removed.
MCP_V1 = ("mcp-v1", ("mcp==1.30.0", "requests==2.32.5", "httpx==0.28.1"))
