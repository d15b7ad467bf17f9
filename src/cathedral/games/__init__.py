"""The games, registered by name with their presentation and evaluation (see
``cathedral.core.hooks``); each is imported only when first used.

The package is also the callable ``cathedral.games()`` (the registered names): the contract
names that function after the package, and a plain function in its place would hide the
package, so that ``import cathedral.games.classic as classic`` failed.
"""

import sys
import types

from cathedral.core.registry import games as _names
from cathedral.core.registry import register

register(
    "allmer",
    "cathedral.games.allmer.game:AllmerGame",
    presentation="cathedral.games.allmer.view:AllmerView",
    evaluation="cathedral.games.allmer.heuristic:AllmerEvaluation",
)
register(
    "classic",
    "cathedral.games.classic.game:ClassicGame",
    presentation="cathedral.games.classic.view:ClassicView",
    evaluation="cathedral.games.classic.heuristic:ClassicEvaluation",
)
register(
    "red",
    "cathedral.games.red.game:RedGame",
    presentation="cathedral.games.red.view:RedView",
    evaluation="cathedral.games.red.heuristic:RedEvaluation",
)


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        """Returns the registered game names, sorted."""
        return _names()


sys.modules[__name__].__class__ = _GamesPackage
