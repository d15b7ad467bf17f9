"""The ``cathedral`` command: play in the terminal, replay records, print rules, benchmark,
run the arena and the ladder of levels.

Every game is reached through the registry and the contract; the flags of ``play`` are made
from each game's declared parameters and seat names, so a new game needs no code here.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from cathedral import __version__
from cathedral.ai import agent_names, load_agent
from cathedral.ai import arena as arena_command
from cathedral.ai import ladder as ladder_command
from cathedral.core.contract import Game
from cathedral.core.errors import CathedralError
from cathedral.core.registry import game_class, games, load
from cathedral.server.cli import add_parser as add_serve_parser
from cathedral.terminal import HUMAN, Session, resume_game
from cathedral.terminal.learn import learn as learn_course
from cathedral.terminal.records import read_record
from cathedral.terminal.replay import replay as replay_record

# ----- play ---------------------------------------------------------------------------------


def _seat_flag(name: str) -> str:
    return "--" + name.lower().replace(" ", "-")


def _seat_dest(name: str) -> str:
    return "seat_" + name.lower().replace(" ", "_")


def _about(title: str, summary: str) -> str:
    """Returns ``title: summary`` without saying the name twice (summaries often start with
    the game's name and a colon)."""
    head, sep, rest = summary.partition(": ")
    if sep and len(head) <= 40:
        summary = rest
    return f"{title}: {summary}"


def _metavar(kind: type, optional: bool) -> str:
    names = {bool: "{true,false}", int: "N"}
    return names.get(kind, "VALUE") + ("|none" if optional and kind is not bool else "")


def _add_play_parser(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play a game in the terminal, each seat a human or a computer player. "
        "'cathedral play --resume FILE' goes on with a recorded game (seats and seed from the "
        "record unless given anew, e.g. 'cathedral play --resume FILE --dark hard').",
    )
    play.add_argument("--resume", dest="resume_any", metavar="FILE",
                      help="go on with the game in a record (any game; see above)")
    by_game = play.add_subparsers(dest="game", metavar="GAME", required=True)
    levels = f"{HUMAN} or one of {', '.join(agent_names())}"
    for name in games():
        try:
            cls = game_class(name)
        except (ImportError, AttributeError):  # a game still being written: not in the menu
            continue
        info = cls.info
        sub = by_game.add_parser(name, help=info.summary,
                                 description=_about(info.title, info.summary))
        for param in info.parameters:
            kwargs: dict = {"help": f"{param.help} (default: {param.default})", "default": None}
            if param.choices:
                kwargs["choices"] = [str(c) for c in param.choices]
            else:
                kwargs["metavar"] = _metavar(param.kind, param.optional)
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
        sub.add_argument("--seed", type=int, help="seed for computer players and chance "
                         "(default: drawn at random and kept in the record)")
        sub.add_argument("--match", type=int, default=1, metavar="N",
                         help="play N games (an even number), seats swapping colours each "
                         "game (two players)")
        sub.add_argument("--resume", metavar="FILE",
                         help="go on with the unfinished game in a record written by play, "
                         "save or quit (same seats and seed unless given anew)")
        sub.add_argument("--record", type=Path, metavar="FILE",
                         help="where to write the record (default: a file under "
                         "$CATHEDRAL_RECORDS or ~/.local/share/cathedral/records)")
        sub.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                         help="colour the board (default: auto, only on a terminal)")
        sub.set_defaults(run=_play)


def _seats(args: argparse.Namespace, game: Game, recorded: list[str] | None = None) -> list[str]:
    names = game.player_names()
    seats = list(recorded) if recorded else [HUMAN] + ["greedy"] * (len(names) - 1)
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
    for index, seat in enumerate(seats):
        if seat == HUMAN:
            continue
        try:
            load_agent(seat, game)  # an unknown player or a bad spec is refused here, listed
        except CathedralError as exc:
            if recorded and recorded[index] == seat:
                raise CathedralError(
                    f"the record's {names[index]} seat is {seat!r}, not a player this terminal "
                    f"knows; give it anew, e.g. {_seat_flag(names[index])} {HUMAN}"
                ) from None
            raise exc from None
    return seats


