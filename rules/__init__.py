"""Rule families of siblint, one module per family of codes."""

# Each family module and the codes it defines. The engine finds the rules through the modules; the
# codes let settings name a rule (`select`, `ignore`, `per-file-ignores`) and be checked without
# importing one: a rule module imports libcst, which a warm run never needs, and a config naming a code
# made every warm run import it (0.3 s of 0.7). tests/rules/test_rule_examples.py holds the two equal.
FAMILIES = {
    "side_effects": ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105"),  # side effects cancellation cannot stop
    "failure_policy": ("SIB201", "SIB202", "SIB203", "SIB204", "SIB206"),  # failures that end the run
    "groups": ("SIB301",),  # concurrent groups that mix the two
    "retries": ("SIB404", "SIB405", "SIB407", "SIB408", "SIB409"),  # retries that repeat, never stop, or do nothing
    "deadlines": ("SIB401",),  # dependency timeouts against the tool's own budget
    "idempotency": ("SIB402", "SIB403"),  # idempotency keys of repeated tool calls
    "outcomes": ("SIB406",),  # what a tool tells the model after a failure
    "internal": ("SIB900", "SIB901", "SIB902"),  # files siblint could not analyse
}

# Codes that run only when selected. Kept here, not on the rule classes (`Rule` reads it), so that
# flake8's option registration, which every flake8 run performs, knows them without importing a rule.
OFF_BY_DEFAULT = (
    "SIB105",  # shielded-tool-side-effect: true but often intended (cleanup in finally)
    "SIB206",  # tool-error-ends-run-by-default: depends on whether the tool can fail at all
    "SIB902",  # unused-noqa: for cleaning up after `--add-noqa`, as ruff's RUF100
)
