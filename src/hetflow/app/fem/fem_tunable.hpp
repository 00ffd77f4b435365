#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/fem/csr_matrix.hpp"
#include "hetflow/fem/device_csr.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The pressure SpMV shape the tuning database holds for the first device in FP64 (`hetflow tune fem`), or
// nothing; `record` (the manifest's "tuning") says what was found, or why an entry was ignored.
std::optional<fem::SpmvShape> tuned_spmv_shape(const core::DeviceSet& devices, nlohmann::json& record);

// The pressure matrix's pattern with the stiffness values ℓ_IJ = tr Λ_IJ off the diagonal and minus
// their row sum on it: the structure and scale of the matrix the pressure CG multiplies.
fem::CsrMatrix stiffness_matrix(const fem::EdgeData& data);

// The SpMV of the edge-based solver's pressure CG (docs/fem.md, "Pressure solver") on the first device:
// the multi-row shape (wg_bits, row_bits) for the stiffness matrix of a unit cube cut into cells³ cubes of
// 6 tets, in FP64 or FP32, timed by its profiling events.
tune::Tunable fem_tunable(const core::DeviceSet& devices, int cells, bool fp32, const tune::MeasureOptions& measure);

}  // namespace hetflow::app
