"""Attacks on the server's thinking, each while an honest person plays ``medium`` from
another address: computer seats that would think forever or fork processes, tables of the
strongest computers against each other, and anonymous analysis all at once."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
import pytest
from honest import Honest, attacker, no_server_errors

import cathedral

UNBOUNDED = [
    ("alphabeta:depth=30", "depth"),
    ("alphabeta:workers=6,seconds=4", "workers"),
    ("alphabeta:workers=100000", "workers"),
    ("rollout:workers=5000", "workers"),
    ("hard:workers=1000", "workers"),
    ("alphabeta:table_size=1000000000000", "table_size"),
    ("rollout:max_plies=1000000000", "max_plies"),
    ("rollout:candidates=100000", "candidates"),
    ("rollout:plans=100000", "plans"),
    ("mcts:seconds=100000", "seconds"),
    ("mcts:iterations=1000000000", "iterations"),
]


def test_unbounded_computer_seats_are_refused_and_the_strongest_share_the_worker(launch):
    server = launch()  # its own: the computers it starts play on after the test
    honest = Honest(server.url)
    with attacker(server.url) as http:
        for seat, argument in UNBOUNDED:
            game = "red" if seat.startswith(("rollout", "hard")) else "classic"
            answer = http.post("/api/games", json={"game": game, "seats": ["human", seat]})
            assert answer.status_code == 422, (seat, answer.text)
            assert argument in answer.json()["error"], answer.text
        with honest:
            # Computers against computers on the one worker: max thinks 20 s a move, the
            # depth-bounded search up to the 30 s cap.
            for seats in (["max", "max"], ["alphabeta:depth=20", "hard"], ["max", "hard"]):
                answer = http.post("/api/games", json={"game": "classic", "seats": seats})
                assert answer.status_code == 201, answer.text
            time.sleep(6)
        honest.check(replies=2)
    no_server_errors(server)


def finished_record() -> str:
    state = cathedral.load("classic").new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return cathedral.Record.from_state(state, players=["Ann", "Bob"]).to_json()


def test_anonymous_analysis_is_one_at_a_time_at_most_hard_and_ends_with_its_asker(
        server, honest):
    with attacker(server.url) as http:
        uploaded = http.post("/api/records", content=finished_record())
        assert uploaded.status_code == 201, uploaded.text
        game_id = uploaded.json()["id"]
        refused = http.get(f"/api/games/{game_id}/hint?ply=2&level=max")
        assert refused.status_code == 422 and "max" in refused.json()["error"]
        with honest:
            answers: list[httpx.Response] = []

            def ask(ply: int) -> None:
                with attacker(server.url) as own:
                    answers.append(own.get(f"/api/games/{game_id}/hint?ply={ply}&level=hard"))

            askers = [threading.Thread(target=ask, args=(ply,)) for ply in (2, 3, 4, 5, 6)]
            for thread in askers:
                thread.start()
            for thread in askers:
                thread.join()
            statuses = sorted(a.status_code for a in answers)
            assert statuses.count(200) >= 1 and set(statuses) <= {200, 429}, statuses
            assert 429 in statuses, "five analyses at once from one address all ran"
            for answer in answers:
                if answer.status_code == 429:
                    assert int(answer.headers["retry-after"]) >= 1
            time.sleep(3)
        honest.check(replies=3)
        # An asker who hangs up: its analysis is stopped, not finished for nobody. (With
        # the honest game paused, so that no computer move stops it first.)
        with attacker(server.url, timeout=0.5) as impatient, pytest.raises(httpx.ReadTimeout):
            impatient.get(f"/api/games/{game_id}/hint?ply=5&level=hard")
        deadline = time.monotonic() + 30
        while not stopped(server, "cancelled"):
            assert time.monotonic() < deadline, "the abandoned analysis was not stopped"
            time.sleep(0.1)
    no_server_errors(server)


def stopped(server, why: str) -> bool:
    for line in server.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            fields = json.loads(line)
            if fields.get("event") == "stop" and fields.get("why") == why:
                return True
    return False
