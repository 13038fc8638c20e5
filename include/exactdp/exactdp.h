/* exactdp.h — the C interface of exactdp (docs/DESIGN.md, "C interface contract"); installed as
 * <exactdp/exactdp.h>. Plain C99, usable from C, C++ and any language with a C FFI.
 *
 * What it offers: exact discrete Gaussian, discrete Laplace (both with an integer mean of any
 * size) and Bernoulli(exp(-gamma)) samplers, optionally the timing-hardened (isochronous)
 * discrete Gaussian / Laplace (EXACTDP_HARDENED, docs/HARDENED.md); every other law of the
 * library's registry by name (exactdp_sampler_new: the discrete staircase); the system CSPRNG
 * and a seeded ChaCha20 bit source; certified privacy profiles and the certified discrete Gaussian
 * calibration, returned as decimal text rounded outward. docs/C_API.md has a worked example.
 *
 * Conventions
 *  - Every number goes in as a decimal string, read EXACTLY: an integer ("-7"), a fraction
 *    ("3/2"), a decimal ("0.1", "1e-5"). Never a double.
 *  - Handles are opaque: exactdp_bits (a bit source) and exactdp_sampler (a validated, ready
 *    sampler). Made by a *_new / exactdp_bits_* call, released by the matching *_free call,
 *    which accepts NULL.
 *  - Every int-returning call returns EXACTDP_OK (0) or a negative EXACTDP_E_* code, and sets a
 *    thread-local message that exactdp_last_error() returns (naming the parameter, its value
 *    and the allowed range, e.g. "sigma2 = -1 is out of range: allowed sigma2 > 0"). Outputs
 *    through pointers are written only on success, except where a call says otherwise.
 *  - No C++ exception ever crosses this interface (not even std::bad_alloc: EXACTDP_E_NOMEM).
 *  - Sizes are bounded before GMP allocates (every rational argument: 10,000 digits and a
 *    decimal exponent of at most 100,000; the scores of a selection: 2^28 bits in all), so no
 *    valid argument can reach GMP's own allocation failure, which prints "Cannot allocate
 *    memory" and aborts the process (GMP offers no way to recover). What remains is a machine
 *    genuinely out of memory for those bounded sizes (a few hundred MB at most); there GMP may
 *    still abort, as any C library that calls malloc may fail (SECURITY.md).
 *  - Text outputs go to a caller buffer (buf, len): on success it holds the NUL-terminated
 *    text; when the text and its NUL do not fit, the call fails with EXACTDP_E_BUFFER, writes
 *    "" when len > 0, and the message gives the size needed. EXACTDP_DECIMAL_LEN bytes always
 *    suffice for an interval end, a tau and a calibrated sigma2.
 *
 * Thread-safety (stated per function below): a sampler is immutable once made and may be
 * shared by any number of threads; a bit source is NOT thread-safe: use one per thread (or
 * lock around it). Accounting calls are pure and may run concurrently. Every call that uses MPFR
 * (accounting, sampler constructors, grid noise, selections) releases this thread's MPFR caches
 * before it returns, so a thread that ends leaves nothing allocated behind.
 *
 * Security: SECURITY.md. The plain samplers are exact but NOT constant-time (their running time
 * grows with |value|); the hardened ones are isochronous and charge their certified tau to delta.
 * The seeded bit source is for tests and audits only: anyone who knows the seed knows the noise.
 */
#ifndef EXACTDP_EXACTDP_H
#define EXACTDP_EXACTDP_H

#include <stddef.h>
#include <stdint.h>

/* EXACTDP_API marks the public symbols. Built as a shared library with -fvisibility=hidden, only
 * these are exported; in a static build it changes nothing. */
#if defined(_WIN32) && defined(EXACTDP_SHARED_BUILD)
#define EXACTDP_API __declspec(dllexport)
#elif defined(_WIN32) && defined(EXACTDP_SHARED)
#define EXACTDP_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define EXACTDP_API __attribute__((visibility("default")))
#else
#define EXACTDP_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Error codes ----------------------------------------------------------------------- */
#define EXACTDP_OK 0
/* A parameter is malformed or out of range (the message names it, its value and the range);
 * also a flag or option that does not apply, and a hardened parameter outside the hardened
 * range (never a silent fallback to the plain sampler). */
