"""The Red Cathedral (Devir 2020): the complete game for 2 to 4 players, on a component data
set that is a documented reconstruction (see ``data/reconstructed.json``)."""

from cathedral.games.red.game import RedGame

__all__ = ["RedGame"]
