"""How the server runs: every setting, read from ``CATHEDRAL_*`` environment variables
(``CATHEDRAL_DB``, ``CATHEDRAL_MOVE_RATE``, ...), overridden by ``cathedral serve``'s flags.

Rates are per second per client address; a rate of 0 (or ``off``) switches that limit off,
and ``rate_limit=off`` switches every limit off (load tests). Timeouts bound what a client
may hold open: a request's head must arrive within ``header_timeout_s`` of its first byte
(or of the connection), its body within ``body_timeout_s``. A reverse proxy in front should
use the same or shorter timeouts (README, "Behind a reverse proxy").
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

import cathedral

STATIC = Path(cathedral.__file__).parent / "web" / "static"


def default_db() -> str:
    """The default database: a SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    return "sqlite:///" + os.path.join(user_data_dir("cathedral"), "server.sqlite3")


class Settings(BaseSettings):
    """The server's settings (see the module docstring).

    Attributes:
        db: the SQLAlchemy URL of the database.
        redis: the site's Redis URL when several processes share one database.
        workers: processes for the computer players' searches (default: one per CPU).
        move_rate: moves (and take-backs) per second per address and per socket.
        create_rate: games created, joined or uploaded per second per address.
        read_rate: heavier reads (pictures, records, hints) per second per address.
        upload_rate: uploaded bytes per second per address (bursts of 600 seconds' worth).
        rate_limit: False switches every rate limit off.
        header_timeout_s, body_timeout_s: see the module docstring.
        warm_workers: start the worker processes at once rather than with the first job.
        max_tables: live games kept in memory; idle ones beyond are rebuilt on demand.
        static: the pages' directory.
        smtp: the SMTP server notifications are e-mailed through (``smtp://`` or
            ``smtps://user:password@host:port?from=address``); none: no e-mail.
        signin_rate: sign-in attempts a minute, per address and per name.
        public_url: the address people open (``https://example.org``): the origin passkeys
            are bound to and links in e-mails; by default the request's own.
        rp_id: the passkeys' relying party id (default: the host name of the site).
        secure_cookies: mark the session cookie ``Secure`` (default: over HTTPS only).
    """

    model_config = SettingsConfigDict(env_prefix="CATHEDRAL_", extra="ignore")

    db: str = Field(default_factory=default_db)
    redis: str | None = None
    workers: int | None = Field(default=None, ge=1)
    move_rate: float = Field(default=50.0, ge=0)
    create_rate: float = Field(default=5.0, ge=0)
    read_rate: float = Field(default=20.0, ge=0)
    upload_rate: float = Field(default=16 * 1024, ge=0)
    rate_limit: bool = True
    header_timeout_s: float = Field(default=10.0, gt=0)
    body_timeout_s: float = Field(default=10.0, gt=0)
    warm_workers: bool = False
    max_tables: int = Field(default=5000, ge=1)
    static: Path = STATIC
    smtp: str | None = None
    signin_rate: float = Field(default=10.0, ge=0)
    public_url: str | None = None
    rp_id: str | None = None
    secure_cookies: bool | None = None

    @field_validator("move_rate", "create_rate", "read_rate", "upload_rate", "signin_rate",
                     mode="before")
    @classmethod
    def _off(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().lower() in ("off", "none"):
            return 0.0
        return value

    @field_validator("redis", "smtp", "public_url", "rp_id", mode="before")
    @classmethod
    def _empty(cls, value: object) -> object:
        return None if value == "" else value

    def rate(self, name: str) -> float:
        """A rate as in force: 0 when every limit is off."""
        return getattr(self, name) if self.rate_limit else 0.0
