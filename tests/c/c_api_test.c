/* c_api_test.c — the C interface (<exactdp/exactdp.h>) exercised from C99, as a C user would:
 * every function, every error path, known answers shared with the C++ samplers and the command
 * line (the same seed gives the same values), the hardened samplers' fixed bit count, and one
 * sampler shared by several threads (one bit source per thread). Exit status 0 when every check
 * passes; each failure prints its line and exactdp_last_error(). Deterministic: seeded sources
 * only, except one smoke draw from the system CSPRNG. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <exactdp/exactdp.h>

#include "c_check.h"

/* Known answers, pinned from the command line (`exactdp sample ... --seed`, `exactdp profile`,
 * `exactdp calibrate`), which calls the C++ library; tests/mechanisms/c_api_known_answer_test.cc
 * pins the same values against the C++ API. */
/* sigma2 = 10 and scale = 7/2 are drawn by the exact table samplers, which read other bits than
 * CKS20 did (CKS20 gave {6, -1, 6, 5, 6} and {2, -5, 6, -3, -2}). */
#define KA_GAUSSIAN {5, 5, 6, 0, 3}
#define KA_LAPLACE {-3, -3, -4, -7, -15}
#define KA_BERNOULLI {0, 1, 0, 0, 0, 1, 1, 1}
#define KA_HGAUSSIAN {6, 14, 7, -6, -6}
#define KA_HLAPLACE {-8, -7, 4, 0, -8}
/* `exactdp sample staircase --gamma 1 --sensitivity 3 -n 8 --seed 0...01` and
 * `... --gamma 1/2 --sensitivity 5 --r 2 --mean -100 -n 6` with the same seed */
#define KA_STAIRCASE {4, 0, 4, -2, -1, -1, 4, -1}
#define KA_STAIRCASE_R2 {-102, -136, -91, -97, -106, -103}
#define KA_DG_DELTA_LOWER "0.14135133940562190809"
#define KA_DG_DELTA_UPPER "0.1413513394056219081"
#define KA_DL_DELTA_LOWER "0.28764913664496792492"
#define KA_DL_DELTA_UPPER "0.28764913664496792493"
#define KA_CALIBRATED_SIGMA2 "14"

static const char *const kSeedZero =
    "0000000000000000000000000000000000000000000000000000000000000000";
static const char *const kSeedOne =
    "0000000000000000000000000000000000000000000000000000000000000001";

static exactdp_bits *seeded(const char *hex) {
  static const unsigned char zero[32] = {0};
  exactdp_bits *b = NULL;
  if (strcmp(hex, kSeedZero) == 0) {
    OK(exactdp_bits_seeded_weak(zero, &b)); /* the all-zero seed: only through the _weak call */
  } else {
    OK(exactdp_bits_seeded_hex(hex, &b));
  }
  return b;
}

/* sentinel handle: calls that fail must leave *out alone */
#define SENTINEL ((exactdp_sampler *)&g_checks)

static void test_library(void) {
  CHECK(strcmp(exactdp_version(), EXACTDP_TEST_VERSION) == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_OK), "EXACTDP_OK") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_PARAM), "EXACTDP_E_PARAM") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_NULL), "EXACTDP_E_NULL") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_BUFFER), "EXACTDP_E_BUFFER") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_RANGE), "EXACTDP_E_RANGE") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_LIMIT), "EXACTDP_E_LIMIT") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_UNSUPPORTED), "EXACTDP_E_UNSUPPORTED") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_NOMEM), "EXACTDP_E_NOMEM") == 0);
  CHECK(strcmp(exactdp_error_name(EXACTDP_E_INTERNAL), "EXACTDP_E_INTERNAL") == 0);
  CHECK(strcmp(exactdp_error_name(42), "unknown") == 0);
  /* the message is set by a failing call and cleared by the next successful one */
  {
    exactdp_sampler *s = SENTINEL;
    CHECK_RC(exactdp_discrete_gaussian_new("-1", 0, &s), EXACTDP_E_PARAM,
             "sigma2 = -1 is out of range: allowed sigma2 > 0");
    CHECK(s == SENTINEL);
    OK(exactdp_discrete_gaussian_new("1", 0, &s));
    CHECK(strcmp(exactdp_last_error(), "") == 0);
    exactdp_sampler_free(s);
  }
}

