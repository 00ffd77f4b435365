#include "hetflow/core/thread_link.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>

namespace hetflow::core {
namespace {

void check_peer(std::size_t peer, std::size_t size) {
  if (peer >= size) {
    throw Error("exchange: peer rank " + std::to_string(peer) + " outside a group of " + std::to_string(size));
  }
}

}  // namespace

ThreadHub::ThreadHub(std::size_t size) : size_(size), offers_(size) {
  if (size == 0) throw Error("a thread hub needs at least one thread");
}

void ThreadHub::abort() {
  {
    const std::lock_guard lock(mutex_);
    aborted_ = true;
  }
  changed_.notify_all();
}

bool ThreadHub::aborted() const {
  const std::lock_guard lock(mutex_);
  return aborted_;
}

void ThreadHub::throw_if_aborted() const {
  if (aborted_) throw LinkAborted("a collective operation stops: another part of the computation failed");
}

void ThreadHub::arrive_and_wait() {
  std::unique_lock lock(mutex_);
  throw_if_aborted();
  // The generation tells this barrier from the next one, which a fast thread may already have entered.
  const std::size_t generation = generation_;
  if (++arrived_ == size_) {
    arrived_ = 0;
    ++generation_;
    changed_.notify_all();
    return;
  }
  changed_.wait(lock, [&] { return generation_ != generation || aborted_; });
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
  hub_.changed_.notify_all();
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
  hub_.changed_.wait(lock, [&] { return all_done() || (hub_.aborted_ && none_copying()); });
  if (!received || !all_done()) hub_.throw_if_aborted();
  for (const auto& p : posted) {
    if (error.empty()) error = p.error;
  }
  if (!error.empty()) throw Error(error);
}

void ThreadLink::receive(const Message& m, std::string& error) {
  std::unique_lock lock(hub_.mutex_);
  std::deque<ThreadHub::Posted*>& queue = hub_.mail_[{m.peer, rank_, m.tag}];
  hub_.changed_.wait(lock, [&] { return hub_.aborted_ || !queue.empty(); });
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
  hub_.changed_.notify_all();
}

void ThreadLink::share(ThreadHub::Offer mine, const std::function<void(const std::vector<ThreadHub::Offer>&)>& use) {
  // Each rank writes only its own offer, and only between the barrier that ends the previous collective
  // and the one that opens this; the others read the offers between this one's two barriers.
  hub_.offers_[rank_] = mine;
  hub_.arrive_and_wait();
  // A rank whose part fails still arrives at the closing barrier, so the others finish this collective.
  std::exception_ptr failure;
  try {
    use(hub_.offers_);
  } catch (...) {
    failure = std::current_exception();
  }
  hub_.arrive_and_wait();
  if (failure) std::rethrow_exception(failure);
}

std::vector<std::vector<double>> ThreadLink::all_gather(std::span<const double> mine) {
  std::vector<std::vector<double>> all;
  share({std::as_bytes(mine), 0}, [&](const std::vector<ThreadHub::Offer>& offers) {
    for (const ThreadHub::Offer& o : offers) {
      const auto* first = reinterpret_cast<const double*>(o.bytes.data());
      all.emplace_back(first, first + o.bytes.size() / sizeof(double));
    }
  });
  return all;
}

void ThreadLink::gather(std::span<std::byte> whole, std::size_t offset, std::size_t count) {
  check_gather_range(whole.size(), offset, count);
  share({whole.subspan(offset, count), offset}, [&](const std::vector<ThreadHub::Offer>& offers) {
    if (rank_ != 0) return;
    for (std::size_t r = 1; r < offers.size(); ++r) {
      check_gather_range(whole.size(), offers[r].offset, offers[r].bytes.size());
      std::copy(offers[r].bytes.begin(), offers[r].bytes.end(), whole.begin() + offers[r].offset);
    }
  });
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
