"""``cathedral serve``: the command line of the game server.

Only the standard library is imported here at module level, so ``cathedral play`` never
needs the web extra; FastAPI, uvicorn and SQLAlchemy are imported when the server starts,
with a clear error if the ``web`` extra is missing. Every flag has a ``CATHEDRAL_*``
environment variable (``settings.Settings``); a flag given wins.
"""

from __future__ import annotations

import argparse
import socket
import sys

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def _rate(text: str) -> float:
    if text.lower() in ("off", "none", "0"):
        return 0.0
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number per second, "
                                         "or 'off'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number, or 'off'")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number of seconds")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a port from 0 to 65535 "
                                         "(0 picks a free one)")
    return value


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Adds ``serve`` to the ``cathedral`` command's subcommands."""
    serve = commands.add_parser(
        "serve",
        help="run the game server (web pages, HTTP and WebSocket API)",
        description="Run the game server: tables for every game, humans and computers, "
        "over HTTP and WebSockets. Listens on 127.0.0.1 only unless --host says otherwise.",
    )
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default: {DEFAULT_HOST}; 0.0.0.0 for every "
                       "interface, better behind a reverse proxy)")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT,
                       help=f"port (default: {DEFAULT_PORT}; 0 picks a free one)")
    serve.add_argument("--db", metavar="URL",
                       help="database URL, e.g. sqlite:///games.sqlite3 or "
                       "postgresql+psycopg://user:pass@host/db (default: $CATHEDRAL_DB, else "
                       "a SQLite file in the user's data directory)")
    serve.add_argument("--redis", metavar="URL",
                       help="Redis URL (redis://host:6379/0) shared by several server processes "
                       "on one PostgreSQL database: changes are published there and computer "
                       "moves claimed as jobs (default: $CATHEDRAL_REDIS, else one process "
                       "alone)")
    serve.add_argument("--workers", type=int, metavar="N",
                       help="processes for computer players' searches (default: the number "
                       "of CPUs)")
    serve.add_argument("--move-rate", type=_rate, metavar="R",
                       help="moves per second allowed per client address and per socket, "
                       "bursts of 4x (default: $CATHEDRAL_MOVE_RATE or 50; 'off' for none)")
    serve.add_argument("--create-rate", type=_rate, metavar="R",
                       help="games created per second per address, bursts of 4x (at least "
                       "10) (default: $CATHEDRAL_CREATE_RATE or 5; 'off' for none)")
    serve.add_argument("--read-rate", type=_rate, metavar="R",
                       help="pictures, records and hints per second per address, bursts of "
                       "4x (default: $CATHEDRAL_READ_RATE or 20; 'off' for none)")
    serve.add_argument("--upload-rate", type=_rate, metavar="BYTES",
                       help="uploaded record bytes per second per address, bursts of 600 "
                       "seconds' worth (default: $CATHEDRAL_UPLOAD_RATE or 16384; 'off')")
    serve.add_argument("--rate-limit", choices=("on", "off"),
                       help="'off' switches every rate limit off (load tests; "
                       "also $CATHEDRAL_RATE_LIMIT=off)")
    serve.add_argument("--header-timeout", type=_seconds, metavar="S",
                       help="a request's head must arrive within S seconds of its first "
                       "byte (default: $CATHEDRAL_HEADER_TIMEOUT_S or 10)")
    serve.add_argument("--body-timeout", type=_seconds, metavar="S",
                       help="a request's body must arrive within S seconds (default: "
                       "$CATHEDRAL_BODY_TIMEOUT_S or 10)")
    serve.add_argument("--smtp", metavar="URL",
                       help="e-mail notifications through this SMTP server: "
                       "smtp://[user:password@]host[:port][?from=address&starttls=1] or smtps://"
                       "... (default: $CATHEDRAL_SMTP, else no e-mail)")
    serve.add_argument("--signin-rate", type=_rate, metavar="R",
                       help="sign-in attempts a minute per address and per name, bursts of "
                       "10 (default: $CATHEDRAL_SIGNIN_RATE or 10; 'off' for none)")
    serve.add_argument("--public-url", metavar="URL",
                       help="the address people open (https://example.org): passkeys are "
                       "bound to it and e-mails link to it (default: each request's own)")
    serve.add_argument("--log-level", default="info",
                       choices=("debug", "info", "warning", "error"),
                       help="log level of the JSON log lines on standard error (default: info)")
    serve.set_defaults(run=run)


