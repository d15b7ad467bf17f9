"""Durable people: accounts, their passkeys and sessions, the WebAuthn tickets under way,
ratings and their history, challenges and notifications (SQLAlchemy 2, one transaction a
method, called from the hub's database threads like ``storage``).

What several server processes must agree on lives here, so it holds on all of them: a
session made by one is valid on every one; a challenge is accepted, a rated game rated and
a notification e-mailed exactly once, each by a conditional update only one writer wins.
Secrets are stored as SHA-256 (sessions) or argon2id (passwords, see ``auth``), never
plainly.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from cathedral.server.storage import Base, GameRow, SeatRow, Storage

DELETED = "deleted player"


class AccountRow(Base):
    """A person. ``name_key`` is the name folded to lower case (names are unique without
    regard to case); a deleted account keeps only its id, so old references stay valid."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name_key: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    notify: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    created: Mapped[float] = mapped_column(Float)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)  # base64url
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"))
    public_key: Mapped[str] = mapped_column(Text)  # base64url of the COSE key
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"))
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class TicketRow(Base):
    """A WebAuthn ceremony under way: the challenge the server sent, used once."""

    __tablename__ = "tickets"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    challenge: Mapped[str] = mapped_column(Text)
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    user_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    expires: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                            primary_key=True)
    setting: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                            primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    setting: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)