#define EXACTDP_E_PARAM (-1)
/* A required pointer argument is NULL (the message names the argument). */
#define EXACTDP_E_NULL (-2)
/* An output buffer is too small (the message says how many bytes are needed). */
#define EXACTDP_E_BUFFER (-3)
/* A sampled value does not fit in int64_t (exactdp_sample_int64; the draw is spent). Use
 * exactdp_sample_decimal for such laws. */
#define EXACTDP_E_RANGE (-4)
/* A parameter is over a documented resource limit (SECURITY.md, "Limits"), e.g. more than
 * 10000 digits, or a calibration that found no certified bracket. */
#define EXACTDP_E_LIMIT (-5)
/* The call does not apply to this kind of sampler (e.g. the tau of a plain sampler). */
#define EXACTDP_E_UNSUPPORTED (-6)
/* Out of memory (std::bad_alloc inside the library). */
#define EXACTDP_E_NOMEM (-7)
/* Anything else: a bug in exactdp; please report it with the message. */
#define EXACTDP_E_INTERNAL (-8)

/* Bytes that always suffice for a decimal interval end, a tau or a calibrated sigma2. */
#define EXACTDP_DECIMAL_LEN 64
/* Significant digits of the decimal interval ends and of tau (rounded outward / up). */
#define EXACTDP_DECIMAL_DIGITS 20

/* ---- Library --------------------------------------------------------------------------- */

/* The library version, "MAJOR.MINOR.PATCH" (static storage). Thread-safe. */
EXACTDP_API const char *exactdp_version(void);

/* The message of the most recent int-returning exactdp call on THIS thread: "" when it
 * succeeded. Valid until this thread's next exactdp call. Thread-safe (thread-local). */
EXACTDP_API const char *exactdp_last_error(void);

/* A constant name for a code ("EXACTDP_E_PARAM", "EXACTDP_OK"; "unknown" otherwise), static
 * storage. Thread-safe. */
EXACTDP_API const char *exactdp_error_name(int code);

/* ---- Bit sources ----------------------------------------------------------------------- */
typedef struct exactdp_bits exactdp_bits;

/* The operating system's CSPRNG (libsodium randombytes_buf), buffered; the buffer is wiped on
 * free and never survives fork() into a child. The default for real noise. Aborts the process
 * if the OS cannot supply entropy (never hands out weak bytes). */
EXACTDP_API int exactdp_bits_system(exactdp_bits **out);
/* A keyed ChaCha20 stream (32-byte seed): the same seed gives the same bits, and the same
 * samples as the C++ and command-line interfaces (--seed). TESTS AND AUDITS ONLY. The all-zero
 * seed is refused (EXACTDP_E_PARAM), as on the command line: it is a key everyone knows and what
 * a seed buffer that was never filled holds. */
EXACTDP_API int exactdp_bits_seeded(const unsigned char seed[32], exactdp_bits **out);
/* exactdp_bits_seeded that also accepts the all-zero seed (the command line's --allow-weak-seed),
 * for tests whose known answers are pinned to it. */
EXACTDP_API int exactdp_bits_seeded_weak(const unsigned char seed[32], exactdp_bits **out);
/* The same, the seed as exactly 64 hex digits (the command line's --seed); all-zero refused. */
EXACTDP_API int exactdp_bits_seeded_hex(const char *seed_hex, exactdp_bits **out);
/* Random bits handed out by this source so far (the figure exactdp reports per sample). */
EXACTDP_API int exactdp_bits_consumed(const exactdp_bits *bits, uint64_t *out);
/* Wipes and releases the source; NULL is a no-op. */
EXACTDP_API void exactdp_bits_free(exactdp_bits *bits);
/* Thread-safety: one bit source per thread; a source must not be used by two threads at once. */

/* ---- Samplers -------------------------------------------------------------------------- */
typedef struct exactdp_sampler exactdp_sampler;