def _play(args: argparse.Namespace) -> int:
    params = {
        key[len("param_"):]: value
        for key, value in vars(args).items()
        if key.startswith("param_") and value is not None
    }
    if args.record is not None and args.record.expanduser().is_dir():
        raise CathedralError(f"--record {str(args.record)!r} is a directory; expected a file "
                             "name such as game.json")
    if args.record is not None:
        args.record = args.record.expanduser()
    resumed = None
    if args.resume is not None:
        resumed = resume_game(args.resume)
        game = resumed.state.game
        if game.name != args.game:
            raise CathedralError(f"--resume {args.resume!r} holds a game of {game.name}, "
                                 f"not {args.game}")
        if params and load(args.game, **{**game.params, **params}).params != game.params:
            raise CathedralError("a resumed game keeps the parameters of its record "
                                 f"({', '.join(f'{k}={v}' for k, v in game.params.items())})")
        if args.match != 1:
            raise CathedralError("--match cannot be combined with --resume")
    else:
        game = load(args.game, **params)
    seats = _seats(args, game, resumed.players if resumed else None)
    if args.match < 1 or (args.match > 1 and args.match % 2):
        raise CathedralError(f"--match {args.match}: expected 1 or an even number of games "
                             "(colours swap each game, so each side plays each colour equally)")
    if args.match > 1 and game.num_players != 2:
        raise CathedralError("--match is for two-player games")
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    size = tuple(shutil.get_terminal_size()) if sys.stdout.isatty() else None
    if resumed is not None:
        seed = args.seed if args.seed is not None else resumed.seed
        session = Session(game, seats, seed=seed, color=color, record_path=args.record,
                          state=resumed.state, size=size,
                          meta={"resumed_from": str(Path(args.resume).expanduser())})
        session.run()
        return _exit_status(session)
    totals = [0.0, 0.0]
    for number in range(args.match):
        # Seat lists are per colour; in a match the participants swap colours every game.
        order = seats if number % 2 == 0 else seats[::-1]
        path = args.record
        if path is not None and args.match > 1:
            path = path.with_name(f"{path.stem}-{number + 1}{path.suffix}")
        seed = None if args.seed is None else args.seed + number
        session = Session(game, order, seed=seed, color=color, record_path=path, size=size)
        if args.match > 1:
            session.say(f"Game {number + 1} of {args.match}: "
                        + ", ".join(f"{n} {s}" for n, s in zip(game.player_names(), order)))
        state = session.run()
        if not state.is_terminal() and session.resigned is None:
            return _exit_status(session)  # stopped before the end
        for participant in (0, 1):
            colour = participant if number % 2 == 0 else 1 - participant
            totals[participant] += state.scores()[colour]
    if args.match > 1:
        _print_match(game, seats, totals)
    return 0


def _exit_status(session: Session) -> int:
    """Returns the exit status of a game's way out: 0 for an end or quit, 130 for Ctrl-C,
    129 for a hangup, 1 for a computer player that failed."""
    return {"interrupted": 130, "hangup": 129, "crash": 1}.get(session.ending, 0)


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
    tty = sys.stdout.isatty()
    return replay_record(args.file, to=args.to, every=args.all,
                         interactive=args.interactive and sys.stdin.isatty(), color=tty,
                         size=tuple(shutil.get_terminal_size()) if tty else None)


def _rules(args: argparse.Namespace) -> int:
    from cathedral.envs.layouts import layout_text

    game = load(args.game)
    print(game.rules_text().rstrip("\n") + "\n\n" + layout_text(game))
    return 0


def _learn(args: argparse.Namespace) -> int:
    tty = sys.stdout.isatty()
    color = args.color == "always" or (args.color == "auto" and tty)
    return learn_course(args.game, lesson=args.lesson, color=color,
                        size=tuple(shutil.get_terminal_size()) if tty else None)


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
        print(f"{name:8} {_about(info.title, info.summary)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cathedral",
        description="Play, replay and study three board games named Cathedral.",
    )
    parser.add_argument("--version", action="version", version=f"cathedral {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_play_parser(commands)
    arena_command.add_parser(commands)
    ladder_command.add_parser(commands)
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
    learn = commands.add_parser(
        "learn", help="learn a game, lesson by lesson",
        description="Learn a game step by step: each step a position and a thing to do; type "
        "a move, 'hint', 'skip' or 'quit' (docs/learning.md).")
    learn.add_argument("game", choices=games())
    learn.add_argument("--lesson", metavar="ID",
                       help="begin with this lesson (an unknown id lists them)")
    learn.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the board (default: auto, only on a terminal)")
    learn.set_defaults(run=_learn)
    bench = commands.add_parser("bench", help="measure a game engine's speed")
    bench.add_argument("game", choices=games())
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    bench.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="a game parameter (repeatable)")
    bench.set_defaults(run=_bench)
    listing = commands.add_parser("games", help="list the games")
    listing.set_defaults(run=_games)
    return parser


def _resume_shortcut(argv: list[str]) -> list[str]:
    """Returns ``play GAME --resume FILE ...`` for ``play --resume FILE ...``, the game read
    from the record, so the game's own seat flags work on a resumed game."""
    if len(argv) < 2 or argv[0] != "play" or argv[1] in games():
        return argv
    for index, word in enumerate(argv):
        if word.startswith("--resume="):
            argv = [*argv[:index], "--resume", word.partition("=")[2], *argv[index + 1:]]
            break
    if "--resume" not in argv:
        return argv
    where = argv.index("--resume")
    if where + 1 >= len(argv):
        return argv  # argparse says what is missing
    record = read_record(argv[where + 1])
    return ["play", record.game, *argv[1:]]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = _resume_shortcut(argv)
    except CathedralError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
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
