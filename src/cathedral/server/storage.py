"""Durable games: SQLAlchemy 2 models and the append-only action log.

A game is a row of metadata (``GameRow``), one row per seat (``SeatRow``: its kind and, for a
human, the hash of its secret token) and its log (``ActionRow``): every action applied,
chance outcomes included, keyed by ``(game_id, generation, ply)``. The key is the guard that
a move is never applied twice: of any number of writers offering the same ply, the database
accepts one and the others get ``PlyTaken``. A take-back never rewrites the log: it starts
a new generation holding copies of the actions kept, so replaying the current generation
always rebuilds the game.

Every game row counts its changes in ``revision``; every write names the revision it
changes and refuses (``PlyTaken``) if the row has moved on, so a process never writes over a
change it has not seen, and a read can tell in one small query whether a cached copy is
current. Every method here is synchronous and short (one transaction); the server calls
them from its database threads (see ``hub.Hub``).

A SQLite file and the folder made for it are created readable by their owner only: the file
holds each game's secret seed, which decides its future dice.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).parent / "migrations"


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game's metadata. ``ply`` and ``status`` mirror the log for the lobby's queries."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    params: Mapped[str] = mapped_column(Text)  # JSON, every parameter
    rules_version: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(64))  # secret: chance outcomes and AI seeds
    status: Mapped[str] = mapped_column(String(16), index=True)  # playing | finished
    ply: Mapped[int] = mapped_column(Integer, default=0)
    generation: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: resign, time
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: initial, increment
    read_only: Mapped[bool] = mapped_column(Boolean, default=False)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float, index=True)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    turns: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    setting: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # none | due (a rated game over, not yet rated) | done
    rating_state: Mapped[str] = mapped_column(String(8), default="none",
                                              server_default="none")
    rating_changes: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON per seat


class SeatRow(Base):
    """One seat: ``kind`` is ``human`` or a computer player's name; ``token_hash`` the SHA-256
    of a human seat's secret (``None`` while a public seat is still open)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    arrived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)  # shown for the seat


class ActionRow(Base):
    """One applied action. ``player`` is who chose it (-1 for chance); ``clock`` the remaining
    seconds of every player after it (JSON list), when the game has clocks; ``info`` what it
    did for people (JSON: ``text``, ``turn``, ``skipped``; absent in older rows)."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[float] = mapped_column(Float)
    info: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON: StoredAction's


Index("ix_games_public_status", GameRow.public, GameRow.status)


class PlyTaken(Exception):
    """Another writer changed the game first (stored an action at this ply, or changed the
    game since the revision given): nothing was written."""


@dataclass
class StoredAction:
    """One ply of the log. ``text`` is the game's description of it for people, ``turn``
    whether it starts its player's turn, ``skipped`` the players it made the rules skip."""

    ply: int
    action: int
    player: int
    notation: str
    clock: list[float] | None
    at: float
    text: str | None = None
    turn: bool = False
    skipped: list[int] = field(default_factory=list)

    def info(self) -> str | None:
        if self.text is None:
            return None
        return _dumps({"text": self.text, "turn": self.turn, "skipped": self.skipped})

    @classmethod
    def of_row(cls, a) -> StoredAction:
        info = _loads(a.info) or {}
        # Rows from before descriptions were kept: the notation, a turn where the mover
        # changes (``Hub`` fills ``turn`` in when it rebuilds the game).
        return cls(a.ply, a.action, a.player, a.notation, _loads(a.clock), a.at,
                   info.get("text"), bool(info.get("turn", False)),
                   list(info.get("skipped", [])))


@dataclass
class StoredSeat:
    player: int
    kind: str
    token_hash: str | None
    open: bool = False
    arrived: bool = False
    account_id: str | None = None
    name: str | None = None


