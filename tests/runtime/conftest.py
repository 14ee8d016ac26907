"""Fixtures of the runtime suite: the fake server and the pool that runs scenarios."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .environments import DECLARED
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


_BUILDS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="runtime-env")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start building every environment the collected runtime modules declared (environments.py)."""
    for env in DECLARED:
        env.start(_BUILDS)


def pytest_sessionfinish(session: pytest.Session) -> None:
    _BUILDS.shutdown(wait=True, cancel_futures=True)
