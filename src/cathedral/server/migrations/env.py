"""Alembic's environment for the server's schema (run by ``storage.migrate`` on start).

The server hands over an open connection in ``config.attributes["connection"]``; run from the
``alembic`` command instead, the URL comes from ``sqlalchemy.url`` or ``CATHEDRAL_DB``.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from cathedral.server.storage import Base, normalise_url

config = context.config
connection = config.attributes.get("connection")


def _run(conn) -> None:
    context.configure(
        connection=conn,
        target_metadata=Base.metadata,
        render_as_batch=conn.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # pragma: no cover - the alembic command line
    url = config.get_main_option("sqlalchemy.url") or os.environ["CATHEDRAL_DB"]
    with create_engine(normalise_url(url)).begin() as conn:
        _run(conn)
