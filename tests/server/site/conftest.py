"""Fixtures of the site tests: one real PostgreSQL cluster and one real ``redis-server`` for
the session, and pairs of ``cathedral serve --redis`` processes on a fresh database each
(PostgreSQL and the server processes come from ``../blackbox/services.py``). Skipped, with
the reason, only where PostgreSQL or redis-server is not installed."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "blackbox"))
sys.path.insert(0, str(Path(__file__).parent))

from redis_service import RedisServer, redis_installed
from services import Postgres, Server, postgres_bin

pytest.importorskip("redis", reason="the site needs the 'site' extra (redis-py)")


@pytest.fixture(scope="session")
def site_postgres() -> Iterator[Postgres]:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin)")
    cluster = Postgres(durable=False).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    if not redis_installed():
        pytest.skip("redis-server is not installed (Debian's redis-server package)")
    server = RedisServer().start()
    yield server
    server.stop()


@pytest.fixture
def site(
    site_postgres: Postgres, redis_server: RedisServer, tmp_path: Path,
) -> Iterator[Callable[[], list[Server]]]:
    """Starts two server processes on two ports, one database, one Redis; stops them after."""
    started: list[Server] = []

    def make() -> list[Server]:
        db = site_postgres.new_database()
        for name in ("a", "b"):
            started.append(Server(db, tmp_path / name, extra=[
                "--redis", redis_server.url, "--workers", "1", "--log-level", "info",
            ]).start())
        return started

    yield make
    for server in started:
        server.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.failed:
        for process in getattr(item, "site_servers", []):
            report.sections.append((f"cathedral serve :{process.port}", process.output(40)))
    return report
