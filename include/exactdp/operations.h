// operations.h — the operations of `exactdp` and of the Python package as C++ calls: one request
// and one report each, checked and computed by the same code as the command line's and Python's
// (docs/DESIGN.md, "Operations"), so a request answers the same numbers and is refused with the
// same parameter and allowed range (parameters spelled as in C: "missing required parameter
// sigma"). Installed; part of the source-compatibility promise (docs/ABI.md).
//
//   operation          request                           call                 header
//   sample             Sampler::make(law, arguments, options) -> Sampler     <exactdp/sampler.h>
//   laws               -                                 law_list()           <exactdp/laws.h>
//   profile            ProfileRequest                    profile()            <exactdp/profile.h>
//   calibrate          CalibrateRequest                  calibrate()          <exactdp/calibrate.h>
//   calibrate dp-sgd   CalibrateDpSgdRequest             calibrate_dp_sgd()   <exactdp/calibrate.h>
//   convert            ConvertRequest                    convert()            <exactdp/convert.h>
//   compose pure-dp    ComposePureDpRequest              compose_pure_dp()    <exactdp/compose.h>
//   measure-gdp        MeasureGdpRequest                 measure_gdp()        <exactdp/measure_gdp.h>
//
// Exact numbers are given as exact decimal text ("1/3", "0.1", "1e-5"), as the command line
// takes them, and counts (compose's k, DP-SGD's steps) as integers; reports hold exact rationals
// (mpq_class) and certified intervals (Interval, rounded outward). Every check and resource limit
// runs before any heavy work: ParameterError or LimitError (<exactdp/core/errors.h>) naming the
// parameter with its allowed range.
#pragma once

#include <exactdp/calibrate.h>
#include <exactdp/compose.h>
#include <exactdp/convert.h>
#include <exactdp/core/errors.h>
#include <exactdp/laws.h>
#include <exactdp/measure_gdp.h>
#include <exactdp/profile.h>
#include <exactdp/sampler.h>
