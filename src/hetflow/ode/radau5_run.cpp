#include "hetflow/ode/radau5_run.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "hetflow/core/error.hpp"
#include "hetflow/ode/radau5_launch.hpp"

namespace hetflow::ode {

using detail::counter_count;
using detail::parallel_grain;
using detail::Slot;

Radau5::Run::Run(const Radau5& solver, BatchView batch, const std::vector<std::size_t>& order, Output output)
    : solver_(solver),
      devices_(*solver.devices_),
      batch_(batch),
      order_(order),
      rates_only_(output == Output::initial_rates),
      n_(static_cast<std::size_t>(solver.system_.n)),
      count_(order.size()),
      np_(solver.system_.parameters),
      time_stride_(batch.t0.size() == 1 && batch.t_end.size() == 1 ? 0u : 1u),
      samples_(rates_only_                  ? 0
               : batch.per_system_samples ? batch.samples.size() / count_
                                          : batch.samples.size()),
      sample_stride_(batch.per_system_samples ? 1u : 0u) {
  result_.nmax = solver_.options_.nmax;
  result_.sample_count = samples_;
  result_.chunking = solver_.plan(count_, time_stride_ != 0, samples_, sample_stride_ != 0);
  mapping_ = solver_.mapping(count_);
  phased_ = mapping_ == Mapping::phased;
  // The first touch of the results' host arrays overlaps the packing and the kernels: on this thread it
  // would delay the first upload (before the first launch) or the first pass's successor (after it)
  // (docs/chem.md, Performance).
  allocated_ = std::async(std::launch::async, [this] {
    if (!rates_only_) result_.y.resize(batch_.y0.size());
    result_.statistics.resize(count_);
    // NaN stays where no chunk reached a system (Result::samples).
    result_.samples.assign(count_ * samples_ * n_, std::numeric_limits<double>::quiet_NaN());
  });
  t0_.assign(batch_.t0.begin(), batch_.t0.end());
  t_end_.assign(batch_.t_end.begin(), batch_.t_end.end());
  if (time_stride_) {
    if (t0_.size() == 1) t0_.assign(count_, batch_.t0[0]);
    if (t_end_.size() == 1) t_end_.assign(count_, batch_.t_end[0]);
  }
  prepare_pipelines();
}

// Each device's pipeline for its share, with the shared times (and shared sample times) written on the
// in-order transfer queue before any chunk's inputs, so every launch that waits for its chunk's uploads
// finds them in place.
void Radau5::Run::prepare_pipelines() {
  pipes_.assign(solver_.parts_.size(), nullptr);
  for (std::size_t k = 0; k < solver_.parts_.size(); ++k) {
    const ChunkPlan& p = result_.chunking[k];
    if (p.chunks == 0) continue;
    Pipeline& pipe = solver_.pipeline(k, p, time_stride_ != 0, matrices_in_slot(k), samples_, sample_stride_ != 0);
    if (!time_stride_) {
      pipe.t0.write(devices_.transfer(k), t0_, 0, core::Blocking::no);
      pipe.t_end.write(devices_.transfer(k), t_end_, 0, core::Blocking::no);
    }
    if (samples_ && !sample_stride_)
      pipe.sample_times.write(devices_.transfer(k), batch_.samples, 0, core::Blocking::no);
    pipes_[k] = &pipe;
  }
}

bool Radau5::Run::matrices_in_slot(std::size_t k) const {
  return phased_ || launch::system_matrices(devices_.device(k), solver_.options_, mapping_, solver_.system_);
}

// Waits for a slot's chunk to come down and files its results under each system's batch index. An
// empty slot does not wait for the allocation: the first chunks are packed meanwhile.
void Radau5::Run::collect(Slot& s) {
  if (s.count == 0) return;
  if (allocated_.valid()) allocated_.get();
  core::wait_all(s.downloads);
  const std::size_t grain = std::max<std::size_t>(parallel_grain / (n_ * (1 + samples_) + counter_count), 1);
  core::parallel_ranges(s.count, grain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const std::size_t system = order_[s.first + i];
      if (!rates_only_)
        std::copy_n(s.host_y.data() + i * n_, n_, result_.y.begin() + static_cast<std::ptrdiff_t>(system * n_));
      const std::size_t sampled = samples_ * n_;
      std::copy_n(s.host_sampled->data() + i * sampled, sampled,
                  result_.samples.begin() + static_cast<std::ptrdiff_t>(system * sampled));
      const std::int64_t* c = s.host_counters.data() + i * counter_count;
      Statistics& st = result_.statistics[system];
      st.status = static_cast<Status>(c[0]);
      st.nfcn = c[1];
      st.njac = c[2];
      st.nstep = c[3];
      st.naccpt = c[4];
      st.nrejct = c[5];
      st.ndec = c[6];
      st.nsol = c[7];
      st.t = s.host_reached[2 * i];
      st.h = s.host_reached[2 * i + 1];
    }
  });
  collected_ += s.count;
  s.count = 0;
}

