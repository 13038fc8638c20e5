/* c_check.h — the checks of the C interface's C99 tests (tests/c/): CHECK(cond), CHECK_RC(call,
 * code, needle) (the return code, and the thread's last error message containing needle unless
 * it is NULL) and OK(call). Each failure is printed with its file and line and counted in
 * g_failures; a test's main returns g_failures == 0 ? 0 : 1. One test file per executable
 * includes it (the counters are static). */
#ifndef EXACTDP_TESTS_C_CHECK_H
#define EXACTDP_TESTS_C_CHECK_H

#include <stdio.h>
#include <string.h>

#include <exactdp/exactdp.h>

static int g_checks;
static int g_failures;

#define CHECK(cond)                                                                        \
  do {                                                                                     \
    ++g_checks;                                                                            \
    if (!(cond)) {                                                                         \
      ++g_failures;                                                                        \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: \"%s\"\n", __FILE__, __LINE__, \
              #cond, exactdp_last_error());                                                \
    }                                                                                      \
  } while (0)

/* Whether this thread's message contains needle (NULL: anything goes). */
static int message_has(const char *needle) {
  return needle == NULL || strstr(exactdp_last_error(), needle) != NULL;
}

/* The call returns `code` and, when `needle` is not NULL, the message contains it. */
#define CHECK_RC(call, code, needle)                                                          \
  do {                                                                                        \
    int rc_ = (call);                                                                         \
    ++g_checks;                                                                               \
    if (rc_ != (code)) {                                                                      \
      ++g_failures;                                                                           \
      fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s; last error: \"%s\"\n",       \
              __FILE__, __LINE__, #call, rc_, exactdp_error_name(rc_), #code,                 \
              exactdp_last_error());                                                          \
    } else if (!message_has(needle)) {                                                        \
      ++g_failures;                                                                           \
      fprintf(stderr, "%s:%d: %s: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, #call,  \
              exactdp_last_error(), (const char *)(needle));                                  \
    }                                                                                         \
  } while (0)

#define OK(call) CHECK_RC(call, EXACTDP_OK, NULL)

#endif /* EXACTDP_TESTS_C_CHECK_H */