static void test_bits(void) {
  static const unsigned char zero[32] = {0};
  exactdp_bits *a = NULL, *b = NULL, *sys = NULL;
  exactdp_bits *untouched = (exactdp_bits *)&g_checks;
  uint64_t consumed = 99;
  exactdp_sampler *s = NULL;
  int64_t x[8], y[8];

  /* the all-zero seed is refused (as the command line refuses it without --allow-weak-seed),
   * the output handle untouched; exactdp_bits_seeded_weak accepts it */
  CHECK_RC(exactdp_bits_seeded(zero, &untouched), EXACTDP_E_PARAM, "all-zero seed is refused");
  CHECK_RC(exactdp_bits_seeded_hex(kSeedZero, &untouched), EXACTDP_E_PARAM, "seed_hex: the all-zero");
  CHECK(untouched == (exactdp_bits *)&g_checks);
  OK(exactdp_bits_seeded_weak(zero, &a));
  b = seeded(kSeedZero);
  {
    /* one nonzero byte is enough to be accepted, and seeded == seeded_hex on it */
    unsigned char one[32] = {0};
    exactdp_bits *c = NULL;
    one[31] = 1;
    OK(exactdp_bits_seeded(one, &c));
    exactdp_bits_free(c);
    c = NULL;
    OK(exactdp_bits_seeded_hex(kSeedOne, &c));
    exactdp_bits_free(c);
  }
  OK(exactdp_bits_consumed(a, &consumed));
  CHECK(consumed == 0);
  /* the byte seed and the hex seed are the same stream */
  OK(exactdp_discrete_laplace_new("7/2", 0, &s));
  OK(exactdp_sample_int64(s, a, x, 8));
  OK(exactdp_sample_int64(s, b, y, 8));
  CHECK(memcmp(x, y, sizeof x) == 0);
  OK(exactdp_bits_consumed(a, &consumed));
  CHECK(consumed > 0);
  /* the system CSPRNG works (one smoke draw; its values are not checked) */
  OK(exactdp_bits_system(&sys));
  OK(exactdp_sample_int64(s, sys, x, 8));
  OK(exactdp_bits_consumed(sys, &consumed));
  CHECK(consumed > 0);

  CHECK_RC(exactdp_bits_system(NULL), EXACTDP_E_NULL, "out: null pointer");
  CHECK_RC(exactdp_bits_seeded(NULL, &untouched), EXACTDP_E_NULL, "seed: null pointer");
  CHECK_RC(exactdp_bits_seeded(zero, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_bits_seeded_weak(NULL, &untouched), EXACTDP_E_NULL, "seed: null pointer");
  CHECK_RC(exactdp_bits_seeded_weak(zero, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_bits_seeded_hex(NULL, &untouched), EXACTDP_E_NULL, "seed_hex");
  CHECK_RC(exactdp_bits_seeded_hex("00", &untouched), EXACTDP_E_PARAM, "seed_hex");
  CHECK_RC(exactdp_bits_seeded_hex(kSeedZero, NULL), EXACTDP_E_NULL, "out");
  CHECK(untouched == (exactdp_bits *)&g_checks);
  CHECK_RC(exactdp_bits_consumed(NULL, &consumed), EXACTDP_E_NULL, "bits");
  CHECK_RC(exactdp_bits_consumed(a, NULL), EXACTDP_E_NULL, "out");

  exactdp_bits_free(NULL);
  exactdp_bits_free(a);
  exactdp_bits_free(b);
  exactdp_bits_free(sys);
  exactdp_sampler_free(s);
}

static void test_construction_errors(void) {
  exactdp_sampler *s = SENTINEL;
  exactdp_sampler_options o;

  CHECK_RC(exactdp_discrete_gaussian_new(NULL, 0, &s), EXACTDP_E_NULL, "sigma2: null pointer");
  CHECK_RC(exactdp_discrete_gaussian_new("0", 0, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new("1/0", 0, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new("nan", 0, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new(" 1", 0, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new("1e999999999", 0, &s), EXACTDP_E_LIMIT, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new("1", 2, &s), EXACTDP_E_PARAM, "flags");
  CHECK_RC(exactdp_discrete_gaussian_new("1", -1, &s), EXACTDP_E_PARAM, "flags");
  CHECK_RC(exactdp_discrete_gaussian_new("1", 0, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_discrete_laplace_new(NULL, 0, &s), EXACTDP_E_NULL, "scale");
  CHECK_RC(exactdp_discrete_laplace_new("-1/2", 0, &s), EXACTDP_E_PARAM, "scale = -1/2");
  CHECK_RC(exactdp_discrete_laplace_new("1", 4, &s), EXACTDP_E_PARAM, "flags");
  CHECK_RC(exactdp_discrete_laplace_new("1", 0, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_bernoulli_exp_new(NULL, 0, &s), EXACTDP_E_NULL, "gamma");
  CHECK_RC(exactdp_bernoulli_exp_new("-1", 0, &s), EXACTDP_E_PARAM, "gamma");
  CHECK_RC(exactdp_bernoulli_exp_new("1", EXACTDP_HARDENED, &s), EXACTDP_E_PARAM, "flags");
  CHECK_RC(exactdp_bernoulli_exp_new("1", 0, NULL), EXACTDP_E_NULL, "out");

  /* hardened: out of the hardened range is an error naming the parameter, never a fallback */
  CHECK_RC(exactdp_discrete_gaussian_new("1e31", EXACTDP_HARDENED, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_new("1/1000", EXACTDP_HARDENED, &s), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_laplace_new("2e15", EXACTDP_HARDENED, &s), EXACTDP_E_PARAM, "scale");
  CHECK_RC(exactdp_discrete_laplace_new("1/18446744073709551616", EXACTDP_HARDENED, &s),
           EXACTDP_E_PARAM, "scale");

  /* options */
  exactdp_sampler_options_init(NULL);
  exactdp_sampler_options_init(&o);
  CHECK(o.struct_size == sizeof o && o.flags == 0 && o.mean == NULL && o.tau_bits == 0);
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", NULL, &s), EXACTDP_E_NULL, "options");
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_discrete_laplace_new_ex("1", NULL, &s), EXACTDP_E_NULL, "options");
  o.struct_size = 8;
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "options.struct_size");
  exactdp_sampler_options_init(&o);
  o.mean = "1.5";
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "mean");
  o.mean = "";
  CHECK_RC(exactdp_discrete_laplace_new_ex("1", &o, &s), EXACTDP_E_PARAM, "mean");
  exactdp_sampler_options_init(&o);
  o.tau_bits = 64; /* tau_bits without the hardened flag */
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "tau_bits applies only with hardened");
  o.flags = EXACTDP_HARDENED;
  o.tau_bits = 39;
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "tau_bits = 39 is out of range: allowed 40 <= tau_bits <= 128");
  o.tau_bits = 129;
  CHECK_RC(exactdp_discrete_laplace_new_ex("1", &o, &s), EXACTDP_E_PARAM, "tau_bits");
  o.tau_bits = 0;
  o.mean = "4611686018427387905"; /* 2^62 + 1 */
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "mean");
  o.flags = 3;
  CHECK_RC(exactdp_discrete_gaussian_new_ex("1", &o, &s), EXACTDP_E_PARAM, "flags");
  CHECK(s == SENTINEL);
}

/* Draws n <= 8 values of s from a fresh `seed` stream and CHECKs them against `want`; returns
 * the bits the draws consumed. */
static uint64_t known_answer(const exactdp_sampler *s, const char *seed, const int64_t *want, size_t n) {
  int64_t x[8];
  uint64_t consumed = 0;
  exactdp_bits *b = seeded(seed);
  CHECK(n <= 8);
  OK(exactdp_sample_int64(s, b, x, n));
  CHECK(memcmp(x, want, n * sizeof *want) == 0);
  OK(exactdp_bits_consumed(b, &consumed));
  exactdp_bits_free(b);
  return consumed;
}

/* Known answers (KA_* above): the same seed gives the same values as the C++ samplers. */
static void test_known_answers(void) {
  static const int64_t gaussian[5] = KA_GAUSSIAN;           /* --sigma2 10 --mean 5, seed 0 */
  static const int64_t laplace[5] = KA_LAPLACE;             /* --scale 7/2 --mean -3, seed 0 */
  static const int64_t bernoulli[8] = KA_BERNOULLI;         /* --gamma 1/2, seed 1 */
  static const int64_t hardened_gaussian[5] = KA_HGAUSSIAN; /* --sigma2 100 --hardened, seed 0 */
  static const int64_t hardened_laplace[5] = KA_HLAPLACE;   /* --scale 10 --hardened, seed 1 */
  exactdp_sampler_options o;
  exactdp_sampler *s = NULL;
  uint64_t per = 0;

  exactdp_sampler_options_init(&o);
  o.mean = "5";
  OK(exactdp_discrete_gaussian_new_ex("10", &o, &s));
  (void)known_answer(s, kSeedZero, gaussian, 5);
  exactdp_sampler_free(s);
  o.mean = "-3";
  OK(exactdp_discrete_laplace_new_ex("7/2", &o, &s));
  (void)known_answer(s, kSeedZero, laplace, 5);
  exactdp_sampler_free(s);
  OK(exactdp_bernoulli_exp_new("1/2", 0, &s));
  (void)known_answer(s, kSeedOne, bernoulli, 8);
  exactdp_sampler_free(s);

  /* isochronous: exactly bits_per_sample bits per draw (81 at sigma2 <= 186, default tau) */
  OK(exactdp_discrete_gaussian_new("100", EXACTDP_HARDENED, &s));
  OK(exactdp_sampler_bits_per_sample(s, &per));
  CHECK(per == 81 && known_answer(s, kSeedZero, hardened_gaussian, 5) == 5 * per);
  exactdp_sampler_free(s);
  OK(exactdp_discrete_laplace_new("10", EXACTDP_HARDENED, &s));
  OK(exactdp_sampler_bits_per_sample(s, &per));
  CHECK(per == 801 && known_answer(s, kSeedOne, hardened_laplace, 5) == 5 * per);
  exactdp_sampler_free(s);
}

static void test_sample_int64(void) {
  exactdp_sampler *s = NULL, *far = NULL, *wide = NULL;
  exactdp_bits *b = seeded(kSeedZero);
  exactdp_sampler_options o;
  int64_t x[4] = {0, 0, 0, 0};
  uint64_t before = 0, after = 0;

  OK(exactdp_discrete_gaussian_new("2", 0, &s));
  OK(exactdp_bits_consumed(b, &before));
  OK(exactdp_sample_int64(s, b, NULL, 0)); /* n = 0 draws nothing */
  OK(exactdp_sample_int64(s, b, x, 0));
  OK(exactdp_bits_consumed(b, &after));
  CHECK(before == after);
  CHECK_RC(exactdp_sample_int64(NULL, b, x, 4), EXACTDP_E_NULL, "sampler");
  CHECK_RC(exactdp_sample_int64(s, NULL, x, 4), EXACTDP_E_NULL, "bits");
  CHECK_RC(exactdp_sample_int64(s, b, NULL, 4), EXACTDP_E_NULL, "out");

  /* a value outside int64: EXACTDP_E_RANGE (mean 10^30: every draw is far outside) */
  exactdp_sampler_options_init(&o);
  o.mean = "1e30";
  OK(exactdp_discrete_gaussian_new_ex("1", &o, &far));
  CHECK_RC(exactdp_sample_int64(far, b, x, 4), EXACTDP_E_RANGE, "int64");
  exactdp_sampler_free(far);
  OK(exactdp_discrete_laplace_new_ex("1", &o, &far));
  CHECK_RC(exactdp_sample_int64(far, b, x, 1), EXACTDP_E_RANGE, "int64");
  exactdp_sampler_free(far);
  /* ... and noise itself that large (sigma = 10^25) */
  OK(exactdp_discrete_gaussian_new("1e50", 0, &wide));
  CHECK_RC(exactdp_sample_int64(wide, b, x, 4), EXACTDP_E_RANGE, "int64");
  exactdp_sampler_free(wide);
  /* just inside: mean 2^63 - 1 - 1000 with small noise fits */
  o.mean = "9223372036854774807";
  OK(exactdp_discrete_laplace_new_ex("1", &o, &far));
  OK(exactdp_sample_int64(far, b, x, 4));
  CHECK(x[0] > INT64_MAX - 1100 && x[3] > INT64_MAX - 1100);
  exactdp_sampler_free(far);

  exactdp_sampler_free(s);
  exactdp_bits_free(b);
}

static void test_sample_decimal(void) {
  exactdp_sampler *s = NULL, *h = NULL;
  exactdp_sampler_options o;
  exactdp_bits *a = seeded(kSeedOne), *b = seeded(kSeedOne);
  char buf[64];
  int64_t x = 0;
  char expected[32];

  exactdp_sampler_options_init(&o);
  o.mean = "-1000000000000000000000000000000"; /* -10^30 */
  OK(exactdp_discrete_laplace_new_ex("1/3", &o, &s));
  OK(exactdp_sample_decimal(s, a, buf, sizeof buf));
  CHECK(strncmp(buf, "-1000000000000000000000000000", 29) == 0 ||
        strncmp(buf, "-999999999999999999999999999", 28) == 0);
  CHECK(strlen(buf) >= 30 && strlen(buf) <= 32);
  /* too small: EXACTDP_E_BUFFER, "" written, the size needed in the message */
  memset(buf, 'x', sizeof buf);
  CHECK_RC(exactdp_sample_decimal(s, a, buf, 8), EXACTDP_E_BUFFER, "bytes needed");
  CHECK(buf[0] == '\0');
  CHECK_RC(exactdp_sample_decimal(s, a, buf, 0), EXACTDP_E_BUFFER, "len = 0");
  CHECK_RC(exactdp_sample_decimal(s, a, NULL, 64), EXACTDP_E_NULL, "buf");
  CHECK_RC(exactdp_sample_decimal(NULL, a, buf, 64), EXACTDP_E_NULL, "sampler");
  CHECK_RC(exactdp_sample_decimal(s, NULL, buf, 64), EXACTDP_E_NULL, "bits");
  exactdp_sampler_free(s);

  /* the decimal and int64 paths read the same stream and give the same value */
  exactdp_bits_free(a);
  a = seeded(kSeedOne);
  OK(exactdp_discrete_gaussian_new("1000000", EXACTDP_HARDENED, &h));
  OK(exactdp_sample_decimal(h, a, buf, sizeof buf));
  OK(exactdp_sample_int64(h, b, &x, 1));
  snprintf(expected, sizeof expected, "%lld", (long long)x);
  CHECK(strcmp(buf, expected) == 0);
  exactdp_sampler_free(h);
  OK(exactdp_bernoulli_exp_new("0", 0, &h)); /* exp(-0) = 1 */
  OK(exactdp_sample_decimal(h, a, buf, 2));
  CHECK(strcmp(buf, "1") == 0);
  exactdp_sampler_free(h);
  exactdp_bits_free(a);
  exactdp_bits_free(b);
}

static void test_hardened_queries(void) {
  exactdp_sampler *h = NULL, *p = NULL;
  exactdp_sampler_options o;
  char tau[EXACTDP_DECIMAL_LEN];
  int hardened = -1;
  uint64_t per = 0;

  OK(exactdp_discrete_gaussian_new("100", EXACTDP_HARDENED, &h));
  OK(exactdp_sampler_is_hardened(h, &hardened));
  CHECK(hardened == 1);
  OK(exactdp_sampler_tau(h, tau, sizeof tau));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(tau, NULL) > 0 && strtod(tau, NULL) <= 5.43e-20); /* <= 2^-64 = 5.42e-20 */
  CHECK_RC(exactdp_sampler_tau(h, tau, 4), EXACTDP_E_BUFFER, "bytes needed");
  CHECK_RC(exactdp_sampler_tau(h, NULL, 4), EXACTDP_E_NULL, "buf");
  CHECK_RC(exactdp_sampler_tau(NULL, tau, sizeof tau), EXACTDP_E_NULL, "sampler");
  CHECK_RC(exactdp_sampler_is_hardened(NULL, &hardened), EXACTDP_E_NULL, "sampler");
  CHECK_RC(exactdp_sampler_is_hardened(h, NULL), EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_sampler_bits_per_sample(NULL, &per), EXACTDP_E_NULL, "sampler");
  CHECK_RC(exactdp_sampler_bits_per_sample(h, NULL), EXACTDP_E_NULL, "out");
  exactdp_sampler_free(h);

  /* tau_bits = 40: tau <= 2^-40 = 9.09e-13, and fewer bits per draw (W = 56: 57 per table draw) */
  exactdp_sampler_options_init(&o);
  o.flags = EXACTDP_HARDENED;
  o.tau_bits = 40;
  o.mean = "-7";
  OK(exactdp_discrete_gaussian_new_ex("100", &o, &h));
  OK(exactdp_sampler_tau(h, tau, sizeof tau));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(tau, NULL) > 0 && strtod(tau, NULL) <= 9.095e-13);
  OK(exactdp_sampler_bits_per_sample(h, &per));
  CHECK(per > 0 && per < 81);
  exactdp_sampler_free(h);
  OK(exactdp_discrete_laplace_new_ex("10", &o, &h));
  OK(exactdp_sampler_is_hardened(h, &hardened));
  CHECK(hardened == 1);
  exactdp_sampler_free(h);

  /* plain samplers: exact, so no tau and no fixed bit count */
  OK(exactdp_discrete_gaussian_new("100", 0, &p));
  OK(exactdp_sampler_is_hardened(p, &hardened));
  CHECK(hardened == 0);
  CHECK_RC(exactdp_sampler_tau(p, tau, sizeof tau), EXACTDP_E_UNSUPPORTED, "not a hardened");
  CHECK_RC(exactdp_sampler_bits_per_sample(p, &per), EXACTDP_E_UNSUPPORTED, "not a hardened");
  exactdp_sampler_free(p);
}

static void test_accounting(void) {
  char lo[EXACTDP_DECIMAL_LEN], up[EXACTDP_DECIMAL_LEN];
  char lo2[EXACTDP_DECIMAL_LEN], up2[EXACTDP_DECIMAL_LEN];
  char tau[EXACTDP_DECIMAL_LEN], sigma2[EXACTDP_DECIMAL_LEN];
  exactdp_sampler *s = NULL;

  /* discrete Gaussian, pinned from `exactdp profile discrete-gaussian --sigma2 1 --epsilon 1` */
  OK(exactdp_discrete_gaussian_delta("1", "1", NULL, NULL, lo, up, sizeof lo));
  CHECK(strcmp(lo, KA_DG_DELTA_LOWER) == 0 && strcmp(up, KA_DG_DELTA_UPPER) == 0);
  OK(exactdp_discrete_gaussian_delta("1", "1", "1", NULL, lo2, up2, sizeof lo2));
  CHECK(strcmp(lo, lo2) == 0 && strcmp(up, up2) == 0);
  /* a sampler's own profile is the same call */
  OK(exactdp_discrete_gaussian_new("1", 0, &s));
  OK(exactdp_sampler_delta(s, "1", NULL, lo2, up2, sizeof lo2));
  CHECK(strcmp(lo, lo2) == 0 && strcmp(up, up2) == 0);
  exactdp_sampler_free(s);
  /* hardened charge: delta + (1 + e) tau, strictly above when tau is not negligible */
  OK(exactdp_discrete_gaussian_delta("1", "1", NULL, "1e-6", lo2, up2, sizeof lo2));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(up2, NULL) > strtod(up, NULL) + 3.7e-6 && strtod(up2, NULL) < strtod(up, NULL) + 3.8e-6);
  /* the hardened sampler's own profile charges its exact tau_upper: between the plain delta and
   * the delta charged with the printed (rounded-up) tau */
  OK(exactdp_discrete_gaussian_new("1", EXACTDP_HARDENED, &s));
  OK(exactdp_sampler_tau(s, tau, sizeof tau));
  OK(exactdp_discrete_gaussian_delta("1", "1", NULL, tau, lo, up, sizeof lo));
  OK(exactdp_sampler_delta(s, "1", NULL, lo2, up2, sizeof lo2));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(up2, NULL) <= strtod(up, NULL) && strtod(lo2, NULL) <= strtod(up2, NULL));
  exactdp_sampler_free(s);

  /* discrete Laplace: eps >= Delta / scale gives delta = 0 exactly */
  OK(exactdp_discrete_laplace_delta("1", "1", NULL, NULL, lo, up, sizeof lo));
  CHECK(strcmp(lo, "0") == 0 && strcmp(up, "0") == 0);
  OK(exactdp_discrete_laplace_delta("1/2", "1", "1", NULL, lo, up, sizeof lo));
  CHECK(strcmp(lo, KA_DL_DELTA_LOWER) == 0 && strcmp(up, KA_DL_DELTA_UPPER) == 0);
  OK(exactdp_discrete_laplace_new("1", EXACTDP_HARDENED, &s));
  OK(exactdp_sampler_delta(s, "1/2", NULL, lo2, up2, sizeof lo2));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(up2, NULL) >= strtod(up, NULL));
  exactdp_sampler_free(s);
  OK(exactdp_bernoulli_exp_new("1", 0, &s));
  CHECK_RC(exactdp_sampler_delta(s, "1", NULL, lo, up, sizeof lo), EXACTDP_E_UNSUPPORTED, "Bernoulli");
  exactdp_sampler_free(s);

  /* errors */
  CHECK_RC(exactdp_discrete_gaussian_delta(NULL, "1", NULL, NULL, lo, up, sizeof lo), EXACTDP_E_NULL, "epsilon");
  CHECK_RC(exactdp_discrete_gaussian_delta("-1", "1", NULL, NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "epsilon");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", NULL, NULL, NULL, lo, up, sizeof lo), EXACTDP_E_NULL, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "0", NULL, NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "sigma2");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", "0", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", "3/2", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", NULL, "-1e-20", lo, up, sizeof lo), EXACTDP_E_PARAM, "tau");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", NULL, "2", lo, up, sizeof lo), EXACTDP_E_PARAM, "tau");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", NULL, NULL, NULL, up, sizeof lo), EXACTDP_E_NULL, "lower");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", NULL, NULL, lo, NULL, sizeof lo), EXACTDP_E_NULL, "upper");
  CHECK_RC(exactdp_discrete_gaussian_delta("1", "1", NULL, NULL, lo, up, 5), EXACTDP_E_BUFFER, "lower");
  CHECK_RC(exactdp_discrete_laplace_delta("1", "0", NULL, NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "scale");
  CHECK_RC(exactdp_discrete_laplace_delta("x", "1", NULL, NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "epsilon");
  CHECK_RC(exactdp_discrete_laplace_delta("1", "1", "-2", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_discrete_laplace_delta("1/2", "1", NULL, NULL, lo, up, 3), EXACTDP_E_BUFFER, NULL);
  CHECK_RC(exactdp_sampler_delta(NULL, "1", NULL, lo, up, sizeof lo), EXACTDP_E_NULL, "sampler");
  OK(exactdp_discrete_gaussian_new("1", 0, &s));
  CHECK_RC(exactdp_sampler_delta(s, NULL, NULL, lo, up, sizeof lo), EXACTDP_E_NULL, "epsilon");
  CHECK_RC(exactdp_sampler_delta(s, "1", "0", lo, up, sizeof lo), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_sampler_delta(s, "1", NULL, NULL, up, sizeof lo), EXACTDP_E_NULL, "lower");
  CHECK_RC(exactdp_sampler_delta(s, "1", NULL, lo, up, 2), EXACTDP_E_BUFFER, NULL);
  exactdp_sampler_free(s);

  /* calibration, pinned from `exactdp calibrate discrete-gaussian --epsilon 1 --delta 1e-5` */
  OK(exactdp_calibrate_discrete_gaussian("1", "1e-5", NULL, sigma2, sizeof sigma2));
  CHECK(strcmp(sigma2, KA_CALIBRATED_SIGMA2) == 0);
  /* and the calibrated sigma2 meets the target, certified */
  OK(exactdp_discrete_gaussian_delta("1", sigma2, NULL, NULL, lo, up, sizeof lo));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(up, NULL) <= 1e-5);
  OK(exactdp_calibrate_discrete_gaussian("1", "1e-5", "3", sigma2, sizeof sigma2));
  /* a coarse bound on printed text; exact checks are in C++ */
  CHECK(strtod(sigma2, NULL) > 9 * strtod(KA_CALIBRATED_SIGMA2, NULL) * 0.99);
  CHECK_RC(exactdp_calibrate_discrete_gaussian(NULL, "1e-5", NULL, sigma2, sizeof sigma2), EXACTDP_E_NULL, "epsilon");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", NULL, NULL, sigma2, sizeof sigma2), EXACTDP_E_NULL, "delta");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("-1", "1e-5", NULL, sigma2, sizeof sigma2), EXACTDP_E_PARAM, "epsilon");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", "1", NULL, sigma2, sizeof sigma2), EXACTDP_E_PARAM, "delta");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", "0", NULL, sigma2, sizeof sigma2), EXACTDP_E_PARAM, "delta");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", "1e-5", "0", sigma2, sizeof sigma2), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", "1e-5", NULL, NULL, 64), EXACTDP_E_NULL, "sigma2");
  CHECK_RC(exactdp_calibrate_discrete_gaussian("1", "1e-5", NULL, sigma2, 2), EXACTDP_E_BUFFER, "sigma2");
}