/* flags: 0 (the exact sampler) or EXACTDP_HARDENED (the isochronous sampler: every draw runs the
 * same instructions, memory accesses and number of random bits; its law is within a certified
 * total-variation distance tau <= 2^-tau_bits of the exact law, charged to delta). Hardened
 * range: discrete Gaussian 1/100 <= sigma2 <= 2^100, discrete Laplace 1/100 <= scale <= 2^50,
 * numerator and denominator below 2^128, |mean| <= 2^62; outside it EXACTDP_E_PARAM naming the
 * parameter. Unknown flag bits are EXACTDP_E_PARAM naming "flags". */
#define EXACTDP_HARDENED 1

/* Options of the *_new_ex calls. Initialise with exactdp_sampler_options_init, then set fields.
 * struct_size lets the struct grow without breaking callers: this version accepts exactly its own
 * size (EXACTDP_E_PARAM naming options.struct_size otherwise); a later version will also accept
 * this size, with its new fields at their defaults. */
typedef struct exactdp_sampler_options {
  size_t struct_size;  /* sizeof(exactdp_sampler_options); set by exactdp_sampler_options_init */
  int flags;           /* 0 or EXACTDP_HARDENED */
  const char *mean;    /* an integer of any size as text ("-12", "1e30"); NULL means 0 */
  unsigned tau_bits;   /* with EXACTDP_HARDENED: tau <= 2^-tau_bits, 40..128; 0: the default 64.
                          Without EXACTDP_HARDENED it must be 0. */
} exactdp_sampler_options;

/* Sets *options to the defaults (flags 0, mean 0, tau_bits 0) and its struct_size. NULL: no-op. */
EXACTDP_API void exactdp_sampler_options_init(exactdp_sampler_options *options);

/* Discrete Gaussian N_Z(mean, sigma2): P[X = x] proportional to exp(-(x - mean)^2 / (2 sigma2)),
 * sigma2 > 0 a rational (CKS20 Alg. 3). Validates and builds everything (the hardened tables:
 * 1 to 6 ms) before any randomness is drawn. Thread-safe. */
EXACTDP_API int exactdp_discrete_gaussian_new(const char *sigma2, int flags, exactdp_sampler **out);
EXACTDP_API int exactdp_discrete_gaussian_new_ex(const char *sigma2,
                                                 const exactdp_sampler_options *options,
                                                 exactdp_sampler **out);
/* Discrete Laplace: P[X = x] proportional to exp(-|x - mean| / scale), scale > 0 a rational
 * (CKS20 Alg. 2). Thread-safe. */
EXACTDP_API int exactdp_discrete_laplace_new(const char *scale, int flags, exactdp_sampler **out);
EXACTDP_API int exactdp_discrete_laplace_new_ex(const char *scale,
                                                const exactdp_sampler_options *options,
                                                exactdp_sampler **out);
/* Bernoulli(exp(-gamma)): 1 with probability exp(-gamma), gamma >= 0 a rational (CKS20 Alg. 1).
 * flags must be 0 (there is no hardened Bernoulli). Thread-safe. */
EXACTDP_API int exactdp_bernoulli_exp_new(const char *gamma, int flags, exactdp_sampler **out);

/* Any noise law of the library's registry by name, e.g. "staircase", "discrete-gaussian",
 * "discrete-laplace", "bernoulli-exp" (exactdp_sampler_laws lists them; `exactdp laws` shows
 * each law's parameters). Parameters go by name: names[i] = values[i] for i < count, each value a
 * decimal string read exactly ({"gamma", "sensitivity"} = {"1", "3"}); a parameter with a
 * default may be left out (mean: 0; the staircase's r: its optimum); count 0 allows NULL names
 * and values. The sampler is the law's own: the same seed gives the same values as
 * `exactdp sample LAW --NAME VALUE ... --seed` (and, for the discrete Gaussian / Laplace and
 * Bernoulli, as the calls above with the same parameters). flags: 0 or EXACTDP_HARDENED (tau_bits
 * 64; exactdp_*_new_ex for another). Errors (EXACTDP_E_PARAM unless said): law, out NULL, or
 * names / values NULL with count > 0, or a NULL names[i] / values[i]: EXACTDP_E_NULL naming it;
 * an unknown law, a law without a sampler, or EXACTDP_HARDENED for a law without a hardened
 * sampler (the staircase): naming "law" and the laws that have one; an unknown or repeated name,
 * a missing required parameter or a value out of range: naming the parameter and its allowed
 * range; unknown flag bits: naming "flags". exactdp_sample_int64 / _decimal, _is_hardened, _tau
 * and _bits_per_sample work on it as on the per-law samplers; exactdp_sampler_delta covers its
 * discrete Gaussian and discrete Laplace (EXACTDP_E_UNSUPPORTED for other laws). Validates and
 * builds everything before any randomness is drawn. Thread-safe. */
