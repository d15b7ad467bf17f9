"""Named strength levels: each is a fixed agent with a fixed budget, per game.

Every front end offers the same five names; what they mean for each game is the table
below. Time per move is an upper bound on this project's 2-core reference machine (searches
stop early when they have solved the position); ``benchmarks/RESULTS.md`` says how strong
each one is (the ladder).

========  ==========================================================================
random    uniformly random legal moves (a sanity floor)
easy      greedy: one ply on the game's heuristic (instant)
medium    a short search (must answer within 2 s; most games well under 1 s)
hard      a stronger search (must answer within 10 s; see each game below)
max       the same search with far more time on every core, for analysis and patient
          players (``max:seconds=60`` gives it a minute)
========  ==========================================================================

The searches per game:

- ``classic`` (2 players, no chance, branching in the hundreds): alpha-beta with heuristic
  move ordering and forward pruning (``width`` best actions per inner node). Medium searches
  two plies (a placement and the reply, 0.26 s a move); hard and max deepen iteratively to
  the time limit, and the endgame is searched to the end; both also search each side's best
  set-ups (``cathedral.games.classic.threats``) in their first plies, and hard picks among
  moves it values alike by the game's seed. Once at most 40 placements are legal, hard
  first gives half its time to the exact endgame solver, and max runs the solver
  on one core for all of its time while the search runs on the others, so a solvable
  endgame is played for a proven win, and for the best final margin where that too is in
  reach (``cathedral.ai.endgame``).
- ``allmer``: with 2 players alpha-beta with chain extensions (and quiescence over
  conversions) and contempt for draws and repeated positions; medium 0.1 s and hard 0.25 s
  per move already beat the designer's greedy player (``benchmarks/RESULTS.md``), max 10 s. With 4
  players, medium plays greedy rollouts (``cathedral.ai.rollout``: each of the heuristic's
  best 6 steps played out greedily by everyone for a round and scored by ``evaluate()``);
  hard and max the paranoid alpha-beta (the other three against the mover) on 0.05 / 2 s.
- ``red`` (dice, many small decisions per turn): greedy rollouts of the heuristic's best
  decisions, played out for one round (medium / hard / max), whatever the number of players:
  3 / 8 candidates on 1 / 8 dice samples for medium / hard (with 4 players 2 / 4, spaced
  lower so that max stands a step above hard); max tries every legal decision
  by sequential halving (``halving``) on as many samples as 5 s allow, and compares the 4
  best continuations of its own turn after each candidate (``plans``) where the others
  take the greedy one. Every rollout level also stops at 1 s (medium) or 5 s (hard and
  max) whatever its other limits.
- any other game: MCTS.

``max`` searches on every core (``workers=None``; ``cathedral.ai.parallel``): alpha-beta
splits the root's actions among one process per core (in a classic endgame one of them
solves instead), rollouts share their passes out.
``benchmarks/bench_parallel.py`` measures what that buys.
"""

from __future__ import annotations

from cathedral.ai.budget import Budget

LEVEL_NAMES = ("random", "easy", "medium", "hard", "max")

# (agent name, keyword arguments) per level; "budget" is a Budget.
PARALLEL = ("alphabeta", "rollout")  # the agents that can search on every core (``workers``)
Spec = tuple[str, dict]


def _search_levels(agent: str, medium: dict, hard: dict, max_: dict | None = None) -> dict:
    return {
        "random": ("random", {}),
        "easy": ("greedy", {}),
        "medium": (agent, medium),
        "hard": (agent, hard),
        "max": (agent, {**(max_ or {**hard, "budget": hard["budget"].scaled(4)}),
                        **({"workers": None} if agent in PARALLEL else {})}),
    }


DEFAULT_LEVELS: dict[str, Spec] = _search_levels(
    "mcts",
    {"budget": Budget(seconds=1.0)},
    {"budget": Budget(seconds=5.0)},
)

