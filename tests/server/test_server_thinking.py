"""The worker pool (``cathedral.server.thinking``) with real worker processes: what comes
first, who gets a turn, what is stopped early, and what is killed.

A long job is a classic search given 30 s; a stopped one answers long before that, so the
checks below ("well under 30 s") test that it was stopped, not how fast the machine is.
"""

from __future__ import annotations

import asyncio
import time

import pytest

import cathedral
from cathedral.server.thinking import ANALYSIS, MOVE, JobFailed, Pool

GAME = cathedral.load("classic")
START = GAME.new_initial_state().to_json()
LONG = "alphabeta:seconds=30,workers=1"  # thinks its whole 30 s unless stopped
SHORT = "alphabeta:depth=1,seconds=30,workers=1"  # answers at once


def move(pool: Pool, owner: str, spec: str = LONG, limit_s: float = 60.0):
    return pool.run("choose", GAME.name, GAME.params, START, spec, 1, priority=MOVE,
                    owner=owner, limit_s=limit_s)


def analysis(pool: Pool, owner: str, spec: str = LONG):
    return pool.run("analyse", GAME.name, GAME.params, [], "hard", spec, 1,
                    priority=ANALYSIS, owner=owner, limit_s=60.0)


async def running(pool: Pool, count: int) -> None:
    """Waits until ``count`` jobs are running (a hang guard, not a speed check)."""
    deadline = time.monotonic() + 60
    while len(pool._running()) < count:
        assert time.monotonic() < deadline, "the jobs never started"
        await asyncio.sleep(0.02)


async def timed(job) -> tuple[object, float]:
    started = time.perf_counter()
    answer = await job
    return answer, time.perf_counter() - started


def in_pool(size: int, body, **options):
    async def main():
        pool = Pool("test", size, **options)
        try:
            return await body(pool)
        finally:
            await pool.close()

    return asyncio.run(main())


def test_a_computer_move_stops_a_running_analysis_rather_than_wait_behind_it():
    async def body(pool):
        looking = asyncio.ensure_future(analysis(pool, "visitor"))
        await running(pool, 1)
        action, waited = await timed(move(pool, "player", SHORT))
        return action, waited, await looking

    action, waited, found = in_pool(1, body)
    assert action in GAME.new_initial_state().legal_actions()
    assert found["final"] and found["seconds"] < 20  # stopped, with the best so far
    assert waited < 20


def test_an_owner_holding_every_worker_gives_one_up_to_another_owner():
    async def body(pool):
        hog = [asyncio.ensure_future(timed(move(pool, "hog"))) for _ in range(2)]
        await running(pool, 2)
        _, waited = await timed(move(pool, "player", SHORT))
        done, pending = await asyncio.wait(hog, timeout=20,
                                           return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        return waited, [task.result()[1] for task in done], len(pending)

    waited, stopped, still_thinking = in_pool(2, body)
    assert waited < 20
    assert len(stopped) == 1 and stopped[0] < 20  # one of the hog's searches was cut short
    assert still_thinking == 1  # the other kept its worker


def test_on_one_worker_a_search_gives_way_after_its_slice():
    async def body(pool):
        hog = asyncio.ensure_future(timed(move(pool, "hog")))
        await running(pool, 1)
        _, waited = await timed(move(pool, "player", SHORT))
        return waited, (await hog)[1]

    waited, hog_took = in_pool(1, body, slice_s=0.5)
    assert hog_took < 20 and waited < 20


def test_a_cancelled_asker_frees_its_worker():
    async def body(pool):
        asker = asyncio.ensure_future(move(pool, "gone"))
        await running(pool, 1)
        asker.cancel()
        _, waited = await timed(move(pool, "gone", SHORT))  # same owner: no slice applies
        return waited

    assert in_pool(1, body) < 20


def test_jobs_start_by_priority_then_by_the_owner_served_longest_ago():
    async def body(pool):
        first = asyncio.ensure_future(move(pool, "a"))
        await running(pool, 1)
        finished: list[str] = []

        async def tagged(name, job):
            await job
            finished.append(name)

        queued = [asyncio.ensure_future(tagged(name, job)) for name, job in (
            ("analysis", analysis(pool, "c", SHORT)),
            ("a1", move(pool, "a", SHORT)),
            ("a2", move(pool, "a", SHORT)),
            ("b1", move(pool, "b", SHORT)),
        )]
        await asyncio.sleep(0.2)
        first.cancel()
        await asyncio.gather(*queued)
        return finished

    # a's search was served last: b's move goes first, then a's in order, analysis last.
    assert in_pool(1, body, preempt=False) == ["b1", "a1", "a2", "analysis"]


def test_a_runaway_job_is_killed_and_its_worker_replaced():
    async def body(pool):
        with pytest.raises(JobFailed, match="ran past"):
            await move(pool, "runaway", LONG, limit_s=1.0)
        return await move(pool, "next", SHORT)

    assert in_pool(1, body) in GAME.new_initial_state().legal_actions()
