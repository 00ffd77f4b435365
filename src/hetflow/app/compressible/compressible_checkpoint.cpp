#include "hetflow/app/compressible/compressible_checkpoint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::app {
namespace {

constexpr std::string_view kHeader = "hetflow compressible checkpoint 1\n";

template <class T>
void put(io::AtomicFile& file, const T& value) {
  file.write(&value, sizeof value);
}

// Reads values off the file's bytes, naming the file when they run out.
class Reader {
 public:
  Reader(const std::filesystem::path& path, std::vector<char> bytes) : path_(path), bytes_(std::move(bytes)) {}

  template <class T>
  T get() {
    T value;
    take(&value, sizeof value);
    return value;
  }
  void take(void* out, std::size_t n) {
    if (bytes_.size() - at_ < n) fail("it ends early (truncated?)");
    std::memcpy(out, bytes_.data() + at_, n);
    at_ += n;
  }
  bool starts_with(std::string_view text) {
    if (bytes_.size() < text.size() || std::string_view(bytes_.data(), text.size()) != text) return false;
    at_ = text.size();
    return true;
  }
  bool at_end() const { return at_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - at_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw io::FormatError(path_.string() + ": not a usable compressible checkpoint: " + what);
  }

 private:
  std::filesystem::path path_;
  std::vector<char> bytes_;
  std::size_t at_ = 0;
};

std::string grid_text(const CompressibleGrid& g) {
  return "roots [" + std::to_string(g.roots_x) + ", " + std::to_string(g.roots_y) + "], block_size " +
         std::to_string(g.block_size) + ", max_level " + std::to_string(g.max_level) + ", root_size " +
         std::to_string(g.root_size);
}

}  // namespace

mrag::BlockTree CompressibleCheckpoint::tree() const {
  mrag::BlockTree t(grid.roots_x, grid.roots_y, grid.max_level);
  // Refining each leaf's ancestors coarsest first reaches the leaves: the saved tree kept the jump limit,
  // so the neighbours a refinement drags along are refined in it too.
  for (int level = 0; level < grid.max_level; ++level)
    for (const mrag::BlockKey& leaf : leaves) {
      if (leaf.level <= level) continue;
      mrag::BlockKey ancestor = leaf;
      while (ancestor.level > level) ancestor = ancestor.parent();
      if (t.is_leaf(ancestor)) t.refine(ancestor);
    }
  return t;
}

CompressibleCheckpoint checkpoint_of(const mrag::BlockFlow& flow, const CompressibleGrid& grid) {
  return {
      grid, {flow.tree().leaves().begin(), flow.tree().leaves().end()}, flow.time(), flow.steps(), flow.conserved()};
}

void write_checkpoint(const std::filesystem::path& path, const CompressibleCheckpoint& c) {
  io::AtomicFile file(path);
  file.write(kHeader);
  const std::int32_t ints[] = {c.grid.roots_x, c.grid.roots_y, c.grid.block_size, c.grid.max_level};
  file.write(ints, sizeof ints);
  put(file, c.grid.root_size);
  put(file, c.time);
  put(file, static_cast<std::int64_t>(c.steps));
  put(file, static_cast<std::uint64_t>(c.leaves.size()));
  for (const mrag::BlockKey& k : c.leaves) {
    const std::int32_t key[] = {k.level, k.x, k.y};
    file.write(key, sizeof key);
  }
  put(file, static_cast<std::uint64_t>(c.conserved.size()));
  file.write(c.conserved.data(), c.conserved.size() * sizeof(double));
  file.commit();
}

CompressibleCheckpoint read_checkpoint(const std::filesystem::path& path, const CompressibleGrid& grid) {
  Reader in(path, io::read_file_bytes(path));
  if (!in.starts_with(kHeader))
    in.fail("its first line is not \"" + std::string(kHeader.substr(0, kHeader.size() - 1)) + "\"");
  CompressibleCheckpoint c;
  c.grid.roots_x = in.get<std::int32_t>();
  c.grid.roots_y = in.get<std::int32_t>();
  c.grid.block_size = in.get<std::int32_t>();
  c.grid.max_level = in.get<std::int32_t>();
  c.grid.root_size = in.get<double>();
  if (c.grid.roots_x != grid.roots_x || c.grid.roots_y != grid.roots_y || c.grid.block_size != grid.block_size ||
      c.grid.max_level != grid.max_level || c.grid.root_size != grid.root_size)
    in.fail("it holds the grid " + grid_text(c.grid) + ", the case asks for " + grid_text(grid));
  c.time = in.get<double>();
  c.steps = static_cast<long>(in.get<std::int64_t>());
  // Counts are checked against the bytes that follow before anything is allocated for them.
  const auto leaves = in.get<std::uint64_t>();
  if (leaves > in.remaining() / (3 * sizeof(std::int32_t)))
    in.fail("it claims " + std::to_string(leaves) + " leaves, more than its bytes hold");
  const mrag::BlockTree domain(grid.roots_x, grid.roots_y, grid.max_level);
  for (std::uint64_t k = 0; k < leaves; ++k) {
    std::int32_t key[3];
    in.take(key, sizeof key);
    const mrag::BlockKey leaf{key[0], key[1], key[2]};
    if (!domain.inside(leaf))
      in.fail("leaf " + std::to_string(k) + " (level " + std::to_string(leaf.level) + ", " + std::to_string(leaf.x) +
              ", " + std::to_string(leaf.y) + ") lies outside the grid");
    c.leaves.push_back(leaf);
  }
  const auto values = in.get<std::uint64_t>();
  const std::uint64_t expected =
      leaves * mrag::fields * static_cast<std::uint64_t>(grid.block_size) * static_cast<std::uint64_t>(grid.block_size);
  if (values != expected)
    in.fail("it holds " + std::to_string(values) + " values, and its " + std::to_string(leaves) + " leaves need " +
            std::to_string(expected));
  if (values > in.remaining() / sizeof(double))
    in.fail("it claims " + std::to_string(values) + " values, more than its bytes hold (truncated?)");
  c.conserved.resize(values);
  in.take(c.conserved.data(), values * sizeof(double));
  if (!in.at_end()) in.fail("bytes follow the fields");
  try {
    const mrag::BlockTree tree = c.tree();
    if (!std::equal(tree.leaves().begin(), tree.leaves().end(), c.leaves.begin(), c.leaves.end()))
      in.fail("its leaves do not form a tree of this grid");
  } catch (const core::Error& e) {
    in.fail(std::string("its leaves do not form a tree of this grid: ") + e.what());
  }
  return c;
}

}  // namespace hetflow::app
