"""The shipped puzzles (``cathedral.learn.puzzles``, docs/learning.md): how many, every
position and answer legal, no position twice, ``check`` on answers, wrong and illegal moves,
the proofs re-run (every Allmer puzzle; a seeded sample of classic and Red ones, all of them
with ``CATHEDRAL_SLOW=1``), the puzzle of the day, and the generator reproducing itself."""

from __future__ import annotations

import datetime
import json
import random

import pytest

from cathedral.core.errors import IllegalActionError, NotationError, UnknownGameError
from cathedral.learn import generate
from cathedral.learn import puzzles as P

SHIPPED = {"classic": 500, "allmer": 300, "red": 100}  # at least so many
SAMPLE = {"classic": 25, "red": 3}  # puzzles re-proved by the quick run (some 0.3 s and 3 s
# each; every Allmer proof, some 0.02 s each, is re-run always; all of them with CATHEDRAL_SLOW)


@pytest.fixture(scope="module")
def starts():
    """Every puzzle's position, replayed once."""
    return {p.id: P.start_state(p) for p in P.puzzles()}


def sample(game: str, n: int) -> list[P.Puzzle]:
    every = P.puzzles(game)
    return random.Random(f"puzzle sample {game}").sample(every, min(n, len(every)))


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_counts_shipped(game):
    found = P.puzzles(game)
    assert len(found) >= SHIPPED[game]
    assert [p.id for p in found] == [f"{game}-{i:04d}" for i in range(1, len(found) + 1)]
    assert all(p.game == game for p in found)


def test_every_game_and_only_those():
    assert len(P.puzzles()) == sum(len(P.puzzles(g)) for g in P.GAMES)
    with pytest.raises(UnknownGameError):
        P.puzzles("chess")
    with pytest.raises(KeyError):
        P.puzzle("classic-9999x")
    first = P.puzzles("allmer")[0]
    assert P.puzzle(first.id) is first
    assert P.Puzzle.from_dict(first.to_dict()) == first


def test_the_file_format():
    """The keys of docs/learning.md, one puzzle a line."""
    keys = ["id", "game", "params", "start", "player", "goal", "theme", "difficulty",
            "answers", "line", "proof"]
    for game in P.GAMES:
        text = P.data_text(game)
        lines = text.splitlines()
        data = json.loads(text)
        assert data["game"] == game and data["count"] == len(data["puzzles"])
        assert len(lines) == len(data["puzzles"]) + 2
        for item in data["puzzles"]:
            assert list(item) == keys
            assert item["proof"]["method"] in ("exact solver", "alpha-beta", "rollouts")


def test_every_start_replays_and_every_answer_is_legal(starts):
    for p in P.puzzles():
        state = starts[p.id]
        assert state.current_player() == p.player, p.id
        legal = set(state.legal_actions())
        answers = {state.string_to_action(text) for text in p.answers}
        assert answers and answers <= legal, p.id
        assert len(answers) == len(p.answers), p.id
        assert len(answers) < len(legal), p.id  # a real choice
        # Every legal move has its value in the proof, and the answers have the best.
        names = {state.action_to_string(a) for a in legal}
        assert set(p.proof["moves"]) == names, p.id
        best = max(p.proof["moves"].values())
        assert best == p.proof["value"]
        assert {m for m, v in p.proof["moves"].items() if v == best} == set(p.answers)
        # The line starts with an answer and is legal.
        assert p.line and p.line[0] in p.answers, p.id
        line = state.clone()
        for text in p.line:
            line.apply_action(line.string_to_action(text))


def test_no_two_puzzles_share_a_position(starts):
    keys = [P.position_hash(starts[p.id]) for p in P.puzzles()]
    assert len(keys) == len(set(keys))


def test_answers_beat_the_rest_by_the_stated_margin():
    for p in P.puzzles("classic"):
        best, second = p.proof["value"], p.proof["second"]
        assert second == max(v for m, v in p.proof["moves"].items() if m not in p.answers)
        assert best - second >= generate.CLASSIC_GAP or (second < 0 <= best) \
            or (second <= 0 < best), p.id
    for p in P.puzzles("allmer"):
        assert p.proof["margin"] >= generate.ALLMER_GAP, p.id
        assert p.proof["depth"] == generate.ALLMER_TURNS
    for p in P.puzzles("red"):
        low, high = p.proof["interval"]
        assert 0 < low <= p.proof["margin"] <= high, p.id
        assert p.proof["margin"] >= generate.RED_MARGIN


