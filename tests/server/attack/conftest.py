"""Fixtures of the attack tests: a ``cathedral serve`` per test module (and one of its own for
a test that needs other settings), on SQLite and on a real PostgreSQL (one cluster for the
session, a new database per server), with the rate limits on, one search worker and short
request deadlines; an honest person playing ``medium`` from
127.0.0.1 while an attacker works from 127.0.0.66 (Linux routes all of 127.0.0.0/8 to the
loopback, so two addresses need no network set-up).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "blackbox"))
sys.path.insert(0, str(Path(__file__).parent))

from honest import Honest
from services import Postgres, Server, postgres_bin, sqlite_url

#: Every attack server: limits on (the black-box default turns them off), one search worker
#: (the hardest case for fairness), deadlines short enough to test in a second.
ATTACK_ARGS = ["--rate-limit", "on", "--workers", "1", "--header-timeout", "1",
               "--body-timeout", "1"]


@pytest.fixture(scope="session")
def attack_postgres() -> Iterator[Postgres]:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin); "
                    "`bash scripts/test.sh` installs Debian's postgresql package")
    cluster = Postgres(durable=False).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module", params=("sqlite", "postgresql"))
def database(request: pytest.FixtureRequest) -> str:
    return request.param


def _start(request: pytest.FixtureRequest, database: str, folder: Path,
           extra: tuple[str, ...]) -> Server:
    if database == "sqlite":
        url = sqlite_url(folder / "games.db")
    else:
        url = request.getfixturevalue("attack_postgres").new_database()
    return Server(url, folder / "server", extra=[*ATTACK_ARGS, *extra]).start()


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, database: str,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The module's server (its attacks leave nothing running that the next one meets)."""
    process = _start(request, database, tmp_path_factory.mktemp("attack"), ())
    yield process
    process.stop()


@pytest.fixture
def launch(request: pytest.FixtureRequest, database: str,
           tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Starts a server of its own for one test, with more arguments; stops it after."""
    started: list[Server] = []

    def make(*extra: str) -> Server:
        process = _start(request, database, tmp_path / str(len(started)), extra)
        started.append(process)
        request.node.attack_servers = started
        return process

    yield make
    for process in started:
        process.stop()


@pytest.fixture
def honest(request: pytest.FixtureRequest, server: Server) -> Iterator[Honest]:
    request.node.attack_servers = [server]
    person = Honest(server.url)
    yield person
    person.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed:
        for process in getattr(item, "attack_servers", []):
            report.sections.append((f"cathedral serve :{process.port}", process.output(60)))
    return report
