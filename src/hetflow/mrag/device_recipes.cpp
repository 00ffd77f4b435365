#include "hetflow/mrag/device_recipes.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/device_ghosts.hpp"

namespace hetflow::mrag {

cl_uint pack_source(const GhostSource& source) {
  if (source.block == GhostSource::inflow) return source.flip | 2u << 2 | source.cell << 4;
  if (source.block == GhostSource::node) return source.flip | 1u << 2 | source.cell << 4;
  if (source.block > 0xFF || source.cell >= 1u << 20)
    throw core::Error("mrag: a ghost recipe's source names slot " + std::to_string(source.block) + " and cell " +
                      std::to_string(source.cell) + "; the device's tables hold slots up to 255 and cells below 2^20");
  return source.flip | source.block << 4 | source.cell << 12;
}

template <class Real>
DeviceRecipes<Real>::DeviceRecipes(const core::Context& context, int s, int width, bool corners, const Sides& sides)
    : context_(context), recipes_(s, width, corners, sides) {}

template <class Real>
template <class T>
void DeviceRecipes<Real>::Mirror<T>::sync(const core::Context& context, const core::Queue& queue) {
  // A grown buffer takes the values sent before from the old one on the device: writing them again from
  // the host would cost a transfer of everything the recipes hold each time the buffer doubles.
  if (size() > device.size()) {
    core::Buffer<T> grown(context, std::max(size(), 2 * device.size()), CL_MEM_READ_ONLY);
    if (sent > 0) grown.copy_from(queue, device, 0, 0, sent);
    device = std::move(grown);
  }
  if (!tail.empty()) device.write(queue, std::span<const T>(tail), sent);
  sent = size();
  tail.clear();
}

template <class Real>
void DeviceRecipes<Real>::clear() {
  for (Mirror<cl_uint>* m : {&info_, &heads_, &depth_first_, &source_}) {
    m->tail.clear();
    m->sent = 0;
  }
  weight_.tail.clear();
  weight_.sent = 0;
  direct_.clear();
  kinds_ = 0;
}

template <class Real>
GhostPlan DeviceRecipes<Real>::plan(const core::Queue& queue, const LeafGrid& grid) {
  GhostPlan plan = recipes_.plan(grid);
  sync(queue);
  return plan;
}

template <class Real>
void DeviceRecipes<Real>::append_slices(const std::vector<std::uint32_t>& first,
                                        const std::vector<GhostSource>& sources, std::uint32_t begin,
                                        std::uint32_t end) {
  for (std::uint32_t slice = begin; slice < end; slice += recipe_slice) {
    const std::uint32_t last = std::min(end, slice + recipe_slice);
    std::uint32_t longest = 0;
    for (std::uint32_t e = slice; e < last; ++e) longest = std::max(longest, first[e + 1] - first[e]);
    const std::size_t base = source_.size(), values = std::size_t{longest} * recipe_slice;
    source_.tail.resize(source_.tail.size() + values, 0);
    weight_.tail.resize(weight_.tail.size() + values, 0);
    for (std::uint32_t e = slice; e < last; ++e) {
      const std::size_t lane = base + (e - slice), in_tail = lane - source_.sent;
      heads_.tail.insert(heads_.tail.end(), {static_cast<cl_uint>(lane), first[e + 1] - first[e]});
      for (std::uint32_t t = 0; t < first[e + 1] - first[e]; ++t) {
        source_.tail[in_tail + std::size_t{t} * recipe_slice] = pack_source(sources[first[e] + t]);
        weight_.tail[in_tail + std::size_t{t} * recipe_slice] = static_cast<Real>(sources[first[e] + t].weight);
      }
    }
  }
}

template <class Real>
void DeviceRecipes<Real>::sync(const core::Queue& queue) {
  if (recipes_.generation() != generation_) {
    clear();
    generation_ = recipes_.generation();
  }
  for (; kinds_ < recipes_.kinds(); ++kinds_) {
    const GhostRecipe& r = recipes_.kind(static_cast<std::uint32_t>(kinds_));
    if (!recipes_.corners()) direct_.push_back(mrag::direct_sides(r, recipes_.block(), recipes_.width()));
    const auto ghosts = static_cast<std::uint32_t>(r.first.size() - 1);
    const auto head = static_cast<cl_uint>(heads_.size() / 2);
    info_.tail.insert(info_.tail.end(), {head, head + ghosts, static_cast<cl_uint>(depth_first_.size()),
                                         static_cast<cl_uint>(r.depth_first.size() - 1)});
    append_slices(r.first, r.sources, 0, ghosts);
    for (std::size_t d = 0; d + 1 < r.depth_first.size(); ++d)
      append_slices(r.node_first, r.node_sources, r.depth_first[d], r.depth_first[d + 1]);
    depth_first_.tail.insert(depth_first_.tail.end(), r.depth_first.begin(), r.depth_first.end());
  }
  for (Mirror<cl_uint>* m : {&info_, &heads_, &depth_first_, &source_}) m->sync(context_, queue);
  weight_.sync(context_, queue);
}

template <class Real>
void DeviceRecipes<Real>::add_tables(core::KernelArgs& args) const {
  args.add(info_.device).add(heads_.device).add(depth_first_.device).add(source_.device).add(weight_.device);
}

template class DeviceRecipes<float>;
template class DeviceRecipes<double>;

}  // namespace hetflow::mrag
