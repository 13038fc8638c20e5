"""dp_accounting.pld's layout: PLDAccountant (exactdp.dp_accounting's certified pld route)."""

from ._accountant import PLDAccountant

__all__ = ["PLDAccountant"]