def _database_error(db: str) -> str | None:
    """Says what is wrong with a database URL before the server starts on it, or None."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from cathedral.server.storage import Storage, normalise_url

    expected = "expected e.g. sqlite:///games.sqlite3 or postgresql://user:pass@host/db"
    try:
        url = make_url(normalise_url(db))
    except ArgumentError:
        shown = "" if "@" in db else f" {db!r}"  # never print a password
        return f"--db{shown}: not a database URL ({expected})"
    try:
        url.get_dialect().import_dbapi()
    except NoSuchModuleError:
        return f"--db: no database of kind {url.drivername!r} ({expected})"
    except ImportError as exc:
        return f"--db: the {url.drivername!r} driver is missing ({exc.name} is not installed)"
    try:  # one connection now: a clear line rather than the start-up's traceback
        storage = Storage(db)
        try:
            with storage.engine.connect():
                pass
        finally:
            storage.close()
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        return f"cannot open the database {url.render_as_string(hide_password=True)}: {reason}"
    return None


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Runs the server until Ctrl-C or SIGTERM (in-flight requests finish first)."""
    try:
        import uvicorn
        from pydantic import ValidationError

        from cathedral.server.app import create_app
        from cathedral.server.protocol import with_head_timeout
        from cathedral.server.settings import Settings
    except ImportError as exc:
        if (exc.name or "").startswith("cathedral"):
            raise  # our own module: a bug to see, not an extra to install
        print(f"error: the server needs the 'web' extra ({exc.name} is missing): "
              "pip install 'cathedral[web]'", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print(f"error: --workers {args.workers}: expected at least 1", file=sys.stderr)
        return 2
    given = {"db": args.db, "redis": args.redis, "workers": args.workers,
             "move_rate": args.move_rate, "create_rate": args.create_rate,
             "read_rate": args.read_rate, "upload_rate": args.upload_rate,
             "header_timeout_s": args.header_timeout, "body_timeout_s": args.body_timeout,
             "smtp": args.smtp, "signin_rate": args.signin_rate,
             "public_url": args.public_url,
             "rate_limit": None if args.rate_limit is None else args.rate_limit == "on"}
    try:
        settings = Settings(warm_workers=True,
                            **{key: value for key, value in given.items() if value is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "CATHEDRAL_" + str(first["loc"][0]).upper() if first.get("loc") else "a setting"
        print(f"error: {name}: {first['msg']}", file=sys.stderr)
        return 2
    problem = _database_error(settings.db)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if settings.redis:
        try:
            import redis  # noqa: F401
        except ImportError:
            print("error: --redis needs the 'site' extra (redis is missing): "
                  "pip install 'cathedral[site]'", file=sys.stderr)
            return 2
    if settings.smtp:
        from cathedral.server.mailer import SmtpUrl

        try:
            SmtpUrl.parse(settings.smtp)
        except ValueError as exc:
            print(f"error: --smtp: {exc}", file=sys.stderr)
            return 2
        if not settings.public_url:
            print("warning: --smtp without --public-url: e-mails carry relative links",
                  file=sys.stderr)
    from cathedral.server.logs import configure_logging

    configure_logging(args.log_level)
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    config = uvicorn.Config(
        create_app(settings), log_config=None, access_log=False,  # tokens stay out of logs
        ws_max_size=64 * 1024, timeout_graceful_shutdown=10, lifespan="on",
        # Compressing every view costs more CPU than it saves on loopback or a LAN.
        ws_per_message_deflate=False,
        http=with_head_timeout(settings.header_timeout_s),
        log_level=args.log_level,
    )
    server = uvicorn.Server(config)
    db = settings.db
    safe_db = db.split("@")[-1] if "@" in db else db  # never print a password
    print(f"cathedral serve: http://{shown}:{port}/  (database {safe_db}; Ctrl-C stops)",
          flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    # A start that failed (a database that cannot be opened) was logged; say so by the code.
    return 0 if server.started else 1
