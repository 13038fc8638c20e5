"""dp_accounting.pld's layout: PLDAccountant (exactdp.dp_accounting's certified pld route), also
as ``pld_privacy_accountant.PLDAccountant``."""

from .._accountant import PLDAccountant
from . import pld_privacy_accountant

__all__ = ["PLDAccountant", "pld_privacy_accountant"]