def test_difficulties_are_on_the_glicko_scale():
    for p in P.puzzles():
        assert 0 < p.difficulty < 3000, p.id
        assert set(p.proof["found"]) == set(P.LEVELS)
        assert p.difficulty == P.difficulty(p.proof["found"], p.setting)
    # Found by easy, only by hard, by nobody: harder and harder.
    found = [{"random": 0.1, "easy": 1, "medium": 1, "hard": 1},
             {"random": 0.1, "easy": 0, "medium": 0, "hard": 1},
             {"random": 0.1, "easy": 0, "medium": 0, "hard": 0}]
    ratings = [P.difficulty(f, "classic") for f in found]
    assert ratings == sorted(ratings) and ratings[0] < 1363 < ratings[1] < ratings[2]


def test_the_level_ratings_are_the_servers():
    glicko = pytest.importorskip("cathedral.server.glicko")
    for setting, levels in P.LEVEL_RATINGS.items():
        for level, rating in levels.items():
            assert glicko.COMPUTER_RATINGS[setting][level] == rating


def test_check_accepts_every_answer():
    for p in P.puzzles():
        for text in p.answers:
            verdict = P.check(p, text)
            assert verdict.ok, (p.id, text, verdict.text)
            assert verdict.text.startswith("Right")


def test_check_says_why_a_legal_move_is_not_the_answer(starts):
    for p in P.puzzles():
        state = starts[p.id]
        wrong = next(a for a in state.legal_actions()
                     if state.action_to_string(a) not in p.answers)
        text = state.action_to_string(wrong)
        verdict = P.check(p, text)
        assert not verdict.ok
        assert verdict.text.startswith(text), verdict.text
    classic = P.puzzles("classic")[0]
    wrong = next(m for m in classic.proof["moves"] if m not in classic.answers)
    value = classic.proof["moves"][wrong]
    said = P.check(classic, wrong).text
    assert said.endswith(f"the best {P._margin_words(classic.proof['value'])}.")
    assert P._margin_words(value) in said


def test_check_gives_the_engines_reason_for_an_illegal_move(starts):
    for game in P.GAMES:
        for p in P.puzzles(game)[:20]:
            state = starts[p.id]
            text, reason = _refused(state)
            assert P.check(p, text) == P.Verdict(False, reason)
            garbage = P.check(p, "no such move")
            assert not garbage.ok and garbage.text


def _refused(state) -> tuple[str, str]:
    """The notation of a move the engine refuses in ``state``, and its reason."""
    legal = set(state.legal_actions())
    for action in range(state.game.num_distinct_actions()):
        if action in legal:
            continue
        try:
            text = state.action_to_string(action)
        except Exception:  # no notation for this action number here
            continue
        try:
            state.string_to_action(text)
        except (NotationError, IllegalActionError) as exc:
            return text, str(exc)
    raise AssertionError("no refused move found")


@pytest.mark.parametrize("game", sorted(SAMPLE))
def test_a_sample_of_proofs_holds(game):
    for p in sample(game, SAMPLE[game]):
        assert P.verify(p), p.id


def test_every_allmer_proof_holds():
    for p in P.puzzles("allmer"):
        assert P.verify(p), p.id


@pytest.mark.slow
@pytest.mark.parametrize("game", ["classic", "red"])
def test_every_proof_holds(game):
    """Some 2.5 minutes for classic, 5 for red."""
    for p in P.puzzles(game):
        assert P.verify(p), p.id


def test_verify_refuses_a_wrong_proof():
    p = next(p for p in sample("classic", 50) if p.proof["nodes"] > 10)
    data = p.to_dict()
    other = next(m for m in data["proof"]["moves"] if m not in data["answers"])
    data["answers"] = [*data["answers"][:-1], other]
    assert not P.verify(P.Puzzle.from_dict(data))
    data = p.to_dict()
    data["proof"]["value"] += 1
    assert not P.verify(P.Puzzle.from_dict(data))
    assert not P.verify(p, budget=1)  # not proved within one position


def test_the_puzzle_of_the_day_is_the_same_everywhere():
    day = P.daily("2026-12-07")
    assert P.daily(datetime.date(2026, 12, 7)) == day
    assert P.daily(datetime.datetime(2026, 12, 7, 23, 59)) == day
    assert P.puzzle(day.id) == day
    month = {P.daily(datetime.date(2027, 1, 1) + datetime.timedelta(days=i)).id
             for i in range(31)}
    assert len(month) > 20
    assert {i.split("-")[0] for i in month} == set(P.GAMES)  # every game comes up
    assert P.daily() in P.puzzles()


@pytest.mark.slow
def test_the_generator_reproduces_its_file():
    """The first puzzles of the shipped Allmer file come again from the same seed."""
    shipped = json.loads(P.data_text("allmer"))
    again = generate.generate("allmer", 3, shipped["seed"], progress=False)
    for made, item in zip(again["puzzles"], shipped["puzzles"], strict=False):
        assert {k: made[k] for k in generate.KEYS} == item
