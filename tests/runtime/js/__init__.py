"""Runtime truth for the JS/TS codes: `@openai/agents` on Node against the fake model."""
