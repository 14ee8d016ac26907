"""Rule families of siblint, one module per family of codes."""

FAMILIES = (
    "side_effects",  # SIB1xx: side effects that cancellation cannot stop
    "failure_policy",  # SIB2xx: failures that end the run
    "groups",  # SIB3xx: concurrent groups that mix the two
    "internal",  # SIB9xx: files siblint could not analyse
)
