"""Payment providers and brokers. Stripe's `StripeClient` is reached as `client.v1.<resource>.<verb>(...)` (or
without `v1`), and every verb has an `_async` twin (`create_async`). A broker's or an exchange's order
(alpaca-py, alpaca-trade-api, ccxt, python-binance, ib_insync) is named for what it does on any receiver:
ccxt alone has a constructor per exchange (`ccxt.kraken(...)`), and clients come out of factories."""

from __future__ import annotations

from .rows import Row, anys, methods

_VERBS = ("create modify update delete cancel confirm capture pay refund void finalize_invoice send_invoice attach "
          "detach").split()
_STRIPE_VERBS = tuple(_VERBS + [f"{v}_async" for v in _VERBS])

ROWS: tuple[Row, ...] = (
    Row("family", "stripe.", _STRIPE_VERBS, "{name} (payments)", True, kind="payment"),
    *methods("stripe.StripeClient", " ".join(_STRIPE_VERBS), "{name} (payments)", True, "payment"),
    Row("family", "braintree.Transaction.", ("sale", "submit_for_settlement", "refund", "void"), "{name} (payments)",
        True, kind="payment"),
    anys("submit_order replace_order replace_order_by_id cancel_order_by_id cancel_orders cancel_all_orders "
         "close_position close_all_positions exercise_options_position create_order create_market_order "
         "create_limit_order create_market_buy_order create_market_sell_order create_limit_buy_order "
         "create_limit_sell_order order_market_buy order_market_sell order_limit_buy order_limit_sell placeOrder",
         "{name} (broker order)", None, "payment"),
    # Grocery orders through python-picnic-api(2): the cart and the delivery slot that places the order.
    *methods("python_picnic_api.PicnicAPI python_picnic_api2.PicnicAPI", "add_product remove_product clear_cart "
             "set_delivery_slot _post", "{name} (grocery order)", True, "payment"),
)
