"""The arena on Ray: the same games as the process pool, and clear errors around Ray.

One small local Ray instance (two CPUs, no dashboard) serves the whole module and is shut
down by its last test, which checks that no Ray process outlives it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import sys
import time

import pytest

from cathedral.ai import arena
from cathedral.ai.arena import GameResult, run_arena
from cathedral.core.errors import AgentError, CathedralError

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'cathedral[cluster]')",
)


def _processes() -> dict[int, tuple[int, str]]:
    """Returns every process's parent id and state letter, read from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        table[int(entry)] = (int(fields[1]), fields[0])
    return table


def _live_descendants(root: int) -> set[int]:
    """Returns the live processes below ``root`` (a Ray driver's daemons and workers)."""
    table = _processes()
    found, todo = set(), [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, _) in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return {pid for pid in found if table[pid][1] != "Z"}


MATCHES = {"classic": 2, "red": 2}  # games per match: red has dice, so seeds must carry them


@pytest.fixture(scope="module")
def pool_reports():
    """The process pool's reports, made before Ray starts (forking a Ray driver is unsafe)."""
    return {
        game: run_arena(game, ["random", "greedy"], games=games, jobs=2, seed=3)
        for game, games in MATCHES.items()
    }


@pytest.fixture(scope="module")
def ray_session(pool_reports):
    """The arena's own local Ray instance of two CPUs (as ``--ray --jobs 2`` starts it, no
    dashboard), shared by the module and shut down by its last test."""
    ray = pytest.importorskip("ray", reason="Ray is not installed")
    before = _live_descendants(os.getpid()) if os.path.isdir("/proc") else set()
    with pytest.MonkeyPatch.context() as patch:
        # A cluster named in the environment (or left by `ray start`) must not be joined.
        patch.setenv("RAY_ADDRESS", "127.0.0.1:1")
        arena._ray_init(ray, "", 2)
    yield {"ray": ray, "before": before}
    ray.shutdown()


def _per_game(report: dict) -> list[tuple]:
    """What must not depend on the executor: who sat where, seeds, results, every action."""
    return [
        (g["index"], g["pairing"], g["seats"], g["seed"], g["returns"], g["scores"],
         g["plies"], g["outcome_for_first"], g["record"]["players"], g["record"]["result"],
         g["record"]["actions"])
        for g in report["games"]
    ]


@needs_ray
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_ray_plays_the_same_games_as_the_process_pool(pool_reports, ray_session, game, tmp_path,
                                                      capsys):
    pool, games = pool_reports[game], MATCHES[game]
    out = tmp_path / "ray.json"
    status = arena.main([game, "random", "greedy", "--games", str(games), "--seed", "3",
                         "--ray", "--quiet", "--report", str(out)])
    assert status == 0, capsys.readouterr().err
    on_ray = json.loads(out.read_text())
    assert on_ray["ray"] == "local" and "ray" not in pool
    assert len(on_ray["games"]) == games
    assert _per_game(on_ray) == _per_game(pool)
    assert [g["returns"] for g in on_ray["games"]] != [[0.0, 0.0]] * games  # games were played
    assert on_ray["pairings"] == pool["pairings"] and on_ray["elo"] == pool["elo"]
    text = capsys.readouterr().out
    assert "random vs greedy" in text and "Elo" in text
    assert ray_session["ray"].cluster_resources()["CPU"] == 2  # bounded, not the machine's
    # The arena used the Ray it found and left it running for its owner...
    assert ray_session["ray"].is_initialized()
    # ...and will not silently play elsewhere than an address asked for.
    assert arena.main([game, "random", "greedy", "--games", "2", "--quiet",
                       "--ray", "127.0.0.1:6379"]) == 2
    assert "already uses a Ray instance; give no address" in capsys.readouterr().err


def crashing_play(task):
    """A game in which the second seat's agent fails (shipped to the workers by value)."""
    if task.index == 1:
        raise AgentError(f"agent {task.seats[1]!r} (seat 1) crashed in game 1 after 3 moves")
    return GameResult(task.index, task.pairing, task.seats, task.seed, [1.0, -1.0], [0, 0], 1,
                      0.0, {}, {})


@needs_ray
def test_an_agent_failing_in_a_ray_worker_is_reported_as_itself(ray_session):
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with pytest.raises(AgentError, match=r"^agent 'greedy' \(seat 1\) crashed in game 1"):
            run_arena("classic", ["greedy", "random"], games=4, ray="", play=crashing_play)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_without_ray_the_arena_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    status = arena.main(["classic", "random", "greedy", "--games", "2", "--quiet", "--ray"])
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err == ("cathedral arena: error: --ray needs Ray: pip install 'cathedral[cluster]' "
                   "(or 'ray>=2.9')")
    # and without --ray the arena needs no Ray at all
    assert arena.main(["classic", "random", "random", "--games", "2", "--quiet"]) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@needs_ray
def test_an_address_where_no_cluster_listens_fails_at_once():
    import ray

    # Ray itself would retry such an address for minutes: the arena checks it answers first.
    port = _free_port()
    with pytest.raises(CathedralError) as caught:
        arena._ray_init(ray, f"127.0.0.1:{port}", 1)
    message = str(caught.value)
    assert message.startswith(f"--ray 127.0.0.1:{port}: no Ray cluster answers there")
    assert "ray start --head" in message and "\n" not in message
    with pytest.raises(CathedralError, match="expected HOST:PORT of a Ray head"):
        arena._ray_init(ray, "head:port", 1)


def test_the_ray_option_takes_an_optional_address():
    import argparse

    parser = argparse.ArgumentParser()
    arena.add_parser(parser.add_subparsers())
    assert parser.parse_args(["arena", "classic", "a", "b"]).ray is None
    assert parser.parse_args(["arena", "classic", "a", "b", "--ray"]).ray == ""
    assert parser.parse_args(["arena", "classic", "a", "b", "--ray", "10.0.0.5:6379"]).ray == (
        "10.0.0.5:6379"
    )


@needs_ray
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_shutting_ray_down_leaves_no_ray_process(ray_session):
    ray = ray_session["ray"]
    # the GCS, raylet, agents and workers (other fixtures' servers were there before)
    started = _live_descendants(os.getpid()) - ray_session["before"]
    assert started, "the local Ray instance runs as this process's children"
    ray.shutdown()
    assert not ray.is_initialized()
    for _ in range(100):  # they take a moment to exit after shutdown
        alive = {pid for pid, (_, state) in _processes().items()
                 if pid in started and state != "Z"}
        if not alive:
            break
        time.sleep(0.2)
    assert not alive, f"Ray processes still running: {sorted(alive)}"
