"""Where the terminal's records go, and a record turned back into a game to go on with.

A record stores the seats (``players``) and, in ``meta``, the seed the session drew chance
outcomes and computer players' random choices from; both come back on resume.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cathedral.core.contract import State
from cathedral.core.errors import RecordError
from cathedral.core.record import Record


def records_dir() -> Path:
    """Returns ``$CATHEDRAL_RECORDS``, else ``$XDG_DATA_HOME/cathedral/records`` (by default
    ``~/.local/share/cathedral/records``)."""
    base = os.environ.get("CATHEDRAL_RECORDS")
    if base:
        return Path(base).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "cathedral" / "records"


def default_record_path(game_name: str) -> Path:
    """Returns a fresh file name under ``records_dir()`` for a game starting now."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return records_dir() / f"{game_name}-{stamp}-{os.getpid()}.json"


@dataclass
class Resumed:
    """A recorded game ready to go on: its position, the seats and seed it was played with."""

    state: State
    players: list[str]
    seed: int | None
    record: Record


def read_record(path: str | Path) -> Record:
    """Reads a record file.

    Raises:
        RecordError: the file cannot be read, is not UTF-8 text, or is not a record.
    """
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"cannot read {str(path)!r}: not UTF-8 text (byte {exc.start}); "
                          "expected a JSON record written by 'cathedral play'") from None
    return Record.from_json(text)


def resume_game(path: str | Path) -> Resumed:
    """Returns the unfinished game recorded in ``path``, replayed.

    Raises:
        RecordError: the file is not a record, does not replay, or its game is over.
    """
    record = read_record(path)
    state = record.final_state()
    result = record.result or {}
    if state.is_terminal() or "resigned" in result:
        raise RecordError(f"the game in {str(path)!r} is over ({result.get('text') or 'finished'})"
                          "; nothing to resume (see it with 'cathedral replay')")
    seed = record.meta.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        seed = None
    players = list(record.players)
    if len(players) != state.game.num_players:
        players = ["?"] * state.game.num_players
    return Resumed(state=state, players=players, seed=seed, record=record)
