#pragma once
#include <filesystem>
#include <string>

#include "hetflow/fem/flow_state.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// The SHA-256 of a mesh's nodes, tets, boundary faces and patch names, in hex: a checkpoint holds it so
// that a restart on another mesh, or the same mesh numbered otherwise, is refused.
std::string mesh_hash(const Mesh& mesh);

// A flow state in a binary file (docs/fem.md, Checkpoints): a header line naming the format and version,
// the mesh hash, the node count, step and time, then uⁿ, pⁿ and ξ as native doubles. It is written under
// a temporary name and renamed, so a run killed while writing keeps the previous checkpoint.
void write_checkpoint(const std::filesystem::path& path, const Mesh& mesh, const FlowState& state);

// Reads a checkpoint back for `mesh`; io::FormatError names the file and what is wrong (not a
// checkpoint, another version, another mesh, a truncated file).
FlowState read_checkpoint(const std::filesystem::path& path, const Mesh& mesh);

}  // namespace hetflow::fem
