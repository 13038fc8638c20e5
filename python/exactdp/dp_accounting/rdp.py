"""dp_accounting.rdp's layout: RdpAccountant (exactdp.dp_accounting's certified rdp route)."""

from ._accountant import RdpAccountant

__all__ = ["RdpAccountant"]
