"""``cathedral serve`` as a command: its flags, that ``cathedral play`` never needs the web
extra, the error when the extra is missing, and a real process that prints its address,
answers, and stops cleanly on SIGTERM with its games kept."""

from __future__ import annotations

import argparse
import builtins
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.sync.client import connect

from cathedral.server import cli
from cathedral.server.logs import redact


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


def test_defaults_listen_on_loopback_only():
    args = parse()
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    assert args.db is None and args.workers is None
    assert parse("--move-rate", "off").move_rate == 0.0
    assert parse("--create-rate", "2.5").create_rate == 2.5
    with pytest.raises(SystemExit):
        parse("--move-rate", "fast")


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_port_outside_0_to_65535_is_refused_by_name(port, capsys):
    with pytest.raises(SystemExit):
        parse("--port", port)
    assert f"argument --port: '{port}': expected a port from 0 to 65535" in capsys.readouterr().err


@pytest.mark.parametrize(("db", "says"), [
    ("nonsense", "--db 'nonsense': not a database URL (expected e.g. sqlite:///"),
    ("mongodb://h/d", "--db: no database of kind 'mongodb' (expected e.g. sqlite:///"),
    ("postgresql://u:hunter2@127.0.0.1:1/d",
     "cannot open the database postgresql+psycopg://u:***@127.0.0.1:1/d: connection failed"),
    ("sqlite:///{file}/games.sqlite3", "cannot open the database sqlite:///"),
])
def test_a_database_that_cannot_be_opened_is_one_clear_error_before_the_server_starts(
        db, says, tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder")
    assert cli.run(parse("--db", db.format(file=tmp_path / "file"), "--port", "0")) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err
    assert "hunter2" not in err and "Traceback" not in err


def test_the_cathedral_command_imports_no_web_library():
    code = ("import sys, cathedral.cli; "
            "print([m for m in ('fastapi', 'uvicorn', 'sqlalchemy', 'starlette') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_a_missing_web_extra_is_one_clear_error(monkeypatch, capsys):
    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    assert cli.run(parse()) == 2
    err = capsys.readouterr().err
    assert "web" in err and "uvicorn" in err and "pip install" in err


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _start(db: str, tmp_path) -> tuple[subprocess.Popen, str]:
    log = open(tmp_path / "serve.log", "a")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "cathedral", "serve", "--port", "0", "--db", db,
         "--workers", "1"],
        stdout=subprocess.PIPE, stderr=log, text=True,
        env={**os.environ, "CATHEDRAL_RATE_LIMIT": "off"},
    )
    line = process.stdout.readline()
    assert line.startswith("cathedral serve: http://127.0.0.1:"), line
    base = line.split()[2].rstrip("/")
    for _ in range(600):  # a hang guard: the server says it is up
        try:
            if _get(base + "/healthz")["status"] == "ok":
                return process, base
        except OSError:
            time.sleep(0.1)
    raise AssertionError((tmp_path / "serve.log").read_text())


def test_a_real_server_prints_its_address_and_stops_cleanly_on_sigterm(tmp_path):
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    process, base = _start(db, tmp_path)
    try:
        table = _post(base + "/api/games", {"game": "classic", "seats": ["human", "human"]})
        token = table["seats"][0]["token"]
        request = urllib.request.Request(
            f"{base}/api/games/{table['id']}/moves", method="POST",
            data=json.dumps({"ply": 0, "move": "Cathedral e4 d5 e5 f5 e6 e7"}).encode(),
            headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.loads(answer.read())["ply"] == 1
        socket_url = base.replace("http", "ws") + f"/ws/games/{table['id']}?token={token}"
        with connect(socket_url) as socket:
            assert json.loads(socket.recv(timeout=30))["view"]["ply"] == 1
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    log = (tmp_path / "serve.log").read_text()
    assert token not in log  # secrets never reach the log
    assert any(json.loads(line).get("event") == "move" for line in log.splitlines()
               if line.startswith("{"))
    process, base = _start(db, tmp_path)
    try:
        assert _get(f"{base}/api/games/{table['id']}")["ply"] == 1
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def test_secrets_in_a_logged_address_are_redacted():
    line = '127.0.0.1:5 - "WebSocket /ws/games/abc?token=Sx-1_y&x=1" [accepted]'
    assert redact(line) == (
        '127.0.0.1:5 - "WebSocket /ws/games/abc?token=<redacted>&x=1" [accepted]')