EXACTDP_API int exactdp_sampler_new(const char *law, const char *const *names,
                                    const char *const *values, size_t count, int flags,
                                    exactdp_sampler **out);
/* The laws exactdp_sampler_new can sample, as text separated by ", " ("discrete-gaussian,
 * discrete-laplace, bernoulli-exp, staircase"). 128 bytes suffice today; EXACTDP_E_BUFFER gives
 * the size needed. Thread-safe. */
EXACTDP_API int exactdp_sampler_laws(char *buf, size_t len);

/* Releases a sampler; NULL is a no-op. Not while another thread is still drawing from it. */
EXACTDP_API void exactdp_sampler_free(exactdp_sampler *sampler);

/* Draws n values into out[0..n-1] (n = 0 draws nothing; out may then be NULL). The same seed
 * gives the same values as the C++ samplers. A law whose sample is several draws (the
 * distributed discrete Gaussian: one per surviving client) is charged n of them first, as
 * `exactdp sample -n` is: over the cost limit, EXACTDP_E_LIMIT naming "n" with the most samples
 * allowed, before anything is drawn (SECURITY.md, "Limits"). Plain samplers: exact; a value
 * outside int64_t fails with EXACTDP_E_RANGE (the draws made are spent; out[0..n-1] is then
 * unspecified; do not drop the failing draw and retry, which would bias the law; use
 * exactdp_sample_decimal).
 * Hardened samplers: the isochronous path, no branch on the values, no error after the handle
 * checks (every value fits). Thread-safety: the sampler may be shared; bits must be this
 * thread's own. */
EXACTDP_API int exactdp_sample_int64(const exactdp_sampler *sampler, exactdp_bits *bits,
                                     int64_t *out, size_t n);

/* Draws one value and writes it as decimal text ("-12345678901234567890123") into buf. Any size.
 * A buffer too small fails with EXACTDP_E_BUFFER after the draw (it is spent); 24 bytes hold any
 * int64 value. Hardened samplers draw isochronously; only the printing depends on the value.
 * Thread-safety: as exactdp_sample_int64. */
EXACTDP_API int exactdp_sample_decimal(const exactdp_sampler *sampler, exactdp_bits *bits,
                                       char *buf, size_t len);

/* 1 in *out when the sampler is hardened, 0 otherwise. Thread-safe. */
EXACTDP_API int exactdp_sampler_is_hardened(const exactdp_sampler *sampler, int *out);
/* A hardened sampler's certified total-variation distance from the exact law, tau_upper
 * (<= 2^-tau_bits), as decimal text rounded UP to EXACTDP_DECIMAL_DIGITS significant digits.
 * EXACTDP_E_UNSUPPORTED for a plain sampler (it is exact: tau = 0). Thread-safe. */
EXACTDP_API int exactdp_sampler_tau(const exactdp_sampler *sampler, char *buf, size_t len);
/* A hardened sampler's random bits per draw (the same on every draw).
 * EXACTDP_E_UNSUPPORTED for a plain sampler (its bit count varies). Thread-safe. */
EXACTDP_API int exactdp_sampler_bits_per_sample(const exactdp_sampler *sampler, uint64_t *out);

/* ---- Certified accounting -------------------------------------------------------------- */
/* Results are decimal text with EXACTDP_DECIMAL_DIGITS significant digits rounded OUTWARD:
 * printed lower <= true value <= printed upper (the upper end is the one a guarantee uses).
 * Both buffers have `len` bytes (EXACTDP_DECIMAL_LEN suffice). All are pure and thread-safe;
 * MPFR's thread-local caches are released before each call returns. */

