"""SIB406: a tool whose failure path tells the model the same thing as its success path.

The analysis is in `siblint.analyses.outcomes`, on the `return_sites` and `try_sites` facts. Runtime
evidence: tests/runtime/test_sib4_runtime.py (arms E1-E4).
"""

from __future__ import annotations

from collections.abc import Iterator

from siblint.common.diagnostics import Diagnostic, Related
from siblint.rule_api.fixes import DISPLAY_ONLY, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules.side_effects import in_every_framework

_HEAD = "import httpx, logging\nfrom agents import function_tool\nlog = logging.getLogger()\n"
_POST = "        async with httpx.AsyncClient() as c:\n            (await c.post('https://x', json={'o': o})).raise_for_status()\n"


class FailureReportedAsSuccess(Rule):
    """
    ## What it does
    Flags a `try` in a tool whose body performs a side effect (directly or in a function it calls)
    and whose `except` handler swallows the failure and ends in the success text: it returns the
    same string literal as the `try` body, or it falls through to the `return` that the success
    path takes too. An f-string counts as the same text when it reads no name the handler binds.
    A handler that raises (re-raise, `ModelRetry`, `ToolException`), returns another text, sets a
    variable the return reads, or has a side effect of its own (an outbox write) is not flagged;
    neither is a `try` beside a side effect of the tool outside it (the tool's main action done
    elsewhere makes the guarded one a best-effort extra, such as a history write).

    ## Why is this bad?
    The model reports what the tool returned. When success and failure return the same text, the
    model confirms an action that never happened, and nothing in the run records the failure.
    Measured with openai-agents 0.24.0 against a payments fake answering 500 (runtime test
    `test_failure_text`): both spellings told the model "refund issued" while nothing was refunded;
    a handler returning a failure text, or no `try` at all (the SDK's default failure message),
    told it the refund failed. Ruff's BLE001 and S110 look at the breadth of the `except`, not at
    what it returns: `except httpx.HTTPError: return "Payment captured."` passes both.

    ## Example
    ```python
    @function_tool
    async def invite(email: str) -> str:
        try:
            r = await http.post(INVITES, json={"email": email})
            r.raise_for_status()
        except Exception:
            log.warning("invite not sent")
        return "Invite sent."
    ```

    Use instead:
    ```python
    @function_tool
    async def invite(email: str) -> str:
        try:
            r = await http.post(INVITES, json={"email": email})
            r.raise_for_status()
        except httpx.HTTPError as e:
            return f"Invite NOT sent ({type(e).__name__}); nothing was sent, try again later"
        return "Invite sent."
    ```

    ## Options
    None. Generic texts ("done", "ok") on both paths are reported too: the model still cannot tell.
    """

    code = "SIB406"
    name = "failure-reported-as-success"
    summary = "a tool's except handler around a side effect ends in the same text as its success path"
    message = (
        "{tool} returns {text!r} whether or not {effect} succeeded: the model will report success; "
        "return what failed and what to do (or let the exception reach the framework's failure handler)"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        'return text that says the effect failed (or re-raise) in the except handler. Display-only: the '
        "wording the model should see is the author's",
    )
    VALID = in_every_framework([
        Valid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    try:\n" + _POST +
              "    except Exception as e:\n        return f'refund failed: {type(e).__name__}; nothing was refunded'\n"
              "    return 'refund issued'\n"),
        Valid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    try:\n" + _POST +
              "    except Exception:\n        log.warning('refund failed')\n        raise\n    return 'refund issued'\n"),
        Valid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    outcome = 'refund issued'\n    try:\n" + _POST +
              "    except Exception as e:\n        outcome = f'not refunded ({type(e).__name__})'\n    return outcome\n"),
        # The try holds no side effect (parsing).
        Valid(_HEAD + "import json\n@function_tool\nasync def parse(o: str) -> str:\n    try:\n        json.loads(o)\n"
              "    except ValueError:\n        log.warning('bad')\n    return 'parsed'\n"),
        # An outbox write in the handler: the failure is recorded and the effect will happen.
        Valid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    try:\n" + _POST +
              "    except Exception:\n        open('outbox.txt', 'a').write(o)\n    return 'refund queued'\n"),
        # Not a tool.
        Valid(_HEAD + "async def refund(o: str) -> str:\n    try:\n" + _POST +
              "    except Exception:\n        log.warning('x')\n    return 'refund issued'\n"),
    ])
    INVALID = in_every_framework([
        Invalid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    try:\n" + _POST +
                "    except Exception:\n        log.warning('refund failed')\n    return 'refund issued'\n", lines=(6,)),
        Invalid(_HEAD + "@function_tool\nasync def refund(o: str) -> str:\n    try:\n" + _POST +
                "        return 'refund issued'\n    except httpx.HTTPError:\n        return 'refund issued'\n",
                lines=(6,)),
        Invalid(_HEAD + "@function_tool\nasync def invite(o: str) -> str:\n    try:\n" + _POST +
                "    except Exception as e:\n        log.warning('not sent: %s', e)\n    return f'Invite sent to {o}.'\n",
                lines=(6,)),
        # Through a helper of another module.
        Invalid(_HEAD + "from mail import send\n@function_tool\nasync def notify(o: str) -> str:\n    try:\n"
                "        await send(o)\n    except Exception:\n        pass\n    return 'sent'\n", lines=(7,),
                files={"mail.py": "import smtplib\n\nasync def send(to):\n"
                       "    with smtplib.SMTP('localhost') as s:\n        s.sendmail('me@x', [to], 'hi')\n"}),
    ])

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.outcomes import same_text

        for s in same_text(ctx.facts, ctx.project, ctx.config):
            related = (Related(ctx.path, s.handler, "the handler that swallows the failure"),
                       Related(ctx.path, s.success, "the success path's return"))
            yield self.finding(ctx, s.loc, related, tool=s.tool, text=s.text, effect=s.effect)
