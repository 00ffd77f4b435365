#pragma once
// Radau5::Run: one integrate() or rates() call's chunks of a checked batch through the devices. Every
// device takes its share in chunks, two slots in rotation; the phased mapping's host driver runs its
// passes. Internal to the ode module.
#include <cstddef>
#include <future>
#include <span>
#include <vector>

#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/radau5_buffers.hpp"

namespace hetflow::ode {

struct Radau5::Run {
  // What the kernel gives: every system's state at t_end and its statistics (integrate()), or in each
  // system's Statistics::t the scaled norm of its initial rate (Order::initial_rate), and no states.
  enum class Output { states, initial_rates };

  Run(const Radau5& solver, BatchView batch, const std::vector<std::size_t>& order, Output output);
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Runs every chunk, or those before keep_going says stop, and returns the results in batch order.
  Result results(const KeepGoing& keep_going = {});

 private:
  // One chunk's kernels on device k. The phased mapping integrates in passes: `list` is the slot's
  // list that names the systems left for decomposition after the last pass, `last` that pass's read of
  // their count; otherwise `last` is the kernel.
  struct Launch {
    std::size_t k;
    detail::Slot* slot;
    Device* part;
    Pipeline* pipe;
    core::Event last;
    int list = 0;
    bool done = false;
  };

  void prepare_pipelines();
  // Whether device k's kernel keeps each system's matrices in its slot (the phased mapping, or mapping 1
  // with launch::system_matrices).
  bool matrices_in_slot(std::size_t k) const;
  void collect(detail::Slot& s);
  Launch start_chunk(std::size_t k, std::size_t r);
  void integrate_pass(Launch& l, bool resume, cl_uint listed, std::span<const core::Event> wait);
  void finish_passes(std::vector<Launch>& launches);
  void download(Launch& l);

  const Radau5& solver_;
  const core::DeviceSet& devices_;
  BatchView batch_;
  const std::vector<std::size_t>& order_;
  const bool rates_only_;
  const std::size_t n_, count_, np_;
  const cl_uint time_stride_;
  // Dense output: states per system (none for initial rates), and 1 where each system has its own times.
  const std::size_t samples_;
  const cl_uint sample_stride_;
  Result result_;
  std::size_t collected_ = 0;  // systems whose results are filed
  Mapping mapping_;
  bool phased_;
  // The results' host arrays, allocated on a thread of their own (Run's constructor says why); the first
  // collect() of a filled slot waits for it. Declared after result_, so that it is destroyed first.
  std::future<void> allocated_;
  std::vector<double> t0_, t_end_;  // the batch's times, a shared one expanded beside a per-system one
  std::vector<Pipeline*> pipes_;    // per device; null where its share is empty
};

}  // namespace hetflow::ode
