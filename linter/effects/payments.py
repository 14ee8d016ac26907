"""Payment providers. Stripe's `StripeClient` is reached as `client.v1.<resource>.<verb>(...)` (or
without `v1`), and every verb has an `_async` twin (`create_async`)."""

from __future__ import annotations

from .rows import Row, methods

_VERBS = ("create modify update delete cancel confirm capture pay refund void finalize_invoice send_invoice attach "
          "detach").split()
_STRIPE_VERBS = tuple(_VERBS + [f"{v}_async" for v in _VERBS])

ROWS: tuple[Row, ...] = (
    Row("family", "stripe.", _STRIPE_VERBS, "{name} (payments)", True, kind="payment"),
    *methods("stripe.StripeClient", " ".join(_STRIPE_VERBS), "{name} (payments)", True, "payment"),
    Row("family", "braintree.Transaction.", ("sale", "submit_for_settlement", "refund", "void"), "{name} (payments)",
        True, kind="payment"),
)
