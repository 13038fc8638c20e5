"""dp_accounting's and Opacus' documented usage, run unchanged but for the import line, against
exactdp.dp_accounting and exactdp.opacus: floats go in as the peers' users write them, and a
float comes out — formattable, comparable — that is the certified upper end rounded UP, with the
certified Interval one attribute away, and that agrees with the peers' published values.

Peer values at DP-SGD q = 0.01, noise multiplier 1.1, 1000 steps, delta 1e-5 (BENCHMARKS.md,
"Accounting side by side with dp_accounting"): dp_accounting's PLD accountant (pessimistic)
1.5154, its RDP accountant 1.7118 (Opacus' RDP accountant, with the same default orders, agrees).
The true epsilon is at least 1.51 (exactdp's pld route proves 1.5150...)."""

import math
from fractions import Fraction

import pytest

import exactdp

PEER_PLD, PEER_RDP, TRUE_AT_LEAST = 1.5154, 1.7118, 1.51


def assert_certified_float(eps):
    """A float that formats and compares; its value is the certified upper end rounded UP: not
    below it, and the next float down is below it (rounding to nearest would fail one side)."""
    assert isinstance(eps, float) and isinstance(eps.interval, exactdp.Interval)
    assert "%.3f" % eps == f"{eps:.3f}" and eps < 100
    assert Fraction(eps) >= eps.interval.upper
    assert Fraction(math.nextafter(eps, -math.inf)) < eps.interval.upper


def test_dp_accounting_pld_readme():
    from exactdp.dp_accounting import dp_event, pld  # was: from dp_accounting import dp_event, pld

    accountant = pld.PLDAccountant()
    event = dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.1))
    accountant.compose(event, 1000)
    eps = accountant.get_epsilon(1e-5)

    assert_certified_float(eps)
    assert TRUE_AT_LEAST <= eps <= PEER_PLD * 1.01 and eps.details["route"] == "pld"
    assert "%.4f" % eps == "1.5154"
    # The floats were accounted at their exact binary values.
    exact = exactdp.compose_events([(f"poisson-gaussian:sigma={Fraction(1.1)},q={Fraction(0.01)}", 1000)],
                                   delta=Fraction(1e-5), route="pld")
    assert eps.interval == exact.value


def test_dp_accounting_rdp_accountant_with_its_orders():
    """dp_accounting's DP-SGD snippet (compute_dp_sgd_privacy_lib) with its own order list: the
    certified rdp route at those orders, the minimum over them."""
    import exactdp.dp_accounting as dp_accounting  # was: import dp_accounting

    orders = ([1.25, 1.5, 1.75, 2., 2.25, 2.5, 3., 3.5, 4., 4.5] + list(range(5, 64)) + [128, 256, 512])
    accountant = dp_accounting.rdp.RdpAccountant(orders)
    event = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.1)), 1000)
    accountant.compose(event)
    eps = accountant.get_epsilon(1e-5)

    assert_certified_float(eps)
    assert eps.details["route"] == "rdp" and TRUE_AT_LEAST <= eps <= 1.8
    best = Fraction(eps.details["rdp_order"])
    assert best in [Fraction(o) for o in orders]
    at = {o: dp_accounting.rdp.RdpAccountant([o]).compose(event).get_epsilon(1e-5) for o in (best, 1.5, 2, 32, 512)}
    assert math.isclose(eps, at[best], rel_tol=1e-12)       # the minimum is the best order's value
    assert all(eps <= value for value in at.values())       # and no other order is below it
    # Opacus' default alphas, which dp_accounting's default orders follow: its published 1.7118.
    alphas = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
    peer = dp_accounting.rdp.RdpAccountant(alphas).compose(event).get_epsilon(1e-5)
    assert PEER_RDP * 0.999 <= peer <= PEER_RDP * 1.001


def test_dp_accounting_rdp_with_keywords():
    import exactdp.dp_accounting as dp_accounting  # was: import dp_accounting

    event = dp_accounting.PoissonSampledDpEvent(
        sampling_probability=0.01, event=dp_accounting.GaussianDpEvent(noise_multiplier=1.1))
    accountant = dp_accounting.rdp.RdpAccountant()
    accountant.compose(event, 1000)
    epsilon = accountant.get_epsilon(target_delta=1e-5)

    assert_certified_float(epsilon)
    assert TRUE_AT_LEAST <= epsilon and PEER_RDP * 0.99 <= epsilon <= PEER_RDP * 1.01
    delta = accountant.get_delta(target_epsilon=epsilon)
    assert_certified_float(delta)
    assert 0 < delta < 2e-5


def test_dp_accounting_self_composed_event_through_the_module_paths():
    from exactdp.dp_accounting import dp_event  # was: from dp_accounting import dp_event
    from exactdp.dp_accounting.pld import pld_privacy_accountant  # was: from dp_accounting.pld import ...
    from exactdp.dp_accounting.rdp import rdp_privacy_accountant  # was: from dp_accounting.rdp import ...

    def dpsgd_epsilon(noise_multiplier, sampling_probability, steps, delta, use_pld):
        event = dp_event.SelfComposedDpEvent(
            dp_event.PoissonSampledDpEvent(sampling_probability, dp_event.GaussianDpEvent(noise_multiplier)), steps)
        if use_pld:
            accountant = pld_privacy_accountant.PLDAccountant()
        else:
            accountant = rdp_privacy_accountant.RdpAccountant()
        accountant.compose(event)
        return accountant.get_epsilon(delta)

    pld_eps = dpsgd_epsilon(1.1, 0.01, 1000, 1e-5, use_pld=True)
    rdp_eps = dpsgd_epsilon(1.1, 0.01, 1000, 1e-5, use_pld=False)
    for eps in (pld_eps, rdp_eps):
        assert_certified_float(eps)
    assert TRUE_AT_LEAST <= pld_eps <= PEER_PLD * 1.01 < rdp_eps <= PEER_RDP * 1.01
    print(f"PLD epsilon {pld_eps:.3f}, RDP epsilon {rdp_eps:.3f}")


