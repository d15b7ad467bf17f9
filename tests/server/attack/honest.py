"""The honest side of an attack test: a person playing classic against ``medium`` from
127.0.0.1 while the attack goes on, timing every reply of the computer (from sending a move
to the view where it is their turn again), and a watcher timing ``GET /healthz``.

``check()`` is what every attack must leave true: the honest game went on, every computer
reply came within ``REPLY_S`` and the server answered its health check within
``HEALTH_S``. These are bounds on being stalled (a stalled server took 13-45 s), not speed
targets: ``medium`` itself answers in about a quarter of a second.
"""

from __future__ import annotations

import random
import threading
import time

import httpx

import cathedral

REPLY_S = 6.0
HEALTH_S = 1.0
GAME = cathedral.load("classic")


class Honest:
    def __init__(self, base_url: str, seed: int = 1) -> None:
        self.base_url = base_url
        self.rng = random.Random(seed)
        self.replies: list[float] = []
        self.health: list[float] = []
        self.problems: list[str] = []
        self.games: list[str] = []
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> Honest:
        self._stop.clear()
        self.replies.clear()
        self.health.clear()
        self._threads = [threading.Thread(target=self._play, daemon=True),
                         threading.Thread(target=self._watch, daemon=True)]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=90)
        self._threads = []

    def __enter__(self) -> Honest:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def check(self, *, replies: int = 1) -> None:
        """Raises AssertionError unless the honest game went on unharmed."""
        assert not self.problems, self.problems[:5]
        assert len(self.replies) >= replies, (
            f"the honest game got {len(self.replies)} computer replies during the attack")
        assert max(self.replies) < REPLY_S, (
            f"an honest computer reply took {max(self.replies):.1f} s: {self.replies}")
        assert self.health and max(self.health) < HEALTH_S, (
            f"/healthz took {max(self.health or [0]):.2f} s")

    def _play(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60.0) as http:
            game_id, token = self._new(http)
            while not self._stop.is_set():
                view = http.get(f"/api/games/{game_id}").json()
                if view["status"] == "finished":
                    game_id, token = self._new(http)
                    continue
                if view["current_player"] != 0:
                    time.sleep(0.05)
                    continue
                state = GAME.state_from_json(view["state"])
                action = self.rng.choice(state.legal_actions())
                sent = time.perf_counter()
                answer = http.post(f"/api/games/{game_id}/moves",
                                   json={"ply": view["ply"], "action": action},
                                   headers={"Authorization": f"Bearer {token}"})
                if answer.status_code != 200:
                    self.problems.append(f"move: {answer.status_code} {answer.text[:200]}")
                    return
                view = answer.json()
                while view["status"] != "finished" and view["current_player"] != 0:
                    if time.perf_counter() - sent > 60:
                        self.problems.append(f"no reply in 60 s at ply {view['ply']}")
                        return
                    time.sleep(0.02)
                    view = http.get(f"/api/games/{game_id}").json()
                self.replies.append(time.perf_counter() - sent)
                time.sleep(0.3)  # a person's pace

    def _new(self, http: httpx.Client) -> tuple[str, str]:
        answer = http.post("/api/games", json={"game": "classic", "seats": ["human", "medium"]})
        answer.raise_for_status()
        body = answer.json()
        self.games.append(body["id"])
        return body["id"], body["seats"][0]["token"]

    def _watch(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60.0) as http:
            while not self._stop.is_set():
                started = time.perf_counter()
                answer = http.get("/healthz")
                self.health.append(time.perf_counter() - started)
                if answer.status_code != 200:
                    self.problems.append(f"healthz: {answer.status_code}")
                time.sleep(0.2)


def attacker(base_url: str, **options) -> httpx.Client:
    """A client of the attacker's own address (127.0.0.66)."""
    transport = httpx.HTTPTransport(local_address="127.0.0.66")
    return httpx.Client(base_url=base_url, transport=transport, **{"timeout": 60.0, **options})


def no_server_errors(server) -> None:
    """The server logged no internal error (a 500) in its run."""
    text = server.log.read_text(errors="replace")
    assert "internal error" not in text, text[-3000:]
