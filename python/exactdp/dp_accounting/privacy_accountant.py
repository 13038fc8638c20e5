"""dp_accounting.privacy_accountant's layout: NeighboringRelation, PrivacyAccountant (the
certified accountant base of exactdp.dp_accounting) and UnsupportedEventError."""

from .._errors import UnsupportedEventError
from ._accountant import NeighboringRelation, PrivacyAccountant

__all__ = ["NeighboringRelation", "PrivacyAccountant", "UnsupportedEventError"]
