"""Simon Allmer's Cathedral ("The Conversion"), registered as ``allmer``.

Modules, each importing only those below it: ``game`` (the Game), ``view`` (text boards,
pictures, move logs), ``heuristic`` (search hooks), ``serialize`` (state JSON read back),
``perft`` (move-path counts), ``state`` (the turn rules and the State), ``notation``,
``observation``, ``movegen`` (the action numbering and the step rules on a bare board),
``geometry`` (points, lines and fields).
"""

from cathedral.games.allmer.game import AllmerGame
from cathedral.games.allmer.movegen import NUM_ACTIONS, STOP
from cathedral.games.allmer.notation import Step
from cathedral.games.allmer.state import AllmerState, Termination

__all__ = ["NUM_ACTIONS", "STOP", "AllmerGame", "AllmerState", "Step", "Termination"]