/* delta(epsilon) of adding discrete Gaussian noise N_Z(0, sigma2) to an integer query of
 * sensitivity `sensitivity` (a positive integer; NULL means 1): CKS20 Theorem 7, exact.
 * tau: NULL, or a hardened sampler's tau (exactdp_sampler_tau); then the result is
 * delta + (1 + e^epsilon) tau (accounting/hardened_charge.h). */
EXACTDP_API int exactdp_discrete_gaussian_delta(const char *epsilon, const char *sigma2,
                                                const char *sensitivity, const char *tau,
                                                char *lower, char *upper, size_t len);
/* The same for discrete Laplace noise of the given scale (exact closed form). */
EXACTDP_API int exactdp_discrete_laplace_delta(const char *epsilon, const char *scale,
                                               const char *sensitivity, const char *tau,
                                               char *lower, char *upper, size_t len);
/* delta(epsilon) of this sampler's own noise (its sigma2 or scale; the mean does not matter),
 * charging a hardened sampler's exact tau_upper. EXACTDP_E_UNSUPPORTED for Bernoulli. */
EXACTDP_API int exactdp_sampler_delta(const exactdp_sampler *sampler, const char *epsilon,
                                      const char *sensitivity, char *lower, char *upper,
                                      size_t len);

/* The discrete Gaussian sigma2 to use for (epsilon, delta)-DP at the given integer sensitivity
 * (NULL means 1): a convenient exact decimal (3 or 4 significant digits, e.g. "13.7") whose
 * certified delta meets the target, within 1% of the optimum (accounting/
 * discrete_gaussian_calibration.h). epsilon >= 0, 0 < delta < 1. Thread-safe. Cost: well under
 * a second. */
EXACTDP_API int exactdp_calibrate_discrete_gaussian(const char *epsilon, const char *delta,
                                                    const char *sensitivity, char *sigma2,
                                                    size_t len);

/* Any law of the library's registry by name (`exactdp laws` lists them; docs/C_API.md): its
* parameters as names[i] = values[i] (decimal text or p/q), count pairs. */
/* delta(epsilon) of a law with a certified profile at its noise and privacy parameters, e.g.
 * law "gaussian" with sigma = 3/2, sensitivity = 1 (defaults filled as the law's schema says;
 * a sampling parameter such as mean is refused). tau: as for exactdp_discrete_gaussian_delta.
 * A law without a certified profile: EXACTDP_E_PARAM naming "law". */
EXACTDP_API int exactdp_law_delta(const char *law, const char *const *names,
                                  const char *const *values, size_t count, const char *epsilon,
                                  const char *tau, char *lower, char *upper, size_t len);
/* The law's calibration map: the noise parameter, certified private, for (epsilon, delta)-DP
 * at its privacy parameters (names/values: sensitivity, default 1). Writes the parameter's name
 * ("sigma", "sigma2", "scale") to `parameter` and its value to `value`: exact when its decimal
 * has at most EXACTDP_DECIMAL_DIGITS significant digits (every calibrated sigma2), else rounded
 * UP to that many (a larger sigma or scale is at least as private). Laws with one: gaussian
 * (analytic Gaussian), discrete-gaussian (as exactdp_calibrate_discrete_gaussian), laplace and
 * discrete-laplace (scale = sensitivity / epsilon, epsilon > 0, pure DP: 0 <= delta < 1). A law
 * without one: EXACTDP_E_PARAM naming "law". Both buffers have `len` bytes (EXACTDP_DECIMAL_LEN
 * suffice). */
EXACTDP_API int exactdp_law_calibrate(const char *law, const char *const *names,
                                      const char *const *values, size_t count,
                                      const char *epsilon, const char *delta, char *parameter,
                                      char *value, size_t len);

/* ---- Exact private selection (mechanisms/selection/selection.h; docs/SELECTION.md) -------- */
/* A selection over n candidates with exact rational scores: the exponential mechanism,
 * permute-and-flip or report-noisy-max, sampled exactly (no floating point). */
typedef struct exactdp_selection exactdp_selection;

