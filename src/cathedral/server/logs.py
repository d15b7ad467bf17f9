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
import threading
import time

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


class BufferedLines(logging.Handler):
    """Writes lines in batches: at most ``delay`` seconds late, or every ``size`` lines (a
    write and a flush per line cost the server a tenth of its time under load). Errors and
    the end of the process flush at once."""

    def __init__(self, stream, size: int = 200, delay: float = 0.2) -> None:
        super().__init__()
        self.stream = stream
        self.size = size
        self.lines: list[str] = []
        self._timer = threading.Thread(target=self._tick, args=(delay,), daemon=True,
                                       name="cathedral-log")
        self._timer.start()

    def _tick(self, delay: float) -> None:
        while True:
            time.sleep(delay)
            self.flush()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
        except Exception:
            self.handleError(record)
            return
        with self.lock:
            self.lines.append(line)
            full = len(self.lines) >= self.size
        if full or record.levelno >= logging.WARNING:
            self.flush()

    def flush(self) -> None:
        with self.lock:
            if not self.lines:
                return
            text = "\n".join(self.lines) + "\n"
            self.lines = []
            try:
                self.stream.write(text)
                self.stream.flush()
            except (OSError, ValueError):  # a closed stream at the very end
                pass


def configure_logging(level: str = "info") -> None:
    handler = BufferedLines(sys.stderr)
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
