"""The server's storage on a real PostgreSQL (a throwaway cluster, the black-box tests'
``services.Postgres``): migrations on an empty database, the log's unique key under 50
concurrent writers, and a game in process that survives a restart. Skipped, saying why,
where PostgreSQL is not installed."""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import cathedral
from cathedral.server.app import create_app
from cathedral.server.settings import Settings
from cathedral.server.storage import PlyTaken, Storage, StoredAction, StoredGame, StoredSeat

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def cluster():
    sys.path.insert(0, str(Path(__file__).parent / "blackbox"))
    try:
        from services import Postgres, postgres_bin
    finally:
        sys.path.pop(0)
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (bash scripts/test.sh installs it)")
    server = Postgres(durable=False).start()
    yield server
    server.stop()


def new_game(game_id: str) -> StoredGame:
    return StoredGame(
        id=game_id, game="classic", params={"opening": "standard"}, rules_version=1,
        seed="s", status="playing", generation=0, result=None, clock=None, read_only=False,
        public=False, rematch_of=None, rematch=None, created=0.0, updated=0.0,
        seats=[StoredSeat(0, "human", None), StoredSeat(1, "human", None)])


def test_migrations_and_the_unique_ply_under_fifty_writers(cluster):
    storage = Storage(cluster.new_database())
    storage.migrate()
    storage.migrate()
    storage.create_game(new_game("g"))
    results: list[str] = []
    barrier = threading.Barrier(50)

    def write(action: int) -> None:
        barrier.wait()
        try:
            storage.append("g", 0, [StoredAction(0, action, 0, str(action), None, 1.0)],
                           status="playing", revision=0)
            results.append("ok")
        except PlyTaken:
            results.append("taken")

    threads = [threading.Thread(target=write, args=(a,)) for a in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok"] + ["taken"] * 49
    assert len(storage.load("g").actions) == 1
    storage.close()


def test_a_game_on_postgresql_survives_a_restart(cluster):
    url = cluster.new_database()
    rng = random.Random(2)
    with TestClient(create_app(Settings(db=url, workers=1))) as client:
        table = client.post("/api/games", json={"game": "red", "seats": ["human", "human"]})
        table = table.json()
        gid = table["id"]
        tokens = [s["token"] for s in table["seats"]]
        view = client.get(f"/api/games/{gid}").json()
        for _ in range(20):
            state = cathedral.load("red").state_from_json(view["state"])
            answer = client.post(
                f"/api/games/{gid}/moves",
                headers={"Authorization": f"Bearer {tokens[view['current_player']]}"},
                json={"ply": view["ply"], "action": rng.choice(state.legal_actions())})
            assert answer.status_code == 200, answer.text
            view = answer.json()
    with TestClient(create_app(Settings(db=url, workers=1))) as client:
        again = client.get(f"/api/games/{gid}").json()
        assert again["state"] == view["state"] and again["history"] == view["history"]
