"""Thinking off the event loop: the server's worker processes and the order they work in.

A ``Pool`` is a fixed number of worker processes (``worker.main``) and one queue. Every
job has a priority class and an owner (the address that created the game, or that asked):

- **Priority.** A computer's move in a game being played (``MOVE``) comes before a hint
  for a player in a game against the computer (``HINT``), which comes before the analysis
  of finished or uploaded games and the replays behind pictures and uploads (``ANALYSIS``).
- **Fair shares.** Within a class the owner with the fewest jobs running goes first, then
  the owner served longest ago, then the oldest job: an address with a hundred
  computer-against-computer tables gets one turn in the rotation, not a hundred.
- **Stopping, not waiting.** Every search here is anytime: it always has a best move so
  far. So when a job waits and no worker is free, a running search is stopped early rather
  than let the job wait behind it: any job of a lower class at once, a job of an owner
  holding more than its share of the workers at once, and otherwise one that has thought
  for ``slice_s`` for another owner. A stopped computer move is still played (the best it
  found); a stopped hint answers with what it knows. This is why a priority queue alone
  was not enough (one ``max`` search would hold a worker for its whole time) and why
  reserved workers were not chosen (they would sit idle while games wait). One address's
  work therefore delays another owner's computer move by at most ``slice_s`` plus the time
  a search takes to notice its stop flag.
- **A bounded share for analysis:** it never holds more than ``analysis_share`` workers.
- **Runaways end.** A job still running ``limit_s`` after it started is killed with its
  process, which is replaced; the job fails (a computer move then falls back to a random
  legal move, as for any failed player).
- **Work whose asker has gone is cancelled**: cancelling the awaiting task takes a queued
  job out of the queue and stops a running one; its answer is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cathedral.server import worker
from cathedral.server.errors import Invalid, Malformed, Unavailable
from cathedral.server.logs import event

log = logging.getLogger("cathedral.server")

MOVE, HINT, ANALYSIS = 0, 1, 2
SLICE_S = 2.0
NICE = 10  # workers run below the event loop: pages and moves first, thinking after


class JobFailed(Unavailable):
    """A job that failed in its worker, or whose worker died or ran away (a 503 if nothing
    better is said)."""


@dataclass(eq=False)
class Job:
    task: str
    args: tuple
    priority: int
    owner: str
    limit_s: float
    progress: Callable[[Any], None] | None
    future: asyncio.Future
    order: int
    started: float | None = None
    worker: _Worker | None = None
    stopping: bool = False
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Worker:
    process: Any
    connection: Any
    stop: Any  # a shared time (monotonic): from then on the running search ends early
    born: float
    job: Job | None = None
    alive: bool = True


@dataclass
class Pool:
    """Worker processes and their queue (see the module docstring)."""

    name: str
    size: int
    preempt: bool = True
    slice_s: float = SLICE_S
    nice: int = NICE
    analysis_share: int = 0  # 0: half the workers, at least one
    workers: list[_Worker] = field(default_factory=list)
    queue: list[Job] = field(default_factory=list)
    closing: bool = False

    def __post_init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._order = itertools.count()
        self._starts = itertools.count()
        self._recheck: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._early_deaths = 0  # workers in a row that died young: the next waits longer
        self._served: dict[str, int] = {}  # owner -> when its last job started (a count)
        if self.analysis_share <= 0:
            self.analysis_share = max(1, self.size // 2)

    # ----- processes ----------------------------------------------------------------------

    def start(self, warm: bool = False) -> None:
        """Binds the pool to the running loop; with ``warm`` its processes start now (the
        first job need not wait for them), else with the first job."""
        self._loop = asyncio.get_running_loop()
        if warm:
            self._fill()

    def _fill(self) -> None:
        while len(self.workers) < self.size:
            self.workers.append(self._spawn())

    def _spawn(self) -> _Worker:
        stop = self._context.RawValue("d", math.inf)
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=worker.main, args=(theirs, stop, os.getpid(), self.nice),
            name=f"cathedral-{self.name}", daemon=False)
        process.start()
        theirs.close()
        found = _Worker(process, ours, stop, time.monotonic())
        # A thread per worker waits on its pipe (a pipe handed to the event loop would be
        # made non-blocking by uvloop, which multiprocessing's reads do not survive).
        threading.Thread(target=self._listen, args=(found,), daemon=True,
                         name=f"cathedral-{self.name}-pipe").start()
        return found

    def _listen(self, found: _Worker) -> None:
        while True:
            try:
                message = found.connection.recv()
            except (EOFError, OSError, ValueError, TypeError) as exc:
                message = exc
            with contextlib.suppress(RuntimeError):  # the loop has closed
                self._loop.call_soon_threadsafe(self._answered, found, message)
            if isinstance(message, Exception):
                return

    def _retire(self, found: _Worker, *, kill: bool) -> None:
        found.alive = False
        if kill and found.process.is_alive():
            found.process.kill()
        with contextlib.suppress(Exception):
            found.connection.close()
        if found in self.workers:
            self.workers.remove(found)

    async def close(self) -> None:
        """Ends every worker: a job under way is abandoned (its game is picked up again on
        the next start)."""
        self.closing = True
        if self._recheck is not None:
            self._recheck.cancel()
        for job in self.queue:
            if not job.future.done():
                job.future.cancel()
        self.queue.clear()
        for found in list(self.workers):
            if found.job is not None and not found.job.future.done():
                found.job.future.cancel()
            found.stop.value = time.monotonic()  # a search under way ends at once
            with contextlib.suppress(Exception):
                found.connection.send(None)
        deadline = time.monotonic() + 2.0
        for found in list(self.workers):
            while found.process.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            self._retire(found, kill=True)
            found.process.join(timeout=2)

    # ----- jobs ---------------------------------------------------------------------------

    async def run(self, task: str, *args: Any, priority: int, owner: str, limit_s: float,
                  progress: Callable[[Any], None] | None = None) -> Any:
        """Runs ``worker.TASKS[task](*args)`` in a worker and returns its answer.

        Raises:
            Malformed, Invalid: the worker refused the job's input (an uploaded record).
            JobFailed: the job failed, its worker died, or it ran past ``limit_s``.
        """
        if self.closing:
            raise JobFailed(f"{task}: the server is stopping")
        if self._loop is None:
            self.start()
        if not self.workers:
            self._fill()
        job = Job(task, args, priority, owner, limit_s, progress,
                  self._loop.create_future(), next(self._order))
        self.queue.append(job)
        self._schedule()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._cancel(job)
            raise

    def _cancel(self, job: Job) -> None:
        if job in self.queue:
            self.queue.remove(job)
        elif job.worker is not None and job.worker.job is job:
            self._stop(job, "cancelled")
        self._schedule()

    def _stop(self, job: Job, why: str) -> None:
        if not job.stopping and job.worker is not None:
            job.stopping = True
            job.worker.stop.value = time.monotonic()
            event("stop", pool=self.name, task=job.task, why=why,
                  after_s=round(time.monotonic() - (job.started or 0.0), 3))

    def _running(self) -> list[Job]:
        return [w.job for w in self.workers if w.job is not None]

    def _next(self, running: list[Job]) -> Job | None:
        """The job to start next: by class, then the owner with the fewest running, then
        the owner served longest ago, then age; analysis only while it holds fewer than its
        share."""
        counts: dict[str, int] = {}
        for job in running:
            counts[job.owner] = counts.get(job.owner, 0) + 1
        analysing = sum(job.priority == ANALYSIS for job in running)
        choices = [job for job in self.queue
                   if job.priority != ANALYSIS or analysing < self.analysis_share]
        if not choices:
            return None
        served = self._served
        return min(choices, key=lambda j: (j.priority, counts.get(j.owner, 0),
                                           served.get(j.owner, -1), j.order))

    def _schedule(self) -> None:
        """Starts what can start, then stops a running search if a job waits for one."""
        if self.closing:
            return
        while True:
            idle = next((w for w in self.workers if w.job is None and w.alive), None)
            if idle is None:
                break
            job = self._next(self._running())
            if job is None:
                break
            self._start(idle, job)
        if self.preempt:
            self._preempt()

    def _start(self, found: _Worker, job: Job) -> None:
        self.queue.remove(job)
        self._served.pop(job.owner, None)
        self._served[job.owner] = next(self._starts)
        if len(self._served) > 10_000:  # forget the owners served longest ago
            del self._served[next(iter(self._served))]
        found.job, job.worker = job, found
        job.started = time.monotonic()
        found.stop.value = math.inf  # here, before the job is sent: no stop is ever lost
        try:
            found.connection.send((job.task, job.args))
        except (OSError, ValueError) as exc:
            self._died(found, f"could not send a job: {exc}")
            return
        job.timer = self._loop.call_later(job.limit_s, self._overran, job)

    def _preempt(self) -> None:
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        running = self._running()
        if not self.queue or len(running) < len(self.workers):
            return
        waiting = self._next(running)  # the job that gets the next free worker
        if waiting is None or any(job.stopping for job in running):
            return  # a worker is about to be free: the waiting job gets it
        owners = {job.owner for job in running} | {job.owner for job in self.queue
                                                   if job.priority == waiting.priority}
        share = math.ceil(len(self.workers) / max(1, len(owners)))
        counts: dict[str, int] = {}
        for job in running:
            counts[job.owner] = counts.get(job.owner, 0) + 1
        now = time.monotonic()
        lower = [j for j in running if j.priority > waiting.priority]
        if lower:
            self._stop(max(lower, key=lambda j: j.started), "a more urgent job waits")
            return
        if waiting.priority == ANALYSIS:
            return  # analyses take turns only as workers free up
        others = [j for j in running if j.owner != waiting.owner
                  and j.priority == waiting.priority]
        greedy = [j for j in others if counts[j.owner] > share]
        if greedy:
            self._stop(min(greedy, key=lambda j: j.started), "over its owner's share")
            return
        if counts.get(waiting.owner, 0) > 0 or not others:
            return
        oldest = min(others, key=lambda j: j.started)
        due = oldest.started + self.slice_s
        if now >= due:
            self._stop(oldest, "its slice is over and another owner waits")
        else:
            self._recheck = self._loop.call_later(due - now, self._schedule)

    # ----- answers ------------------------------------------------------------------------

    def _answered(self, found: _Worker, message: Any) -> None:
        if not found.alive:
            return
        if isinstance(message, Exception):
            self._died(found, f"closed its pipe ({type(message).__name__})")
            return
        kind, data = message
        job = found.job
        if job is None:
            return
        if kind == "progress":
            if job.progress is not None and not job.future.done():
                try:
                    job.progress(data)
                except Exception:  # a listener's failure is not the job's
                    log.exception("a progress listener of %s failed", job.task)
            return
        self._finish(found, job)
        if not job.future.done():
            if kind == "done":
                job.future.set_result(data)
            elif kind == "refused":
                malformed, message = data
                job.future.set_exception(Malformed(message) if malformed else Invalid(message))
            else:
                job.future.set_exception(JobFailed(f"{job.task} failed: {data}"))
        self._schedule()

    def _finish(self, found: _Worker, job: Job) -> None:
        found.job, job.worker = None, None
        if job.timer is not None:
            job.timer.cancel()

    def _overran(self, job: Job) -> None:
        found = job.worker
        if found is None or found.job is not job:
            return
        log.warning("%s job %s ran past its %.0f s: its worker is killed", self.name,
                    job.task, job.limit_s)
        self._died(found, f"ran past its {job.limit_s:.0f} s")

    def _died(self, found: _Worker, why: str) -> None:
        """A worker that ended (killed, out of memory) or ran away: its job fails, a fresh
        process takes its place."""
        if not found.alive:
            return
        job = found.job
        self._retire(found, kill=True)
        if job is not None:
            self._finish(found, job)
            if not job.future.done():
                job.future.set_exception(JobFailed(f"{job.task}: its worker {why}"))
        if self.closing:
            return
        # A worker that cannot even start (a broken install) must not respawn in a loop.
        young = time.monotonic() - found.born < 10.0
        self._early_deaths = self._early_deaths + 1 if young else 0
        delay = min(30.0, 0.5 * 2 ** self._early_deaths) if young else 0.0
        event("worker_replaced", pool=self.name, why=why, after_s=delay)
        self._loop.call_later(delay, self._replace)

    def _replace(self) -> None:
        if not self.closing and len(self.workers) < self.size:
            self.workers.append(self._spawn())
            self._schedule()