def test_opacus_rdp_accountant_step_loop():
    from exactdp.opacus.accountants import RDPAccountant  # was: from opacus.accountants import RDPAccountant

    accountant = RDPAccountant()
    for _ in range(1000):
        accountant.step(noise_multiplier=1.1, sample_rate=0.01)
    epsilon = accountant.get_epsilon(delta=1e-5)
    print(f"(ε = {epsilon:.2f}, δ = {1e-5})")

    assert_certified_float(epsilon)
    assert PEER_RDP * 0.99 <= epsilon <= PEER_RDP * 1.01 and len(accountant.history) == 1


def test_opacus_prv_accountant_from_history_and_factory():
    from exactdp.opacus.accountants import PRVAccountant, create_accountant  # was: from opacus.accountants ...

    accountant = PRVAccountant()
    accountant.history = [(1.1, 0.01, 1000)]
    epsilon = accountant.get_epsilon(delta=1e-5, eps_error=0.01)

    assert_certified_float(epsilon)
    assert TRUE_AT_LEAST <= epsilon <= PEER_PLD * 1.01
    same = create_accountant(mechanism="prv")
    same.history = [(1.1, 0.01, 1000)]
    assert same.get_epsilon(delta=1e-5).interval == epsilon.interval
    with pytest.raises(ValueError, match="gdp"):
        create_accountant(mechanism="gdp")


def test_opacus_get_noise_multiplier_rdp():
    from exactdp.opacus.accountants import RDPAccountant  # was: from opacus.accountants import ...
    from exactdp.opacus.accountants.utils import get_noise_multiplier  # was: from opacus.accountants.utils ...

    noise_multiplier = get_noise_multiplier(
        target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, steps=1000, accountant="rdp")

    assert isinstance(noise_multiplier, float) and 1.0 < noise_multiplier < 1.05
    assert "%.3f" % noise_multiplier == "1.022"
    # Certified: the calibration's upper sigma rounded up, and the accountant agrees that the
    # float meets the target (Opacus' contract: within epsilon_tolerance 0.01 below it).
    sigma = noise_multiplier.interval
    assert Fraction(noise_multiplier) >= sigma.upper and noise_multiplier.details["epsilon_at_sigma_upper"].upper <= 2
    accountant = RDPAccountant()
    accountant.history = [(noise_multiplier, 0.01, 1000)]
    assert 2.0 - 0.01 <= accountant.get_epsilon(delta=1e-5) <= 2.0


def test_opacus_get_noise_multiplier_prv_by_epochs():
    from exactdp.opacus.accountants import PRVAccountant  # was: from opacus.accountants import ...
    from exactdp.opacus.accountants.utils import get_noise_multiplier  # was: from opacus.accountants.utils ...

    noise_multiplier = get_noise_multiplier(
        target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, epochs=10, accountant="prv", epsilon_tolerance=0.01)

    assert noise_multiplier.details["steps"] == 1000  # Opacus' int(epochs / sample_rate)
    assert isinstance(noise_multiplier, float) and 0.9 < noise_multiplier < 1.0
    assert Fraction(noise_multiplier) >= noise_multiplier.interval.upper
    accountant = PRVAccountant()
    accountant.history = [(noise_multiplier, 0.01, 1000)]
    assert 2.0 - 0.01 <= accountant.get_epsilon(delta=1e-5) <= 2.0
    with pytest.raises(ValueError, match="EITHER"):
        get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, epochs=1, steps=100)


def test_the_layout_keeps_the_old_imports():
    from exactdp import dp_accounting, opacus

    assert dp_accounting.pld.PLDAccountant is dp_accounting.PLDAccountant
    assert dp_accounting.dp_event.GaussianDpEvent is dp_accounting.events.GaussianDpEvent
    assert set(dp_accounting.dp_event.__all__) == set(dp_accounting.events.__all__)  # every event class
    assert dp_accounting.privacy_accountant.NeighboringRelation is dp_accounting.NeighboringRelation
    assert opacus.accountants.RDPAccountant is opacus.RDPAccountant
    assert opacus.accountants.prv.PRVAccountant is opacus.PRVAccountant
    assert issubclass(opacus.accountants.RDPAccountant, opacus.accountants.IAccountant)


def test_certified_float_is_a_plain_float_to_its_users():
    import pickle

    from exactdp.dp_accounting import CertifiedFloat, dp_event, pld

    eps = pld.PLDAccountant().compose(dp_event.GaussianDpEvent(2.0), 3).get_epsilon(1e-5)
    assert type(eps) is CertifiedFloat and type(eps * 1) is float and type(eps + 0.0) is float
    assert sorted([100.0, eps, 0.5])[1] is eps and max(eps, 0.0) is eps
    again = pickle.loads(pickle.dumps(eps))
    assert again == eps and again.interval == eps.interval
    infinite = pld.PLDAccountant().compose(dp_event.NonPrivateDpEvent())
    assert infinite.get_epsilon(1e-5) == math.inf and infinite.get_delta(1.0) == 1.0
