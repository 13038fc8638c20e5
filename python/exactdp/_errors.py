"""The exceptions exactdp raises for bad input (the C++ library's, translated)."""

from __future__ import annotations


class ParameterError(ValueError):
    """A parameter is out of range or malformed.

    ``str(e)`` names the parameter, the value given and the allowed range, e.g.
    ``"sigma2 = -1 is out of range: allowed sigma2 > 0"``; ``e.parameter`` is the name.
    """

    def __init__(self, message: str, parameter: str = "") -> None:
        super().__init__(message)
        self.parameter = parameter


class LimitError(ParameterError):
    """A parameter is over a documented resource limit (SECURITY.md, "Limits")."""


class UsageError(ValueError):
    """An option that does not exist or does not apply, or a required one left out."""


class ComputationError(RuntimeError):
    """The library could not finish a computation (a precision or iteration limit reached, or an
    internal check failed); the message says which. Never raised for bad input."""


class UnsupportedEventError(UsageError):
    """An accountant was given an event its route cannot account (``supports(event)`` is False);
    the message names the event and the route (dp_accounting's UnsupportedEventError)."""
