"""What runs inside the server's worker processes: computer moves, analyses, replays and
record uploads (``thinking.Pool`` starts the processes and hands out the jobs).

A worker takes one job at a time from its pipe, ``(task, args)``, and answers on the same
pipe: ``("progress", data)`` any number of times, then ``("done", result)``, ``("refused",
(malformed, message))`` for a client's mistake (a record that does not replay) or
``("failed", text)``.
A search reads a clock that runs a million times faster from the moment the server stops
the job (a time it writes into the worker's shared ``stop`` value): asked to stop, before it
started or while it thinks, a search ends at its next look at the clock with the best it
has found so far.
Workers run at a lower priority than the server's event loop, and end when the server has
gone (even one killed with ``kill -9``: no orphans left).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Any

_STOPPED_PACE = 1e6  # how much faster a stopped search's clock runs: budgets end at once


class Refusal(Exception):
    """A client's mistake found in a worker (a record that does not replay, a position with
    nobody to move): the server answers it as a refusal with this message, ``Malformed``
    where the text is not even JSON (``malformed``), else ``Invalid``."""

    def __init__(self, message: str, *, malformed: bool = False) -> None:
        super().__init__(message)
        self.malformed = malformed


def _state(game_name: str, params: dict, state_json: str):
    import cathedral

    return cathedral.load(game_name, **params).state_from_json(state_json)


def _replayed(game_name: str, params: dict, actions: list[int]):
    import cathedral

    state = cathedral.load(game_name, **params).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def choose(game_name: str, params: dict, state_json: str, spec: str, seed: int, *,
           clock, report) -> int:
    """The action the computer player ``spec`` picks in this state."""
    from cathedral.ai import load_agent

    state = _state(game_name, params, state_json)
    agent = load_agent(spec, state.game, seed=seed, clock=clock)
    try:
        return int(agent.choose(state))
    finally:
        agent.close()


def analyse(game_name: str, params: dict, actions: list[int], level: str, spec: str,
            seed: int, *, clock, report) -> dict:
    """A hint by ``level`` (searching as ``spec``) for the player to move after ``actions``:
    ``cathedral.ai.analyse``'s fields (action, move, pv, expected 0..1 per player, proven,
    solved, depth, nodes, seconds, level, final) plus ``values``, the same on the scale of
    ``returns()`` (-1..1); each deeper result is reported on the way."""
    from cathedral.ai import analyse as analyse_position

    started = time.perf_counter()

    def shaped(found: dict) -> dict:
        found["level"] = level
        found["values"] = [round(2 * e - 1, 4) for e in found["expected"]]
        # A stopped search's clock raced ahead: the time it took is the real one.
        found["seconds"] = round(min(found["seconds"], time.perf_counter() - started), 3)
        return found

    state = _replayed(game_name, params, actions)
    if state.is_terminal() or state.is_chance_node():
        raise Refusal(f"nobody is to move at ply {len(actions)}")
    found = analyse_position(state, spec, seed=seed, clock=clock,
                             progress=lambda partial: report(shaped(partial.to_dict())))
    return shaped(found.to_dict())


def replay(game_name: str, params: dict, actions: list[int], *, clock, report) -> str:
    """The state after ``actions``, as JSON (a long game rebuilt off the event loop)."""
    return _replayed(game_name, params, actions).to_json()


def picture(game_name: str, params: dict, actions: list[int], *, clock, report) -> dict:
    """``State.picture()`` after ``actions``, with the scores there."""
    state = _replayed(game_name, params, actions)
    return {**state.picture(), "scores": state.scores()}


def upload(text: str, max_plies: int, *, clock, report) -> dict:
    """Reads, checks and replays an uploaded record; returns what the server stores: the
    game, its parameters, every ply ``(action, player, notation, text, turn, skipped)``
    (``storage.StoredAction``'s fields), the players' names,
    the result of a resignation (recomputed, never taken on trust) and the final state.

    Raises:
        Refusal: bad JSON text, too many plies, parameters this server does not offer,
            or a record that does not replay.
    """
    from cathedral.core.errors import CathedralError
    from cathedral.core.record import Record
    from cathedral.server import results
    from cathedral.server.errors import Malformed, Refused
    from cathedral.server.inputs import checked_json
    from cathedral.server.limits import check_params

    try:
        data = checked_json(text, "record")
    except Malformed as exc:
        raise Refusal(exc.message, malformed=True) from None
    try:
        record = Record.from_dict(data)
        if len(record.actions) > max_plies:
            raise Refusal(f"record refused: {len(record.actions):,} plies, at most "
                                f"{max_plies:,} are kept here")
        check_params(record.game, record.params)
        final = record.final_state()
    except Refused as exc:
        raise Refusal(exc.message) from None
    except CathedralError as exc:
        raise Refusal(f"record refused: {exc}") from None
    game = final.game
    if len(record.players) != game.num_players:
        raise Refusal(f"record refused: {len(record.players)} players listed, the game "
                            f"has {game.num_players}")
    names = [name.strip()[:100] or "?" for name in record.players]
    replay_state = game.new_initial_state()
    plies = []
    for action in final.history():
        player = replay_state.current_player()
        decision = player >= 0
        plies.append((action, player, replay_state.action_to_string(action),
                      replay_state.describe_action(action),
                      decision and replay_state.turn_starts(),
                      replay_state.skipped_after(action) if decision else []))
        replay_state.apply_action(action)
    result = None
    given = record.result or {}
    if "resigned" in given and given["resigned"] is not None and not final.is_terminal():
        player = given["resigned"]
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < game.num_players:
            raise Refusal(f"record refused: 'resigned' must be a player from 0 to "
                                f"{game.num_players - 1}")
        if given.get("timeout") is True and game.num_players == 2:
            result = results.flag_fell(game, final.scores(), player)
        else:
            result = results.resigned(game, final.scores(), player)
    return {"game": game.name, "params": dict(game.params),
            "rules_version": game.rules_version, "players": names, "plies": plies,
            "result": result, "state": final.to_json()}


TASKS = {"choose": choose, "analyse": analyse, "replay": replay, "picture": picture,
         "upload": upload}


def _watch_parent(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(1.0)


def main(connection, stop, parent: int, nice: int) -> None:
    """A worker's life: lower priority, then jobs one at a time until told to end."""
    if nice:
        with contextlib.suppress(OSError):  # not allowed here: the server's priority then
            os.nice(nice)
    threading.Thread(target=_watch_parent, args=(parent,), name="cathedral-parent-watch",
                     daemon=True).start()
    import cathedral.ai  # noqa: F401  - the games and agents, once, before the first job

    def clock() -> float:
        now, stopped = time.monotonic(), stop.value
        return now if now < stopped else stopped + (now - stopped) * _STOPPED_PACE

    def report(data: Any) -> None:
        connection.send(("progress", data))

    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, args = message
        try:
            answer = ("done", TASKS[task](*args, clock=clock, report=report))
        except Refusal as exc:
            answer = ("refused", (exc.malformed, str(exc)))
        except Exception as exc:  # the job fails, the worker lives on
            answer = ("failed", f"{type(exc).__name__}: {exc}")
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return
