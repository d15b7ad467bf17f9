"""The error types of the whole package.

Every error raised for bad input is a ``ValueError`` subclass, so callers can catch broadly
(``except ValueError``) or precisely (``except IllegalActionError``). Messages are one line:
what was wrong, the input as ``repr``, and what was expected.
"""

from __future__ import annotations


class CathedralError(ValueError):
    """Base class of every bad-input error raised by cathedral."""


class UnknownGameError(CathedralError):
    """A game name that is not registered."""


class ParameterError(CathedralError):
    """An unknown game parameter, or a value a parameter does not accept."""


class NotationError(CathedralError):
    """A move string that does not parse in the game's notation."""


class IllegalActionError(CathedralError):
    """An action that parses (or is a valid number) but is not legal in this state."""


class AmbiguousActionError(NotationError):
    """A move string that matches more than one legal action."""


class StateError(CathedralError):
    """A state JSON that is corrupt or describes an impossible position."""


class RecordError(CathedralError):
    """A game record that is corrupt or does not replay."""


class AgentError(RuntimeError):
    """A computer player that failed (not bad input: a broken agent or worker)."""
