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
