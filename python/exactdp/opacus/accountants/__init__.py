"""opacus.accountants' layout: RDPAccountant (the certified rdp route), PRVAccountant (the
certified pld route: privacy loss distributions, both ends proven bounds), IAccountant (their
base), create_accountant(mechanism); ``utils.get_noise_multiplier``. See exactdp.opacus."""

from .._accountant import Accountant as IAccountant
from .._accountant import PRVAccountant, RDPAccountant
from . import prv, rdp, utils

_MECHANISMS = {"rdp": RDPAccountant, "prv": PRVAccountant}


def create_accountant(mechanism: str) -> IAccountant:
    """Opacus' factory: "rdp" -> RDPAccountant, "prv" -> PRVAccountant (also "pld", "auto": the
    same accountant on that route). Opacus' "gdp" is refused: a central-limit approximation is no
    certified bound (ParameterError, a ValueError as Opacus raises)."""
    cls = _MECHANISMS.get(mechanism)
    return cls() if cls is not None else IAccountant(mechanism)


__all__ = ["IAccountant", "PRVAccountant", "RDPAccountant", "create_accountant", "prv", "rdp", "utils"]
