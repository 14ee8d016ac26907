"""Rule families of siblint, one module per family of codes."""

FAMILIES = (
    "failure_policy",  # SIB2xx: failures that end the run
    "internal",  # SIB9xx: files siblint could not analyse
)
