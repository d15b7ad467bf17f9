"""Named strength levels: each is a fixed agent with a fixed budget, per game.

Every front end offers the same five names; what they mean for each game is the table
below. Time per move is an upper bound on this project's 2-core reference machine (searches
stop early when they have solved the position); the arena reports in ``benchmarks/reports``
say how strong each one is.

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
  per move already beat the designer's greedy player (see the reports), max 10 s. With 4
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
    # Classic medium looks two plies ahead (a placement and the reply); hard deepens for
    # 5 s and solves endgames exactly. A medium deepening for 1 s played level with hard
    # (9-2-9 in 20 games from random openings): the extra plies of hard's forward-pruned
    # search buy little over a second's, so medium stops at two to leave hard a step above
    # (the ladder: hard +189 Elo [+122, +271] over it in 100 games, with the endgame solver
    # proving the winner first; +122 before). Width, not depth, buys strength past depth 4:
    # on hard's own 5 s, 14 moves inside and 60 at the root scored 60% against hard's 10 and
    # 40 in 60 games, and 20 and 100 scored 72% against 14 and 60 in 30 (+155 Elo
    # [+34, +309], benchmarks/reports/classic_hard_wider_30), so max searches that wide.
    # Hard and max also search each side's 3 best set-ups in the first three plies (walls
    # the next building closes, which the one-ply order ranks far beyond any width;
    # ``classic.threats``): hard had lost a game to an outside AI by never looking at the
    # wall that beat it. Against the same search without them: 29-2-9 on 4,000 nodes a move
    # (+185 Elo [+69, +343], 3.6 squares a game), 20-5-15 on 2 s (+43 [-51, +143]). Hard
    # plays one of the moves valued within 0.01 of its best (below classic's half-square
    # step: moves it values alike), picked by the game's seed, so it does not replay one
    # game against a deterministic opponent: 17-3-20 on 4,000 nodes against the same search
    # without (-25 Elo [-134, +78], level within the noise).
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
    # player (see the reports); max is for analysis.
    "allmer": _search_levels(
        "alphabeta",
        {"budget": Budget(seconds=0.1), "width": 12, "root_width": None, "contempt": 0.3},
        {"budget": Budget(seconds=0.25), "width": 16, "root_width": None, "contempt": 0.3},
        {"budget": Budget(seconds=10.0), "width": 16, "root_width": None, "contempt": 0.3},
    ),
    # The Red Cathedral: greedy rollouts (the greedy player is the opponent's exact model,
    # short of the dice), the best 3 / 8 / all decisions played out for one round on
    # 1 / 8 / as many dice samples as 5 s allow (a turn is many decisions), compared on the
    # same dice. Against medium (rules version 2): 6 candidates on 4 samples won 27 of 40
    # games, 8 on 16 samples 27 of 34; hard takes the middle road at half the latter's time
    # (the ladder: 72-28 against medium in 100 games, +162 Elo [+91, +238]).
    # One round: 5 candidates over 2 rounds beat greedy as well but only drew level with
    # medium (18-22 in 40 games). Max compares 4 continuations of its own turn per candidate
    # rather than the greedy one: on hard's 64 passes that won 14 of 20 against hard
    # (0.39 s a decision on one core), where 8 times hard's rollouts had won 10 and halving
    # over 16 candidates 11 (benchmarks/reports/red2_max_plans_hard_20, ..._samples_...,
    # ..._halving_...); the ladder: 63 of 100 (+91 Elo), where choosing the continuation
    # leave-one-out on twice the passes won 60 (red2_max_loo128_hard_100) and planning the
    # rivals' turns in the rollouts too (rivals=4) 55 (red2_max_rivals4_hard_100). The best
    # decision lay outside the heuristic's 8 in 6 of 48 positions of those games, so max now
    # tries every one by sequential halving: on twice hard's passes 68 of 100 (+130 Elo
    # [+63, +207], the ladder; 0.88 s a decision on one core).
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
    # Allmer's game with 4 players. Medium: no chance, so one greedy rollout per candidate
    # says all a rollout can: one pass over the heuristic's best 6 steps, one round deep
    # (a 2-round rollout lost 39 of 40 games to three 1-round mediums: longer rollouts lean
    # on the rivals being greedy). Hard and max: the paranoid alpha-beta (everybody else
    # against the mover), which assumes nothing about how the rivals choose; on 0.2 s a move
    # it won 13 of 13 screening games against three mediums, where a 16-step rollout won 12
    # of 40 (the ladder: 98 of 100). A game is some 200 moves a player, hence the short times.
    # Hard thinks 0.05 s (the ladder: 81 of 100 all the same): a ply of this search costs
    # some 16 times the one before, so max on 0.5 s was a third of a ply deeper than hard on
    # 0.2 s (5 of 16 games alone against three hards, +7 Elo) but most of a ply deeper than
    # hard on 0.05 s (the ladder: 91 of 100).
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
    # The Red Cathedral with 3-4 players: the 2-player levels. A round is two or three rivals'
    # turns, so one round. Many candidates on many samples together make hard a step here:
    # 4 candidates on 2 samples won 4 of 19 games against three mediums and 40 of 102
    # against two (+69 Elo), 3 on 8 samples 5 of 19; 8 on 8 samples won 11 of 20 against
    # three (55%, a seat's chance 25%) and 10 of 18 against two (56%, a seat's chance 33%),
    # at 1.7 and 0.8 s a decision (benchmarks/reports/red4_hard_medium_20, red3_..._18); the
    # ladder: 63 of 102 against two mediums (+179 Elo [+125, +236]), 51 of 100 against
    # three (+172 Elo [+115, +240]). Max on twice hard's passes alone against two hards:
    # 50 of 102 (+108 Elo [+51, +164]); against three it won 2 of 12, on four times hard's
    # passes (256 rollouts, where its 5 s on both cores make some 700) 36 of 100
    # (+91 Elo, short of the ladder's +100); on eight times 11 of the first 28 (+41 Elo), and
    # no more rollouts will help: on 256 or 512 max chose what 200 passes of every decision
    # chose in 16 of 16 of its positions, hard in 13 (benchmarks/red_decision_noise.py).
    # All of the above was measured before the evaluation counted every rival (the returns'
    # scale, heuristic.evaluate, 2026-12-05), which changes medium, hard and max with 3-4
    # players, so their ladders were played anew: with 4 (100 games a pairing) hard won 48 of
    # 100 against three mediums, +162 Elo, and max +91, short as before the change; with 3
    # (102) hard 58 of 102 against two mediums, +159 [+101, +233], and max 50, +101 [+48, +164].
    "red": LEVELS["red"],
}

# Where one number of players needs its own row: (game, players) -> levels.
BY_PLAYERS: dict[tuple[str, int], dict[str, Spec]] = {
    # The Red Cathedral with 4 players, spaced lower (2026-12-06). With the 3-player row, max
    # stood only +86 Elo [+49, +119] over hard in 200 games alone against three hards, and
    # nothing tried made max better (RESULTS.md, red's max paragraph): the span from medium
    # to max that this search reaches is about 250 Elo, too little for two steps of 100 with
    # hard where it was (+162 over medium). So medium and hard are set lower, evenly: medium
    # on 2 candidates (alone against three of the 3-candidate medium it won 17 of 200, -112
    # Elo), hard on 4 candidates on 8 samples (+63 Elo over the old medium, 29 of 80 alone
    # against three of it, where 6 candidates made +143, as much as 8); max as before. The
    # ladder: medium +243 Elo over easy, hard +240 over medium (59 of 100 alone against
    # three mediums), max +172 [+123, +233] over hard (49 of 100 alone against three hards).
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