@dataclass
class StoredGame:
    """Everything needed to rebuild a live table."""

    id: str
    game: str
    params: dict[str, Any]
    rules_version: int
    seed: str
    status: str
    generation: int
    result: dict | None
    clock: dict | None
    read_only: bool
    public: bool
    rematch_of: str | None
    rematch: str | None
    created: float
    updated: float
    seats: list[StoredSeat] = field(default_factory=list)
    actions: list[StoredAction] = field(default_factory=list)
    revision: int = 0
    rated: bool = False
    setting: str | None = None
    rating_changes: list | None = None


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def normalise_url(url: str) -> str:
    """Returns an SQLAlchemy URL, reading plain ``postgresql://`` as the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _private_file(path: Path) -> None:
    """Creates the folder (0700) and the empty database file (0600) if they do not exist;
    SQLite gives its journal files the database file's mode."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb"):
            pass


def make_engine(url: str) -> Engine:
    """Returns an engine; SQLite files get WAL mode, a busy timeout and foreign keys."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:  # pragma: no cover - trivial
            cursor = dbapi_connection.cursor()
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the process being killed (the tests'
            # kill -9); only a power cut may lose the last commits.
            cursor.execute("PRAGMA synchronous=NORMAL")
            # Checkpoints (the only fsyncs) run in the server's checkpoint thread, never
            # inside a move's commit.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Brings the schema up to the newest Alembic revision (creates it on an empty database);
    running it again changes nothing."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Storage:
    """The database operations of the server, each one transaction."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        if self.url.startswith("sqlite:///") and ":memory:" not in self.url:
            _private_file(Path(self.url[len("sqlite:///"):]).expanduser())
        self.engine = make_engine(self.url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self._writer = None  # SQLite's one writer connection (see _raw)
        self._writing = threading.RLock()  # one transaction at a time on it
        self._integrity_errors = (IntegrityError, self.engine.dialect.dbapi.IntegrityError)

    def migrate(self) -> None:
        migrate(self.engine)

    def checkpoint(self) -> None:
        """Copies the SQLite write-ahead log into the database file without blocking
        writers (the server calls it every second from a thread)."""
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        with self._writing:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()

    # ----- writing ------------------------------------------------------------------------

    @contextmanager
    def writer_if_free(self) -> Iterator[bool]:
        """Holds SQLite's writer connection for this thread if no other thread holds it, and
        says whether it does: a caller that must not wait (the event loop) then writes here,
        its transaction taking the writer again without waiting, or else in a thread."""
        held = self._writing.acquire(blocking=False)
        try:
            yield held
        finally:
            if held:
                self._writing.release()

    @contextmanager
    def _raw(self) -> Iterator[tuple[Any, str]]:
        """One transaction on a DBAPI connection of the engine's pool, with the driver's
        placeholder: the hot writes (a move, a new game) skip SQLAlchemy's statement
        machinery, which costs several times the database's own work there. On SQLite one
        connection is kept for the writer, and a lock gives each transaction the whole of it
        (SQLite has one writer anyway); elsewhere each call checks one out, so writers in
        several threads run side by side. A duplicate key raises ``PlyTaken``."""
        if self.is_sqlite:
            with self._writing:
                if self._writer is None:
                    self._writer = self.engine.raw_connection()
                yield from self._transaction(self._writer, "?")
        else:
            connection = self.engine.raw_connection()
            try:
                yield from self._transaction(connection, "%s")
            finally:
                connection.close()  # back to the pool

    def _transaction(self, connection: Any, mark: str) -> Iterator[tuple[Any, str]]:
        try:
            yield connection, mark
            connection.commit()
        except self._integrity_errors as exc:
            connection.rollback()
            raise PlyTaken(str(exc).splitlines()[0] if str(exc) else "duplicate") from None
        except BaseException:
            connection.rollback()
            raise

    @staticmethod
    def _marks(mark: str, n: int) -> str:
        return ", ".join([mark] * n)

    def create_game(self, game: StoredGame, revision: int | None = None) -> None:
        """Stores a new game with its seats and actions (an uploaded record has some); a
        rematch also links the old game to it, at the old game's ``revision``."""
        with self._raw() as (connection, mark):
            cursor = connection.cursor()
            cursor.execute(
                "INSERT INTO games (id, game, params, rules_version, seed, status, ply, "
                "generation, result, clock, read_only, public, rematch_of, rematch, created, "
                f"updated, turns, rated, setting, rating_state) "
                f"VALUES ({self._marks(mark, 20)})",
                (game.id, game.game, _dumps(game.params), game.rules_version, game.seed,
                 game.status, len(game.actions), game.generation, _dumps(game.result),
                 _dumps(game.clock), game.read_only, game.public, game.rematch_of, None,
                 game.created, game.updated, sum(a.turn for a in game.actions), game.rated,
                 game.setting, "due" if game.rated else "none"))
            cursor.executemany(
                "INSERT INTO seats (game_id, player, kind, token_hash, open, arrived, "
                f"account_id, name) VALUES ({self._marks(mark, 8)})",
                [(game.id, s.player, s.kind, s.token_hash, s.open, s.arrived, s.account_id,
                  s.name) for s in game.seats])
            if game.actions:
                self._insert_actions(cursor, mark, game.id, game.generation, game.actions)
            if game.rematch_of is not None:
                cursor.execute(f"UPDATE games SET rematch = {mark}, revision = revision + 1 "
                               f"WHERE id = {mark} AND revision = {mark}",
                               (game.id, game.rematch_of, revision))
                linked = cursor.rowcount == 1
                cursor.close()
                if not linked:
                    raise PlyTaken(f"game {game.rematch_of} changed meanwhile")
            else:
                cursor.close()

    def _insert_actions(self, cursor, mark: str, game_id: str, generation: int,
                        entries: list[StoredAction]) -> None:
        cursor.executemany(
            "INSERT INTO actions (game_id, generation, ply, action, player, notation, clock, "
            f"at, info) VALUES ({self._marks(mark, 9)})",
            [(game_id, generation, a.ply, a.action, a.player, a.notation, _dumps(a.clock),
              a.at, a.info()) for a in entries])

    @staticmethod
    def _action_values(game_id: str, generation: int, a: StoredAction) -> dict:
        return {"game_id": game_id, "generation": generation, "ply": a.ply,
                "action": a.action, "player": a.player, "notation": a.notation,
                "clock": _dumps(a.clock), "at": a.at, "info": a.info()}

    def append(self, game_id: str, generation: int, entries: list[StoredAction], *,
               status: str, revision: int, result: dict | None = None) -> None:
        """Appends actions (a move and the chance outcomes it led to) in one transaction;
        raises ``PlyTaken``, storing none of them, if one of those plies is stored already
        or the game has moved past ``revision`` (the move path: see ``_raw``)."""
        try:
            with self._raw() as (connection, mark):
                cursor = connection.cursor()
                self._insert_actions(cursor, mark, game_id, generation, entries)
                cursor.execute(f"UPDATE games SET ply = {mark}, status = {mark}, "
                               f"updated = {mark}, turns = turns + {mark}, "
                               f"result = COALESCE({mark}, result), "
                               f"revision = revision + 1 WHERE id = {mark} "
                               f"AND generation = {mark} AND revision = {mark}",
                               (entries[-1].ply + 1, status, entries[-1].at,
                                sum(a.turn for a in entries), _dumps(result), game_id,
                                generation, revision))
                moved_on = cursor.rowcount == 0  # changed elsewhere: a take-back, a resign
                cursor.close()
                if moved_on:
                    raise PlyTaken("generation")
        except PlyTaken:
            raise PlyTaken(f"ply {entries[0].ply} of game {game_id} is already played") from None

    def claim(self, key: int) -> Any | None:
        """Claims a job (a computer move) for this process: a PostgreSQL session advisory
        lock on its own connection, held until ``release``. Returns the connection, or None
        if another process holds it. A process that dies loses its connection, and with it
        the claim: the job falls to the next process that asks."""
        connection = self.engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute("SELECT pg_try_advisory_lock(%s)", (key,))
            held = bool(cursor.fetchone()[0])
            cursor.close()
            connection.commit()
        except BaseException:
            connection.invalidate()
            raise
        if not held:
            connection.close()
            return None
        return connection

    def release(self, connection: Any, key: int) -> None:
        """Gives a claimed job back (done or abandoned)."""
        try:
            cursor = connection.cursor()
            cursor.execute("SELECT pg_advisory_unlock(%s)", (key,))
            cursor.close()
            connection.commit()
            connection.close()
        except Exception:  # the lock must never stay on a pooled connection: drop it
            connection.invalidate()

    def _change(self, conn, game_id: str, revision: int, **values: Any) -> None:
        """Updates a game row at ``revision`` (and counts the change); ``PlyTaken`` if the
        row has moved on."""
        changed = conn.execute(
            update(GameRow).where(GameRow.id == game_id, GameRow.revision == revision)
            .values(revision=GameRow.revision + 1, **values)).rowcount
        if changed != 1:
            raise PlyTaken(f"game {game_id} changed meanwhile")

    def finish(self, game_id: str, result: dict, at: float, *, revision: int) -> None:
        """Ends a game outside the rules (a resignation, a clock, the ply limit)."""
        with self.engine.begin() as conn:
            self._change(conn, game_id, revision, status="finished", result=_dumps(result),
                         updated=at)

    def mark_finished(self, game_id: str, *, revision: int) -> None:
        with self.engine.begin() as conn:
            self._change(conn, game_id, revision, status="finished")

    def set_seat(self, game_id: str, player: int, *, revision: int, kind: str | None = None,
                 token_hash: str | None = None, open: bool | None = None,
                 arrived: bool | None = None, only_if_open: bool = False,
                 account: tuple[str, str] | None = None,
                 only_if_anonymous: bool = False) -> bool:
        """Changes a seat; with ``only_if_open`` only a still-open seat, with
        ``only_if_anonymous`` only one no account holds (False otherwise). ``account`` is
        the (id, name) the seat becomes."""
        values: dict[str, Any] = {}
        if account is not None:
            values["account_id"], values["name"] = account
        if kind is not None:
            values["kind"] = kind
        if token_hash is not None:
            values["token_hash"] = token_hash
        if open is not None:
            values["open"] = open
        if arrived is not None:
            values["arrived"] = arrived
        query = update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.player == player)
        if only_if_open:
            query = query.where(SeatRow.open.is_(True))
        if only_if_anonymous:
            query = query.where(SeatRow.account_id.is_(None))
        with self.engine.begin() as conn:
            if conn.execute(query.values(**values)).rowcount != 1:
                return False
            self._change(conn, game_id, revision, updated=time.time())
        return True

    def take_back(self, game_id: str, old_generation: int, kept: list[StoredAction],
                  at: float, *, revision: int) -> None:
        """Starts generation ``old_generation + 1`` holding copies of ``kept``; the old
        generation stays in the log untouched. Raises ``PlyTaken`` if another writer moved
        the game to a new generation first."""
        new = old_generation + 1
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.generation == old_generation,
                       GameRow.revision == revision)
                .values(generation=new, ply=len(kept), status="playing", updated=at, result=None,
                        turns=sum(a.turn for a in kept), revision=GameRow.revision + 1)
            ).rowcount
            if changed != 1:
                raise PlyTaken(f"game {game_id} changed meanwhile")
            if kept:
                conn.execute(insert(ActionRow),
                             [self._action_values(game_id, new, a) for a in kept])

    # ----- reading ------------------------------------------------------------------------

    def load(self, game_id: str) -> StoredGame | None:
        """Returns the game with its seats and the actions of its current generation."""
        with self.engine.connect() as conn:
            row = conn.execute(select(GameRow).where(GameRow.id == game_id)).first()
            if row is None:
                return None
            seats = conn.execute(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.player)
            ).all()
            actions = conn.execute(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.generation == row.generation)
                .order_by(ActionRow.ply)
            ).all()
        return StoredGame(
            id=row.id, game=row.game, params=json.loads(row.params),
            rules_version=row.rules_version, seed=row.seed, status=row.status,
            generation=row.generation, result=_loads(row.result), clock=_loads(row.clock),
            read_only=bool(row.read_only), public=bool(row.public), rematch_of=row.rematch_of,
            rematch=row.rematch, created=row.created, updated=row.updated,
            revision=row.revision, rated=bool(row.rated), setting=row.setting,
            rating_changes=_loads(row.rating_changes),
            seats=[StoredSeat(s.player, s.kind, s.token_hash, bool(s.open), bool(s.arrived),
                              s.account_id, s.name) for s in seats],
            actions=[StoredAction.of_row(a) for a in actions],
        )

    def unfinished(self) -> list[str]:
        """Returns the ids of every game still being played (picked up again on start)."""
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(GameRow.id).where(GameRow.status == "playing")
                .order_by(GameRow.updated)
            ).scalars())

    def stalled(self, since: float, before: float, limit: int = 200) -> list[str]:
        """Returns unfinished games with a computer seat last changed between ``since`` and
        ``before``, latest first: a computer move there may have died with the process that
        claimed it. (Older games are abandoned ones, or were picked up when a process started.)
        """
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(GameRow.id).where(
                    GameRow.status == "playing", GameRow.updated >= since,
                    GameRow.updated < before,
                    GameRow.id.in_(select(SeatRow.game_id).where(SeatRow.kind != "human")),
                ).order_by(GameRow.updated.desc()).limit(limit)
            ).scalars())

    def revisions(self, game_ids: list[str]) -> dict[str, int]:
        """Returns the stored revision of each of these games."""
        found: dict[str, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(game_ids), 500):
                rows = conn.execute(select(GameRow.id, GameRow.revision)
                                    .where(GameRow.id.in_(game_ids[start:start + 500])))
                found.update((row.id, row.revision) for row in rows)
        return found

    def revision(self, game_id: str) -> int | None:
        """Returns the stored revision of one game (None if there is no such game): the
        one small query a process makes before answering from its cache."""
        with self.engine.connect() as conn:
            return conn.execute(select(GameRow.revision)
                                .where(GameRow.id == game_id)).scalar_one_or_none()

    def lobby(self, limit: int = 50) -> dict[str, list[dict]]:
        """Returns the lobby's lists, public games only (a private one is opened by its link
        alone): games with an open seat, games being played and recently finished ones,
        newest first."""
        columns = (GameRow.id, GameRow.game, GameRow.params, GameRow.status, GameRow.ply,
                   GameRow.turns, GameRow.updated, GameRow.public, GameRow.read_only,
                   GameRow.rated)
        with self.engine.connect() as conn:
            open_ids = set(conn.execute(
                select(SeatRow.game_id).join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.open.is_(True), GameRow.status == "playing",
                       GameRow.public.is_(True))
            ).scalars())
            lists = {
                "open": conn.execute(
                    select(*columns).where(GameRow.id.in_(open_ids) if open_ids else false())
                    .order_by(GameRow.updated.desc()).limit(limit)
                ).all(),
                "playing": conn.execute(
                    select(*columns).where(GameRow.status == "playing",
                                           GameRow.public.is_(True))
                    .order_by(GameRow.updated.desc()).limit(limit)
                ).all(),
                "finished": conn.execute(
                    select(*columns).where(GameRow.status == "finished",
                                           GameRow.public.is_(True))
                    .order_by(GameRow.updated.desc()).limit(limit)
                ).all(),
            }
            ids = {r.id for rows in lists.values() for r in rows}
            seats: dict[str, list[tuple[int, str, bool, str | None]]] = {}
            if ids:
                for s in conn.execute(select(SeatRow).where(SeatRow.game_id.in_(ids))
                                      .order_by(SeatRow.player)):
                    seats.setdefault(s.game_id, []).append((s.player, s.kind, bool(s.open),
                                                            s.name))
        out: dict[str, list[dict]] = {}
        for name, rows in lists.items():
            out[name] = [{
                "id": r.id, "game": r.game, "params": json.loads(r.params),
                "status": r.status, "ply": r.ply, "turns": r.turns, "updated": r.updated,
                "read_only": bool(r.read_only), "public": bool(r.public),
                "seats": [kind for _, kind, _, _ in seats.get(r.id, [])],
                "open_seats": [p for p, _, is_open, _ in seats.get(r.id, []) if is_open],
                "names": [name for _, _, _, name in seats.get(r.id, [])],
                "rated": bool(r.rated),
            } for r in rows]
        return out
