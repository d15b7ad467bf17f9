"""What a game registers beside its rules: how it is shown to people, and how computer players
judge it.

The contract's ``State`` holds a game's rules. Showing a position (text boards, the picture
graphical front ends draw, the words of a move log) and judging it (the cheap heuristics a
search calls at every node) are each game's ``view`` and ``heuristic`` modules, which read the
state and are never imported by it: OpenSpiel keeps evaluation apart from its games in the same
way, and pgx its drawing. A game names a ``Presentation`` and an ``Evaluation`` subclass when it
registers (``cathedral.core.registry.register``), and the State methods that front ends and
agents call (``render``, ``picture``, ``describe_action``, ``prompt_hint``, ``evaluate``,
``action_heuristics``, ...) look them up there by the game's name. So a game's rules never
import what describes them, and ``core`` imports no game.

The defaults here are what a game without that part gets: ``str(state)`` and its notation for
people, no evaluation for search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cathedral.core.contract import Action, Player, State


class Presentation:
    """How a game shows its states to people. Each method receives the state it describes."""

    def text(self, state: State) -> str:
        """Returns ``str(state)``: the plain text board."""
        return repr(state)

    def render(self, state: State, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        """Returns the text board for a terminal: ANSI colours when ``color``, and the
        terminal's own layout when its ``width`` (and ``height``) are given; without either,
        the same as ``str(state)``."""
        return str(state)

    def prompt_hint(self, state: State) -> str:
        """Returns what a front end should tell the player to move beyond the board (for
        example which stone must continue a chain); empty when nothing."""
        return ""

    def describe_action(self, state: State, action: Action) -> str:
        """Returns what ``action`` does from ``state``, for people: its notation, then what the
        rules do that the notation does not say (captures, conversions, a player skipped).
        Called before the action is applied."""
        return state.action_to_string(action)

    def picture(self, state: State) -> dict:
        """Returns a plain JSON-ready picture of the position and of what each legal move would
        do, for graphical front ends (the browser draws it and never re-implements a rule).
        Every move entry carries its action number and notation."""
        raise NotImplementedError(f"{state.game.name} has no picture for graphical front ends")


class Evaluation:
    """How computer players judge a game's states: its search hooks."""

    def evaluate(self, state: State) -> list[float]:
        """Returns a cheap static value per player, roughly in [-1, 1]."""
        raise NotImplementedError(f"{state.game.name} has no evaluation heuristic")

    def action_heuristics(self, state: State) -> list[tuple[Action, float]]:
        """Scores every legal action, higher is better for the player to move (greedy players
        maximise it; searches order their moves by it). The default plays each action on a
        copy and reads ``evaluate``."""
        player = state.current_player()
        scored = []
        for action in state.legal_actions():
            child = state.clone()
            child._apply_action(action)
            scored.append((action, self.evaluate(child)[player]))
        return scored

    def threat_actions(self, state: State, player: Player, limit: int) -> list[Action]:
        """Returns up to ``limit`` of ``player``'s set-ups, best first: legal moves whose worth
        shows only one move later, which a search that keeps few moves per node should look at
        anyway. The default: none."""
        return []

    def quiescence_actions(self, state: State) -> list[Action]:
        """Returns the legal moves a search should follow past its horizon (captures,
        conversions: the moves that change the material). The default: none."""
        return []
