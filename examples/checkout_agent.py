"""A checkout agent with the hazard siblint exists for (run: siblint check examples/)."""

import requests
from agents import Agent, function_tool


@function_tool
def charge_card(amount_cents: int) -> str:
    """Charge the customer's card (sync: the SDK runs it in a worker thread)."""
    requests.post("https://payments.example.com/charges", json={"amount": amount_cents}, timeout=10)
    return "charged"


@function_tool(failure_error_function=None)  # any error here now ends the run
async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")


agent = Agent(name="checkout", tools=[charge_card, lookup_tax])
