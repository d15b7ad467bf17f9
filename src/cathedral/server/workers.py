"""Computer players in worker processes, never on the event loop.

Two pools: a small one for the instant players (``random``, ``easy``/``greedy``) and one of
``workers`` processes for searches, so that a slow ``hard`` move at one table never makes an
instant player wait. A worker gets the state as JSON and the player's name, and answers an
action number (or a hint). Workers start with ``spawn``: the server's threads and sockets stay
out of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

QUICK = frozenset({"random", "easy", "greedy"})


def _state(game_name: str, params: dict, state_json: str):
    import cathedral

    return cathedral.load(game_name, **params).state_from_json(state_json)


def choose_action(game_name: str, params: dict, state_json: str, kind: str, seed: int) -> int:
    """Returns the action the computer player ``kind`` picks in this state (in a worker)."""
    from cathedral.ai import load_agent

    state = _state(game_name, params, state_json)
    agent = load_agent(kind, state.game, seed=seed)
    try:
        return int(agent.choose(state))
    finally:
        agent.close()


_PROGRESS = None  # the queue a worker reports a search's progress into (see Workers)


def analyse(game_name: str, params: dict, state_json: str, level: str, seed: int,
            request: int | None = None) -> dict:
    """Returns a hint for the player to move (in a worker): ``cathedral.ai.analyse``'s
    fields (action, move, pv, expected 0..1 per player, proven, solved, depth, nodes,
    seconds, level, final) plus ``values``, the same in the scale of ``returns()`` (-1..1).
    With ``request``, each deeper result is reported on the way, tagged with it."""
    from cathedral.ai import analyse as analyse_position

    def shaped(found: dict) -> dict:
        found["values"] = [round(2 * e - 1, 4) for e in found["expected"]]
        return found

    progress = None
    if request is not None and _PROGRESS is not None:
        queue = _PROGRESS

        def progress(partial) -> None:
            queue.put((request, shaped(partial.to_dict())))

    state = _state(game_name, params, state_json)
    return shaped(analyse_position(state, level, seed=seed, progress=progress).to_dict())


def _start_worker(parent: int, progress) -> None:
    """A worker's start: keep the progress queue, and end when the server is gone (even
    killed with -9: no orphans left)."""
    import threading
    import time

    global _PROGRESS
    _PROGRESS = progress

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(1.0)

    threading.Thread(target=watch, name="cathedral-parent-watch", daemon=True).start()


def _warm() -> int:
    import cathedral.ai  # noqa: F401  - imports the games and agents once per worker

    return os.getpid()


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2))


class Workers:
    """The AI pools; ``await workers.choose(...)`` and ``await workers.hint(...)``."""

    def __init__(self, workers: int | None = None) -> None:
        self.size = workers or default_workers()
        self._context = multiprocessing.get_context("spawn")
        self._quick: ProcessPoolExecutor | None = None
        self._search: ProcessPoolExecutor | None = None
        self._progress = None
        self._listeners: dict[int, Callable[[dict], None]] = {}
        self._requests = itertools.count(1)
        self._reader: threading.Thread | None = None

    def _pool(self, quick: bool) -> ProcessPoolExecutor:
        if self._progress is None:
            self._progress = self._context.Queue()
        args = (os.getpid(), self._progress)
        if quick:
            if self._quick is None:
                self._quick = ProcessPoolExecutor(1, mp_context=self._context,
                                                  initializer=_start_worker, initargs=args)
            return self._quick
        if self._search is None:
            self._search = ProcessPoolExecutor(self.size, mp_context=self._context,
                                               initializer=_start_worker, initargs=args)
        return self._search

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Starts the thread that hands the workers' progress reports to the event loop."""
        if self._reader is not None:
            return
        queue = self._progress

        def read() -> None:
            while True:
                item = queue.get()
                if item is None:
                    return
                request, found = item
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self._deliver, request, found)

        self._reader = threading.Thread(target=read, name="cathedral-progress", daemon=True)
        self._reader.start()

    def _deliver(self, request: int, found: dict) -> None:
        listener = self._listeners.get(request)
        if listener is not None:
            listener(found)

    def warm(self) -> None:
        """Starts the processes now (the first move need not wait for them)."""
        self._pool(True).submit(_warm)
        for _ in range(self.size):
            self._pool(False).submit(_warm)

    async def _run(self, quick: bool, fn, *args):
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(quick), fn, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more.
            if quick:
                self._quick = None
            else:
                self._search = None
            return await loop.run_in_executor(self._pool(quick), fn, *args)

    async def choose(self, game_name: str, params: dict, state_json: str, kind: str,
                     seed: int) -> int:
        base = kind.partition(":")[0].strip()
        return await self._run(base in QUICK, choose_action, game_name, params, state_json,
                               kind, seed)

    async def hint(self, game_name: str, params: dict, state_json: str, level: str,
                   seed: int, progress: Callable[[dict], None] | None = None) -> dict:
        """Analyses a position; ``progress`` (on the event loop) gets each deeper result."""
        if progress is None:
            return await self._run(level in QUICK, analyse, game_name, params, state_json,
                                   level, seed)
        request = next(self._requests)
        self._pool(level in QUICK)
        self._listen(asyncio.get_running_loop())
        self._listeners[request] = progress
        try:
            return await self._run(level in QUICK, analyse, game_name, params, state_json,
                                   level, seed, request)
        finally:
            self._listeners.pop(request, None)

    def close(self) -> None:
        """Stops the workers now: a search in progress is abandoned (its game is picked up
        again on the next start)."""
        for pool in (self._quick, self._search):
            if pool is not None:
                processes = list((getattr(pool, "_processes", None) or {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for process in processes:
                    if process.is_alive():
                        process.terminate()
                for process in processes:
                    process.join(timeout=2)
        self._quick = self._search = None
        if self._progress is not None:
            if self._reader is not None:
                self._progress.put(None)  # the reader's signal to stop, then it is joined
                self._reader.join(timeout=5)
            self._progress.close()
            self._progress = None
        self._reader = None
