"""The server's log: one JSON line per request, per move and per event, on standard error.

``event`` writes one; ``configure_logging`` sends the server's and uvicorn's lines through
``JsonLines``, which redacts any ``token=`` a library writes down (uvicorn logs a socket's
address with its query string).
"""

from __future__ import annotations

import json
import logging
import re
import sys

log = logging.getLogger("cathedral.server")

_SECRET = re.compile(r"((?:token|secret)=)[^&\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    """Hides secrets a library may write down (uvicorn logs a socket's query string)."""
    return _SECRET.sub(r"\1<redacted>", text)


class JsonLines(logging.Formatter):
    """The server's events keep their fields; other messages are wrapped, any ``token=``
    value redacted."""

    def format(self, record: logging.LogRecord) -> str:
        data = getattr(record, "fields", None)
        if data is None:
            data = {"event": "log", "message": redact(record.getMessage())}
        data = {"t": round(record.created, 3), "level": record.levelname.lower(), **data}
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure_logging(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    for name in ("cathedral.server", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False


def event(what: str, /, **fields) -> None:
    """Logs one event line: ``{"t", "level", "event": what, **fields}``."""
    if log.isEnabledFor(logging.INFO):
        log.info(what, extra={"fields": {"event": what, **fields}})
