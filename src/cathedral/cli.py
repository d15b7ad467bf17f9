"""The ``cathedral`` command: play in the terminal, replay records, print rules, benchmark.

Every game is reached through the registry and the contract; the flags of ``play`` are made
from each game's declared parameters and seat names, so a new game needs no code here.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

from cathedral.ai import agent_names, hint, load_agent
from cathedral.ai import arena as arena_command
from cathedral.core.contract import CHANCE, Game, State, ranked_returns
from cathedral.core.errors import CathedralError, RecordError
from cathedral.core.record import Record
from cathedral.core.registry import game_class, games, load
from cathedral.testing import random_action

HUMAN = "human"
LIST_LIMIT = 40  # legal choices listed at the prompt when there are at most this many

HELP = """Commands:
  <move>            a move in the game's notation (see 'cathedral rules {game}')
  moves [filter]    list the legal moves (only those containing the filter text)
  hint [level]      the move the computer would play, with its evaluation (level: medium)
  undo              take back your last move and the computer's replies
  save FILE         write the game so far as a record
  resign            give up this game
  quit              stop (the game so far is saved as a record)
  help              this text"""


def _records_dir() -> Path:
    base = os.environ.get("CATHEDRAL_RECORDS")
    if base:
        return Path(base)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "cathedral" / "records"


class Quit(Exception):
    """The human asked to stop."""


class Resign(Exception):
    """The human gave up."""


class Session:
    """One game in the terminal: seats, the state, input and output."""

    def __init__(
        self,
        game: Game,
        seats: list[str],
        *,
        seed: int | None,
        color: bool,
        record_path: Path | None,
        out=None,
        inp=None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.names = game.player_names()
        self.rng = random.Random(seed)
        self.agents = {
            i: load_agent(seat, game, seed=None if seed is None else seed * 31 + i)
            for i, seat in enumerate(seats)
            if seat != HUMAN
        }
        self.color = color
        self.record_path = record_path
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.state = game.new_initial_state()
        self.resigned: int | None = None
        self.shown = -1  # history length when the board was last drawn

    # ----- output -------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.shown = len(self.state.history())
        if self.color:
            self.say("\x1b[2J\x1b[H" + self.state.render(color=True))
        else:
            self.say(self.state.render(color=False))

    def describe(self, player: int, action: int) -> str:
        return self.state.action_to_string(action)

    # ----- the game loop ------------------------------------------------------------------

    def run(self) -> State:
        self.show()
        chance: list[str] = []
        try:
            while not self.state.is_terminal():
                player = self.state.current_player()
                if self.state.is_chance_node():
                    action = random_action(self.state, self.rng)
                    chance.append(f"({self.describe(player, action)})")
                    self.state.apply_action(action)
                    continue
                self.tell_chance(chance)
                if player in self.agents:
                    action = self.agents[player].choose(self.state)
                    text = self.describe(player, action)
                    self.state.apply_action(action)
                    self.show()
                    self.say(f"{self.names[player]} ({self.seats[player]}) played {text}")
                else:
                    self.human_turn(player)
            self.tell_chance(chance)
        except Quit:
            self.say("Stopped.")
        except Resign:
            self.say(f"{self.names[self.resigned]} resigns.")
        self.finish()
        return self.state

    def tell_chance(self, outcomes: list[str]) -> None:
        """Prints chance outcomes in a row (a setup, a roll) on a few lines, and forgets them."""
        if outcomes:
            self.say(textwrap.fill(" ".join(outcomes), width=100, initial_indent="  ",
                                   subsequent_indent="  "))
            outcomes.clear()

    def human_turn(self, player: int) -> None:
        if self.shown != len(self.state.history()):
            self.show()  # chance outcomes (dice, setup) changed the board since it was drawn
        legal = self.state.legal_actions()
        hint = self.state.prompt_hint()
        if hint:
            self.say(hint)
        if len(legal) <= LIST_LIMIT:
            self.say("Legal: " + ", ".join(self.state.action_to_string(a) for a in legal))
        else:
            self.say(f"{len(legal)} legal moves; type 'moves' to list them, 'help' for commands.")
        while True:
            self.out.write(f"{self.names[player]}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise Quit
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command == "help":
                self.say(HELP.format(game=self.game.name))
            elif command == "moves":
                self.list_moves(rest.strip())
            elif command == "hint":
                self.hint(rest.strip() or "medium")
            elif command == "undo":
                if self.undo(player):
                    return
            elif command == "save":
                self.save(rest.strip())
            elif command == "resign":
                self.resigned = player
                raise Resign
            elif command in ("quit", "exit"):
                raise Quit
            else:
                try:
                    action = self.state.string_to_action(line)
                except CathedralError as exc:
                    self.say(f"error: {exc}")
                    continue
                self.state.apply_action(action)
                self.show()
                return

    def list_moves(self, needle: str) -> None:
        texts = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        if needle:
            texts = [t for t in texts if needle.lower() in t.lower()]
        self.say("\n".join(texts) if texts else f"no legal move matches {needle!r}")
        self.say(f"({len(texts)} moves)")

    def hint(self, level: str) -> None:
        if self.state.current_player() < 0:
            self.say("error: no player is to move")
            return
        try:
            info = hint(self.state, level)
        except CathedralError as exc:
            self.say(f"error: {exc}")
            return
        mover = self.state.current_player()
        line = [f"hint ({level}): {self.state.action_to_string(info.action)}",
                f"value for {self.names[mover]} {info.values[mover]:+.2f}"
                + (" (proven)" if info.proven else "")]
        if len(info.pv) > 1:
            replay = self.state.clone()
            texts = []
            for action in info.pv:
                if replay.is_terminal() or action not in replay.legal_actions():
                    break
                texts.append(replay.action_to_string(action))
                replay.apply_action(action)
            line.append("line: " + " | ".join(texts))
        self.say("; ".join(line))

    def undo(self, player: int) -> bool:
        """Takes back ``player``'s last decision and what followed; False if there is none."""
        history = self.state.history()
        replay = self.game.new_initial_state()
        movers = []
        for action in history:
            movers.append(replay.current_player())
            replay.apply_action(action)
        own = [i for i, mover in enumerate(movers) if mover == player]
        if not own:
            self.say("error: nothing of yours to undo")
            return False
        # A dice roll after the undone move would be rolled again: that is no take-back.
        if CHANCE in movers[own[-1] :]:
            self.say("error: cannot undo past a chance outcome (dice or a draw)")
            return False
        self.state = self.game.new_initial_state()
        for action in history[: own[-1]]:
            self.state.apply_action(action)
        self.show()
        self.say("Undone.")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.say("error: save needs a file name, like 'save game.json'")
            return
        try:
            Path(path).write_text(self.record().to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            self.say(f"error: could not write {path!r}: {exc.strerror}")
            return
        self.say(f"Saved to {path}")

    def record(self) -> Record:
        record = Record.from_state(
            self.state,
            players=list(self.seats),
            meta={"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")},
        )
        if self.resigned is not None:
            scores = [0.0] * self.game.num_players
            scores[self.resigned] = -1.0
            record.result = {
                "returns": ranked_returns(scores),
                "scores": self.state.scores(),
                "text": f"{self.names[self.resigned]} resigned.",
                "resigned": self.resigned,
            }
        return record

    def returns(self) -> list[float] | None:
        record = self.record()
        return record.result["returns"] if record.result else None

    def finish(self) -> None:
        if self.state.is_terminal():
            self.say(self.state.result_string())
        path = self.record_path
        if path is None:
            directory = _records_dir()
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            path = directory / f"{self.game.name}-{stamp}-{os.getpid()}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.record().to_json() + "\n", encoding="utf-8")
            self.say(f"Record written to {path}")
        except OSError as exc:
            self.say(f"error: could not write the record to {path}: {exc.strerror}")


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
        sub = by_game.add_parser(
            name, help=info.summary, description=f"{info.title}. {info.summary}"
        )
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
    points = [0.0, 0.0]
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
        returns = session.returns()
        if returns is None:
            return 0  # stopped before the end
        for participant in (0, 1):
            colour = participant if number % 2 == 0 else 1 - participant
            totals[participant] += state.scores()[colour]
            points[participant] += returns[colour]
    if args.match > 1:
        _print_match(game, seats, totals, points)
    return 0


def _print_match(game: Game, seats: list[str], totals: list[float], points: list[float]) -> None:
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
