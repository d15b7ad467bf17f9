"""The step notation of Allmer's Cathedral, both ways.

A step is ``from-to`` plus a suffix: ``h3-h5`` walks, ``h4-h6A`` approaches, ``h4-h3W``
withdraws, ``f3-c6`` takes a passage (the board tells it is one), and ``stop`` ends a chain.
Output is always that canonical form. Parsing takes any case, spaces around the dash, and a
missing suffix when the position leaves only one reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cathedral.core.errors import AmbiguousActionError, IllegalActionError, NotationError
from cathedral.games.allmer.geometry import (
    COORDS,
    MOUTHS,
    PARTNER,
    parse_point,
    point_name,
)
from cathedral.games.allmer.movegen import (
    PASSAGE_BASE,
    STOP,
    decode_step,
    step_action,
)

if TYPE_CHECKING:
    from cathedral.games.allmer.state import AllmerState


def action_name(state: AllmerState, action: int) -> str:
    """Returns the notation of ``action`` in ``state``.

    Raises:
        IllegalActionError: the number is a step that leaves the board (it has no notation).
    """
    if action == STOP:
        return "stop"
    if action >= PASSAGE_BASE:
        mouth = MOUTHS[action - PASSAGE_BASE]
        return f"{point_name(mouth)}-{point_name(PARTNER[mouth])}"
    origin, direction, distance, kind = decode_step(action)
    ray = state._cfg.geo.rays[origin][direction]
    if distance > len(ray):
        raise IllegalActionError(
            f"action {action} is no step on this board: it leaves {point_name(origin)} "
            "off the lines"
        )
    landing = ray[distance - 1]
    text = f"{point_name(origin)}-{point_name(landing)}"
    if kind:
        return text + "W"
    board = state.board
    colour = board[origin] or state.player + 1
    if distance < len(ray) and board[ray[distance]] not in (0, colour):
        return text + "A"
    return text


@dataclass(frozen=True)
class Step:
    """A step as written, before any position is consulted (``Step.parse('h4-h6A')``).

    Attributes:
        origin: the starting point, or -1 for ``stop``.
        landing: the landing point, or -1 for ``stop``.
        suffix: ``"A"``, ``"W"`` or ``""`` (a walk, a passage, or a step whose kind the
            position decides).
    """

    origin: int
    landing: int
    suffix: str = ""

    @property
    def is_stop(self) -> bool:
        return self.origin < 0

    @classmethod
    def parse(cls, text: str) -> Step:
        """Reads ``from-to`` with an optional ``A``/``W``, or ``stop``, in any case.

        Raises:
            NotationError: the text is not of that form or names an unknown or off-board
                point.
        """
        raw = text.strip()
        if raw.lower() == "stop":
            return cls(-1, -1)
        parts = raw.split("-")
        if len(parts) != 2:
            raise _syntax_error(text)
        first, second = parts[0].strip(), parts[1].strip()
        suffix = ""
        if second[-1:].upper() in ("A", "W"):
            suffix, second = second[-1].upper(), second[:-1].strip()
        if not first or not second:
            raise _syntax_error(text)
        try:
            return cls(parse_point(first), parse_point(second), suffix)
        except ValueError as exc:
            raise NotationError(f"cannot read move {text!r}: {exc}") from None

    def __str__(self) -> str:
        if self.is_stop:
            return "stop"
        return f"{point_name(self.origin)}-{point_name(self.landing)}{self.suffix}"

    def __repr__(self) -> str:
        return f"Step.parse({str(self)!r})"


def _syntax_error(text: str) -> NotationError:
    return NotationError(
        f"cannot read move {text!r} (expected from-to with an optional A or W, "
        "such as h3-h5 or h4-h6A, or stop)"
    )


def parse_action(state: AllmerState, text: str) -> int:
    """Returns the legal action ``text`` names in ``state``.

    Raises:
        NotationError: the text does not parse, or names an unknown or off-board point.
        AmbiguousActionError: no suffix, and both an approach and a withdrawal land there.
        IllegalActionError: it parses but is not legal here; the message says why.
    """
    step = Step.parse(text)
    if step.is_stop:
        problem = state.step_problem(STOP)
        if problem:
            raise IllegalActionError(f"illegal move {text!r}: {problem}")
        return STOP
    origin, landing, suffix = step.origin, step.landing, step.suffix
    raw = f"{point_name(origin)}-{point_name(landing)}"

    def check(action: int) -> int:
        problem = state.step_problem(action)
        if problem:
            raise IllegalActionError(f"illegal move {text!r}: {problem}")
        return action

    if PARTNER.get(origin) == landing:
        if suffix:
            raise IllegalActionError(f"illegal move {text!r}: a passage never converts")
        return check(PASSAGE_BASE + MOUTHS.index(origin))
    geo = state._cfg.geo
    found = geo.direction_between(origin, landing)
    if found is None:
        (x0, y0), (x1, y1) = COORDS[origin], COORDS[landing]
        if origin == landing:
            why = "a step must leave its point"
        elif abs(x1 - x0) == abs(y1 - y0) and not geo.strong[origin]:
            why = f"no diagonal line passes through {point_name(origin)} (a weak point)"
        else:
            why = f"{point_name(landing)} is not on a line through {point_name(origin)}"
        raise IllegalActionError(f"illegal move {text!r}: {why}")
    direction, distance = found
    walk = step_action(origin, direction, distance)
    withdraw = step_action(origin, direction, distance, withdraw=True)
    if suffix == "W":
        return check(withdraw)
    ray = geo.rays[origin][direction]
    colour = state.player + 1
    ahead = ray[distance] if distance < len(ray) else -1
    approaches = ahead >= 0 and state.board[ahead] not in (0, colour)
    if suffix == "A":
        if not approaches:
            raise IllegalActionError(
                f"illegal move {text!r}: no enemy stone stands just beyond "
                f"{point_name(landing)} to approach"
            )
        return check(walk)
    legal = [a for a in (walk, withdraw) if state.step_problem(a) is None]
    if len(legal) == 2:
        raise AmbiguousActionError(
            f"ambiguous move {text!r}: it can approach or withdraw; write {raw}A or {raw}W"
        )
    if legal:
        return legal[0]
    return check(walk)
