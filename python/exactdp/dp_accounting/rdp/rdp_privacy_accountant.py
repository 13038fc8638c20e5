"""dp_accounting.rdp.rdp_privacy_accountant's layout: RdpAccountant (exactdp.dp_accounting's)."""

from .._accountant import NeighboringRelation, RdpAccountant

__all__ = ["NeighboringRelation", "RdpAccountant"]
