#include "hetflow/mrag/device_recipes.hpp"

#include <algorithm>
#include <span>

#include "hetflow/mrag/device_ghosts.hpp"

namespace hetflow::mrag {

template <class Real>
DeviceRecipes<Real>::DeviceRecipes(const core::Context& context, int s, int width, bool corners, const Sides& sides)
    : context_(context), recipes_(s, width, corners, sides) {}

template <class Real>
template <class T>
void DeviceRecipes<Real>::Mirror<T>::sync(const core::Context& context, const core::Queue& queue) {
  if (host.size() > device.size()) {
    device = core::Buffer<T>(context, std::max(host.size(), 2 * device.size()), CL_MEM_READ_ONLY);
    sent = 0;
  }
  if (host.size() > sent) device.write(queue, std::span<const T>(host).subspan(sent), sent);
  sent = host.size();
}

template <class Real>
void DeviceRecipes<Real>::clear() {
  for (Mirror<cl_uint>* m : {&info_, &first_, &node_first_, &depth_first_, &source_block_, &source_cell_}) {
    m->host.clear();
    m->sent = 0;
  }
  weight_.host.clear();
  weight_.sent = 0;
  direct_.clear();
  flip_.host.clear();
  flip_.sent = 0;
  kinds_ = 0;
}

template <class Real>
GhostPlan DeviceRecipes<Real>::plan(const core::Queue& queue, const LeafGrid& grid) {
  GhostPlan plan = recipes_.plan(grid);
  sync(queue);
  return plan;
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
    const auto base = static_cast<cl_uint>(source_block_.host.size());
    const auto node_base = static_cast<cl_uint>(base + r.sources.size());
    info_.host.insert(info_.host.end(), {static_cast<cl_uint>(first_.host.size()),
                                         static_cast<cl_uint>(node_first_.host.size()),
                                         static_cast<cl_uint>(depth_first_.host.size()),
                                         static_cast<cl_uint>(r.depth_first.size() - 1)});
    for (const std::uint32_t f : r.first) first_.host.push_back(base + f);
    for (const std::uint32_t f : r.node_first) node_first_.host.push_back(node_base + f);
    depth_first_.host.insert(depth_first_.host.end(), r.depth_first.begin(), r.depth_first.end());
    for (const std::vector<GhostSource>* sources : {&r.sources, &r.node_sources})
      for (const GhostSource& t : *sources) {
        source_block_.host.push_back(t.block);
        source_cell_.host.push_back(t.cell);
        weight_.host.push_back(static_cast<Real>(t.weight));
        flip_.host.push_back(t.flip);
      }
  }
  for (Mirror<cl_uint>* m : {&info_, &first_, &node_first_, &depth_first_, &source_block_, &source_cell_})
    m->sync(context_, queue);
  weight_.sync(context_, queue);
  flip_.sync(context_, queue);
}

template <class Real>
void DeviceRecipes<Real>::add_tables(core::KernelArgs& args) const {
  args.add(info_.device)
      .add(first_.device)
      .add(node_first_.device)
      .add(depth_first_.device)
      .add(source_block_.device)
      .add(source_cell_.device)
      .add(weight_.device)
      .add(flip_.device);
}

template class DeviceRecipes<float>;
template class DeviceRecipes<double>;

}  // namespace hetflow::mrag
