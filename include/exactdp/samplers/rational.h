// samplers/rational.h — the old path of <exactdp/core/rational.h> (parse_rational, parse_integer,
// to_string of exact numbers), kept for one release: include <exactdp/core/rational.h>.
#pragma once

#include <exactdp/core/rational.h>
