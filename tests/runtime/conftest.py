"""Fixtures of the runtime suite: the fake server and the pool that runs scenarios."""

from __future__ import annotations

import pytest

from .fake_model import FakeServer
from .runner import ScenarioRunner
from .scenarios import BY_NAME


@pytest.fixture(scope="session")
def fake_server():
    server = FakeServer().start()
    yield server
    server.close()


@pytest.fixture(scope="session")
def scenario_runner(fake_server, tmp_path_factory, request):
    runner = ScenarioRunner(fake_server, tmp_path_factory.mktemp("runtime-scenarios"))
    # Start every scenario the session will ask for at once, so the runs overlap.
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        name = callspec.params.get("scenario_name") if callspec else None
        if name in BY_NAME and "scenario_runner" in getattr(item, "fixturenames", ()):
            runner.submit(BY_NAME[name])
    yield runner
    runner.close()
