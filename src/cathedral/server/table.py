"""One live game in memory: its state, seats, log, clock and watchers, and what it shows.

A ``Table`` is rebuilt from the database's log (``storage``) and kept by the ``Hub``. It
answers questions about itself (whose turn, which seat a secret opens, what a take-back
returns to) and builds its views: the game view of server-api.md, once per change, and its
record from the notation already stored with each ply (no replay).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import cathedral
from cathedral.core.contract import CHANCE, TERMINAL, Game, State
from cathedral.core.record import Record
from cathedral.server.clocks import GameClock
from cathedral.server.security import find_token
from cathedral.server.storage import StoredAction

HUMAN = "human"
QUEUE_LIMIT = 2_000  # views waiting for one slow socket before it is dropped
RECENT_PLIES = 300  # the most plies a view describes in words
#: Up to this many plies a position is replayed right on the event loop (well under a
#: millisecond a hundred plies); longer replays go to a worker process.
INLINE_PLIES = 500


@lru_cache(maxsize=256)  # bounded: parameters come from clients
def _game(name: str, params_json: str) -> Game:
    return cathedral.load(name, **json.loads(params_json))


def load_game(name: str, params: dict) -> Game:
    """Returns the game (cached: a Game is immutable once made)."""
    return _game(name, json.dumps(params, sort_keys=True))


def derived(seed: str, *parts: object) -> int:
    """A number drawn from a game's secret seed and ``parts`` (the same every time)."""
    text = ":".join([seed, *map(str, parts)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def chance_outcome(state: State, seed: str, ply: int) -> int:
    """Returns the outcome of the chance node at ``ply``, drawn from the game's secret seed:
    the same game and ply always give the same outcome (a restart reproduces it)."""
    outcomes = state.chance_outcomes()
    point = random.Random(derived(seed, "chance", ply)).random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


class Subscriber:
    """One watcher's queue of messages (JSON text), drained by its socket's sender."""

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False

    def put(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True  # too slow to follow: the sender closes the socket
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


@dataclass
class Seat:
    player: int
    kind: str
    token_hash: str | None
    open: bool = False
    arrived: bool = False  # a human seat whose link has been opened
    account_id: str | None = None  # the account playing it, if any
    name: str | None = None  # the name shown for it (an account's, or "deleted player")

    def key(self) -> tuple:
        """What a reload compares."""
        return (self.kind, self.token_hash, self.open, self.arrived, self.account_id,
                self.name)


def described(state: State, action: int, ply: int, player: int, clock, at: float
              ) -> StoredAction:
    """The log entry of ``action`` played from ``state`` (not changed): its notation and
    what it did for people."""
    chance = player < 0
    return StoredAction(ply, action, player, state.action_to_string(action), clock, at,
                        state.describe_action(action), not chance and state.turn_starts(),
                        [] if chance else state.skipped_after(action))


def fill_turns(entries: list[StoredAction]) -> None:
    """Marks turn starts in entries stored before they were kept (a new mover starts a
    turn), in place."""
    if all(entry.text is not None for entry in entries):
        return
    last = None
    for entry in entries:
        if entry.text is None and entry.player >= 0:
            entry.turn = entry.player != last
        if entry.player >= 0:
            last = entry.player


@dataclass
class Table:
    """One live game. ``owner`` is whom its computer moves are counted against in the
    workers' fair shares (the address that created it, or the game itself after a
    restart); ``revision`` counts the changes stored, as the database does."""

    id: str
    game: Game
    state: State
    seats: list[Seat]
    seed: str
    generation: int
    entries: list[StoredAction]
    result: dict | None
    clock: GameClock | None
    read_only: bool
    public: bool
    rematch_of: str | None
    rematch: str | None
    created: float
    updated: float
    revision: int = 0
    owner: str = ""
    rated: bool = False
    setting: str | None = None  # the rated setting (glicko.SETTINGS) of a rated game
    rating_changes: list | None = None  # per seat, once a rated game is rated
    notified: tuple[int, int] | None = None  # the (generation, ply) last told to its player
    rating_spawned: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    auto: asyncio.Task | None = None
    timer: asyncio.TimerHandle | None = None
    version: int = 0
    _view: tuple[int, str] | None = None
    _record: tuple[int, str] | None = None

    def __post_init__(self) -> None:
        self.owner = self.owner or f"game:{self.id}"

    @property
    def ply(self) -> int:
        return len(self.entries)

    @property
    def finished(self) -> bool:
        return self.read_only or self.result is not None or self.state.is_terminal()

    @property
    def turns(self) -> int:
        return sum(entry.turn for entry in self.entries)

    def clock_waits_for(self) -> list[int]:
        """The human seats whose link has not been opened yet, while the clock waits for
        them: it starts once every one has, or at the first move a person makes."""
        if any(e.player >= 0 and self.seats[e.player].kind == HUMAN for e in self.entries):
            return []
        return [s.player for s in self.seats if s.kind == HUMAN and not s.arrived]

    def recent(self) -> list[dict]:
        """What the last round did, in words: every ply from the start of the last turn the
        player to move completed (the last mover's, once the game is over), at most
        ``RECENT_PLIES``; a page shows each player what happened since their last turn."""
        entries = self.entries
        player = self.state.current_player()
        between = player < 0 or self.finished or not self.state.turn_starts()
        if player < 0:
            player = next((e.player for e in reversed(entries) if e.player >= 0), -1)
        # A turn under way (or the last one, once over) is not a completed one: look past it.
        needed = 2 if between else 1
        start = 0
        for entry in reversed(entries):
            if entry.turn and entry.player == player:
                needed -= 1
                if needed == 0:
                    start = entry.ply
                    break
        start = max(start, len(entries) - RECENT_PLIES)
        return [{"ply": e.ply + 1, "player": e.player, "text": e.text or e.notation}
                for e in entries[start:]]

    def kinds(self) -> list[str]:
        return [seat.kind for seat in self.seats]

    def actions(self, ply: int | None = None) -> list[int]:
        """The actions of the first ``ply`` plies (all by default)."""
        return [entry.action for entry in self.entries[:ply]]

    def player_of(self, token: str) -> int | None:
        """Returns the human seat ``token`` opens, or ``None``."""
        return find_token(token, ((s.player, s.token_hash) for s in self.seats
                                  if s.kind == HUMAN))

    def computer_to_move(self) -> bool:
        player = self.state.current_player()
        return player >= 0 and self.seats[player].kind != HUMAN

    def only_human(self) -> int | None:
        """Returns the human seat if every other seat is a computer, else ``None``."""
        humans = [s.player for s in self.seats if s.kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def takeback_point(self, player: int) -> int | None:
        """Returns the ply a take-back by ``player`` returns to, or ``None`` if none may."""
        if (self.read_only or self.result is not None or self.rated
                or self.only_human() != player):
            return None
        for index in range(len(self.entries) - 1, -1, -1):
            mover = self.entries[index].player
            if mover == CHANCE:
                return None  # the dice after a move stay rolled
            if mover == player:
                return index
        return None

    def shown_player(self) -> int:
        """The view's ``current_player``: never CHANCE (the server is resolving it right now;
        meanwhile the player who decided last still holds the turn)."""
        if self.finished:
            return TERMINAL
        player = self.state.current_player()
        if player != CHANCE:
            return player
        for entry in reversed(self.entries):
            if entry.player >= 0:
                return entry.player
        return 0

    def result_view(self) -> dict | None:
        if self.result is not None:
            return self.result
        if self.state.is_terminal():
            return {"text": self.state.result_string(), "scores": self.state.scores(),
                    "returns": self.state.returns(), "resigned": None, "timeout": False}
        return None

    def view(self, now: float, wall: Callable[[], float]) -> dict:
        state = self.state
        result = self.result_view()
        human = self.only_human()
        return {
            "id": self.id,
            "game": self.game.name,
            "params": self.game.params,
            "status": "finished" if self.finished else "playing",
            "ply": self.ply,
            "current_player": self.shown_player(),
            "players": self.game.player_names(),
            "seats": self.kinds(),
            "open_seats": [s.player for s in self.seats if s.open],
            "state": state.to_json(),
            "returns": result["returns"] if result is not None else None,
            "last_move": self.entries[-1].notation if self.entries else None,
            "history": [entry.notation for entry in self.entries],
            "movers": [entry.player for entry in self.entries],
            "turn_starts": [entry.ply + 1 for entry in self.entries if entry.turn],
            "skips": [[entry.ply + 1, entry.skipped] for entry in self.entries
                      if entry.skipped],
            "turns": self.turns,
            "in_turn": (not self.finished and state.current_player() >= 0
                        and not state.turn_starts()),
            "recent": self.recent(),
            "scores": state.scores(),
            "result": result,
            "clock": (None if self.clock is None else
                      {**self.clock.to_view(now, wall), "waiting": self.clock_waits_for()}),
            "read_only": self.read_only,
            "public": self.public,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "names": [seat.name for seat in self.seats],
            "rated": self.rated,
            "rating_changes": self.rating_changes,
            "takeback": human is not None and self.takeback_point(human) is not None,
            "created": self.created,
            "updated": self.updated,
        }

    def view_text(self, now: float, wall: Callable[[], float]) -> str:
        """The view as JSON text, built once per change."""
        ticking = self.clock is not None and self.clock.running is not None
        if self._view is None or self._view[0] != self.version or ticking:
            text = json.dumps(self.view(now, wall), separators=(",", ":"))
            self._view = (self.version, text)
        return self._view[1]

    def record_text(self) -> str:
        """The game's record as JSON text, from the notation stored with each ply (built
        once per change)."""
        if self._record is None or self._record[0] != self.version:
            result = None
            if self.result is not None:
                result = dict(self.result)
            elif self.state.is_terminal():
                result = {"returns": self.state.returns(), "scores": self.state.scores(),
                          "text": self.state.result_string()}
            record = Record(
                game=self.game.name, params=dict(self.game.params),
                rules_version=self.game.rules_version,
                players=[seat.name or seat.kind for seat in self.seats], result=result,
                actions=[entry.notation for entry in self.entries],
                meta={"server_id": self.id, "created": self.created})
            self._record = (self.version, record.to_json())
        return self._record[1]

    def state_at(self, ply: int) -> State:
        """Returns the position after ``ply`` actions (a copy); replays from the start, so
        the caller keeps long replays off the event loop (``INLINE_PLIES``)."""
        if ply == self.ply:
            return self.state.clone()
        state = self.game.new_initial_state()
        for entry in self.entries[:ply]:
            state.apply_action(entry.action)
        return state
