"""Simon Allmer's Cathedral ("The Conversion"), registered as ``allmer``."""

from cathedral.games.allmer.game import AllmerGame
from cathedral.games.allmer.notation import Step
from cathedral.games.allmer.rules import NUM_ACTIONS, STOP
from cathedral.games.allmer.state import AllmerState, Termination

__all__ = ["NUM_ACTIONS", "STOP", "AllmerGame", "AllmerState", "Step", "Termination"]
