"""A game in the terminal: seats (humans and computer players), the board, move entry and
the commands a human may type, the record written on every way out, and resuming one.

The command line (``cli``) builds a ``Session`` and runs it; tests may drive one directly
with other input and output streams.

- ``session``: the game loop, the prompt's commands, what happened since a player's last move.
- ``records``: where records go, and a record turned back into a game to resume.
- ``lineedit``: reading a line (readline's history and Tab completion where there is one).
- ``listing``: the ``moves`` list, filtered by whole words, in columns, a page at a time.
"""

from __future__ import annotations

from cathedral.terminal.records import records_dir, resume_game
from cathedral.terminal.session import HUMAN, Hangup, Session

__all__ = ["HUMAN", "Hangup", "Session", "records_dir", "resume_game"]
