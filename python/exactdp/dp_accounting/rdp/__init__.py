"""dp_accounting.rdp's layout: RdpAccountant (exactdp.dp_accounting's certified rdp route), also
as ``rdp_privacy_accountant.RdpAccountant``."""

from .._accountant import RdpAccountant
from . import rdp_privacy_accountant

__all__ = ["RdpAccountant", "rdp_privacy_accountant"]