/* Makes a selection. mechanism: "exponential", "permute-and-flip" or "report-noisy-max";
 * noise: NULL or "laplace" (discrete Laplace, the default) or "exponential" (report-noisy-max
 * only); epsilon: 0 < epsilon <= 10^6; sensitivity > 0; monotonic: 0, or 1 when every score moves
 * in the same direction between neighbours (exponential, report-noisy-max with laplace noise);
 * scores[0..n-1]: 1 <= n <= 10^6 decimal strings read exactly, together at most 2^28 bits of
 * numerators and denominators (EXACTDP_E_LIMIT naming "scores" and the first index over it,
 * e.g. 20,000 scores of "1e100000": checked as each is read, before GMP allocates more). Each
 * selection is (epsilon, 0)-DP. Errors name the parameter ("scores" for a bad score).
 * Thread-safe. */
EXACTDP_API int exactdp_selection_new(const char *mechanism, const char *noise, const char *epsilon,
                                      const char *sensitivity, int monotonic,
                                      const char *const *scores, size_t n,
                                      exactdp_selection **out);
/* Releases a selection; NULL is a no-op. */
EXACTDP_API void exactdp_selection_free(exactdp_selection *selection);
/* One selection: the chosen 0-based index in *index. NOT thread-safe: a selection keeps scratch
 * space, so use one per thread (unlike a sampler); bits must be this thread's own. */
EXACTDP_API int exactdp_select(exactdp_selection *selection, exactdp_bits *bits, size_t *index);
/* Peeling: k rounds, each removing the winner; k distinct indices in out[0..k-1] in the order
 * selected, 1 <= k <= n. k rounds are (k epsilon, 0)-DP (basic composition; `exactdp compose`
 * gives the optimal one). Refused before a bit is drawn (EXACTDP_E_LIMIT naming "top") when its
 * estimated work is over 3 x 10^6 candidate steps, as `exactdp select --top` (docs/SELECTION.md).
 * Thread-safety: as exactdp_select. */
EXACTDP_API int exactdp_select_top(exactdp_selection *selection, exactdp_bits *bits, size_t k,
                                   size_t *out);

/* ---- Grid noise for float arrays ------------------------------------------------------ */
/* out[i] = in[i] + exact discrete noise on the grid g Z, g = 2^-k (docs/REAL_VALUED.md): each
 * in[i] is mapped exactly to n_i = round_half_even(in[i] / g) (from its bit pattern, ties to
 * even), an exact integer Z_i of the law is added, and out[i] is the double (float) nearest
 * (n_i + Z_i) g, ties to even: EXACT whenever that value is representable (e.g. |n_i + Z_i| <
 * 2^53 for double, 2^24 for float, g no finer than the least subnormal); past the largest finite
 * value, +-the largest finite value (never inf). The conversion is post-processing.
 * law: "discrete-gaussian" (parameter "sigma" or "sigma2", Z_i with variance parameter
 * sigma2 / g^2) or "discrete-laplace" (parameter "scale", Z_i with scale / g); value: decimal
 * text read exactly ("3/2", "0.25"), in data units, > 0.
 * granularity_exponent: NULL for the automatic granularity (the largest g = 2^-k with
 * g <= sigma 2^-18, sigma = sqrt(sigma2) or the scale), or a pointer to k, |k| <= 4096 (0 is
 * g = 1). granularity_used: NULL, or receives the k used. flags: 0 or EXACTDP_HARDENED (the
 * isochronous sampler, tau_bits 64; its range 1/100 <= sigma2 / g^2 <= 2^100, resp. scale / g
 * <= 2^50; outside: EXACTDP_E_PARAM naming "granularity" with the allowed range).
 * seed: NULL for the OS CSPRNG (one source per thread), or 32 bytes: the array is cut into chunks
 * of 65536 values, chunk c drawing from the seed's ChaCha20 stream at block c 2^64, so the output
 * is the same for every thread count (TESTS AND AUDITS ONLY; the all-zero seed is refused).
 * threads: 1..256. in and out: n values each; out may be in (in place), otherwise they must not
 * overlap. n = 0 allows NULL in and out.
 * Errors (before anything is drawn or written): EXACTDP_E_NULL naming law, parameter, value, in
 * or out; EXACTDP_E_PARAM naming law, the parameter, granularity, flags, seed, threads, out
 * (overlap) or in ("in[17] is NaN; allowed: finite values": the first NaN or +-inf);
 * EXACTDP_E_LIMIT naming granularity when a given granularity makes the grid parameter so long
 * that the n draws are estimated over the cost limit (SECURITY.md, "Limits"; the automatic
 * granularity never is). Thread-safe (each call uses its own sources). */