/* ---- threads: one shared sampler, one bit source per thread ---- */
enum { kThreads = 4, kDraws = 3000 };

struct worker {
  const exactdp_sampler *plain;
  const exactdp_sampler *hardened;
  unsigned char seed[32];
  int64_t plain_out[kDraws];
  int64_t hardened_out[kDraws];
  char decimal[32];
  char delta_upper[EXACTDP_DECIMAL_LEN];
  int rc; /* first failure, 0 if none */
  int own_message_ok;
};

static void *work(void *arg) {
  struct worker *w = (struct worker *)arg;
  exactdp_bits *b = NULL;
  exactdp_sampler *bad = NULL;
  char lo[EXACTDP_DECIMAL_LEN];
  int i, rc = exactdp_bits_seeded(w->seed, &b);
  /* interleave small batches so the threads really overlap on the shared samplers */
  for (i = 0; rc == 0 && i < kDraws; i += 100) {
    rc = exactdp_sample_int64(w->plain, b, w->plain_out + i, 100);
    if (rc == 0) rc = exactdp_sample_int64(w->hardened, b, w->hardened_out + i, 100);
  }
  if (rc == 0) rc = exactdp_sample_decimal(w->plain, b, w->decimal, sizeof w->decimal);
  if (rc == 0) rc = exactdp_discrete_gaussian_delta("1", "10", NULL, NULL, lo, w->delta_upper, sizeof lo);
  /* building a sampler, grid noise and a selection use MPFR: its thread-local caches are released
   * by each call, so this thread leaves nothing behind when it ends (c_api_memcheck, LeakSanitizer) */
  if (rc == 0) {
    exactdp_sampler *own = NULL;
    rc = exactdp_discrete_gaussian_new("7/3", EXACTDP_HARDENED, &own);
    exactdp_sampler_free(own);
  }
  if (rc == 0) {
    double x[4] = {1.0, 2.0, 3.0, 4.0};
    int k = 20;
    rc = exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", &k, EXACTDP_HARDENED, w->seed, 1, x, x, 4, NULL);
  }
  if (rc == 0) {
    static const char *const scores[] = {"1", "2", "3"};
    exactdp_selection *selection = NULL;
    size_t index = 0;
    rc = exactdp_selection_new("report-noisy-max", NULL, "1", "1", 0, scores, 3, &selection);
    if (rc == 0) rc = exactdp_select(selection, b, &index);
    exactdp_selection_free(selection);
  }
  /* a thread's error message is its own */
  w->own_message_ok = exactdp_discrete_gaussian_new("-2", 0, &bad) == EXACTDP_E_PARAM &&
                      strstr(exactdp_last_error(), "sigma2 = -2") != NULL;
  exactdp_bits_free(b);
  w->rc = rc;
  return NULL;
}

