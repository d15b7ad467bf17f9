"""What the research interfaces share: games by name, chance from a seeded generator, the
observation and action-mask paths, and who has left the game early.

Every adapter sees a game only through the contract (``cathedral.load``). The mask's fast
path is speed-only: it returns exactly what the engine's legal actions say (the tests compare
them on random positions); observations are each engine's own code.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import cathedral
from cathedral.ai.base import chance_sample
from cathedral.core.contract import CHANCE, Game, State, ranked_returns

ObservationFn = Callable[[State, int], np.ndarray]
RENDER_MODES = ("human", "ansi", "rgb_array")
"""What every environment's ``render_mode`` may be: print the text board, return it (with
ANSI colours), or return a picture as an RGB uint8 array."""


def load_game(game: str | Game, params: dict[str, Any]) -> Game:
    """Returns ``cathedral.load(game, **params)``, or ``game`` itself when it is already a
    loaded game (then ``params`` must be empty)."""
    if isinstance(game, Game):
        if params:
            raise cathedral.ParameterError(
                f"parameters {sorted(params)} given with an already loaded game {game!r}"
            )
        return game
    return cathedral.load(game, **params)


def observation_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Returns ``(low, high)`` arrays of the game's observation shape: the bounds each entry
    of its tensor keeps to, from the game's declared layout (``cathedral.envs.layouts``).

    Classic and Allmer's game observe 0/1 planes and halved counts, all in [0, 1]. The Red
    Cathedral scales its counts; the ones without a cap in the rules (rubles, the marker,
    final prestige) are bounded by what a game of its turn cap can reach (loose but finite).
    """
    from cathedral.envs.layouts import observation_bounds as bounds

    return bounds(game)


def observation_space(game: Game):
    """Returns the observation space of ``game`` (a ``gymnasium.spaces.Dict``): its tensor and
    its int8 action mask, the layout PettingZoo's board games use."""
    from gymnasium import spaces

    low, high = observation_bounds(game)
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions(),), dtype=np.int8),
        }
    )


# Chance outcomes are drawn as the computer players draw them.
chance_outcome = chance_sample


def resolve_chance(state: State, rng: random.Random) -> None:
    """Plays chance outcomes drawn from ``rng`` until a player is to move or the game ends."""
    while state.current_player() == CHANCE:
        state.apply_action(chance_outcome(state, rng))


def players_out(state: State) -> tuple[int, ...]:
    """Returns the players who have left a game still in progress, in the order they left
    (Allmer's eliminated congregations; nobody in the other games)."""
    return getattr(state, "eliminated", ())


def settled_return(state: State, player: int) -> float:
    """Returns the final return of a player who has left the game early.

    An eliminated Allmer player ranks below everyone still in and above everyone out before
    it, and nothing later changes that, so its result is settled when it leaves.
    """
    return ranked_returns(state.ranking_scores())[player]


def apply_checked(state: State, action: Any, mask: np.ndarray | None) -> None:
    """Plays a player's action, or raises IllegalActionError leaving ``state`` unchanged.

    ``mask`` is the current legal mask when the caller has it, which makes the check a lookup.
    """
    if mask is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        state.apply_action(action)
        return
    if not 0 <= action < mask.shape[0] or not mask[action]:
        state.apply_action(action)  # raises the engine's own error, naming the rule
        return
    action = int(action)
    state._apply_action(action)
    state._history.append(action)


# ----- masks --------------------------------------------------------------------------------


def legal_mask(state: State) -> np.ndarray:
    """Returns the legal-action mask as int8 (PettingZoo's and Gymnasium's convention).

    Bool and int8 share a layout, so this is a view of the engine's bool mask, not a copy.
    """
    return state.legal_actions_mask().view(np.int8)


def _list_mask(state: State) -> np.ndarray:
    mask = np.zeros(state.game.num_distinct_actions(), dtype=np.int8)
    mask[state.legal_actions()] = 1
    return mask


def mask_function(game: Game) -> Callable[[State], np.ndarray]:
    """Returns the fastest int8 legal-mask function for ``game``."""
    if game.name == "classic":
        return legal_mask  # the engine keeps a cached bool mask; copying it is cheapest
    return _list_mask


# ----- observations -------------------------------------------------------------------------


def _engine_observation(state: State, player: int) -> np.ndarray:
    return state.observation_tensor(player)


def observation_function(game: Game) -> ObservationFn:
    """Returns the function equal to ``state.observation_tensor(player)`` (each engine's own
    observation code is its fast path)."""
    return _engine_observation


# ----- rendering ----------------------------------------------------------------------------


def render(state: State, mode: str) -> str | np.ndarray | None:
    """Renders ``state`` in one of ``RENDER_MODES``."""
    if mode == "ansi":
        return state.render(color=True)
    if mode == "rgb_array":
        from cathedral.envs import draw

        return draw.board_image(state)
    out = sys.stdout
    out.write((state.render(color=True) if out.isatty() else str(state)) + "\n")
    return None


def check_render_mode(render_mode: str | None) -> str | None:
    """Returns ``render_mode``, or raises ParameterError unless it is None or a known mode."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise cathedral.ParameterError(
            f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)} or None"
        )
    return render_mode
