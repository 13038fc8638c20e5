"""opacus.accountants.prv's layout: PRVAccountant (exactdp.opacus' certified pld route)."""

from .._accountant import PRVAccountant

__all__ = ["PRVAccountant"]