static void test_threads(void) {
  static struct worker workers[kThreads];
  pthread_t threads[kThreads];
  exactdp_sampler *plain = NULL, *hardened = NULL, *bad = NULL;
  exactdp_sampler_options o;
  int i;

  exactdp_sampler_options_init(&o);
  o.mean = "12";
  OK(exactdp_discrete_gaussian_new_ex("10/3", &o, &plain));
  OK(exactdp_discrete_laplace_new("5/2", EXACTDP_HARDENED, &hardened));
  CHECK_RC(exactdp_discrete_laplace_new("0", 0, &bad), EXACTDP_E_PARAM, "scale = 0");
  for (i = 0; i < kThreads; ++i) {
    memset(&workers[i], 0, sizeof workers[i]);
    workers[i].plain = plain;
    workers[i].hardened = hardened;
    workers[i].seed[0] = (unsigned char)(i + 1);
    CHECK(pthread_create(&threads[i], NULL, work, &workers[i]) == 0);
  }
  for (i = 0; i < kThreads; ++i) CHECK(pthread_join(threads[i], NULL) == 0);
  /* the other threads' errors did not touch this thread's message */
  CHECK(strstr(exactdp_last_error(), "scale = 0") != NULL);

  /* each thread's values equal a serial replay of its seed */
  for (i = 0; i < kThreads; ++i) {
    struct worker replay;
    exactdp_bits *b = NULL;
    int k;
    CHECK(workers[i].rc == 0);
    CHECK(workers[i].own_message_ok);
    memset(&replay, 0, sizeof replay);
    OK(exactdp_bits_seeded(workers[i].seed, &b));
    for (k = 0; k < kDraws; k += 100) {
      OK(exactdp_sample_int64(plain, b, replay.plain_out + k, 100));
      OK(exactdp_sample_int64(hardened, b, replay.hardened_out + k, 100));
    }
    OK(exactdp_sample_decimal(plain, b, replay.decimal, sizeof replay.decimal));
    CHECK(memcmp(replay.plain_out, workers[i].plain_out, sizeof replay.plain_out) == 0);
    CHECK(memcmp(replay.hardened_out, workers[i].hardened_out, sizeof replay.hardened_out) == 0);
    CHECK(strcmp(replay.decimal, workers[i].decimal) == 0);
    CHECK(strcmp(workers[i].delta_upper, workers[0].delta_upper) == 0);
    if (i > 0) CHECK(memcmp(workers[i].plain_out, workers[0].plain_out, sizeof replay.plain_out) != 0);
    exactdp_bits_free(b);
  }
  exactdp_sampler_free(plain);
  exactdp_sampler_free(hardened);
}

