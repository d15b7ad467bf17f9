"""Game parameters declared as data: defaults, accepted values, and their validation.

A game lists its parameters as ``Param`` entries; ``resolve_params`` fills defaults and rejects
unknown names and bad values with messages that list what is valid. Front ends (the terminal's
flags, later the web app's forms) are generated from the same list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cathedral.core.errors import ParameterError


@dataclass(frozen=True)
class Param:
    """One parameter of a game.

    Attributes:
        name: the keyword used in ``cathedral.load(game, name=value)``.
        default: the value used when the parameter is not given.
        kind: ``int``, ``str`` or ``bool``; ``None`` is accepted only if ``optional``.
        choices: the accepted values, or empty for any value of ``kind``.
        minimum: the smallest accepted int, if any.
        optional: whether ``None`` is an accepted value.
        help: one line for ``--help`` and the docs.
        check: an extra check returning an error text, or ``None`` when the value is fine.
    """

    name: str
    default: Any
    kind: type
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    optional: bool = False
    check: Callable[[Any], str | None] | None = None

    def expected(self) -> str:
        """Returns a phrase describing the accepted values."""
        if self.choices:
            text = "one of " + ", ".join(str(c) for c in self.choices)
        elif self.kind is int and self.minimum is not None:
            text = f"an integer >= {self.minimum}"
        else:
            text = {int: "an integer", bool: "true or false", str: "a string"}[self.kind]
        return text + (" or None" if self.optional else "")

    def validate(self, game: str, value: Any) -> Any:
        """Returns ``value`` converted to this parameter's kind, or raises ParameterError."""
        bad = ParameterError(
            f"bad value {value!r} for parameter {self.name!r} of {game} "
            f"(expected {self.expected()})"
        )
        if value is None:
            if self.optional:
                return None
            raise bad
        if self.kind is bool:
            words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
            if isinstance(value, str) and value.lower() in words:
                value = words[value.lower()]
            if not isinstance(value, bool):
                raise bad
        elif self.kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise bad from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad
            if self.minimum is not None and value < self.minimum:
                raise bad
        elif not isinstance(value, self.kind):
            raise bad
        if self.choices and value not in self.choices:
            raise bad
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ParameterError(
                    f"bad value {value!r} for parameter {self.name!r} of {game} ({problem})"
                )
        return value


def resolve_params(game: str, declared: tuple[Param, ...], given: Mapping[str, Any]) -> dict:
    """Returns every declared parameter with defaults filled in and values validated."""
    known = {p.name: p for p in declared}
    for name in given:
        if name not in known:
            listing = ", ".join(known) or "none"
            raise ParameterError(f"unknown parameter {name!r} for {game} (known: {listing})")
    return {p.name: p.validate(game, given.get(p.name, p.default)) for p in declared}
