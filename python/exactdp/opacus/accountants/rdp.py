"""opacus.accountants.rdp's layout: RDPAccountant (exactdp.opacus' certified rdp route)."""

from .._accountant import RDPAccountant

__all__ = ["RDPAccountant"]
