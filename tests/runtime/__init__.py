"""Runtime truth: scenarios run with the real OpenAI Agents SDK against a fake model, and linted.

Layout:

* `fake_model.py`: one loopback HTTP server, the fake Chat Completions model plus a fake payments
  service that records each POST with its `time.monotonic()`; every run has its own URL prefix.
* `scenarios.py`: the scenarios, each the text of a complete module, with what the SDK must do
  (`Runtime`) and which siblint codes must and must not be reported.
* `driver.py`: runs a scenario module and reports JSON (raise, timing, side effects, run items).
* `runner.py`: a warm fork server (`driver.py --serve`) and a small pool, so ~20 runs overlap.
* `test_runtime.py`: the assertions; `test_fake_model.py`: the fake server itself.
* `js/`: the same for `@openai/agents` on Node (issue 14): programs per arm, their manifest
  (`js/arms.py`, with the codes siblint must report on each), the driver and the tests.

To look at one scenario by hand:

    python -c "from tests.runtime.scenarios import BY_NAME; print(BY_NAME['sync_charge'].source)" > /tmp/s.py
    # start a FakeServer, export its urls(run_id) as environment variables, then:
    python tests/runtime/driver.py /tmp/s.py
"""