// Chunk r of device k: its slot's last chunk collected, its inputs packed and uploaded, and its first
// pass launched after the uploads.
Radau5::Run::Launch Radau5::Run::start_chunk(std::size_t k, std::size_t r) {
  const ChunkPlan& p = result_.chunking[k];
  Pipeline& pipe = *pipes_[k];
  Slot& s = pipe.slots[r % std::min<std::size_t>(p.chunks, 2)];
  collect(s);
  s.first = p.first + r * p.chunk_systems;
  s.count = std::min(p.chunk_systems, p.systems - r * p.chunk_systems);
  const core::Queue& tq = devices_.transfer(k);
  std::vector<core::Event> uploads;
  detail::gather(batch_.y0, order_, s.first, s.count, n_, s.host_y.data());
  uploads.push_back(s.y.write(tq, s.host_y.span().first(s.count * n_), 0, core::Blocking::no));
  detail::gather(batch_.params, order_, s.first, s.count, np_, s.host_params.data());
  uploads.push_back(s.params.write(tq, s.host_params.span().first(s.count * np_), 0, core::Blocking::no));
  if (time_stride_) {
    detail::gather(t0_, order_, s.first, s.count, 1, s.host_t0.data());
    uploads.push_back(s.t0.write(tq, s.host_t0.span().first(s.count), 0, core::Blocking::no));
    detail::gather(t_end_, order_, s.first, s.count, 1, s.host_t_end.data());
    uploads.push_back(s.t_end.write(tq, s.host_t_end.span().first(s.count), 0, core::Blocking::no));
  }
  if (samples_ && sample_stride_) {
    detail::gather(batch_.samples, order_, s.first, s.count, samples_, s.host_sample_times->data());
    uploads.push_back(s.sample_times.write(tq, s.host_sample_times->span().first(s.count * samples_), 0,
                                           core::Blocking::no));
  }
  tq.flush();
  Launch l{k, &s, &solver_.part(k, solver_.launch_shape(count_, k)), &pipe, core::Event(), 0, false};
  integrate_pass(l, false, 0, uploads);
  return l;
}

// A pass over the whole chunk (resume false), or over the `listed` systems decomposed since the last.
void Radau5::Run::integrate_pass(Launch& l, bool resume, cl_uint listed, std::span<const core::Event> wait) {
  Slot& s = *l.slot;
  Device& part = *l.part;
  const Options& o = solver_.options_;
  const core::Device& d = devices_.device(l.k);
  const core::Queue& cq = devices_.compute(l.k);
  if (phased_) s.pending.fill(cq, 0);
  if (launch::claims_systems(d, mapping_)) s.claimed.fill(cq, 0);
  const bool in_slot = matrices_in_slot(l.k);
  part.kernel.args(
      s.y, s.params, static_cast<cl_uint>(np_), time_stride_ ? s.t0 : l.pipe->t0,
      time_stride_ ? s.t_end : l.pipe->t_end, time_stride_, l.pipe->tol, l.pipe->settings, static_cast<cl_long>(o.nmax),
      static_cast<cl_int>(o.nit), static_cast<cl_int>(o.controller == Controller::gustafsson ? 1 : 0),
      static_cast<cl_int>(o.zero_start ? 1 : 0), static_cast<cl_int>(rates_only_ ? 1 : 0), s.counters, s.reached,
      samples_ && !sample_stride_ ? l.pipe->sample_times : s.sample_times, static_cast<cl_uint>(samples_),
      sample_stride_, s.sampled, static_cast<cl_ulong>(resume ? listed : s.count), part.scratch, part.scratch_pivots,
      part.tables, part.sparse, in_slot ? s.matrices : part.scratch, in_slot ? s.matrix_pivots : part.scratch_pivots,
      phased_ ? s.state : part.scratch, static_cast<cl_int>(resume ? 1 : 0), phased_ ? s.lists[l.list] : part.no_list,
      phased_ ? s.lists[1 - l.list] : part.no_list, phased_ ? s.jacobians : part.no_list,
      phased_ ? s.pending : part.no_list, s.claimed);
  const core::NDRange local = launch::local_range(d, o, mapping_, solver_.system_.n);
  try {
    l.last = part.kernel.launch(cq, core::NDRange(local.size[0] * launch::group_count(d, mapping_, o, solver_.system_)), local, wait);
  } catch (const core::ClError& e) {
    // A GPU's driver reserves the kernel's private memory for every work-item the device holds when the
    // kernel first runs, beside the buffers of every process that shares the device.
    if (e.code() != CL_OUT_OF_HOST_MEMORY && e.code() != CL_OUT_OF_RESOURCES &&
        e.code() != CL_MEM_OBJECT_ALLOCATION_FAILURE)
      throw;
    throw core::Error(launch::out_of_memory(d, o, mapping_, part.kernel.private_memory(cq),
                                            result_.chunking[l.k].device_bytes, e.what()));
  }
  if (phased_) {
    l.list = 1 - l.list;
    l.last = s.pending.read(cq, s.host_pending.span(), 0, core::Blocking::no);
  }
  cq.flush();
}

