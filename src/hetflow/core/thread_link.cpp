#include "hetflow/core/thread_link.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#include <immintrin.h>
#endif

namespace hetflow::core {
namespace {

void check_peer(std::size_t peer, std::size_t size) {
  if (peer >= size) {
    throw Error("exchange: peer rank " + std::to_string(peer) + " outside a group of " + std::to_string(size));
  }
}

// Tells the core that this thread spins: frees the core's resources for its sibling hyperthread, and
// spaces out the reads of the shared change counter.
void cpu_relax() {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
  _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#else
  std::this_thread::yield();
#endif
}

}  // namespace

ThreadHub::ThreadHub(std::size_t size)
    : size_(size), offers_(size), contributions_{std::vector<std::vector<double>>(size),
                                                 std::vector<std::vector<double>>(size)},
      all_gathers_(size, 0) {
  if (size == 0) throw Error("a thread hub needs at least one thread");
}

void ThreadHub::abort() {
  {
    const std::lock_guard lock(mutex_);
    aborted_ = true;
  }
  notify();
}

bool ThreadHub::aborted() const {
  const std::lock_guard lock(mutex_);
  return aborted_;
}

void ThreadHub::throw_if_aborted() const {
  if (aborted_) throw LinkAborted("a collective operation stops: another part of the computation failed");
}

template <class Done>
void ThreadHub::wait(std::unique_lock<std::mutex>& lock, const Done& done) {
  if (done()) return;
  // Spins without the mutex while nothing changes; every change (notify() follows each) is checked
  // under the mutex, so done() never reads the shared state unlocked. A change made after the counter
  // is read here bumps it later, so none is missed.
  const auto give_up = std::chrono::steady_clock::now() + spin_before_blocking;
  std::uint64_t seen = changes_.load(std::memory_order_acquire);
  lock.unlock();
  while (std::chrono::steady_clock::now() < give_up) {
    cpu_relax();
    if (changes_.load(std::memory_order_acquire) == seen) continue;
    lock.lock();
    if (done()) return;
    seen = changes_.load(std::memory_order_acquire);
    lock.unlock();
  }
  lock.lock();
  changed_.wait(lock, done);
}

void ThreadHub::notify() {
  changes_.fetch_add(1, std::memory_order_release);
  changed_.notify_all();
}

void ThreadHub::arrive_and_wait() {
  std::unique_lock lock(mutex_);
  throw_if_aborted();
  // The generation tells this barrier from the next one, which a fast thread may already have entered.
  const std::size_t generation = generation_;
  if (++arrived_ == size_) {
    arrived_ = 0;
    ++generation_;
    lock.unlock();
    notify();
    return;
  }
  wait(lock, [&] { return generation_ != generation || aborted_; });
  if (generation_ == generation) throw_if_aborted();
}

ThreadLink::ThreadLink(ThreadHub& hub, std::size_t rank) : hub_(hub), rank_(rank) {
  if (rank >= hub.size()) {
    throw Error("thread link: rank " + std::to_string(rank) + " outside a group of " + std::to_string(hub.size()));
  }
}

void ThreadLink::exchange(std::span<const Message> sends, std::span<const Message> receives) {
  for (const Message& m : sends) check_peer(m.peer, size());
  for (const Message& m : receives) check_peer(m.peer, size());
  // Every send is posted before any receive waits, so no order of the parts' calls deadlocks, messages
  // to self included. The senders' bytes are copied once, straight into the receivers' spans.
  std::vector<ThreadHub::Posted> posted(sends.size());
  {
    const std::lock_guard lock(hub_.mutex_);
    hub_.throw_if_aborted();
    for (std::size_t i = 0; i < sends.size(); ++i) {
      posted[i].bytes = sends[i].bytes;
      hub_.mail_[{rank_, sends[i].peer, sends[i].tag}].push_back(&posted[i]);
    }
  }
  hub_.notify();
  std::string error;
  bool received = true;
  try {
    for (const Message& m : receives) receive(m, error);
  } catch (const LinkAborted&) {
    received = false;
  }
  // The sends' bytes must outlive every copy from them, also when the hub is aborted meanwhile.
  using State = ThreadHub::Posted::State;
  std::unique_lock lock(hub_.mutex_);
  const auto all_done = [&] {
    return std::all_of(posted.begin(), posted.end(), [](const auto& p) { return p.state == State::done; });
  };
  const auto none_copying = [&] {
    return std::none_of(posted.begin(), posted.end(), [](const auto& p) { return p.state == State::copying; });
  };
  hub_.wait(lock, [&] { return all_done() || (hub_.aborted_ && none_copying()); });
  if (!received || !all_done()) hub_.throw_if_aborted();
  for (const auto& p : posted) {
    if (error.empty()) error = p.error;
  }
  if (!error.empty()) throw Error(error);
}

void ThreadLink::receive(const Message& m, std::string& error) {
  std::unique_lock lock(hub_.mutex_);
  std::deque<ThreadHub::Posted*>& queue = hub_.mail_[{m.peer, rank_, m.tag}];
  hub_.wait(lock, [&] { return hub_.aborted_ || !queue.empty(); });
  hub_.throw_if_aborted();
  ThreadHub::Posted& p = *queue.front();
  queue.pop_front();
  if (p.bytes.size() == m.bytes.size()) {
    // The copy runs outside the lock, so the parts' copies run at once; `copying` keeps the sender waiting.
    p.state = ThreadHub::Posted::State::copying;
    lock.unlock();
    std::copy(p.bytes.begin(), p.bytes.end(), m.bytes.begin());
    lock.lock();
  } else {
    // Both sides report the mismatch, and the exchange still completes, so no part is left waiting.
    p.error = "exchange: rank " + std::to_string(rank_) + " receives " + std::to_string(m.bytes.size()) +
              " bytes with tag " + std::to_string(m.tag) + " from rank " + std::to_string(m.peer) + ", which sends " +
              std::to_string(p.bytes.size());
    if (error.empty()) error = p.error;
  }
  p.state = ThreadHub::Posted::State::done;
  lock.unlock();
  hub_.notify();
}

std::vector<std::vector<double>> ThreadLink::all_gather(std::span<const double> mine) {
  // One barrier: the values are copied into the hub, so this rank may reuse `mine` as soon as it returns,
  // and the slots of this all_gather's parity stay unwritten until every rank has read them.
  std::vector<std::vector<double>>& contributions = hub_.contributions_[hub_.all_gathers_[rank_]++ % 2];
  contributions[rank_].assign(mine.begin(), mine.end());
  hub_.arrive_and_wait();
  return contributions;
}

void ThreadLink::gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) {
  check_gather_range(whole.size(), offset, count);
  // Rank 0 copies straight from the others' `whole`, which may be a large part of a field: no copy
  // through the hub, at the cost of a second barrier, which keeps every rank's bytes in place until
  // rank 0 has copied them. Each rank writes only its own offer, between the barrier that ends the
  // previous gather and the one that opens this.
  hub_.offers_[rank_] = {whole.subspan(offset, count), offset};
  hub_.arrive_and_wait();
  // Rank 0 still arrives at the closing barrier when its copy fails, so the others finish the gather.
  std::exception_ptr failure;
  if (rank_ == 0) {
    try {
      for (std::size_t r = 1; r < hub_.offers_.size(); ++r) {
        const ThreadHub::Offer& o = hub_.offers_[r];
        check_gather_range(whole.size(), o.offset, o.bytes.size());
        std::copy(o.bytes.begin(), o.bytes.end(), whole.begin() + o.offset);
      }
    } catch (...) {
      failure = std::current_exception();
    }
  }
  hub_.arrive_and_wait();
  if (failure) std::rethrow_exception(failure);
}

void run_on_threads(ThreadHub& hub, const std::function<void(std::size_t)>& body) {
  std::mutex mutex;
  std::vector<std::exception_ptr> failures;  // in the order they happened
  const auto run = [&](std::size_t k) {
    try {
      body(k);
    } catch (...) {
      {
        const std::lock_guard lock(mutex);
        failures.push_back(std::current_exception());
      }
      hub.abort();
    }
  };
  {
    std::vector<std::jthread> threads;
    try {
      for (std::size_t k = 1; k < hub.size(); ++k) threads.emplace_back(run, k);
    } catch (...) {
      hub.abort();  // the threads already started leave their collectives, and are joined
      throw;
    }
    run(0);
  }
  for (const std::exception_ptr& failure : failures) {
    try {
      std::rethrow_exception(failure);
    } catch (const LinkAborted&) {
      // a part released by the abort: the cause is another failure, when there is one
    }
  }
  if (!failures.empty()) std::rethrow_exception(failures.front());
}

}  // namespace hetflow::core
