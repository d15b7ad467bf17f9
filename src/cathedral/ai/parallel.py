"""Searches on several cores: worker processes that each hold their own copy of an agent.

A ``Helpers`` is a small team of processes started once per agent (forked where the system
can, so they start in milliseconds with everything imported) and kept across moves, so each
keeps what its copy learnt (a transposition table). The agent deals a decision out among
them: alpha-beta splits the root's actions, rollouts split their passes (see the agents).
Each worker answers over its own pipe, and may report on the way (a completed depth) before
it answers, so the agent can merge and stream progress while they search.

Shared with every worker: ``bounds``, one value per search depth that a worker raises when it
proves a root action worth that much, so the others can cut against it (root splitting with a
shared alpha), and ``stop``, which the agent sets when the answer is settled.

A worker that dies or errs makes its call raise ``HelpersFailed``; the agent then searches on
its own, so a decision is never lost to a broken process.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

DEPTHS = 128  # the deepest iteration a shared bound is kept for


class HelpersFailed(RuntimeError):
    """A worker died, erred or could not start."""


def available_cores(workers: int | None) -> int:
    """Returns how many processes a search with ``workers`` should use (None: every core)."""
    if workers is None:
        return max(1, os.cpu_count() or 1)
    return max(1, workers)


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class Shared:
    """What every worker sees: per-depth bounds and the stop flag."""

    def __init__(self, context) -> None:
        self.bounds = context.Array("d", DEPTHS)
        self.flag = context.Value("b", 0, lock=False)
        self.clear()

    def clear(self) -> None:
        with self.bounds.get_lock():
            self.bounds[:] = [-math.inf] * DEPTHS
        self.flag.value = 0

    def bound(self, depth: int) -> float:
        return self.bounds[depth] if depth < DEPTHS else -math.inf

    def raise_bound(self, depth: int, value: float) -> None:
        if depth >= DEPTHS:
            return
        with self.bounds.get_lock():
            if value > self.bounds[depth]:
                self.bounds[depth] = value

    def stop(self) -> None:
        self.flag.value = 1

    def stopped(self) -> bool:
        return bool(self.flag.value)


def _serve(conn: Connection, factory: type, seed: int | None, kwargs: dict,
           shared: Shared) -> None:
    """A worker's life: build the agent, then answer calls until the pipe closes."""
    # Ctrl-C in a terminal reaches the whole process group: the agent that owns this worker
    # decides what an interrupt means, the worker just ends with its pipe.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    agent = factory(seed=seed, **kwargs)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        method, args = message
        try:
            try:
                answer = getattr(agent, method)(*args, shared=shared,
                                                report=lambda item: conn.send(("report", item)))
            except OSError:
                raise
            except Exception as exc:  # the agent falls back to searching alone
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
            else:
                conn.send(("answer", answer))
        except OSError:  # the agent has gone (ended the team, or died): so does the worker
            return


class Helpers:
    """``count`` worker processes, each with an agent ``factory(seed=..., **kwargs)``."""

    def __init__(self, factory: type, kwargs: dict, count: int, seed: int | None) -> None:
        context = _context()
        self._owner = os.getpid()  # a forked worker's copy of this object must not close it
        self.shared = Shared(context)
        self._conns: list[Connection] = []
        self._procs = []
        try:
            for i in range(count):
                ours, theirs = context.Pipe()
                proc = context.Process(
                    target=_serve, name=f"cathedral-search-{i}", daemon=True,
                    args=(theirs, factory, None if seed is None else seed * 7919 + i, kwargs,
                          self.shared),
                )
                proc.start()
                theirs.close()
                self._conns.append(ours)
                self._procs.append(proc)
        except Exception as exc:
            self.close()
            raise HelpersFailed(f"could not start search processes: {exc}") from exc

    def __len__(self) -> int:
        return len(self._conns)

    def call(self, method: str | list[str],
             args: list[tuple]) -> Iterator[tuple[int, str, Any]]:
        """Sends worker ``i`` the call ``method(*args[i])`` (or ``method[i](*args[i])``, a
        method each) and yields ``(i, kind, item)`` as they come: ``"report"`` items on the
        way, then one ``"answer"`` per worker.

        Raises:
            HelpersFailed: a worker died or its agent raised (the others are stopped and
                drained first, so the team stays usable).

        A call left unfinished (an interrupt, an error in the caller) ends the team: what its
        workers still had to say would otherwise be read as the next call's answers.
        """
        if self.closed:
            raise HelpersFailed("the search processes have been ended")
        self.shared.clear()
        pending = set(range(len(args)))
        try:
            methods = [method] * len(args) if isinstance(method, str) else method
            for i, (name, arg) in enumerate(zip(methods, args, strict=True)):
                self._conns[i].send((name, arg))
            failure = None
            while pending:
                for conn in wait([self._conns[i] for i in pending]):
                    i = self._conns.index(conn)
                    try:
                        kind, item = conn.recv()
                    except (EOFError, OSError):
                        raise HelpersFailed(f"search process {i} died") from None
                    if kind == "error":
                        failure = failure or f"search process {i}: {item}"
                        self.shared.stop()
                        pending.discard(i)
                        continue
                    if kind == "answer":
                        pending.discard(i)
                    if failure is None:
                        yield i, kind, item
        except (OSError, ValueError) as exc:
            raise HelpersFailed(f"a search process is gone: {exc}") from exc
        finally:
            if pending:
                self.close()
        if failure is not None:
            raise HelpersFailed(failure)

    @property
    def closed(self) -> bool:
        return not self._conns

    def close(self) -> None:
        """Ends the workers (they also end when this process does)."""
        if os.getpid() != self._owner:
            return
        if self._conns:
            self.shared.stop()  # a worker still searching ends within a node
        for conn in self._conns:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        for proc in self._procs:
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2.0)
        self._conns, self._procs = [], []


class HelpersOwner:
    """A mixin for agents that deal decisions out to ``Helpers`` (started on first use)."""

    workers: int | None = 1
    _helpers: Helpers | None = None
    _helpers_failed = False

    def helpers(self, factory: type, kwargs: dict, seed: int | None) -> Helpers | None:
        """Returns the running team, starting it first; None when one core is all there is
        or the processes could not start (the agent then searches alone)."""
        count = available_cores(self.workers)
        if count < 2 or self._helpers_failed:
            return None
        if self._helpers is not None and self._helpers.closed:
            self._helpers = None  # ended by an interrupted call: start afresh
        if self._helpers is None:
            try:
                self._helpers = Helpers(factory, {**kwargs, "workers": 1}, count, seed)
            except HelpersFailed:
                self._helpers_failed = True
                return None
        return self._helpers

    def helpers_failed(self) -> None:
        """Forgets a broken team (the agent searches alone from now on)."""
        if self._helpers is not None:
            self._helpers.close()
        self._helpers = None
        self._helpers_failed = True

    def close(self) -> None:
        if self._helpers is not None:
            self._helpers.close()
            self._helpers = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


Report = Callable[[Any], None]

__all__ = ["Helpers", "HelpersFailed", "HelpersOwner", "Shared", "available_cores"]
