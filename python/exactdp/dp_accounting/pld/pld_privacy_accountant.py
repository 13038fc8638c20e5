"""dp_accounting.pld.pld_privacy_accountant's layout: PLDAccountant (exactdp.dp_accounting's)."""

from .._accountant import NeighboringRelation, PLDAccountant

__all__ = ["NeighboringRelation", "PLDAccountant"]
