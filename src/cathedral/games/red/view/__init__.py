"""The Red Cathedral shown to people: the full text board (``render``), the terminal's screen
fitted to its size (``screen``), the picture graphical front ends draw (``picture``) and the
words of a move log (``narrate``), registered as the game's ``Presentation``."""

from __future__ import annotations

from cathedral.core.hooks import Presentation
from cathedral.games.red.state import RedState
from cathedral.games.red.view.narrate import describe
from cathedral.games.red.view.picture import picture
from cathedral.games.red.view.render import prompt_hint, render_text
from cathedral.games.red.view.screen import screen


class RedView(Presentation):
    """Red's presentation (see the modules of this package)."""

    def text(self, state: RedState) -> str:
        return render_text(state, color=False)

    def render(self, state: RedState, *, color: bool = False, width: int | None = None,
               height: int | None = None) -> str:
        if width is None:
            return render_text(state, color=color)
        return screen(state, color=color, width=width, height=height)

    def prompt_hint(self, state: RedState) -> str:
        return prompt_hint(state)

    def describe_action(self, state: RedState, action: int) -> str:
        return describe(state, action)

    def picture(self, state: RedState) -> dict:
        return picture(state)
