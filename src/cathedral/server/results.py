"""How a game ends outside its rules: a resignation, a fallen flag, the server's ply limit.

Each returns the result a table stores: ``{"text", "scores", "returns", "resigned",
"timeout"}``, with returns on the contract's scale, so a game ended here reads like one the
rules ended.
"""

from __future__ import annotations

from cathedral.core.contract import Game, ranked_returns


def _ranking(game: Game, scores: list[float]) -> list[float]:
    """Higher is better: the scores, turned round where the lower score wins."""
    lower = game.info.lower_score_wins
    return [-float(s) if lower else float(s) for s in scores]


def resigned(game: Game, scores: list[float], player: int) -> dict:
    """``player`` gave up: ranked below everyone, the others in the order of their scores."""
    ranking = _ranking(game, scores)
    ranking[player] = float("-inf")
    return {"text": f"{game.player_names()[player]} resigned", "scores": list(scores),
            "returns": ranked_returns(ranking), "resigned": player, "timeout": False}


def flag_fell(game: Game, scores: list[float], player: int) -> dict:
    """Two players: ``player`` ran out of time and loses."""
    names = game.player_names()
    winner = 1 - player
    returns = [0.0, 0.0]
    returns[player], returns[winner] = -1.0, 1.0
    return {"text": f"{names[player]} ran out of time; {names[winner]} wins",
            "scores": list(scores), "returns": returns, "resigned": player, "timeout": True}


def ply_limit(game: Game, scores: list[float], limit: int) -> dict:
    """The game reached the server's most plies: ranked by the scores as they stand."""
    return {"text": f"the game reached this server's limit of {limit:,} plies and was scored "
                    "as it stood", "scores": list(scores),
            "returns": ranked_returns(_ranking(game, scores)), "resigned": None,
            "timeout": False}