EXACTDP_API int exactdp_add_noise_f64(const char *law, const char *parameter, const char *value,
                                      const int *granularity_exponent, int flags,
                                      const unsigned char *seed, unsigned threads, const double *in,
                                      double *out, size_t n, int *granularity_used);
/* The same for float arrays. */
EXACTDP_API int exactdp_add_noise_f32(const char *law, const char *parameter, const char *value,
                                      const int *granularity_exponent, int flags,
                                      const unsigned char *seed, unsigned threads, const float *in,
                                      float *out, size_t n, int *granularity_used);

/* ---- Federated rounds (distributed noise with secure aggregation) ----------------------- */
/* One round of KLS21's distributed discrete Gaussian (or Skellam) pipeline, exact
 * (docs/FEDERATED.md, "The client pipeline"): the client maps its float update to the lattice
 * g Z^d (g = 2^-k), clips it to L2 norm c exactly, pads it to D = 4^h >= d coordinates, rotates it
 * by the public randomized Hadamard matrix (signs from rotation_seed), rounds it to integers
 * (conditional randomized rounding with its norm check), adds its noise share and reduces modulo
 * 2^bits; the server decodes the modular sum of the clients' vectors. Client and server pass the
 * same params. Every text is a decimal read exactly ("1/100", "0.5").
 * flags: 0 draws the shares with the hardened (isochronous) discrete Gaussian, tau <= 2^-64 per
 * draw (the default); EXACTDP_FL_PLAIN with the exact sampler (required for skellam, which has no
 * hardened sampler). */
#define EXACTDP_FL_PLAIN 1
typedef struct exactdp_fl_params {
  size_t struct_size;          /* sizeof(exactdp_fl_params); set by exactdp_fl_params_init */
  size_t dimension;            /* d, 1..2^24 (skellam, mu / g^2 > 10^7: 1..2^20) */
  const char *clip;            /* c > 0, data units; c / g <= 2^40 */
  const char *granularity;     /* the exponent k of g = 2^-k as text; NULL: automatic */
  unsigned bits;               /* the modulus 2^bits, 8..62, bits + 2h <= 63 (default 32) */
  unsigned long long clients;  /* n, 1..2^32 (default 1) */
  const char *dropout;         /* 0 <= dropout < 1; NULL: 0 */
  const char *noise;           /* "discrete-gaussian" (NULL) or "skellam" */
  const char *noise_value;     /* sigma2 (discrete Gaussian) or mu (Skellam), data units, > 0 */
  const char *beta;            /* the rounding's retry bound, 2^-64..1/2; NULL: 1/2 */
  const char *max_wrap;        /* the largest wrap-around bound accepted, (0, 1]; NULL: 1e-6 */
  unsigned char rotation_seed[32]; /* public: the rotation's signs */
  int flags;                   /* 0 (hardened) or EXACTDP_FL_PLAIN */
} exactdp_fl_params;

/* Sets *params to the defaults above (and struct_size); clip and noise_value stay NULL. */
EXACTDP_API void exactdp_fl_params_init(exactdp_fl_params *params);
/* *padded = D, the length of an encoding (and of the modular sum). Validates params. */
EXACTDP_API int exactdp_fl_padded_dimension(const exactdp_fl_params *params, size_t *padded);
/* The certified upper bound on the probability that any coordinate of the modular sum wraps
 * around, as decimal text (rounded up), and, when event is not NULL, the round's accountant
 * event (compose --event syntax: "distributed-discrete-gaussian:sigma2=...,clients=...,
 * dropout=...,sensitivity=...,dim=D", or "skellam:mu=...,sensitivity=...,dim=D"). Both buffers
 * have len bytes (EXACTDP_E_BUFFER when a text does not fit). */
EXACTDP_API int exactdp_fl_report(const exactdp_fl_params *params, char *wrap_probability, char *event,
                                  size_t len);
