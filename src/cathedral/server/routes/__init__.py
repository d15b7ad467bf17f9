"""The HTTP and WebSocket routes, one router per concern: ``games`` (tables and their seats'
commands), ``records`` (records in and out), ``analysis`` (pictures and hints), ``lobby``
(the catalog, the lobby, health), ``live`` (the game socket) and ``pages`` (the browser's
pages and files). Routes are thin: they name their dependencies (``deps``) and hand the
request to the hub; refusals are the hub's domain errors, answered in ``app``."""

from __future__ import annotations

from cathedral.server.models import ErrorBody

#: The error bodies a route documents, by status.
ERRORS = {status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 422, 429)}


def errors(*statuses: int) -> dict:
    """The documented error answers of a route: ``statuses`` plus 400 and 429, which any
    route may give."""
    return {status: ERRORS[status] for status in sorted({400, 429, *statuses})}
