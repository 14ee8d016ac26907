"""Runtime truth: scenarios run with the real OpenAI Agents SDK against a fake model, and linted."""
