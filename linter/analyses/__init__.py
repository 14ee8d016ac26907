"""The hazard analyses: each answers one question about tools and groups and returns reasons, never
findings. Cancellation (SIB1xx), fatality and error policies (SIB2xx), hooks, deadlines,
idempotency keys, outcomes and retries (SIB4xx). The rules in `siblint.rules` map reasons to codes.
"""