/* The client: in[0..n) (n == d) -> out[0..out_len) (out_len == D), each in [0, 2^bits).
 * seed: NULL for the OS CSPRNG, or 32 bytes of a seeded stream (TESTS AND AUDITS ONLY; the
 * all-zero seed is refused). attempts: NULL, or the rounding attempts made (0 when all 64
 * failed and the client sent its noise alone). Allocates nothing beyond building the plan.
 * Errors (before anything is drawn or written): EXACTDP_E_NULL naming params, clip,
 * noise_value, in or out; EXACTDP_E_PARAM naming the parameter (dimension, c, granularity, bits,
 * clients, dropout, noise, sigma2 / mu, beta, max_wrap, hardened, flags, seed, out, or in:
 * "in[17] is NaN; allowed: finite values"), bits also when the modulus is too small for the noise
 * (the message gives the wrap-around bound); EXACTDP_E_LIMIT naming dimension or c.
 * Thread-safe (each call uses its own sources). */
EXACTDP_API int exactdp_fl_client_encode_f32(const exactdp_fl_params *params, const float *in, size_t n,
                                             const unsigned char *seed, uint64_t *out, size_t out_len,
                                             unsigned *attempts);
EXACTDP_API int exactdp_fl_client_encode_f64(const exactdp_fl_params *params, const double *in, size_t n,
                                             const unsigned char *seed, uint64_t *out, size_t out_len,
                                             unsigned *attempts);
/* The client with uint32_t residues (bits <= 32): as above into out[0..out_len) (out_len == D),
 * the encoder working in the caller's uint64_t workspace work[0..work_len) (work_len == D), which
 * is wiped before the call returns: nothing is allocated beyond building the plan. Errors (before
 * anything is drawn or written to out): as above, EXACTDP_E_NULL naming work, and EXACTDP_E_PARAM
 * naming bits (over 32), out or work (a length other than D). Thread-safe. */
EXACTDP_API int exactdp_fl_client_encode_f32_u32(const exactdp_fl_params *params, const float *in, size_t n,
                                                 const unsigned char *seed, uint32_t *out, size_t out_len,
                                                 uint64_t *work, size_t work_len, unsigned *attempts);
EXACTDP_API int exactdp_fl_client_encode_f64_u32(const exactdp_fl_params *params, const double *in, size_t n,
                                                 const unsigned char *seed, uint32_t *out, size_t out_len,
                                                 uint64_t *work, size_t work_len, unsigned *attempts);
/* The server: sum[0..sum_len) (sum_len == D, each entry below 2^bits: the clients' encodings
 * added modulo 2^bits) -> out[0..n) (n == d), the sum of the clients' clipped updates plus the
 * noise, in data units (the float nearest each exact value). sum is the workspace: overwritten.
 * Errors (before anything is written): as exactdp_fl_padded_dimension, and EXACTDP_E_PARAM naming
 * sum ("sum[3] = 300 is not below the modulus 2^8", or its length) or out (its length).
 * Thread-safe. */
EXACTDP_API int exactdp_fl_server_decode_f32(const exactdp_fl_params *params, uint64_t *sum, size_t sum_len,
                                             float *out, size_t n);
EXACTDP_API int exactdp_fl_server_decode_f64(const exactdp_fl_params *params, uint64_t *sum, size_t sum_len,
                                             double *out, size_t n);
/* The server from uint32_t residues (bits <= 32): as above, sum[0..sum_len) read only, the
 * decoder working in the caller's uint64_t workspace work[0..work_len) (work_len == D,
 * overwritten); for the same residues out is the same as the uint64_t entry points'. Errors
 * (before anything is written): as above, EXACTDP_E_NULL naming work, and EXACTDP_E_PARAM
 * naming bits (over 32) or work (a length other than D). Thread-safe. */
EXACTDP_API int exactdp_fl_server_decode_f32_u32(const exactdp_fl_params *params, const uint32_t *sum,
                                                 size_t sum_len, float *out, size_t n, uint64_t *work,
                                                 size_t work_len);
EXACTDP_API int exactdp_fl_server_decode_f64_u32(const exactdp_fl_params *params, const uint32_t *sum,
                                                 size_t sum_len, double *out, size_t n, uint64_t *work,
                                                 size_t work_len);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* EXACTDP_EXACTDP_H */
