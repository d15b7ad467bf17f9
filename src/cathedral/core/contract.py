"""The State/Game contract every game implements, shaped after OpenSpiel.

A game subclasses ``Game`` and ``State`` and writes the private hooks (``_legal_actions``,
``_apply_action``, ``_action_to_string``, ...). The public methods here own what is the same
for every game: checking an action before anything changes, recording history, the chance and
terminal cases, canonical JSON, and the errors bad input gets.

A State holds the rules only. What shows a state to people (``str(state)``, ``render``,
``picture``, ``describe_action``, ``prompt_hint``) and what judges it for search (``evaluate``,
``action_heuristics``, ``threat_actions``, ``quiescence_actions``) are the game's
``Presentation`` and ``Evaluation`` (``cathedral.core.hooks``), registered beside it; the
methods here look them up by the game's name, so a game's rules never import its view or its
heuristics, and ``core`` imports no game.

Invariants every game keeps (``cathedral.testing.check_game`` checks them):

- ``current_player()`` is a player number, ``CHANCE`` or ``TERMINAL``.
- ``legal_actions()`` is sorted, free of duplicates, inside ``range(num_distinct_actions())``,
  empty at chance and terminal nodes, and never empty for a player to move (forced passes are
  skipped by the state, not played).
- ``apply_action`` raises ``IllegalActionError`` and leaves the state unchanged on any action
  that is not legal (or, at a chance node, not a listed outcome).
- ``returns()`` is zero-sum and follows the ranking rule of ``ranked_returns``.
- ``to_json()`` is deterministic and ``game.state_from_json(s.to_json())`` equals ``s``.
- Replaying ``history()`` from the initial state reproduces the state exactly.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from cathedral.core.errors import IllegalActionError, NotationError, StateError
from cathedral.core.params import Param, resolve_params
from cathedral.core.registry import evaluation, presentation

CHANCE = -1
"""``current_player()`` at a chance node (dice, shuffles)."""
TERMINAL = -4
"""``current_player()`` once the game is over."""

Action = int
Player = int


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, declared once at the top of its module.

    Attributes:
        name: the registry name (``classic``, ``allmer``, ``red``).
        title: the game's name for people.
        rules_version: bumped whenever behaviour, parameters or notation change.
        parameters: the declared parameters, in the order front ends show them.
        seat_names: every seat name the game can have, in player order for its largest
            table (front ends turn them into flags such as ``--light`` or ``--white``).
        summary: one line saying what the game is.
        lower_score_wins: whether ``State.scores()`` count against a player (classic's
            unplaced squares), which decides match totals.
    """

    name: str
    title: str
    rules_version: int
    seat_names: tuple[str, ...]
    parameters: tuple[Param, ...] = field(default_factory=tuple)
    summary: str = ""
    lower_score_wins: bool = False


def ranked_returns(scores: Sequence[float], *, higher_is_better: bool = True) -> list[float]:
    """Returns each player's (players it beats - players that beat it) / (N - 1).

    Two players get +1/-1, or 0/0 on a tie; more players get ranks, ties shared.
    """
    n = len(scores)
    sign = 1 if higher_is_better else -1
    out = []
    for i in range(n):
        beats = sum(1 for j in range(n) if sign * scores[i] > sign * scores[j])
        beaten = sum(1 for j in range(n) if sign * scores[i] < sign * scores[j])
        out.append((beats - beaten) / (n - 1))
    return out