/* Exact selection (exactdp_selection_*): reproducible draws, indices in range, peeling gives
 * distinct indices, errors name the parameter. The laws are tested in C++
 * (tests/mechanisms/selection_law_test.cc). */
static void test_selection(void) {
  static const char *const scores[] = {"1", "2", "3", "-1/2", "0.25"};
  static const char *const bad[] = {"1", "x"};
  static const char *const mechanisms[] = {"exponential", "permute-and-flip", "report-noisy-max"};
  exactdp_selection *sel = NULL, *twin = NULL;
  exactdp_bits *a = NULL, *b = NULL;
  size_t i, m, x = 99, y = 99, top[5];
  for (m = 0; m < 3; ++m) {
    /* the same seed on two fresh selections gives the same draws */
    a = seeded(kSeedOne);
    b = seeded(kSeedOne);
    OK(exactdp_selection_new(mechanisms[m], NULL, "1", "1", 0, scores, 5, &sel));
    OK(exactdp_selection_new(mechanisms[m], NULL, "1", "1", 0, scores, 5, &twin));
    for (i = 0; i < 20; ++i) {
      OK(exactdp_select(sel, a, &x));
      OK(exactdp_select(twin, b, &y));
      CHECK(x < 5 && x == y);
    }
    exactdp_selection_free(twin);
    OK(exactdp_select_top(sel, a, 5, top));
    CHECK(top[0] != top[1] && top[0] + top[1] + top[2] + top[3] + top[4] == 10);
    CHECK_RC(exactdp_select_top(sel, a, 6, top), EXACTDP_E_PARAM, "top");
    exactdp_selection_free(sel);
    sel = NULL;
    exactdp_bits_free(b);
    if (m < 2) exactdp_bits_free(a);
  }
  OK(exactdp_selection_new("report-noisy-max", "exponential", "1/2", "1", 0, scores, 5, &sel));
  exactdp_selection_free(sel);
  sel = NULL;
  CHECK_RC(exactdp_selection_new("gumbel", NULL, "1", "1", 0, scores, 5, &sel), EXACTDP_E_PARAM, "mechanism");
  CHECK_RC(exactdp_selection_new("exponential", NULL, "0", "1", 0, scores, 5, &sel), EXACTDP_E_PARAM, "epsilon");
  CHECK_RC(exactdp_selection_new("exponential", NULL, "1", "-1", 0, scores, 5, &sel), EXACTDP_E_PARAM, "sensitivity");
  CHECK_RC(exactdp_selection_new("permute-and-flip", NULL, "1", "1", 1, scores, 5, &sel), EXACTDP_E_PARAM, "monotonic");
  CHECK_RC(exactdp_selection_new("exponential", NULL, "1", "1", 0, bad, 2, &sel), EXACTDP_E_PARAM, "scores");
  CHECK_RC(exactdp_selection_new("exponential", NULL, "1", "1", 0, scores, 0, &sel), EXACTDP_E_PARAM, "n");
  CHECK_RC(exactdp_selection_new("exponential", NULL, "1", "1", 0, scores, 5, NULL), EXACTDP_E_NULL, "out");
  CHECK(sel == NULL);
  CHECK_RC(exactdp_select(NULL, a, &x), EXACTDP_E_NULL, "selection");
  exactdp_selection_free(NULL);
  exactdp_bits_free(a);
}

