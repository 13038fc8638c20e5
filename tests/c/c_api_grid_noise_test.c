/* c_api_grid_noise_test.c — exactdp_add_noise_f64 / _f32 (<exactdp/exactdp.h>) from C99, as a C
 * user would call them: the seeded output is the same for 1, 2 and 3 threads and in place, the
 * noise lies on the grid, huge and subnormal inputs stay finite, the granularity used is
 * reported, and every error path (NULL pointers, NaN naming its index, bad law / parameter /
 * granularity / flags / threads / seed, the hardened range, overlapping arrays, draws over the
 * cost limit) returns its code and leaves out untouched. Exit status 0 when every check passes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <exactdp/exactdp.h>

#include "c_check.h"

#define N 200000 /* four chunks of 65536, the last one partial */

static unsigned char g_seed[32];
static double g_x[N], g_y1[N], g_y2[N], g_y3[N];

static void fill_inputs(void) {
  size_t i;
  for (i = 0; i < 32; ++i) g_seed[i] = (unsigned char)(i * 37 + 1);
  for (i = 0; i < N; ++i) g_x[i] = ((double)(i % 1000) - 500.0) / 8.0;
  g_x[1] = -0.0;
  g_x[2] = 4.9406564584124654e-324; /* the least subnormal */
  g_x[3] = 1e300;
}

static void test_determinism(void) {
  int k = 6, used = -1;
  size_t i;
  int on_grid = 1;
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1/2", &k, 0, g_seed, 1, g_x, g_y1, N, &used));
  CHECK(used == 6);
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1/2", &k, 0, g_seed, 2, g_x, g_y2, N, NULL));
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1/2", &k, 0, g_seed, 3, g_x, g_y3, N, NULL));
  CHECK(memcmp(g_y1, g_y2, sizeof g_y1) == 0);
  CHECK(memcmp(g_y1, g_y3, sizeof g_y1) == 0);
  /* in place */
  memcpy(g_y2, g_x, sizeof g_x);
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1/2", &k, 0, g_seed, 3, g_y2, g_y2, N, NULL));
  CHECK(memcmp(g_y1, g_y2, sizeof g_y1) == 0);
  /* the noise lies on the grid 2^-6 (inputs are multiples of 1/8; outputs are exact here) */
  for (i = 4; i < N; ++i) {
    const double scaled = g_y1[i] * 64.0;
    if (scaled != floor(scaled)) on_grid = 0;
  }
  CHECK(on_grid);
  CHECK(isfinite(g_y1[3]) && g_y1[3] == 1e300); /* far beyond the noise: rounds back to itself */
  CHECK(g_y1[1] * 64.0 == floor(g_y1[1] * 64.0));
  /* automatic granularity: sigma = 1/2 gives k = 18 + 1 */
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1/2", NULL, 0, NULL, 2, g_x, g_y3, N, &used));
  CHECK(used == 19);
  /* laplace, hardened, float */
  {
    float xf[1000], yf[1000];
    for (i = 0; i < 1000; ++i) xf[i] = (float)i;
    OK(exactdp_add_noise_f32("discrete-laplace", "scale", "2", NULL, EXACTDP_HARDENED, g_seed, 2, xf, yf, 1000, &used));
    CHECK(used == 17);
    for (i = 0; i < 1000; ++i) CHECK(isfinite(yf[i]));
    OK(exactdp_add_noise_f32("discrete-gaussian", "sigma2", "4", NULL, 0, NULL, 1, xf, xf, 1000, NULL));
  }
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, NULL, 1, NULL, NULL, 0, NULL));
}

static void test_errors(void) {
  static const unsigned char zero_seed[32] = {0};
  double x[4] = {1.0, 2.0, 3.0, 4.0};
  double y[4] = {7.0, 7.0, 7.0, 7.0};
  int k = 51, big = 5000, used = -1;
  x[2] = NAN;
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, g_seed, 1, x, y, 4, &used),
           EXACTDP_E_PARAM, "in[2] is NaN; allowed: finite values");
  x[2] = -INFINITY;
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, g_seed, 1, x, y, 4, &used),
           EXACTDP_E_PARAM, "in[2] is -inf");
  x[2] = 3.0;
  CHECK(y[0] == 7.0 && y[3] == 7.0 && used == -1); /* nothing written on failure */
  CHECK_RC(exactdp_add_noise_f64(NULL, "sigma", "1", NULL, 0, NULL, 1, x, y, 4, NULL), EXACTDP_E_NULL, "law");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", NULL, "1", NULL, 0, NULL, 1, x, y, 4, NULL), EXACTDP_E_NULL,
           "parameter");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", NULL, NULL, 0, NULL, 1, x, y, 4, NULL),
           EXACTDP_E_NULL, "value");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, NULL, 1, NULL, y, 4, NULL),
           EXACTDP_E_NULL, "in");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, NULL, 1, x, NULL, 4, NULL),
           EXACTDP_E_NULL, "out");
  CHECK_RC(exactdp_add_noise_f64("staircase", "sigma", "1", NULL, 0, NULL, 1, x, y, 4, NULL), EXACTDP_E_PARAM, "law");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "scale", "1", NULL, 0, NULL, 1, x, y, 4, NULL), EXACTDP_E_PARAM,
           "allowed sigma or sigma2");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "-1", NULL, 0, NULL, 1, x, y, 4, NULL),
           EXACTDP_E_PARAM, "sigma");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", &big, 0, NULL, 1, x, y, 4, NULL), EXACTDP_E_PARAM,
           "granularity");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", &k, EXACTDP_HARDENED, NULL, 1, x, y, 4, NULL),
           EXACTDP_E_PARAM, "granularity = 2^-51");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 4, NULL, 1, x, y, 4, NULL), EXACTDP_E_PARAM,
           "flags");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, NULL, 0, x, y, 4, NULL), EXACTDP_E_PARAM,
           "threads");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, zero_seed, 1, x, y, 4, NULL),
           EXACTDP_E_PARAM, "seed");
  CHECK_RC(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1", NULL, 0, NULL, 1, x, x + 1, 3, NULL),
           EXACTDP_E_PARAM, "overlaps");
  CHECK(y[0] == 7.0 && y[1] == 7.0 && y[2] == 7.0 && y[3] == 7.0);
}

/* A given granularity that makes the grid parameter a 10^5-digit number (scale / g with
 * g = 2^4096): its draws are estimated over the cost limit (each takes about 22 ms) and refused
 * before anything is drawn, naming granularity; the same law at a short grid parameter runs. */
static void test_cost_limit(void) {
  double y[1000];
  int coarse = -4096, fine = 4096;
  size_t i;
  for (i = 0; i < 1000; ++i) y[i] = 7.0;
  CHECK_RC(exactdp_add_noise_f64("discrete-laplace", "scale", "1e99999", &coarse, 0, g_seed, 2, g_x, y, 1000, NULL),
           EXACTDP_E_LIMIT, "granularity 2^4096 for 1000 values");
  CHECK(y[0] == 7.0 && y[999] == 7.0);
  OK(exactdp_add_noise_f64("discrete-laplace", "scale", "1e99999", &coarse, 0, g_seed, 2, g_x, y, 2, NULL));
  OK(exactdp_add_noise_f64("discrete-gaussian", "sigma", "1000000000", &fine, 0, g_seed, 2, g_x, y, 1000, NULL));
}

int main(void) {
  fill_inputs();
  test_determinism();
  test_errors();
  test_cost_limit();
  printf("c_api_grid_noise_test: %d checks, %d failed\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
