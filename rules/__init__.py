"""Rule families of siblint, one module per family of codes."""

FAMILIES = (
    "side_effects",  # SIB1xx: side effects that cancellation cannot stop
    "failure_policy",  # SIB2xx: failures that end the run
    "groups",  # SIB3xx: concurrent groups that mix the two
    "retries",  # SIB404/405/407-409: retries that repeat a side effect, never stop, or do nothing
    "deadlines",  # SIB401: dependency timeouts against the tool's own budget
    "idempotency",  # SIB402, SIB403: idempotency keys of repeated tool calls
    "outcomes",  # SIB406: what a tool tells the model after a failure
    "internal",  # SIB9xx: files siblint could not analyse
)

# Codes that run only when selected. Kept here, not on the rule classes (`Rule` reads it), so that
# flake8's option registration, which every flake8 run performs, knows them without importing a rule.
OFF_BY_DEFAULT = (
    "SIB105",  # shielded-tool-side-effect: true but often intended (cleanup in finally)
    "SIB206",  # tool-error-ends-run-by-default: depends on whether the tool can fail at all
    "SIB902",  # unused-noqa: for cleaning up after `--add-noqa`, as ruff's RUF100
)