/* Draws n values from a and from b on two fresh sources of the same seed: 1 when they agree
 * value for value and bit for bit (int64 path), and on the decimal path for the next draw. */
static int same_draws(const exactdp_sampler *a, const exactdp_sampler *b, const char *seed, size_t n) {
  int64_t x[64], y[64];
  char dx[32], dy[32];
  uint64_t used_a = 0, used_b = 1;
  exactdp_bits *ba = seeded(seed), *bb = seeded(seed);
  int same = n <= 64;
  if (same) {
    OK(exactdp_sample_int64(a, ba, x, n));
    OK(exactdp_sample_int64(b, bb, y, n));
    OK(exactdp_sample_decimal(a, ba, dx, sizeof dx));
    OK(exactdp_sample_decimal(b, bb, dy, sizeof dy));
    OK(exactdp_bits_consumed(ba, &used_a));
    OK(exactdp_bits_consumed(bb, &used_b));
    same = memcmp(x, y, n * sizeof x[0]) == 0 && strcmp(dx, dy) == 0 && used_a == used_b;
  }
  exactdp_bits_free(ba);
  exactdp_bits_free(bb);
  return same;
}

/* exactdp_sampler_new: the registry's laws by name, the staircase from C. */
static void test_sampler_new(void) {
  static const int64_t staircase[8] = KA_STAIRCASE;
  static const int64_t staircase_r2[6] = KA_STAIRCASE_R2;
  static const int64_t hardened_gaussian[5] = KA_HGAUSSIAN;
  static const char *const st_names[] = {"gamma", "sensitivity"};
  static const char *const st_values[] = {"1", "3"};
  static const char *const r2_names[] = {"mean", "r", "gamma", "sensitivity"};
  static const char *const r2_values[] = {"-100", "2", "1/2", "5"};
  static const char *const dg_names[] = {"sigma2", "mean"};
  static const char *const dg_values[] = {"10", "5"};
  static const char *const null_name[] = {"gamma", NULL};
  static const char *const null_value[] = {"1", NULL};
  static const char *const unknown[] = {"gamma", "sensitivity", "tau_bits"};
  static const char *const unknown_values[] = {"1", "3", "64"};
  static const char *const twice[] = {"gamma", "gamma", "sensitivity"};
  static const char *const twice_values[] = {"1", "2", "3"};
  static const char *const bad_gamma[] = {"0", "3"};
  static const char *const bad_sensitivity[] = {"1", "1/2"};
  exactdp_sampler *s = NULL, *t = NULL, *keep = SENTINEL;
  exactdp_bits *b = NULL;
  int64_t x[8];
  char buf[128];
  int hardened = -1;
  uint64_t per = 0;

  /* the staircase, drawn from C: the command line's values for the same seed */
  OK(exactdp_sampler_new("staircase", st_names, st_values, 2, 0, &s));
  b = seeded(kSeedOne);
  OK(exactdp_sample_int64(s, b, x, 8));
  CHECK(memcmp(x, staircase, sizeof staircase) == 0);
  exactdp_bits_free(b);
  b = seeded(kSeedOne); /* the decimal path draws the same first value */
  OK(exactdp_sample_decimal(s, b, buf, sizeof buf));
  CHECK(strcmp(buf, "4") == 0);
  exactdp_bits_free(b);
  OK(exactdp_sampler_is_hardened(s, &hardened));
  CHECK(hardened == 0);
  CHECK_RC(exactdp_sampler_tau(s, buf, sizeof buf), EXACTDP_E_UNSUPPORTED, "not a hardened sampler");
  CHECK_RC(exactdp_sampler_delta(s, "1", NULL, buf, buf, sizeof buf), EXACTDP_E_UNSUPPORTED, "staircase");
  exactdp_sampler_free(s);
  OK(exactdp_sampler_new("staircase", r2_names, r2_values, 4, 0, &s)); /* any order, defaults off */
  b = seeded(kSeedOne);
  OK(exactdp_sample_int64(s, b, x, 6));
  CHECK(memcmp(x, staircase_r2, sizeof staircase_r2) == 0);
  exactdp_bits_free(b);
  exactdp_sampler_free(s);

  /* the discrete Gaussian, Laplace and Bernoulli by name: draw for draw the per-law samplers */
  OK(exactdp_sampler_new("discrete-gaussian", dg_names, dg_values, 2, 0, &s));
  {
    exactdp_sampler_options o;
    exactdp_sampler_options_init(&o);
    o.mean = "5";
    OK(exactdp_discrete_gaussian_new_ex("10", &o, &t));
  }
  CHECK(same_draws(s, t, kSeedZero, 64));
  CHECK(same_draws(s, t, kSeedOne, 64));
  OK(exactdp_sampler_delta(s, "1", "2", buf, buf + 64, 64)); /* its own sigma2 */
  exactdp_sampler_free(t);
  OK(exactdp_discrete_gaussian_new("10", 0, &t)); /* mean 0: other values (the check has power) */
  CHECK(!same_draws(s, t, kSeedZero, 64));
  exactdp_sampler_free(t);
  exactdp_sampler_free(s);
  CHECK_RC(exactdp_sampler_new("discrete-laplace", NULL, NULL, 0, 0, &s), EXACTDP_E_PARAM, "missing required parameter scale");
  {
    static const char *const n1[] = {"scale"};
    static const char *const v1[] = {"7/2"};
    OK(exactdp_sampler_new("discrete-laplace", n1, v1, 1, 0, &s));
    OK(exactdp_discrete_laplace_new("7/2", 0, &t));
    CHECK(same_draws(s, t, kSeedOne, 64));
    exactdp_sampler_free(t);
    exactdp_sampler_free(s);
    OK(exactdp_sampler_new("bernoulli-exp", st_names, v1, 1, 0, &s)); /* gamma = 7/2 */
    OK(exactdp_bernoulli_exp_new("7/2", 0, &t));
    CHECK(same_draws(s, t, kSeedOne, 64));
    exactdp_sampler_free(t);
    exactdp_sampler_free(s);
  }

  /* hardened by name: the isochronous sampler, its known answer, tau and bit count */
  {
    static const char *const n1[] = {"sigma2"};
    static const char *const v1[] = {"100"};
    uint64_t consumed = 0;
    OK(exactdp_sampler_new("discrete-gaussian", n1, v1, 1, EXACTDP_HARDENED, &s));
    b = seeded(kSeedZero);
    OK(exactdp_sample_int64(s, b, x, 5));
    CHECK(memcmp(x, hardened_gaussian, sizeof hardened_gaussian) == 0);
    OK(exactdp_bits_consumed(b, &consumed));
    OK(exactdp_sampler_bits_per_sample(s, &per));
    CHECK(per == 81 && consumed == 5 * per);
    OK(exactdp_sampler_is_hardened(s, &hardened));
    CHECK(hardened == 1);
    OK(exactdp_sampler_tau(s, buf, sizeof buf));
    exactdp_bits_free(b);
    OK(exactdp_discrete_gaussian_new("100", EXACTDP_HARDENED, &t));
    CHECK(same_draws(s, t, kSeedOne, 64));
    exactdp_sampler_free(t);
    exactdp_sampler_free(s);
  }

  /* refusals: *out untouched */
  CHECK_RC(exactdp_sampler_new("staircase", st_names, st_values, 2, EXACTDP_HARDENED, &keep),
           EXACTDP_E_PARAM, "hardened (EXACTDP_HARDENED) applies to");
  CHECK_RC(exactdp_sampler_new("bernoulli-exp", st_names, st_values, 1, EXACTDP_HARDENED, &keep),
           EXACTDP_E_PARAM, "not bernoulli-exp");
  CHECK_RC(exactdp_sampler_new("stairs", st_names, st_values, 2, 0, &keep), EXACTDP_E_PARAM, "unknown law 'stairs'");
  CHECK_RC(exactdp_sampler_new("gaussian", NULL, NULL, 0, 0, &keep), EXACTDP_E_PARAM, "unknown law 'gaussian' here: it has no sampler");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, st_values, 1, 0, &keep), EXACTDP_E_PARAM,
           "missing required parameter sensitivity");
  CHECK_RC(exactdp_sampler_new("staircase", unknown, unknown_values, 3, 0, &keep), EXACTDP_E_PARAM,
           "parameter tau_bits does not apply to staircase");
  CHECK_RC(exactdp_sampler_new("staircase", twice, twice_values, 3, 0, &keep), EXACTDP_E_PARAM, "gamma is given twice");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, bad_gamma, 2, 0, &keep), EXACTDP_E_PARAM, "gamma = 0");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, bad_sensitivity, 2, 0, &keep), EXACTDP_E_PARAM,
           "sensitivity");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, st_values, 2, 2, &keep), EXACTDP_E_PARAM, "flags");
  CHECK_RC(exactdp_sampler_new(NULL, st_names, st_values, 2, 0, &keep), EXACTDP_E_NULL, "law: null pointer");
  CHECK_RC(exactdp_sampler_new("staircase", NULL, st_values, 2, 0, &keep), EXACTDP_E_NULL, "names: null pointer");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, NULL, 2, 0, &keep), EXACTDP_E_NULL, "values: null pointer");
  CHECK_RC(exactdp_sampler_new("staircase", null_name, st_values, 2, 0, &keep), EXACTDP_E_NULL, "names[1]");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, null_value, 2, 0, &keep), EXACTDP_E_NULL, "values[1]");
  CHECK_RC(exactdp_sampler_new("staircase", st_names, st_values, 2, 0, NULL), EXACTDP_E_NULL, "out");
  CHECK(keep == SENTINEL);

  /* the list of laws */
  OK(exactdp_sampler_laws(buf, sizeof buf));
  CHECK(strstr(buf, "staircase") != NULL && strstr(buf, "discrete-gaussian") != NULL);
  CHECK(strstr(buf, "gdp") == NULL); /* privacy-only laws have no sampler */
  CHECK_RC(exactdp_sampler_laws(buf, 8), EXACTDP_E_BUFFER, NULL);
  CHECK_RC(exactdp_sampler_laws(NULL, 8), EXACTDP_E_NULL, "buf");
}

