#!/usr/bin/env python3
"""Independent reference values for tests/laws/federated_accounting_test.cc (mpmath, 60 digits).

The RDP of Poisson-subsampled rounds of the Skellam and distributed discrete Gaussian laws: the
general upper bound of Zhu and Wang (ICML 2019) over each law's RDP curve, as the papers' reference
accounting writes it (google-research/federated, distributed_dp/accounting_utils.py,
_compute_rdp_subsampled with upper_bound=True), capped by the unsampled curve:
  Skellam (AKL21 Thm 3.5, L1 = L2 = D, variance 2 mu):
    eps(a) = a D^2 / (4 mu) + min(((2a - 1) D^2 + 6 D) / (16 mu^2), 3 D / (4 mu))
  distributed discrete Gaussian (KLS21 Prop. 14, s2 = m sigma2, tau = 10 sum_{k<m} e^(-2 pi^2 sigma2 k/(k+1))):
    eps(a) = min(a D2^2 / (2 s2) + tau d, a/2 (D2^2/s2 + 2 D1 tau / sqrt(s2) + tau^2 d),
                 a/2 (D2 / sqrt(s2) + tau sqrt(d))^2)
Run: python3 tests/laws/data/federated_reference.py
"""
import mpmath as mp

mp.mp.dps = 60


def skellam(mu, d):
    mu, d = mp.mpf(mu), mp.mpf(d)
    return lambda a: a * d**2 / (4 * mu) + min(((2 * a - 1) * d**2 + 6 * d) / (16 * mu**2), 3 * d / (4 * mu))


def ddg(sigma2, m, d2, dim):
    sigma2, d2 = mp.mpf(sigma2), mp.mpf(d2)
    s2 = m * sigma2
    tau = 10 * mp.fsum(mp.exp(-2 * mp.pi**2 * sigma2 * k / (k + 1)) for k in range(1, m))
    d1 = min(mp.sqrt(dim) * d2, d2**2)
    return lambda a: min(a * d2**2 / (2 * s2) + tau * dim,
                         a / 2 * (d2**2 / s2 + 2 * d1 * tau / mp.sqrt(s2) + tau**2 * dim),
                         a / 2 * (d2 / mp.sqrt(s2) + tau * mp.sqrt(dim))**2)


def subsampled(eps, q, alpha):
    q = mp.mpf(q)
    total = (1 - q)**(alpha - 1) * (alpha * q - q + 1) + mp.binomial(alpha, 2) * q**2 * (1 - q)**(alpha - 2) * mp.exp(eps(2))
    total += 3 * mp.fsum(mp.binomial(alpha, l) * (1 - q)**(alpha - l) * q**l * mp.exp((l - 1) * eps(l))
                         for l in range(3, alpha + 1))
    return min(mp.log(total) / (alpha - 1), eps(alpha))


for mu, d, q, alpha in [(200, 10, mp.mpf(1) / 100, 15), (50, 3, mp.mpf(1) / 10, 4)]:
    print("skellam", mu, d, q, alpha, mp.nstr(subsampled(skellam(mu, d), q, alpha), 30))
for sigma2, m, d2, dim, q, alpha in [(4, 100, 10, 1, mp.mpf(1) / 100, 15), (mp.mpf(1) / 2, 20, 3, 1, mp.mpf(1) / 10, 6)]:
    print("ddg", sigma2, m, d2, dim, q, alpha, mp.nstr(subsampled(ddg(sigma2, m, d2, dim), q, alpha), 30))
