"""A computer player behind a pipe, so that two installations of this project can play.

    /path/to/other/.venv/bin/python benchmarks/bridge.py AGENT [--seed N]

Run by an installation's own Python (today's, or an older commit's in a worktree of its own),
it plays with whatever ``cathedral`` that Python imports, so the agent is that version's. It
speaks the record format (``cathedral.core.record.Record``), which every version since the
first reads and writes alike:

- first it writes one line, ``{"ready": true, "agent": ..., "version": ..., "commit": ...}``
  (the commit of the source tree it imported, where git can tell, ``-dirty`` if changed);
- then, for each line it reads, a record as JSON on one line whose player is to move, it
  writes ``{"action": NOTATION, "seconds": S}``; or ``{"error": MESSAGE}`` when the record
  does not replay or the agent fails, and goes on reading;
- a record that does not continue the one before starts a new game (the agent forgets what
  it kept between moves); an empty line or the end of input ends the bridge.

Only what the oldest versions already had is used here (``load_agent``, ``Record``,
``final_state``), since this file is run by them. ``benchmarks/versus.py`` drives two bridges.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def source_commit() -> str | None:
    """Returns the short commit of the git tree ``cathedral`` was imported from, if any
    (``-dirty`` when it has changes not committed)."""
    import cathedral

    try:
        out = subprocess.run(
            ["git", "-C", str(Path(cathedral.__file__).parent), "describe", "--always", "--dirty",
             "--abbrev=7"],
            capture_output=True, text=True, timeout=10, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def serve(agent_spec: str, seed: int, lines, write) -> None:
    """Answers records read from ``lines`` with the agent's moves through ``write``."""
    import cathedral
    from cathedral.ai import load_agent
    from cathedral.core.record import Record

    write({"ready": True, "agent": agent_spec, "version": cathedral.__version__,
           "commit": source_commit()})
    agent = None
    played: list[str] = []
    for line in lines:
        if not line.strip():
            break
        try:
            record = Record.from_json(line)
            state = record.final_state()
            if agent is None:
                agent = load_agent(agent_spec, state.game, seed=seed)
            elif record.actions[: len(played)] != played:
                agent.reset()  # another game: nothing kept from the last one applies
            played = list(record.actions)
            began = time.perf_counter()
            action = agent.choose(state)
            write({"action": state.action_to_string(action),
                   "seconds": time.perf_counter() - began})
        except Exception as exc:  # any failure is the driver's to report, with its cause
            write({"error": f"{type(exc).__name__}: {exc}"})
    if agent is not None and hasattr(agent, "close"):  # versions before processes lack it
        agent.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("agent", help="a level, agent name or spec (hard, alphabeta:depth=3)")
    parser.add_argument("--seed", type=int, default=0, help="the agent's seed")
    args = parser.parse_args()
    out = sys.stdout

    def write(message: dict) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    sys.stdout = sys.stderr  # anything else a version prints must not reach the pipe
    serve(args.agent, args.seed, sys.stdin, write)


if __name__ == "__main__":
    main()