/* exactdp_law_delta / exactdp_law_calibrate: any registry law by name; the per-law calls are
 * these at a fixed law. */
static void test_law_accounting(void) {
  static const char *const dg_n[] = {"sigma2"}, *const dg_v[] = {"1"};
  static const char *const s_n[] = {"sensitivity"}, *const s_v[] = {"3"};
  static const char *const mean_n[] = {"sigma2", "mean"}, *const mean_v[] = {"1", "2"};
  char lo[EXACTDP_DECIMAL_LEN], up[EXACTDP_DECIMAL_LEN], lo2[EXACTDP_DECIMAL_LEN], up2[EXACTDP_DECIMAL_LEN];
  char name[EXACTDP_DECIMAL_LEN], value[EXACTDP_DECIMAL_LEN], sigma2[EXACTDP_DECIMAL_LEN];

  OK(exactdp_law_delta("discrete-gaussian", dg_n, dg_v, 1, "1", NULL, lo, up, sizeof lo));
  CHECK(strcmp(lo, KA_DG_DELTA_LOWER) == 0 && strcmp(up, KA_DG_DELTA_UPPER) == 0);
  OK(exactdp_law_delta("discrete-gaussian", dg_n, dg_v, 1, "1", "1e-6", lo, up, sizeof lo));
  OK(exactdp_discrete_gaussian_delta("1", "1", NULL, "1e-6", lo2, up2, sizeof lo2));
  CHECK(strcmp(lo, lo2) == 0 && strcmp(up, up2) == 0);
  /* a law no per-law call covers: the continuous Gaussian at its calibrated sigma meets the target */
  OK(exactdp_law_calibrate("gaussian", NULL, NULL, 0, "1", "1e-5", name, value, sizeof value));
  CHECK(strcmp(name, "sigma") == 0);
  {
    const char *const n[] = {"sigma"}, *const v[] = {value};
    OK(exactdp_law_delta("gaussian", n, v, 1, "1", NULL, lo, up, sizeof lo));
    /* a coarse bound on printed text; exact checks are in C++ */
    CHECK(strtod(up, NULL) <= 1e-5 && strtod(up, NULL) > 0.99e-5);
  }
  /* the discrete Gaussian's map is exactdp_calibrate_discrete_gaussian */
  OK(exactdp_law_calibrate("discrete-gaussian", s_n, s_v, 1, "1", "1e-5", name, value, sizeof value));
  OK(exactdp_calibrate_discrete_gaussian("1", "1e-5", "3", sigma2, sizeof sigma2));
  CHECK(strcmp(name, "sigma2") == 0 && strcmp(value, sigma2) == 0);
  /* the Laplace laws: scale = sensitivity / epsilon, exact */
  OK(exactdp_law_calibrate("discrete-laplace", s_n, s_v, 1, "9", "0", name, value, sizeof value));
  CHECK(strcmp(name, "scale") == 0 && strcmp(value, "0.33333333333333333334") == 0); /* 1/3, rounded up */
  OK(exactdp_law_calibrate("laplace", NULL, NULL, 0, "1/2", "0", name, value, sizeof value));
  CHECK(strcmp(value, "2") == 0);

  /* refused by name, or naming the parameter */
  CHECK_RC(exactdp_law_calibrate("staircase", NULL, NULL, 0, "1", "1e-5", name, value, sizeof value), EXACTDP_E_PARAM,
           "staircase");
  CHECK_RC(exactdp_law_calibrate("no-such-law", NULL, NULL, 0, "1", "1e-5", name, value, sizeof value),
           EXACTDP_E_PARAM, "law");
  CHECK_RC(exactdp_law_delta("bernoulli-exp", dg_n, dg_v, 1, "1", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM,
           "bernoulli-exp");
  CHECK_RC(exactdp_law_delta("discrete-gaussian", mean_n, mean_v, 2, "1", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM,
           "mean");
  CHECK_RC(exactdp_law_calibrate("gaussian", dg_n, dg_v, 1, "1", "1e-5", name, value, sizeof value), EXACTDP_E_PARAM,
           "sigma2");
  CHECK_RC(exactdp_law_calibrate("gaussian", NULL, NULL, 0, "1", "0", name, value, sizeof value), EXACTDP_E_PARAM,
           "delta");
  CHECK_RC(exactdp_law_calibrate("laplace", NULL, NULL, 0, "0", "0", name, value, sizeof value), EXACTDP_E_PARAM,
           "epsilon");
  CHECK_RC(exactdp_law_calibrate(NULL, NULL, NULL, 0, "1", "1e-5", name, value, sizeof value), EXACTDP_E_NULL, "law");
  CHECK_RC(exactdp_law_calibrate("laplace", NULL, NULL, 0, "1", "0", name, NULL, 8), EXACTDP_E_NULL, "value");
  CHECK_RC(exactdp_law_calibrate("laplace", NULL, NULL, 1, "1", "0", name, value, 8), EXACTDP_E_NULL, "names");
  CHECK_RC(exactdp_law_calibrate("laplace", NULL, NULL, 0, "1", "0", name, value, 1), EXACTDP_E_BUFFER, "value");
  CHECK_RC(exactdp_law_delta("gaussian", NULL, NULL, 0, "1", NULL, lo, up, sizeof lo), EXACTDP_E_PARAM, "sigma");
}

int main(void) {
  test_library();
  test_bits();
  test_construction_errors();
  test_known_answers();
  test_sampler_new();
  test_sample_int64();
  test_sample_decimal();
  test_hardened_queries();
  test_accounting();
  test_law_accounting();
  test_threads();
  test_selection();
  printf("c_api_test: %d checks, %d failed\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
