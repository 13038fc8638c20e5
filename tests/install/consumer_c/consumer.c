/* consumer.c — a C99 program built against an INSTALLED exactdp only (tests/install/
 * consumer_test.sh): through pkg-config (shared and --static) and as a CMake C project linking
 * exactdp::c. It checks the library's version against the one expected (argv[1]), the certified
 * calibration, a seeded draw reproduced exactly, and an error path; exit 0 when all hold. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <exactdp/exactdp.h>

static int failed(const char *what, int rc) {
  fprintf(stderr, "consumer_c: %s: %s: %s\n", what, exactdp_error_name(rc), exactdp_last_error());
  return 1;
}

int main(int argc, char **argv) {
  static const unsigned char seed[32] = {1, 2, 3};
  char sigma2[EXACTDP_DECIMAL_LEN];
  int64_t first[4], again[4];
  exactdp_sampler *sampler = NULL;
  exactdp_bits *bits = NULL;
  int rc, round;

  if (argc > 1 && strcmp(exactdp_version(), argv[1]) != 0) {
    fprintf(stderr, "consumer_c: library version %s, expected %s\n", exactdp_version(), argv[1]);
    return 1;
  }
  rc = exactdp_calibrate_discrete_gaussian("1", "1e-5", NULL, sigma2, sizeof sigma2);
  if (rc != EXACTDP_OK) return failed("calibrate", rc);
  rc = exactdp_discrete_gaussian_new(sigma2, 0, &sampler);
  if (rc != EXACTDP_OK) return failed("sampler", rc);
  for (round = 0; round < 2 && rc == EXACTDP_OK; ++round) {
    rc = exactdp_bits_seeded(seed, &bits);
    if (rc == EXACTDP_OK) rc = exactdp_sample_int64(sampler, bits, round ? again : first, 4);
    exactdp_bits_free(bits);
    bits = NULL;
  }
  exactdp_sampler_free(sampler);
  if (rc != EXACTDP_OK) return failed("sample", rc);
  if (memcmp(first, again, sizeof first) != 0) {
    fprintf(stderr, "consumer_c: the same seed gave different draws\n");
    return 1;
  }
  if (exactdp_discrete_laplace_new("-1", 0, &sampler) != EXACTDP_E_PARAM) {
    fprintf(stderr, "consumer_c: a negative scale was not refused\n");
    return 1;
  }
  printf("consumer_c: exactdp %s, sigma2 = %s, seeded draws %lld %lld %lld %lld\n",
         exactdp_version(), sigma2, (long long)first[0], (long long)first[1],
         (long long)first[2], (long long)first[3]);
  return 0;
}