// The phased mapping's passes until no system is left: each waits for the last pass's counts, then
// evaluates J where the systems it left asked for one, decomposes them and runs them on.
void Radau5::Run::finish_passes(std::vector<Launch>& launches) {
  const Options& o = solver_.options_;
  for (bool running = true; running;) {
    running = false;
    for (Launch& l : launches) {
      if (l.done) continue;
      l.last.wait();
      const cl_uint listed = l.slot->host_pending[0], jacobians = l.slot->host_pending[1];
      l.done = listed == 0;
      if (l.done) continue;
      const core::Device& d = devices_.device(l.k);
      Slot& s = *l.slot;
      if (jacobians) {
        l.part->jacobian.args(s.y, s.params, static_cast<cl_uint>(np_), l.pipe->settings, l.part->tables, s.matrices,
                              s.state, s.jacobians, static_cast<cl_ulong>(jacobians));
        const core::NDRange local = launch::local_range(d, o, mapping_, solver_.system_.n);
        l.part->jacobian.launch(devices_.compute(l.k),
                                core::NDRange(local.size[0] * launch::group_count(d, mapping_, o, solver_.system_)), local);
      }
      for (auto& [kernel, local] : l.part->decompose) {
        kernel.args(l.slot->matrices, l.slot->matrix_pivots, l.slot->state, l.slot->lists[l.list], listed);
        kernel.launch(devices_.compute(l.k), core::NDRange(local * launch::decompose_groups(d)), core::NDRange(local));
      }
      integrate_pass(l, true, listed, {});
      running = true;
    }
  }
}

// The chunk's results down on the transfer queue, after its last kernel.
void Radau5::Run::download(Launch& l) {
  Slot& s = *l.slot;
  const core::Queue& tq = devices_.transfer(l.k);
  const std::span<const core::Event> after(&l.last, 1);
  s.downloads.clear();
  if (!rates_only_)
    s.downloads.push_back(s.y.read(tq, s.host_y.span().first(s.count * n_), 0, core::Blocking::no, after));
  s.downloads.push_back(
      s.counters.read(tq, s.host_counters.span().first(s.count * counter_count), 0, core::Blocking::no, after));
  s.downloads.push_back(s.reached.read(tq, s.host_reached.span().first(s.count * 2), 0, core::Blocking::no, after));
  if (samples_)
    s.downloads.push_back(s.sampled.read(tq, s.host_sampled->span().first(s.count * samples_ * n_), 0,
                                         core::Blocking::no, after));
  tq.flush();
}

// Chunk r of every device in turn, so all devices are fed. Reusing a slot first waits for its
// previous chunk's download, which followed that chunk's kernel; so chunk r's upload and chunk r-2's
// download run on the transfer queue while chunk r-1 integrates on the compute queue. keep_going is
// asked once chunk r-2 is in, before chunk r starts: a stop then waits for chunk r-1 alone.
Result Radau5::Run::results(const KeepGoing& keep_going) {
  std::size_t rounds = 0;
  for (const ChunkPlan& p : result_.chunking) rounds = std::max(rounds, p.chunks);
  for (std::size_t r = 0; r < rounds; ++r) {
    if (keep_going && r > 0) {
      for (std::size_t k = 0; k < pipes_.size(); ++k)
        if (pipes_[k] && r < result_.chunking[k].chunks) collect(pipes_[k]->slots[r % 2]);
      if (!keep_going(collected_, count_)) break;
    }
    std::vector<Launch> launches;
    for (std::size_t k = 0; k < solver_.parts_.size(); ++k)
      if (r < result_.chunking[k].chunks) launches.push_back(start_chunk(k, r));
    if (phased_) finish_passes(launches);
    for (Launch& l : launches) download(l);
  }
  for (Pipeline* pipe : pipes_)
    if (pipe)
      for (Slot& s : pipe->slots) collect(s);
  return std::move(result_);
}

}  // namespace hetflow::ode
