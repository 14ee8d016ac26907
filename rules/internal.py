"""SIB9xx: files or rules siblint could not complete. The engine emits these, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator

from siblint.common.diagnostics import Diagnostic
from siblint.rule_api.fixes import SAFE, DropNoqaCodes, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid


class UnparsableFile(Rule):
    """
    ## What it does
    Reports a file siblint could not analyse: a syntax error, an undecodable file, a wrong coding
    cookie, NUL bytes, or nesting deeper than CPython or libcst accept.

    ## Why is this bad?
    Nothing in the file was checked, so a hazard in it would go unreported. The rest of the run
    goes on; this diagnostic makes sure the gap is visible and fails CI.

    ## Example
    ```python
    from agents import function_tool
    def broken(:
    ```

    Use instead: fix the syntax error (CPython rejects the file too), or exclude the file.

    ## Options
    `exclude` / `extend-exclude` in `[tool.siblint]` skip files that are not meant to parse.
    """

    code = "SIB900"
    name = "unparsable-file"
    summary = "the file could not be parsed or decoded, so it was not checked"
    message = "could not analyse file: {reason}"
    no_fix = (
        'the file could not be read or parsed; there is nothing siblint can edit safely'
    )
    VALID = [Valid("from agents import function_tool\n")]
    INVALID = [Invalid("from agents import function_tool\ndef broken(:\n", lines=(2,))]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        return iter(())  # emitted by the engine before any rule runs


class InternalRuleError(Rule):
    """
    ## What it does
    Reports that one rule failed with an internal error on this file. Every other rule still
    reported on it.

    ## Why is this bad?
    It is a bug in siblint: that rule's findings for this file are missing. Please report it with
    the file (or a reduced copy).

    ## Example
    Not applicable: no source code causes this on purpose.

    Use instead: upgrade siblint, or report the bug.

    ## Options
    None.
    """

    code = "SIB901"
    no_fix = (
        'a crash of siblint itself; report it, nothing in the file is wrong'
    )
    name = "internal-rule-error"
    summary = "a rule crashed on this file; its findings for the file are missing"
    message = "internal error in {rule} ({error}); the other rules still ran"

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        return iter(())


class UnusedNoqa(Rule):
    """
    ## What it does
    Reports a `# noqa: SIB...` comment whose SIB codes silence no finding on its line (ruff's
    RUF100, for SIB codes only). A bare `# noqa` and other tools' codes are left alone, and so are
    files siblint does not analyse (those that import no agent framework).

    ## Why is this bad?
    A stale suppression hides the next real finding on that line, and after `--add-noqa` the
    comments outlive the hazards they were added for.

    ## Example
    ```python
    from agents import function_tool
    x = 1  # noqa: SIB101
    ```

    Use instead: remove the code from the comment (or the whole comment).

    ## Options
    Off by default: `--extend-select SIB902`. Computed after the other rules, from their findings,
    so a code of a rule that is not enabled counts as unused (as in ruff).
    """

    code = "SIB902"
    name = "unused-noqa"
    summary = "a `# noqa` comment lists SIB codes that silence nothing on its line"
    message = "unused noqa: nothing on this line for {codes}; remove {them}"
    fix = FixSpec(
        SAFE,
        'removes the codes that silence nothing from the `# noqa` / `// noqa` comment, and the comment '
        'when none is left (its line, when it stands alone). Safe: those codes silenced no finding. A '
        'comment with text after its codes keeps them',
        DropNoqaCodes(),
    )
    VALID = [Valid("from agents import function_tool\nx = 1  # noqa: E501\ny = 2  # noqa\n")]
    INVALID = [Invalid("from agents import function_tool\nx = 1  # noqa: SIB101, E501\n", lines=(2,))]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        return iter(())  # emitted by the engine once every other rule has run (engine.unused_noqa)
