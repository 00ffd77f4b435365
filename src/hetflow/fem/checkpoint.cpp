#include "hetflow/fem/checkpoint.hpp"

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "hetflow/core/sha256.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::fem {
namespace {

constexpr std::string_view magic = "hetflow fem checkpoint 1\n";

template <class T>
std::span<const unsigned char> bytes_of(const std::vector<T>& v) {
  return {reinterpret_cast<const unsigned char*>(v.data()), v.size() * sizeof(T)};
}

struct Header {
  char hash[64];
  std::uint64_t nodes;
  std::int64_t step;
  double time;
};

// Reads the checkpoint's bytes in order, failing with the file's name when they run out.
class Reader {
 public:
  Reader(const std::filesystem::path& path, const std::vector<char>& bytes) : path_(path), bytes_(bytes) {}

  void take(void* out, std::size_t n) {
    if (bytes_.size() - offset_ < n)
      throw io::FormatError(path_.string() + ": the checkpoint is truncated at byte " + std::to_string(bytes_.size()) +
                            " (" + std::to_string(offset_ + n) + " needed)");
    std::memcpy(out, bytes_.data() + offset_, n);
    offset_ += n;
  }
  std::size_t offset() const { return offset_; }

 private:
  const std::filesystem::path& path_;
  const std::vector<char>& bytes_;
  std::size_t offset_ = 0;
};

}  // namespace

std::string mesh_hash(const Mesh& mesh) {
  core::Sha256 sha;
  sha.update(bytes_of(mesh.nodes)).update(bytes_of(mesh.tets));
  for (const BoundaryFace& f : mesh.boundary)
    sha.update(std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(&f), sizeof f));
  for (const std::string& name : mesh.patches) sha.update(name).update(std::string_view("\0", 1));
  return sha.hex();
}

void write_checkpoint(const std::filesystem::path& path, const Mesh& mesh, const FlowState& state) {
  Header header{};
  const std::string hash = mesh_hash(mesh);
  std::memcpy(header.hash, hash.data(), sizeof header.hash);
  header.nodes = state.velocity.size();
  header.step = state.step;
  header.time = state.time;
  io::AtomicFile file(path);
  file.write(magic);
  file.write(&header, sizeof header);
  file.write(state.velocity.data(), state.velocity.size() * sizeof(Vec3));
  file.write(state.pressure.data(), state.pressure.size() * sizeof(double));
  file.write(state.projection.data(), state.projection.size() * sizeof(Vec3));
  file.commit();
}

FlowState read_checkpoint(const std::filesystem::path& path, const Mesh& mesh) {
  const std::vector<char> bytes = io::read_file_bytes(path);
  const std::string where = path.string() + ": ";
  if (bytes.size() < magic.size() || std::string_view(bytes.data(), magic.size()) != magic)
    throw io::FormatError(where + "not a hetflow fem checkpoint of this version (it starts \"" +
                          std::string(bytes.data(), std::min<std::size_t>(bytes.size(), magic.size() - 1)) +
                          "\", expected \"" + std::string(magic.substr(0, magic.size() - 1)) + "\")");
  Reader in(path, bytes);
  std::vector<char> skip(magic.size());
  in.take(skip.data(), skip.size());
  Header header{};
  in.take(&header, sizeof header);
  const std::string hash(header.hash, sizeof header.hash);
  if (hash != mesh_hash(mesh))
    throw io::FormatError(where + "the checkpoint was written for another mesh (mesh hash " + hash.substr(0, 12) +
                          "…, this mesh's " + mesh_hash(mesh).substr(0, 12) + "…): restart on the mesh of the run "
                          "that wrote it, with the same refinement and renumbering");
  if (header.nodes != mesh.nodes.size())
    throw io::FormatError(where + "the checkpoint holds " + std::to_string(header.nodes) + " nodes, the mesh " +
                          std::to_string(mesh.nodes.size()));
  FlowState state;
  state.step = header.step;
  state.time = header.time;
  state.velocity.resize(header.nodes);
  state.pressure.resize(header.nodes);
  state.projection.resize(header.nodes);
  in.take(state.velocity.data(), state.velocity.size() * sizeof(Vec3));
  in.take(state.pressure.data(), state.pressure.size() * sizeof(double));
  in.take(state.projection.data(), state.projection.size() * sizeof(Vec3));
  if (in.offset() != bytes.size())
    throw io::FormatError(where + std::to_string(bytes.size() - in.offset()) +
                          " bytes follow the checkpoint's state: not a checkpoint this version wrote");
  return state;
}

}  // namespace hetflow::fem
