"""The ``cathedral`` command: play in the terminal, replay records, print rules, benchmark,
run the arena.

Every game is reached through the registry and the contract; the flags of ``play`` are made
from each game's declared parameters and seat names, so a new game needs no code here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cathedral.ai import agent_names, load_agent
from cathedral.ai import arena as arena_command
from cathedral.core.contract import Game
from cathedral.core.errors import CathedralError, RecordError
from cathedral.core.record import Record
from cathedral.core.registry import game_class, games, load
from cathedral.server.cli import add_parser as add_serve_parser
from cathedral.terminal import HUMAN, Session

# ----- play ---------------------------------------------------------------------------------


def _seat_flag(name: str) -> str:
    return "--" + name.lower().replace(" ", "-")


def _seat_dest(name: str) -> str:
    return "seat_" + name.lower().replace(" ", "_")


def _add_play_parser(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play a game in the terminal, each seat a human or a computer player.",
    )
    by_game = play.add_subparsers(dest="game", metavar="GAME", required=True)
    levels = f"{HUMAN} or one of {', '.join(agent_names())}"
    for name in games():
        try:
            cls = game_class(name)
        except (ImportError, AttributeError):  # a game still being written: not in the menu
            continue
        info = cls.info
        about = info.summary
        if not about.startswith(info.title):
            about = f"{info.title}. {about}"
        sub = by_game.add_parser(name, help=info.summary, description=about)
        for param in info.parameters:
            kwargs: dict = {"help": f"{param.help} (default: {param.default})", "default": None}
            if param.choices:
                kwargs["choices"] = [str(c) for c in param.choices]
            sub.add_argument("--" + param.name.replace("_", "-"), dest="param_" + param.name,
                             **kwargs)
        for index, seat in enumerate(info.seat_names):
            sub.add_argument(
                _seat_flag(seat),
                dest=_seat_dest(seat),
                metavar="PLAYER",
                help=f"who plays {seat}: {levels}, or a spec like mcts:seconds=2 "
                f"(default: {HUMAN if index == 0 else 'greedy'})",
            )
        sub.add_argument("--seats", help="every seat at once, comma-separated, in player order")
        sub.add_argument("--seed", type=int, help="seed for computer players and chance")
        sub.add_argument("--match", type=int, default=1, metavar="N",
                         help="play N games, seats swapping colours each game (two players)")
        sub.add_argument("--record", type=Path, metavar="FILE",
                         help="where to write the record (default: a file under "
                         "$CATHEDRAL_RECORDS or ~/.local/share/cathedral/records)")
        sub.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                         help="colour the board (default: auto, only on a terminal)")
        sub.set_defaults(run=_play)


def _seats(args: argparse.Namespace, game: Game) -> list[str]:
    names = game.player_names()
    seats = [HUMAN] + ["greedy"] * (len(names) - 1)
    if args.seats:
        given = [s.strip() for s in args.seats.split(",")]
        if len(given) != len(names):
            raise CathedralError(
                f"--seats lists {len(given)} players, expected {len(names)} "
                f"({', '.join(names)})"
            )
        seats = given
    for index, name in enumerate(names):
        chosen = getattr(args, _seat_dest(name), None)
        if chosen:
            seats[index] = chosen
    for name in game.info.seat_names:
        if name not in names and getattr(args, _seat_dest(name), None):
            raise CathedralError(f"there is no {name} seat with these parameters "
                                 f"(seats: {', '.join(names)})")
    for seat in seats:
        if seat != HUMAN:
            load_agent(seat, game)  # an unknown player or a bad spec is refused here, listed
    return seats


def _play(args: argparse.Namespace) -> int:
    params = {
        key[len("param_"):]: value
        for key, value in vars(args).items()
        if key.startswith("param_") and value is not None
    }
    game = load(args.game, **params)
    seats = _seats(args, game)
    if args.match < 1:
        raise CathedralError(f"--match {args.match}: expected a number of games >= 1")
    if args.match > 1 and game.num_players != 2:
        raise CathedralError("--match is for two-player games")
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    totals = [0.0, 0.0]
    for number in range(args.match):
        # Seat lists are per colour; in a match the participants swap colours every game.
        order = seats if number % 2 == 0 else seats[::-1]
        path = args.record
        if path is not None and args.match > 1:
            path = path.with_name(f"{path.stem}-{number + 1}{path.suffix}")
        seed = None if args.seed is None else args.seed + number
        session = Session(game, order, seed=seed, color=color, record_path=path)
        if args.match > 1:
            session.say(f"Game {number + 1} of {args.match}: "
                        + ", ".join(f"{n} {s}" for n, s in zip(game.player_names(), order)))
        state = session.run()
        if not state.is_terminal() and session.resigned is None:
            return 0  # stopped before the end
        for participant in (0, 1):
            colour = participant if number % 2 == 0 else 1 - participant
            totals[participant] += state.scores()[colour]
    if args.match > 1:
        _print_match(game, seats, totals)
    return 0


def _print_match(game: Game, seats: list[str], totals: list[float]) -> None:
    labels = [f"{seats[0]} (first {game.player_names()[0]})",
              f"{seats[1]} (first {game.player_names()[1]})"]
    print("Match totals:")
    for label, total in zip(labels, totals):
        print(f"  {label}: {total:g}")
    lower = game.info.lower_score_wins
    if totals[0] == totals[1]:
        print("The match is drawn.")
    else:
        best = (totals.index(min(totals)) if lower else totals.index(max(totals)))
        print(f"{labels[best]} wins the match"
              + (" (lowest total)." if lower else " (highest total)."))


# ----- replay, rules, bench -----------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {args.file!r}: {exc.strerror}") from None
    record = Record.from_json(text)
    states = list(record.replay())
    names = states[0].game.player_names()
    players = ", ".join(f"{n}: {p}" for n, p in zip(names, record.players))
    print(f"{record.game} {record.params} - {players}")
    interactive = args.interactive and sys.stdin.isatty()
    last = len(states) - 1
    if args.to is not None:
        index = max(0, min(args.to, last))
    else:
        index = 0 if interactive or args.all else last
    color = sys.stdout.isatty()
    while True:
        if index > 0:
            print(f"{index}. {record.actions[index - 1]}")
        print(states[index].render(color=color))
        if not interactive:
            if args.all and index < last:
                index += 1
                continue
            break
        answer = input("[Enter] next, b back, q quit> ").strip().lower()
        if answer == "q":
            break
        index = max(0, index - 1) if answer == "b" else min(last, index + 1)
    if record.result:
        print(record.result.get("text", ""))
    return 0


def _rules(args: argparse.Namespace) -> int:
    print(load(args.game).rules_text())
    return 0


def _bench(args: argparse.Namespace) -> int:
    from cathedral.bench import run_bench

    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise CathedralError(f"--param {item!r}: expected NAME=VALUE, like opening=lehmann")
        params[name] = value
    if args.seconds <= 0:
        raise CathedralError(f"--seconds {args.seconds}: expected a positive number")
    run_bench(args.game, seconds=args.seconds, params=params)
    return 0


def _games(args: argparse.Namespace) -> int:
    for name in games():
        try:
            info = game_class(name).info
        except (ImportError, AttributeError):
            continue
        print(f"{name:8} {info.title}: {info.summary}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cathedral",
        description="Play, replay and study three board games named Cathedral.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_play_parser(commands)
    arena_command.add_parser(commands)
    add_serve_parser(commands)
    replay = commands.add_parser("replay", help="step through a game record")
    replay.add_argument("file", help="a record written by 'cathedral play' (JSON)")
    replay.add_argument("--to", type=int, metavar="N", help="show the position after N actions")
    replay.add_argument("--all", action="store_true", help="print every position")
    replay.add_argument("--no-interactive", dest="interactive", action="store_false",
                        help="never wait for Enter")
    replay.set_defaults(run=_replay)
    rules = commands.add_parser("rules", help="print a game's rules")
    rules.add_argument("game", choices=games())
    rules.set_defaults(run=_rules)
    bench = commands.add_parser("bench", help="measure a game engine's speed")
    bench.add_argument("game", choices=games())
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    bench.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="a game parameter (repeatable)")
    bench.set_defaults(run=_bench)
    listing = commands.add_parser("games", help="list the games")
    listing.set_defaults(run=_games)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except CathedralError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
