"""Allmer's Cathedral shown to people: text boards (``render``), the picture graphical front
ends draw (``picture``) and the words of a move log (``narrate``), registered as the game's
``Presentation``."""

from __future__ import annotations

from cathedral.core.hooks import Presentation
from cathedral.games.allmer.state import AllmerState
from cathedral.games.allmer.view.narrate import describe
from cathedral.games.allmer.view.picture import picture
from cathedral.games.allmer.view.render import prompt_hint, text_board


class AllmerView(Presentation):
    """Allmer's presentation (see the modules of this package)."""

    def text(self, state: AllmerState) -> str:
        return text_board(state, color=False)

    def render(self, state: AllmerState, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        # A terminal (a width given) marks the last step even without colours.
        return text_board(state, color=color, mark_last=width is not None, width=width)

    def prompt_hint(self, state: AllmerState) -> str:
        return prompt_hint(state)

    def describe_action(self, state: AllmerState, action: int) -> str:
        return describe(state, action)

    def picture(self, state: AllmerState) -> dict:
        return picture(state)
