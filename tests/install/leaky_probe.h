/* leaky_probe.h — the "public header" of tests/install/leaky_probe.c. */
#include <exactdp/exactdp.h> /* EXACTDP_API */
EXACTDP_API int exactdp_probe(void);
