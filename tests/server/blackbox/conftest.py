"""Fixtures of the black-box server tests: a real ``cathedral serve`` process per database.

Every test that takes ``server`` (or ``api``) runs twice: once against a server on a SQLite
file and once against a server on a real PostgreSQL cluster started here on a temporary data
directory (skipped, with the reason, only where PostgreSQL is not installed; the README's
test command installs it). The servers and the cluster live for the whole session (the crash
test kills its database's server and starts it again on the same port). A failing test's
report carries the tail of the server's output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from services import Postgres, Server, postgres_bin, sqlite_url
from webapi import Api

DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    if postgres_bin() is None:
        pytest.skip(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin); "
            "`bash scripts/test.sh` installs Debian's postgresql package"
        )
    cluster = Postgres(durable=False).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session", params=DATABASES)
def database(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="session")
def new_database_url(
    database: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[], str]:
    """Makes a fresh, empty database of the session's kind and returns its URL."""

    def make() -> str:
        if database == "sqlite":
            return sqlite_url(tmp_path_factory.mktemp("sqlite") / "games.db")
        return request.getfixturevalue("postgres").new_database()

    return make


@pytest.fixture(scope="session")
def server(
    new_database_url: Callable[[], str], tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Server]:
    process = Server(new_database_url(), tmp_path_factory.mktemp("server")).start()
    yield process
    process.stop()


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    client = Api(server.url)
    yield client
    client.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed:
        funcargs = getattr(item, "funcargs", {})
        servers = [funcargs[name] for name in ("server",) if name in funcargs]
        for process in servers:
            report.sections.append(("cathedral serve output", process.output()))
    return report
