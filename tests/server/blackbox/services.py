"""Real services for the black-box server tests and ``benchmarks/load_server.py``.

Owns three things and nothing else: a free loopback port, a throwaway PostgreSQL cluster
(Debian's binaries, run as the ``postgres`` user on a temporary data directory) and a real
``cathedral serve`` process (started, waited for on ``GET /healthz``, its output kept in a
log file for failure messages, stopped with SIGTERM and then SIGKILL). No part of the server
is imported: the tests see it only through server-api.md.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

#: Extra ``cathedral serve`` arguments for every start (the tests and the benchmark drive the
#: server far faster than any person, all from 127.0.0.1); set by the caller.
SERVE_ARGS_ENV = "CATHEDRAL_BLACKBOX_SERVE_ARGS"
#: A Python script to run instead of ``python -m cathedral`` (the same ``serve --host --port
#: --db`` arguments): the black-box tests hold any implementation of server-api.md to account.
SERVER_SCRIPT_ENV = "CATHEDRAL_BLACKBOX_SERVER"


def free_port() -> int:
    """Returns a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bin() -> Path | None:
    """Returns the newest installed PostgreSQL server's bin directory, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version_key)
    return Path(found[-1]).parent if found else None


def _version_key(path: str) -> int:
    version = Path(path).parent.parent.name
    return int(version) if version.isdigit() else 0


def _tail(path: Path, lines: int = 60) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


class Postgres:
    """A PostgreSQL cluster on a temporary data directory and a free loopback port.

    ``durable=False`` (the tests) turns off fsync: PostgreSQL still keeps every committed row
    across a crash of the *game server*, which is what the tests kill; only a crash of the
    whole machine could lose data. The benchmark keeps PostgreSQL's defaults.
    """

    def __init__(self, *, durable: bool = True) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin)")
        self.bindir = bindir
        self.durable = durable
        self.port = free_port()
        # Under /tmp, not pytest's tmp_path: the postgres user cannot enter root's 0700 dirs.
        self.root = Path(tempfile.mkdtemp(prefix="cathedral-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self.password = secrets.token_hex(12)
        self._databases = 0
        self._started = False

    def _as_postgres(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        run = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*run, *args], capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise RuntimeError(
                f"{Path(args[0]).name} failed ({done.returncode}): {done.stderr.strip()}\n"
                f"{_tail(self.log)}"
            )
        return done

    def start(self) -> Postgres:
        os.chmod(self.root, 0o755)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._as_postgres(
            str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "--encoding=UTF8", "--no-sync",
        )
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=300"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._as_postgres(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.log), "-w", "-t", "60", "start",
        )
        self._started = True
        self.psql(f"CREATE ROLE cathedral LOGIN PASSWORD '{self.password}'")
        return self

    def psql(self, sql: str) -> str:
        done = self._as_postgres(
            str(self.bindir / "psql"), "-h", str(self.root), "-p", str(self.port),
            "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-Atc", sql,
        )
        return done.stdout

    def new_database(self) -> str:
        """Creates an empty database owned by the ``cathedral`` role; returns its URL."""
        self._databases += 1
        name = f"cathedral_{self._databases}"
        self.psql(f"CREATE DATABASE {name} OWNER cathedral")
        return f"postgresql+psycopg://cathedral:{self.password}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self._started:
            self._as_postgres(
                str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                "-t", "30", "stop", check=False,
            )
            self._started = False
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Postgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


def serve_command(host: str, port: int, db: str, extra: list[str] | None = None) -> list[str]:
    """The command line that starts ``cathedral serve`` from this interpreter's environment."""
    script = os.environ.get(SERVER_SCRIPT_ENV)
    program = [sys.executable, script] if script else [sys.executable, "-m", "cathedral"]
    args = [*program, "serve", "--host", host, "--port", str(port)]
    # Every client of the tests and the benchmark comes from 127.0.0.1, far faster than a
    # person: the per-address rate limits would refuse them.
    args += ["--db", db, "--rate-limit", "off"]
    args += os.environ.get(SERVE_ARGS_ENV, "").split()
    return args + list(extra or [])


class Server:
    """A ``cathedral serve`` process on 127.0.0.1 and a free port, with its output in a log.

    Started in its own session so that ``stop`` can end the AI worker processes it spawned
    too, even after ``crash`` killed the main process the way a power cut would.
    """

    def __init__(
        self, db: str, workdir: Path, *, port: int | None = None,
        extra: list[str] | None = None, startup_s: float = 60.0,
    ) -> None:
        self.db = db
        self.workdir = Path(workdir)
        self.port = port or free_port()
        self.extra = list(extra or [])
        self.startup_s = startup_s
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.starts = 0
        self.proc: subprocess.Popen | None = None
        self.log = self.workdir / "server-0.log"

    def start(self) -> Server:
        self.starts += 1
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log = self.workdir / f"server-{self.starts}.log"
        env = dict(os.environ)
        # Keep the user's data directory out of it: the database is named by --db.
        env["XDG_DATA_HOME"] = str(self.workdir / "data")
        env["PYTHONUNBUFFERED"] = "1"
        command = serve_command("127.0.0.1", self.port, self.db, self.extra)
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=env, start_new_session=True,
            )
        self._wait_healthy(command)
        return self

    def _wait_healthy(self, command: list[str]) -> None:
        deadline = time.monotonic() + self.startup_s
        last = "no answer yet"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {self.proc.returncode} before it was healthy: "
                    f"{' '.join(command)}\n{self.output()}"
                )
            try:
                answer = httpx.get(f"{self.url}/healthz", timeout=2.0)
                if answer.status_code == 200:
                    return
                last = f"{answer.status_code} {answer.text[:200]}"
            except httpx.HTTPError as exc:
                last = repr(exc)
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(
            f"server not healthy after {self.startup_s} s (last: {last}): "
            f"{' '.join(command)}\n{self.output()}"
        )

    def output(self, lines: int = 60) -> str:
        """The last lines the server printed in its latest run (for failure messages)."""
        return f"--- server log {self.log} ---\n{_tail(self.log, lines)}"

    def crash(self) -> None:
        """Kills the main server process with SIGKILL (``kill -9``) and waits for it."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=30)
        self._end_group()

    def stop(self) -> None:
        """SIGTERM, up to 15 s to finish, then SIGKILL; also ends leftover workers."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self._end_group()
        self.proc = None

    def _end_group(self) -> None:
        # The process group is the one this object created (start_new_session): its id is the
        # server's pid. Orphaned AI workers of a killed server are in it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
