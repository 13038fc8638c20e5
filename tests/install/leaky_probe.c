/* leaky_probe.c — a shared library that exports one symbol beyond its public header, built with
 * default visibility and no version script: tests/install/check_exports.sh must reject it (the
 * ctest test shared_library_exports_catches_leak, the power of shared_library_exports). */
#include "leaky_probe.h"

int leaky_internal_helper(int x);
int leaky_internal_helper(int x) { return x + 1; }
int exactdp_probe(void) { return leaky_internal_helper(41); }
