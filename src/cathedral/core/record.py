"""Game records: the JSON file format of the terminal, the server and the arena.

A record is not a state: it holds the game's name and parameters, the rules version, who
played, the result and the actions as notation strings, and replays to the exact game. Keys
always come in the order ``game, params, rules_version, players, result, actions, meta`` so
two records diff line by line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cathedral.core.contract import State
from cathedral.core.errors import CathedralError, RecordError
from cathedral.core.registry import load

KEYS = ("game", "params", "rules_version", "players", "result", "actions", "meta")


@dataclass
class Record:
    """A finished or unfinished game, as notation.

    Attributes:
        game: the registry name.
        params: every game parameter, defaults filled in.
        rules_version: the game's rules version when the record was written.
        players: one name per seat (``"human"``, ``"greedy"``, a person's name), or ``"?"``.
        result: ``{"returns": [...], "scores": [...], "text": "..."}`` (plus ``"resigned": seat``
            when a player gave up), or ``None`` if unfinished.
        actions: the history in the game's notation, chance outcomes included.
        meta: anything else (dates, times, seeds).
    """

    game: str
    params: dict[str, Any]
    rules_version: int
    players: list[str]
    result: dict[str, Any] | None
    actions: list[str]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(
        cls, state: State, *, players: list[str] | None = None, meta: dict | None = None
    ) -> Record:
        """Returns the record of the game that led to ``state``."""
        game = state.game
        replay = game.new_initial_state()
        actions = []
        for action in state.history():
            actions.append(replay.action_to_string(action))
            replay.apply_action(action)
        result = None
        if state.is_terminal():
            result = {
                "returns": state.returns(),
                "scores": state.scores(),
                "text": state.result_string(),
            }
        return cls(
            game=game.name,
            params=dict(game.params),
            rules_version=game.rules_version,
            players=list(players) if players else ["?"] * game.num_players,
            result=result,
            actions=actions,
            meta=dict(meta or {}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in KEYS}

    def to_json(self, *, indent: int | None = 1) -> str:
        """Returns the record as JSON, keys in the fixed order."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """Parses a record strictly; does not replay it (``replay`` checks every action).

        Raises:
            RecordError: not JSON, a missing or mistyped field.
        """
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise RecordError(f"corrupt record: not JSON ({exc})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Record:
        """``from_json`` for a record already parsed from JSON.

        Raises:
            RecordError: a missing or mistyped field.
        """
        if not isinstance(data, dict):
            raise RecordError("corrupt record: expected a JSON object")
        types = {
            "game": str,
            "params": dict,
            "rules_version": int,
            "players": list,
            "actions": list,
        }
        for key, kind in types.items():
            if key not in data:
                raise RecordError(f"corrupt record: missing field {key!r}")
            if not isinstance(data[key], kind):
                raise RecordError(f"corrupt record: field {key!r} must be {kind.__name__}")
        if not all(isinstance(a, str) for a in data["actions"]):
            raise RecordError("corrupt record: every action must be a notation string")
        if data.get("result") is not None and not isinstance(data["result"], dict):
            raise RecordError("corrupt record: field 'result' must be an object or null")
        if not isinstance(data.get("meta", {}), dict):
            raise RecordError("corrupt record: field 'meta' must be an object")
        unknown = set(data) - set(KEYS)
        if unknown:
            raise RecordError(f"corrupt record: unknown fields {sorted(unknown)}")
        return cls(
            game=data["game"],
            params=data["params"],
            rules_version=data["rules_version"],
            players=[str(p) for p in data["players"]],
            result=data.get("result"),
            actions=list(data["actions"]),
            meta=data.get("meta", {}),
        )

    def new_initial_state(self) -> State:
        """Returns the starting state of this record's game, under the rules it was written
        with: a record of an older rules version replays only where the game can express
        those rules with today's parameters (``params_for_rules_version``); otherwise it is
        refused, never replayed under rules it was not played by.

        Raises:
            RecordError: bad parameters, or an older rules version the game cannot replay.
        """
        try:
            game = load(self.game, **self.params)
            if game.rules_version != self.rules_version:
                upgrade = getattr(type(game), "params_for_rules_version", None)
                params = upgrade(self.rules_version, self.params) if upgrade else None
                if params is None:
                    raise RecordError(
                        f"record written under {self.game} rules version {self.rules_version}, "
                        f"this program plays version {game.rules_version} and cannot replay "
                        f"that version's rules (refused rather than replayed under other rules)"
                    )
                game = load(self.game, **params)
        except RecordError:
            raise
        except CathedralError as exc:
            raise RecordError(f"corrupt record: {exc}") from None
        return game.new_initial_state()

    def replay(self) -> Iterator[State]:
        """Yields the state before the first action and after each action (copies).

        Raises:
            RecordError: naming the first action that does not parse or is illegal, by index.
        """
        state = self.new_initial_state()
        yield state.clone()
        for index, text in enumerate(self.actions):
            try:
                state.apply_action(state.string_to_action(text))
            except CathedralError as exc:
                raise RecordError(f"record action {index + 1} {text!r}: {exc}") from None
            yield state.clone()

    def final_state(self) -> State:
        """Returns the state after every action, checking the stored result if any."""
        state = self.new_initial_state()
        for index, text in enumerate(self.actions):
            try:
                state.apply_action(state.string_to_action(text))
            except CathedralError as exc:
                raise RecordError(f"record action {index + 1} {text!r}: {exc}") from None
        result = self.result or {}
        stored = result.get("returns")
        # A resignation ends a game the rules have not finished: its result is the record's.
        finished = state.is_terminal() and state.returns() == stored
        if "resigned" not in result and stored is not None and not finished:
            raise RecordError(
                f"record result {stored!r} does not match the replay "
                f"({state.returns() if state.is_terminal() else 'unfinished'})"
            )
        return state
