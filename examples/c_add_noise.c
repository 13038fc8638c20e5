/* c_add_noise.c — the C interface in a few lines: calibrate the discrete Gaussian for
 * (epsilon, delta) = (1, 1e-5), add its noise to three integer counts, and print the certified
 * guarantee. Built by default (examples/CMakeLists.txt); docs/C_API.md walks through it.
 *
 *   ./build/examples/c_add_noise            exact sampler
 *   ./build/examples/c_add_noise hardened   isochronous sampler; tau is charged to delta
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <exactdp/exactdp.h> /* installed: <exactdp/exactdp.h> */

static int fail(const char *what, int rc) {
  fprintf(stderr, "%s: %s: %s\n", what, exactdp_error_name(rc), exactdp_last_error());
  return 1;
}

int main(int argc, char **argv) {
  const int64_t counts[3] = {120, 45, 7};
  int64_t noise[3];
  char sigma2[EXACTDP_DECIMAL_LEN], lower[EXACTDP_DECIMAL_LEN], upper[EXACTDP_DECIMAL_LEN];
  const int flags = (argc > 1 && strcmp(argv[1], "hardened") == 0) ? EXACTDP_HARDENED : 0;
  exactdp_sampler *sampler = NULL;
  exactdp_bits *bits = NULL;
  int rc, i;

  /* 1. the noise scale: certified, for sensitivity 1 */
  rc = exactdp_calibrate_discrete_gaussian("1", "1e-5", NULL, sigma2, sizeof sigma2);
  if (rc != EXACTDP_OK) return fail("calibrate", rc);
  /* 2. a sampler (validated once) and a bit source (the OS CSPRNG; one per thread) */
  rc = exactdp_discrete_gaussian_new(sigma2, flags, &sampler);
  if (rc != EXACTDP_OK) return fail("sampler", rc);
  rc = exactdp_bits_system(&bits);
  if (rc != EXACTDP_OK) {
    exactdp_sampler_free(sampler);
    return fail("bits", rc);
  }
  /* 3. one batch of noise, added to the counts */
  rc = exactdp_sample_int64(sampler, bits, noise, 3);
  if (rc == EXACTDP_OK) {
    for (i = 0; i < 3; ++i) printf("count %d: %lld\n", i, (long long)(counts[i] + noise[i]));
    /* 4. the guarantee of this sampler's noise (with the hardened charge if any) */
    rc = exactdp_sampler_delta(sampler, "1", NULL, lower, upper, sizeof lower);
  }
  if (rc == EXACTDP_OK) {
    printf("discrete Gaussian sigma2 = %s%s: (1, %s)-DP per count\n", sigma2,
           flags ? " (hardened)" : "", upper);
  }
  exactdp_bits_free(bits);
  exactdp_sampler_free(sampler);
  return rc == EXACTDP_OK ? 0 : fail("noise", rc);
}
