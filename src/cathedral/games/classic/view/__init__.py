"""Classic Cathedral shown to people: text boards (``render``), the picture graphical front
ends draw (``picture``) and the words of a move log (``narrate``), registered as the game's
``Presentation``."""

from __future__ import annotations

from cathedral.core.hooks import Presentation
from cathedral.games.classic.state import ClassicState
from cathedral.games.classic.view.narrate import describe
from cathedral.games.classic.view.picture import picture
from cathedral.games.classic.view.render import prompt_hint, render


class ClassicView(Presentation):
    """Classic's presentation (see the modules of this package)."""

    def text(self, state: ClassicState) -> str:
        return render(state)

    def render(self, state: ClassicState, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        return render(state, color=color, width=width)

    def prompt_hint(self, state: ClassicState) -> str:
        return prompt_hint(state)

    def describe_action(self, state: ClassicState, action: int) -> str:
        return describe(state, action)

    def picture(self, state: ClassicState) -> dict:
        return picture(state)