class Game(ABC):
    """A game with its parameters fixed: a factory of states and the holder of static facts."""

    info: ClassVar[GameInfo]

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = resolve_params(
            self.info.name, self.info.parameters, params
        )

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def rules_version(self) -> int:
        return self.info.rules_version

    @property
    @abstractmethod
    def num_players(self) -> int:
        """The number of players (seats) in this game."""

    @abstractmethod
    def player_names(self) -> list[str]:
        """Returns the name of each seat, by player number (``["Light", "Dark"]``)."""

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Returns the fixed size of the integer action space (chance outcomes included)."""

    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """Returns the shape of ``State.observation_tensor``."""

    @abstractmethod
    def max_game_length(self) -> int:
        """Returns an upper bound on the number of actions in one game."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """Returns the state at the start of a game."""

    @abstractmethod
    def _state_from_dict(self, data: dict) -> State:
        """Rebuilds a state from the ``state`` part of its JSON; raises StateError if corrupt."""

    def rules_text(self) -> str:
        """Returns the rules for people, as printed by ``cathedral rules``."""
        return self.info.summary

    def state_from_json(self, text: str) -> State:
        """Rebuilds a state from ``State.to_json()``.

        Raises:
            StateError: the text is not JSON, is for another game or parameters, or describes
                an impossible position.
        """
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise StateError(f"corrupt state: not JSON ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
            raise StateError("corrupt state: expected an object with a 'state' object")
        if data.get("game") != self.name:
            raise StateError(f"corrupt state: game {data.get('game')!r}, expected {self.name!r}")
        if data.get("params") != self.params:
            raise StateError(
                f"corrupt state: params {data.get('params')!r}, expected {self.params!r}"
            )
        try:
            return self._state_from_dict(data["state"])
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise StateError(f"corrupt state: {type(exc).__name__}: {exc}") from None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"cathedral.load({self.name!r}{', ' if args else ''}{args})"


class State(ABC):
    """One position of a game plus its history. Mutable: ``apply_action`` changes it in place."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[Action] = []

    # ----- what a game writes -------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> Player:
        """Returns the player to move, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Returns the sorted legal actions of the player to move (never called at chance or
        terminal nodes)."""

    @abstractmethod
    def _apply_action(self, action: Action) -> None:
        """Plays an action already known to be legal (or a listed chance outcome).

        Warning: trusts its caller. Search may call it directly with actions it just took
        from ``legal_actions()``; everything else goes through ``apply_action``.
        """

    @abstractmethod
    def _action_to_string(self, action: Action) -> str:
        """Returns the notation of an action in this state."""

    @abstractmethod
    def _string_to_action(self, text: str) -> Action:
        """Parses notation into an action legal in this state; raises NotationError or
        IllegalActionError saying why not."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Returns each player's result: see ``ranked_returns``; all zeros before the end."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Returns the game's own score per player (unplaced squares, prestige, stones)."""

    @abstractmethod
    def observation_tensor(self, player: Player | None = None) -> np.ndarray:
        """Returns a float32 array of ``game.observation_shape()`` seen by ``player``."""

    @abstractmethod
    def _to_dict(self) -> dict:
        """Returns the full state as JSON-ready data (history included), deterministically."""

    @abstractmethod
    def clone(self) -> State:
        """Returns an independent copy."""

    def _forget_caches(self) -> None:
        """Drops memoised answers (such as cached legal actions) so that benchmarks time the
        real work. Games that memoise override it; it never changes the position."""
        return None

    def position_key(self) -> object:
        """Returns a hashable key of the position, not the path to it (search's transposition
        tables). The default is the canonical JSON without history; games override it with
        something cheaper."""
        data = self._to_dict()
        data.pop("history", None)
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Returns ``(outcome, probability)`` pairs at a chance node, else an empty list."""
        return []

    def _is_legal(self, action: Action) -> bool:
        """Returns whether ``action`` is legal for the player to move. Override for speed."""
        return action in self._legal_actions()

    def result_string(self) -> str:
        """Returns a one-line result for people (who won, why); empty before the end."""
        return ""

    def turn_starts(self) -> bool:
        """Returns whether the player to move starts a turn here, rather than goes on with
        their own (a chain of conversions, the next decision of a many-decision turn): front
        ends group a game's decisions by turns with it. The default: every decision is a
        turn."""
        return True

    def undoes(self, action: Action) -> bool:
        """Whether ``action`` takes the mover's previous move straight back (the same piece
        to where it came from): a greedy player avoids shuffling when it can. The default:
        never."""
        return False

    def skipped_after(self, action: Action) -> list[int]:
        """Returns the players whose turn ``action`` makes the rules skip (they cannot
        move), in the order they are passed over; ``describe_action`` says it in words.
        Called before the action is applied; the default is nobody."""
        return []

    # ----- what the game registers beside its rules (``cathedral.core.hooks``) -------------

    def __str__(self) -> str:
        """Returns a readable text board (the game's ``Presentation.text``)."""
        return presentation(self.game.name).text(self)

    def render(self, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        """Returns the text board for a terminal: ANSI colours when ``color`` (territories
        shaded, the last move marked), the terminal's layout for a ``width`` (and ``height``),
        else the same as ``str(state)``."""
        return presentation(self.game.name).render(self, color=color, width=width,
                                                   height=height)

    def prompt_hint(self) -> str:
        """Returns what a front end should tell the player to move beyond the board (for
        example which stone must continue a chain); empty when nothing."""
        return presentation(self.game.name).prompt_hint(self)

    def describe_action(self, action: Action) -> str:
        """Returns what ``action`` does from this state, for people: its notation, then what
        the rules do that the notation does not say (captures, conversions, a player who
        cannot move and is skipped). Called before the action is applied; the default is the
        notation."""
        return presentation(self.game.name).describe_action(self, action)

    def picture(self) -> dict:
        """Returns a plain JSON-ready picture of the position and of what each legal move
        would do, for graphical front ends (the browser draws it and never re-implements a
        rule). Every move entry carries its action number and notation.

        Raises:
            NotImplementedError: the game registered no picture.
        """
        return presentation(self.game.name).picture(self)

    def evaluate(self) -> list[float]:
        """Returns a cheap static value per player, roughly in [-1, 1] (search hook).

        Raises:
            NotImplementedError: the game registered no evaluation.
        """
        return evaluation(self.game.name).evaluate(self)

    def action_heuristics(self) -> list[tuple[Action, float]]:
        """Scores every legal action by the game's one-ply heuristic, higher is better for the
        player to move (the hook greedy players and move ordering use). Without one of the
        game's own, each action is played on a copy and scored by ``evaluate()``."""
        return evaluation(self.game.name).action_heuristics(self)

    def threat_actions(self, player: Player, limit: int) -> list[Action]:
        """Returns up to ``limit`` of ``player``'s set-ups, best first: moves whose worth shows
        only one move later, which a search keeps in view beyond its width (search hook; none
        unless the game lists them)."""
        return evaluation(self.game.name).threat_actions(self, player, limit)

    def quiescence_actions(self) -> list[Action]:
        """Returns the legal moves a search follows past its horizon (captures, conversions;
        search hook; none unless the game lists them)."""
        return evaluation(self.game.name).quiescence_actions(self)

    # ----- what the contract owns ---------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[Action]:
        """Returns the sorted legal actions; empty at chance and terminal nodes."""
        if self.current_player() < 0:
            return []
        return self._legal_actions()

    def legal_actions_mask(self) -> np.ndarray:
        """Returns a bool array over ``num_distinct_actions()``, True where legal."""
        mask = np.zeros(self.game.num_distinct_actions(), dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def _action_number(self, action: Action) -> int:
        """Returns ``action`` as an int, or raises IllegalActionError if it is not an action
        number of this game at all."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {action!r} is not an integer")
        size = self.game.num_distinct_actions()
        if not 0 <= action < size:
            raise IllegalActionError(f"action {action} is out of range (expected 0..{size - 1})")
        return int(action)

    def _check_action(self, action: int) -> None:
        """Raises IllegalActionError unless the action number may be applied now."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(f"action {action} applied to a finished game")
        if player == CHANCE:
            if all(action != a for a, _ in self.chance_outcomes()):
                raise IllegalActionError(f"action {action} is not a chance outcome here")
        elif not self._is_legal(action):
            raise IllegalActionError(
                f"illegal action {action} ({self._describe(action)}) for "
                f"{self.game.player_names()[player]}"
            )

    def _describe(self, action: Action) -> str:
        try:
            return repr(self._action_to_string(action))
        except Exception:
            return "no notation"

    def apply_action(self, action: Action) -> None:
        """Plays ``action``, or raises IllegalActionError leaving the state unchanged."""
        action = self._action_number(action)
        self._check_action(action)
        self._apply_action(action)
        self._history.append(action)

    def action_to_string(self, action: Action) -> str:
        """Returns the notation of ``action`` in this state (legal or not, if it has one)."""
        return self._action_to_string(self._action_number(action))

    def string_to_action(self, text: str) -> Action:
        """Parses ``text`` in the game's notation into an action legal in this state.

        Raises:
            NotationError: the text does not parse (or is ambiguous).
            IllegalActionError: it parses but is not legal here, with the reason.
        """
        if not isinstance(text, str):
            raise NotationError(f"move {text!r} is not a string")
        if self.is_terminal():
            raise IllegalActionError(f"move {text!r} given after the game ended")
        return self._string_to_action(text)

    def history(self) -> list[Action]:
        """Returns every action applied so far, chance outcomes included."""
        return list(self._history)

    def to_json(self) -> str:
        """Returns the full state as canonical JSON (same state, same string)."""
        return json.dumps(
            {
                "game": self.game.name,
                "params": self.game.params,
                "rules_version": self.game.rules_version,
                "state": self._to_dict(),
            },
            separators=(",", ":"),
            sort_keys=True,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game!r} after {len(self._history)} actions>"


def check_history(data: dict, game: Game) -> list[int]:
    """Returns the ``history`` list of a state dict, checking that it holds action numbers."""
    history = data["history"]
    size = game.num_distinct_actions()
    if not isinstance(history, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) and 0 <= a < size for a in history
    ):
        raise StateError(f"corrupt state: history must be a list of actions 0..{size - 1}")
    return list(history)