LEVELS: dict[str, dict[str, Spec]] = {
    # Classic: medium stops at two plies, as a second's deepening played level with hard; past
    # depth 4 width buys more than depth, so max searches wider; hard and max search the
    # set-ups the one-ply order ranks beyond any width (a wall the next building closes); hard
    # varies among moves it values alike so that no opponent can replay a win. Figures:
    # benchmarks/RESULTS.md (the ladder; set-ups and variety; History: classic levels).
    "classic": _search_levels(
        "alphabeta",
        {"budget": Budget(depth=2, seconds=2.0), "width": 8, "root_width": 24},
        {"budget": Budget(seconds=5.0), "width": 10, "root_width": 40, "endgame": 0.5,
         "threats": 3, "variety": 0.01},
        {"budget": Budget(seconds=20.0), "width": 20, "root_width": 100, "endgame": 0.5,
         "threats": 3},
    ),
    # Draws by repetition come easily in Allmer's game (two cautious players shuffle), so the
    # searches hold a draw, or a position met again, worth -0.3 to themselves and play on for
    # the win. A fast search already wins nearly every game against the designer's greedy
    # player (benchmarks/RESULTS.md); max is for analysis.
    "allmer": _search_levels(
        "alphabeta",
        {"budget": Budget(seconds=0.1), "width": 12, "root_width": None, "contempt": 0.3},
        {"budget": Budget(seconds=0.25), "width": 16, "root_width": None, "contempt": 0.3},
        {"budget": Budget(seconds=10.0), "width": 16, "root_width": None, "contempt": 0.3},
    ),
    # The Red Cathedral: greedy rollouts (the greedy player is the opponent's exact model,
    # short of the dice), one round deep, the candidates compared on the same dice. Hard is a
    # step above medium by more candidates on more samples; max tries every legal decision
    # (the best sometimes lies outside the heuristic's favourites) and plans its own turn.
    # Figures: benchmarks/RESULTS.md (the ladder; History: red's hard and max).
    "red": _search_levels(
        "rollout",
        {"budget": Budget(iterations=3, seconds=1.0), "candidates": 3, "horizon": 1},
        {"budget": Budget(iterations=64, seconds=5.0), "candidates": 8, "horizon": 1},
        {"budget": Budget(seconds=5.0), "candidates": None, "horizon": 1, "plans": 4,
         "halving": True},
    ),
}

# Games with more than two players search with MCTS (max^n) unless their row below says
# otherwise, whatever the table says for two.
MULTIPLAYER_LEVELS: dict[str, Spec] = _search_levels(
    "mcts",
    {"budget": Budget(seconds=1.0), "contempt": 0.1},
    {"budget": Budget(seconds=5.0), "contempt": 0.1},
)

MULTIPLAYER: dict[str, dict[str, Spec]] = {
    # Allmer's game with 4 players. Medium: one greedy rollout per candidate, one round deep
    # (no chance, so one says all; longer rollouts lean on the rivals being greedy). Hard and
    # max: the paranoid alpha-beta, which assumes nothing about how the rivals choose. Hard
    # thinks 0.05 s because a ply costs some 16 times the one before and max must reach one
    # more to stand a step above it (benchmarks/RESULTS.md, History: allmer levels).
    "allmer": {
        "random": ("random", {}),
        "easy": ("greedy", {}),
        "medium": (
            "rollout",
            {"budget": Budget(iterations=6, seconds=1.0), "candidates": 6, "horizon": 1},
        ),
        "hard": ("alphabeta", {"budget": Budget(seconds=0.05), "width": 8, "root_width": 16}),
        "max": ("alphabeta", {"budget": Budget(seconds=2.0), "width": 10, "root_width": 24,
                              "workers": None}),
    },
    # The Red Cathedral with 3-4 players: the 2-player levels, one round deep (a round is two
    # or three rivals' turns); fewer candidates or samples left hard level with medium.
    # With 4 players see BY_PLAYERS (benchmarks/RESULTS.md, History: red's hard).
    "red": LEVELS["red"],
}

# Where one number of players needs its own row: (game, players) -> levels.
BY_PLAYERS: dict[tuple[str, int], dict[str, Spec]] = {
    # The Red Cathedral with 4 players: medium and hard spaced lower (2 and 4 candidates), as
    # the span this search reaches from medium to max is too narrow for two steps of +100
    # with hard where it is for 2-3 players, and nothing tried made max stronger
    # (benchmarks/RESULTS.md, History: red's 4-player max).
    ("red", 4): _search_levels(
        "rollout",
        {"budget": Budget(iterations=2, seconds=1.0), "candidates": 2, "horizon": 1},
        {"budget": Budget(iterations=32, seconds=5.0), "candidates": 4, "horizon": 1},
        LEVELS["red"]["max"][1],
    ),
}


def level_spec(level: str, game_name: str | None, num_players: int = 2) -> Spec:
    """Returns the (agent name, arguments) a level means for a game."""
    if (game_name, num_players) in BY_PLAYERS:
        table = BY_PLAYERS[game_name, num_players]
    elif num_players > 2:
        table = MULTIPLAYER.get(game_name or "", MULTIPLAYER_LEVELS)
    else:
        table = LEVELS.get(game_name or "", DEFAULT_LEVELS)
    name, kwargs = table[level]
    return name, dict(kwargs)