class ChallengeRow(Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    by_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"))
    to_id: Mapped[str | None] = mapped_column(String(32), ForeignKey("accounts.id"),
                                              nullable=True)
    game: Mapped[str] = mapped_column(String(32))
    params: Mapped[str] = mapped_column(Text)
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    setting: Mapped[str | None] = mapped_column(String(16), nullable=True)
    range_lo: Mapped[float | None] = mapped_column(Float, nullable=True)
    range_hi: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    accepted_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[float] = mapped_column(Float)


class NotificationRow(Base):
    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"))
    kind: Mapped[str] = mapped_column(String(16))
    actor_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    read: Mapped[bool] = mapped_column(Boolean, default=False)
    email: Mapped[str] = mapped_column(String(16), default="none")


class PuzzleRatingRow(Base):
    __tablename__ = "puzzle_ratings"

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                            primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    tried: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class PuzzleAttemptRow(Base):
    __tablename__ = "puzzle_attempts"

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                            primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


NOTIFY_DEFAULT = {"page": True, "browser": True, "email": True}


@dataclass
class Account:
    id: str
    name: str
    password_hash: str | None
    email: str | None
    notify: dict[str, bool]
    created: float
    passkeys: int = 0

    @classmethod
    def of_row(cls, row: AccountRow, passkeys: int = 0) -> Account:
        notify = {**NOTIFY_DEFAULT, **json.loads(row.notify or "{}")}
        return cls(row.id, row.name or DELETED, row.password_hash, row.email, notify,
                   row.created, passkeys)


@dataclass
class Challenge:
    id: str
    by_id: str
    by_name: str
    by_rating: float | None
    to_id: str | None
    to_name: str | None
    game: str
    params: dict
    clock: dict | None
    rated: bool
    setting: str | None
    range: list[float] | None
    status: str
    game_id: str | None
    accepted_by: str | None
    created: float


class NameTaken(Exception):
    pass


class Taken(Exception):
    """A challenge was accepted, cancelled or declined by someone else first."""


def name_key(name: str) -> str:
    return name.casefold()


@dataclass
class Accounts:
    """The account operations of the server, each one transaction."""

    storage: Storage
    _secret: str | None = field(default=None, repr=False)

    @property
    def engine(self):
        return self.storage.engine

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self.engine) as session:
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with Session(self.engine) as session, session.begin():
            yield session

    # ----- the site's secret ----------------------------------------------------------------

    @property
    def known_secret(self) -> str | None:
        """The site's secret once read (it never changes)."""
        return self._secret

    def site_secret(self) -> str:
        """The secret every process shares (made by the first that asks)."""
        if self._secret is None:
            with self._write() as conn:
                value = conn.execute(select(SecretRow.value)
                                     .where(SecretRow.name == "site")).scalar_one_or_none()
            if value is None:
                try:
                    with self._write() as conn:
                        value = secrets.token_hex(32)
                        conn.execute(insert(SecretRow).values(name="site", value=value))
                except IntegrityError:  # another process made it first
                    with self._write() as conn:
                        value = conn.execute(select(SecretRow.value)
                                             .where(SecretRow.name == "site")).scalar_one()
            self._secret = value
        return self._secret

    # ----- accounts -------------------------------------------------------------------------

    def create(self, name: str, password_hash: str | None, at: float,
               account_id: str | None = None) -> Account:
        account_id = account_id or secrets.token_urlsafe(12)
        try:
            with self._write() as conn:
                conn.execute(insert(AccountRow).values(
                    id=account_id, name=name, name_key=name_key(name),
                    password_hash=password_hash, created=at, deleted=False, notify="{}"))
        except IntegrityError:
            raise NameTaken(name) from None
        account = self.get(account_id)
        assert account is not None
        return account

    def _count_passkeys(self, conn, account_id: str) -> int:
        return conn.execute(select(func.count()).select_from(PasskeyRow)
                            .where(PasskeyRow.account_id == account_id)).scalar_one()

    def get(self, account_id: str) -> Account | None:
        with self._read() as conn:
            row = conn.execute(select(AccountRow).where(
                AccountRow.id == account_id, AccountRow.deleted.is_(False))).scalars().first()
            return None if row is None else Account.of_row(
                row, self._count_passkeys(conn, account_id))

    def by_name(self, name: str) -> Account | None:
        with self._read() as conn:
            row = conn.execute(select(AccountRow).where(
                AccountRow.name_key == name_key(name),
                AccountRow.deleted.is_(False))).scalars().first()
            return None if row is None else Account.of_row(
                row, self._count_passkeys(conn, row.id))

    def names(self, account_ids: list[str]) -> dict[str, str]:
        with self._read() as conn:
            return {row.id: row.name for row in conn.execute(
                select(AccountRow.id, AccountRow.name).where(
                    AccountRow.id.in_(account_ids), AccountRow.deleted.is_(False)))}

    def change(self, account_id: str, *, email: Any = ..., notify: dict | None = None,
               password_hash: str | None = None) -> None:
        values: dict[str, Any] = {}
        if email is not ...:
            values["email"] = email
        if notify is not None:
            values["notify"] = json.dumps(notify)
        if password_hash is not None:
            values["password_hash"] = password_hash
        if values:
            with self._write() as conn:
                conn.execute(update(AccountRow).where(AccountRow.id == account_id)
                             .values(**values))

    def delete(self, account_id: str) -> list[str]:
        """Removes an account's personal data; its games keep their seats, the name shown
        replaced (and each game's revision counted, so every process reloads it). Returns
        those games' ids."""
        with self._write() as conn:
            games = list(conn.execute(select(SeatRow.game_id).distinct()
                                      .where(SeatRow.account_id == account_id)).scalars())
            conn.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                         .values(account_id=None, name=DELETED))
            if games:
                conn.execute(update(GameRow).where(GameRow.id.in_(games))
                             .values(revision=GameRow.revision + 1))
            for table in (PasskeyRow, SessionRow, RatingRow, RatingHistoryRow,
                          NotificationRow, PuzzleRatingRow, PuzzleAttemptRow):
                conn.execute(delete(table).where(table.account_id == account_id))
            # Others' notifications name this account in their text: they go too.
            conn.execute(delete(NotificationRow).where(NotificationRow.actor_id == account_id))
            conn.execute(delete(ChallengeRow).where(or_(ChallengeRow.by_id == account_id,
                                                        ChallengeRow.to_id == account_id)))
            conn.execute(update(AccountRow).where(AccountRow.id == account_id).values(
                name=None, name_key=None, password_hash=None, email=None, notify="{}",
                deleted=True))
        return games

    # ----- passkeys -------------------------------------------------------------------------

    def add_passkey(self, account_id: str, credential_id: str, public_key: str,
                    sign_count: int, at: float) -> None:
        with self._write() as conn:
            conn.execute(insert(PasskeyRow).values(
                credential_id=credential_id, account_id=account_id, public_key=public_key,
                sign_count=sign_count, created=at))

    def passkey(self, credential_id: str) -> tuple[str, str, int] | None:
        """(account id, public key, sign count) of a live account's passkey."""
        with self._read() as conn:
            row = conn.execute(
                select(PasskeyRow.account_id, PasskeyRow.public_key, PasskeyRow.sign_count)
                .join(AccountRow, AccountRow.id == PasskeyRow.account_id)
                .where(PasskeyRow.credential_id == credential_id,
                       AccountRow.deleted.is_(False))).first()
        return None if row is None else (row[0], row[1], row[2])

    def passkey_used(self, credential_id: str, sign_count: int) -> None:
        with self._write() as conn:
            conn.execute(update(PasskeyRow).where(PasskeyRow.credential_id == credential_id)
                         .values(sign_count=sign_count))

    def passkey_ids(self, account_id: str) -> list[str]:
        with self._read() as conn:
            return list(conn.execute(select(PasskeyRow.credential_id)
                                     .where(PasskeyRow.account_id == account_id)).scalars())

    # ----- tickets --------------------------------------------------------------------------

    def put_ticket(self, ticket_id: str, purpose: str, challenge: str, expires: float, *,
                   name: str | None = None, user_id: str | None = None,
                   account_id: str | None = None, now: float = 0.0) -> None:
        with self._write() as conn:
            conn.execute(delete(TicketRow).where(TicketRow.expires < now))
            conn.execute(insert(TicketRow).values(
                id=ticket_id, purpose=purpose, challenge=challenge, name=name,
                user_id=user_id, account_id=account_id, expires=expires))

    def take_ticket(self, ticket_id: str, purpose: str, now: float) -> TicketRow | None:
        """The ticket, used up (a challenge answers once), or None if unknown or expired."""
        with self._write() as conn:
            row = conn.execute(select(TicketRow)
                               .where(TicketRow.id == ticket_id)).scalars().first()
            if row is None:
                return None
            taken = conn.execute(delete(TicketRow).where(TicketRow.id == ticket_id)).rowcount
        if taken != 1 or row.purpose != purpose or row.expires < now:
            return None
        return row

    # ----- sessions -------------------------------------------------------------------------

    def open_session(self, id_hash: str, account_id: str, csrf: str, at: float,
                     expires: float, ending: str | None) -> None:
        """A new session; the one the browser presented (``ending``), if any, ends."""
        with self._write() as conn:
            if ending:
                conn.execute(delete(SessionRow).where(SessionRow.id_hash == ending))
            conn.execute(delete(SessionRow).where(SessionRow.expires < at))
            conn.execute(insert(SessionRow).values(id_hash=id_hash, account_id=account_id,
                                                   csrf=csrf, created=at, expires=expires))

    def session(self, id_hash: str, now: float) -> tuple[Account, str] | None:
        """The account and CSRF token of a live session."""
        passkeys = (select(func.count()).select_from(PasskeyRow)
                    .where(PasskeyRow.account_id == AccountRow.id).scalar_subquery())
        with self._read() as conn:  # one query: every signed-in request makes it
            row = conn.execute(
                select(AccountRow, SessionRow.csrf, passkeys)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.id_hash == id_hash, SessionRow.expires > now,
                       AccountRow.deleted.is_(False))).first()
        return None if row is None else (Account.of_row(row[0], row[2]), row[1])

    def end_session(self, id_hash: str) -> None:
        with self._write() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    # ----- ratings --------------------------------------------------------------------------

    def ratings(self, account_id: str) -> dict[str, dict]:
        with self._read() as conn:
            rows = conn.execute(select(RatingRow).where(RatingRow.account_id == account_id))
            out = {r[0].setting: {"rating": r[0].rating, "rd": r[0].rd,
                                  "volatility": r[0].volatility, "games": r[0].games}
                   for r in rows}
            for h in conn.execute(select(RatingHistoryRow)
                                  .where(RatingHistoryRow.account_id == account_id)
                                  .order_by(RatingHistoryRow.at)).scalars():
                out.setdefault(h.setting, {"history": []}).setdefault("history", []).append(
                    {"at": h.at, "rating": round(h.rating, 1), "rd": round(h.rd, 1),
                     "before": round(h.before, 1), "game_id": h.game_id})
        for entry in out.values():
            entry.setdefault("history", [])
        return out

    def rating_of(self, account_id: str, setting: str) -> tuple[float, float, float] | None:
        with self._read() as conn:
            row = conn.execute(select(RatingRow.rating, RatingRow.rd, RatingRow.volatility)
                               .where(RatingRow.account_id == account_id,
                                      RatingRow.setting == setting)).first()
        return None if row is None else (row[0], row[1], row[2])

    def leaderboard(self, setting: str, max_rd: float, limit: int = 100) -> list[dict]:
        with self._read() as conn:
            rows = conn.execute(
                select(AccountRow.name, RatingRow.rating, RatingRow.rd, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.setting == setting, RatingRow.rd < max_rd,
                       AccountRow.deleted.is_(False))
                .order_by(RatingRow.rating.desc()).limit(limit)).all()
        return [{"rank": i + 1, "name": r[0], "rating": round(r[1], 1), "rd": round(r[2], 1),
                 "games": r[3]} for i, r in enumerate(rows)]

    def apply_rating(self, game_id: str, at: float,
                     compute: Callable[[dict, list], list | None]) -> list | None:
        """Rates a finished rated game once: claims it (``rating_state`` due -> done, one
        writer wins), reads the seats' ratings (locked for this transaction: ``FOR UPDATE`` on
        PostgreSQL; on SQLite the claim's write already holds the one write lock), asks
        ``compute(game_row_values, seats)`` for each seat's new rating (a dict or None) and
        stores them with the history. Returns the changes, or None if the game was
        not due."""
        with self._write() as conn:
            claimed = conn.execute(update(GameRow).where(
                GameRow.id == game_id, GameRow.rating_state == "due",
                GameRow.status == "finished").values(rating_state="done")).rowcount
            if claimed != 1:
                return None
            game = conn.execute(select(GameRow.setting, GameRow.result)
                                .where(GameRow.id == game_id)).first()
            seats = conn.execute(select(SeatRow.player, SeatRow.kind, SeatRow.account_id)
                                 .where(SeatRow.game_id == game_id)
                                 .order_by(SeatRow.player)).all()
            setting = game.setting
            accounts = [s.account_id for s in seats if s.account_id]
            query = select(RatingRow).where(RatingRow.account_id.in_(accounts),
                                            RatingRow.setting == setting)
            if not self.storage.is_sqlite:
                query = query.with_for_update()
            current = {r.account_id: r for r in conn.execute(query).scalars()}
            inputs = [{"player": s.player, "kind": s.kind, "account_id": s.account_id,
                       "rating": None if s.account_id not in current else
                       (current[s.account_id].rating, current[s.account_id].rd,
                        current[s.account_id].volatility)} for s in seats]
            changes = compute({"setting": setting, "result": json.loads(game.result or
                                                                       "null")}, inputs)
            if changes is None:
                return None
            for seat, change in zip(inputs, changes, strict=True):
                account_id = seat["account_id"]
                if change is None or account_id is None:
                    continue
                values = {"rating": change["after"], "rd": change["rd"],
                          "volatility": change["volatility"], "updated": at}
                if account_id in current:
                    conn.execute(update(RatingRow).where(
                        RatingRow.account_id == account_id, RatingRow.setting == setting)
                        .values(games=RatingRow.games + 1, **values))
                else:
                    conn.execute(insert(RatingRow).values(account_id=account_id,
                                                          setting=setting, games=1, **values))
                conn.execute(insert(RatingHistoryRow).values(
                    account_id=account_id, game_id=game_id, setting=setting, at=at,
                    before=change["before"], rating=change["after"], rd=change["rd"]))
            shown = [None if c is None else {"before": round(c["before"], 1),
                                             "after": round(c["after"], 1)} for c in changes]
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(
                rating_changes=json.dumps(shown), revision=GameRow.revision + 1))
        return shown

    def due_ratings(self, limit: int = 100) -> list[str]:
        """Finished rated games not rated yet (a process died between the two)."""
        with self._read() as conn:
            return list(conn.execute(select(GameRow.id).where(
                GameRow.rating_state == "due", GameRow.status == "finished")
                .limit(limit)).scalars())

    # ----- puzzles --------------------------------------------------------------------------

    def puzzle_rating(self, account_id: str) -> dict | None:
        """``{"rating", "rd", "volatility", "tried", "solved"}`` at puzzles, or None."""
        with self._read() as conn:
            row = conn.execute(select(PuzzleRatingRow).where(
                PuzzleRatingRow.account_id == account_id)).scalars().first()
        return None if row is None else {
            "rating": row.rating, "rd": row.rd, "volatility": row.volatility,
            "tried": row.tried, "solved": row.solved}

    def puzzle_tried(self, account_id: str, puzzle_ids: list[str] | None = None
                     ) -> dict[str, bool]:
        """The puzzles an account has tried (of ``puzzle_ids``, or all), solved or not."""
        with self._read() as conn:
            query = select(PuzzleAttemptRow.puzzle_id, PuzzleAttemptRow.solved).where(
                PuzzleAttemptRow.account_id == account_id)
            if puzzle_ids is not None:
                query = query.where(PuzzleAttemptRow.puzzle_id.in_(puzzle_ids))
            return {row[0]: bool(row[1]) for row in conn.execute(query)}

    def record_puzzle(self, account_id: str, puzzle_id: str, solved: bool, at: float,
                      rate: Callable[[dict | None], dict]) -> dict | None:
        """Counts an account's first try at a puzzle: ``rate(rating or None)`` gives the
        new ``{"rating", "rd", "volatility"}``. Returns the rating after, or None when the
        puzzle was tried before (a second try changes nothing)."""
        with self._write() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(insert(PuzzleAttemptRow).values(
                        account_id=account_id, puzzle_id=puzzle_id, solved=solved, at=at))
            except IntegrityError:
                return None
            query = select(PuzzleRatingRow).where(PuzzleRatingRow.account_id == account_id)
            if not self.storage.is_sqlite:
                query = query.with_for_update()
            row = conn.execute(query).scalars().first()
            before = None if row is None else {"rating": row.rating, "rd": row.rd,
                                                "volatility": row.volatility}
            after = rate(before)
            values = {"rating": after["rating"], "rd": after["rd"],
                      "volatility": after["volatility"], "updated": at}
            if row is None:
                conn.execute(insert(PuzzleRatingRow).values(
                    account_id=account_id, tried=1, solved=int(solved), **values))
            else:
                conn.execute(update(PuzzleRatingRow).where(
                    PuzzleRatingRow.account_id == account_id).values(
                    tried=PuzzleRatingRow.tried + 1,
                    solved=PuzzleRatingRow.solved + int(solved), **values))
        return {**after, "before": None if before is None else before["rating"]}

    # ----- games of an account --------------------------------------------------------------

    def games_of(self, account_id: str, *, finished_only: bool = False,
                 limit: int = 100) -> list[dict]:
        """An account's games, newest first: each game's row and every seat."""
        with self._read() as conn:
            query = (select(GameRow, SeatRow.player)
                     .join(SeatRow, SeatRow.game_id == GameRow.id)
                     .where(SeatRow.account_id == account_id))
            if finished_only:
                query = query.where(GameRow.status == "finished")
            rows = conn.execute(query.order_by(GameRow.updated.desc()).limit(limit)).all()
            ids = [r[0].id for r in rows]
            seats: dict[str, list] = {}
            if ids:
                for s in conn.execute(select(SeatRow).where(SeatRow.game_id.in_(ids))
                                      .order_by(SeatRow.player)).scalars():
                    seats.setdefault(s.game_id, []).append(s)
        out = []
        for game, player in rows:
            out.append({"row": game, "player": player, "seats": seats.get(game.id, [])})
        return out

    # ----- notifications --------------------------------------------------------------------

    def notify(self, account_id: str, kind: str, text: str, url: str | None, at: float, *,
               email: bool, actor_id: str | None = None) -> None:
        with self._write() as conn:
            conn.execute(insert(NotificationRow).values(
                account_id=account_id, kind=kind, text=text, url=url, created=at, read=False,
                email="due" if email else "none", actor_id=actor_id))

    def notifications(self, account_id: str, after: int, limit: int = 50
                      ) -> tuple[list[dict], int]:
        with self._read() as conn:
            rows = conn.execute(select(NotificationRow).where(
                NotificationRow.account_id == account_id, NotificationRow.id > after)
                .order_by(NotificationRow.id.desc()).limit(limit)).scalars().all()
            unread = conn.execute(select(func.count()).select_from(NotificationRow).where(
                NotificationRow.account_id == account_id,
                NotificationRow.read.is_(False))).scalar_one()
        return [{"id": r.id, "kind": r.kind, "text": r.text, "url": r.url,
                 "created": r.created, "read": bool(r.read)} for r in reversed(rows)], unread

    def mark_read(self, account_id: str, up_to: int) -> None:
        with self._write() as conn:
            conn.execute(update(NotificationRow).where(
                NotificationRow.account_id == account_id, NotificationRow.id <= up_to)
                .values(read=True))

    def claim_emails(self, limit: int = 20) -> list[dict]:
        """Notifications due by e-mail, each claimed for this process (due -> sending: one
        writer wins), with the address to send to."""
        with self._read() as conn:
            due = conn.execute(
                select(NotificationRow.id, NotificationRow.text, NotificationRow.url,
                       AccountRow.email, AccountRow.name)
                .join(AccountRow, AccountRow.id == NotificationRow.account_id)
                .where(NotificationRow.email == "due").order_by(NotificationRow.id)
                .limit(limit)).all()
        claimed = []
        for row in due:
            with self._write() as conn:
                won = conn.execute(update(NotificationRow).where(
                    NotificationRow.id == row.id, NotificationRow.email == "due")
                    .values(email="sending")).rowcount
            if won == 1:
                claimed.append({"id": row.id, "text": row.text, "url": row.url,
                                "to": row.email, "name": row.name})
        return claimed

    def emailed(self, notification_id: int, state: str) -> None:
        with self._write() as conn:
            conn.execute(update(NotificationRow).where(NotificationRow.id == notification_id)
                         .values(email=state))

    # ----- challenges -----------------------------------------------------------------------

    def new_challenge(self, values: dict) -> None:
        with self._write() as conn:
            conn.execute(insert(ChallengeRow).values(**values))

    def _challenges(self, conn, *conditions) -> list[Challenge]:
        by = AccountRow.__table__.alias("by")
        to = AccountRow.__table__.alias("to")
        rows = conn.execute(
            select(ChallengeRow, by.c.name, to.c.name, RatingRow.rating)
            .join(by, by.c.id == ChallengeRow.by_id)
            .outerjoin(to, to.c.id == ChallengeRow.to_id)
            .outerjoin(RatingRow, (RatingRow.account_id == ChallengeRow.by_id)
                       & (RatingRow.setting == ChallengeRow.setting))
            .where(*conditions).order_by(ChallengeRow.created.desc()).limit(100)).all()
        out = []
        for c, by_name, to_name, rating in rows:
            out.append(Challenge(
                c.id, c.by_id, by_name, rating, c.to_id, to_name, c.game,
                json.loads(c.params), None if c.clock is None else json.loads(c.clock),
                bool(c.rated), c.setting,
                None if c.range_lo is None else [c.range_lo, c.range_hi], c.status,
                c.game_id, c.accepted_by, c.created))
        return out

    def challenge(self, challenge_id: str) -> Challenge | None:
        with self._read() as conn:
            found = self._challenges(conn, ChallengeRow.id == challenge_id)
        return found[0] if found else None

    def challenges(self, account_id: str | None, since: float) -> dict[str, list[Challenge]]:
        with self._read() as conn:
            lists = {"open": self._challenges(conn, ChallengeRow.status == "open",
                                              ChallengeRow.to_id.is_(None),
                                              ChallengeRow.created > since),
                     "mine": [], "to_me": []}
            if account_id is not None:
                lists["mine"] = self._challenges(conn, ChallengeRow.by_id == account_id,
                                                 ChallengeRow.created > since)
                lists["to_me"] = self._challenges(conn, ChallengeRow.to_id == account_id,
                                                  ChallengeRow.status == "open")
        return lists

    def seeks(self, game: str, params: str, clock: str | None, rated: bool, by_not: str,
              since: float) -> list[Challenge]:
        """Open quick-pairing seeks of this setting by others, oldest first."""
        with self._read() as conn:
            found = self._challenges(
                conn, ChallengeRow.status == "open", ChallengeRow.to_id.is_(None),
                ChallengeRow.range_lo.is_not(None), ChallengeRow.game == game,
                ChallengeRow.params == params,
                ChallengeRow.clock.is_(None) if clock is None else ChallengeRow.clock == clock,
                ChallengeRow.rated.is_(rated), ChallengeRow.by_id != by_not,
                ChallengeRow.created > since)
        return sorted(found, key=lambda c: c.created)

    def settle_challenge(self, challenge_id: str, status: str, *,
                         accepted_by: str | None = None, game_id: str | None = None) -> None:
        """Moves an open challenge on (accepted, declined, cancelled); ``Taken`` if it is no
        longer open."""
        with self._write() as conn:
            done = conn.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.status == "open")
                .values(status=status, accepted_by=accepted_by, game_id=game_id)).rowcount
        if done != 1:
            raise Taken(challenge_id)

    def game_of_challenge(self, challenge_id: str, game_id: str) -> None:
        with self._write() as conn:
            conn.execute(update(ChallengeRow).where(ChallengeRow.id == challenge_id)
                         .values(game_id=game_id))
