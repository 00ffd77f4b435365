#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "hetflow/core/thread_link.hpp"

namespace hetflow::core {
namespace {

// run_on_threads, ended with a failure after a minute: a test of the abort must fail, not hang.
void run_parts(ThreadHub& hub, const std::function<void(std::size_t)>& body) {
  std::future<void> done = std::async(std::launch::async, [&] { run_on_threads(hub, body); });
  if (done.wait_for(std::chrono::minutes(1)) != std::future_status::ready) {
    std::fputs("ThreadLink test: the parts still wait after a minute\n", stderr);
    std::_Exit(1);
  }
  done.get();
}

template <class T>
std::span<std::byte> bytes_of(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

// Each rank sends its successor on a ring two messages with tag 1 and one with tag 2 (of another
// size), and receives them from its predecessor in another order of tags.
void exchange_ring(std::size_t n) {
  ThreadHub hub(n);
  std::vector<std::vector<int>> first(n, std::vector<int>(3)), second(n, std::vector<int>(3));
  std::vector<std::vector<int>> other(n, std::vector<int>(1));
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    const std::size_t next = (k + 1) % n, previous = (k + n - 1) % n;
    const int r = static_cast<int>(k);
    std::vector<int> a{100 * r, 100 * r + 1, 100 * r + 2}, b{-r - 1}, c{10 * r, 10 * r + 1, 10 * r + 2};
    const std::vector<Message> sends{{next, 1, bytes_of(a)}, {next, 2, bytes_of(b)}, {next, 1, bytes_of(c)}};
    const std::vector<Message> receives{
        {previous, 2, bytes_of(other[k])}, {previous, 1, bytes_of(first[k])}, {previous, 1, bytes_of(second[k])}};
    link.exchange(sends, receives);
    // The received bytes are the receiver's own: the sender reuses its buffers at once.
    a.assign(3, -7);
    b.assign(1, -7);
    c.assign(3, -7);
  });
  for (std::size_t k = 0; k < n; ++k) {
    const int p = static_cast<int>((k + n - 1) % n);
    EXPECT_EQ(first[k], (std::vector<int>{100 * p, 100 * p + 1, 100 * p + 2})) << "rank " << k;
    EXPECT_EQ(second[k], (std::vector<int>{10 * p, 10 * p + 1, 10 * p + 2})) << "rank " << k;
    EXPECT_EQ(other[k], (std::vector<int>{-p - 1})) << "rank " << k;
  }
}

TEST(ThreadLink, ExchangeRingOfThreeWithTwoTags) { exchange_ring(3); }

TEST(ThreadLink, ExchangeRingOfFourWithTwoTags) { exchange_ring(4); }

TEST(ThreadLink, ExchangeWithSelf) {
  ThreadHub hub(1);
  ThreadLink link(hub, 0);
  std::vector<double> out{1.5, -2.25}, in(2);
  const std::vector<Message> sends{{0, 3, bytes_of(out)}}, receives{{0, 3, bytes_of(in)}};
  link.exchange(sends, receives);
  EXPECT_EQ(in, (std::vector<double>{1.5, -2.25}));
}

TEST(ThreadLink, AllGatherInRankOrder) {
  ThreadHub hub(3);
  std::vector<std::vector<std::vector<double>>> got(3);
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    std::vector<double> mine;
    for (std::size_t j = 0; j <= k; ++j) mine.push_back(10.0 * static_cast<double>(k) + static_cast<double>(j));
    got[k] = link.all_gather(mine);
  });
  const std::vector<std::vector<double>> expected{{0}, {10, 11}, {20, 21, 22}};
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(got[k], expected) << "rank " << k;
}

TEST(ThreadLink, GatherPlacesEveryRanksBytesAtRankZeroOnly) {
  ThreadHub hub(3);
  const std::size_t offsets[] = {0, 2, 7, 12};  // rank k gathers [offsets[k], offsets[k + 1])
  std::vector<std::vector<unsigned char>> whole(3);
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    whole[k].assign(12, static_cast<unsigned char>(0xA0 + k));
    for (std::size_t i = offsets[k]; i < offsets[k + 1]; ++i) whole[k][i] = static_cast<unsigned char>(16 * k + i);
    link.gather(bytes_of(whole[k]), offsets[k], offsets[k + 1] - offsets[k]);
  });
  using Bytes = std::vector<unsigned char>;
  EXPECT_EQ(whole[0], (Bytes{0x00, 0x01, 0x12, 0x13, 0x14, 0x15, 0x16, 0x27, 0x28, 0x29, 0x2A, 0x2B}));
  EXPECT_EQ(whole[1], (Bytes{0xA1, 0xA1, 0x12, 0x13, 0x14, 0x15, 0x16, 0xA1, 0xA1, 0xA1, 0xA1, 0xA1}));
  EXPECT_EQ(whole[2], (Bytes{0xA2, 0xA2, 0xA2, 0xA2, 0xA2, 0xA2, 0xA2, 0x27, 0x28, 0x29, 0x2A, 0x2B}));
}

TEST(ThreadLink, SizeMismatchThrowsOnBothSidesNamingRanksTagAndSizes) {
  ThreadHub hub(2);
  std::vector<std::string> errors(2);
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    std::vector<double> out(1, 3.0);
    std::vector<float> in(1);
    const std::vector<Message> sends{{1, 5, bytes_of(out)}}, receives{{0, 5, bytes_of(in)}};
    try {
      link.exchange(k == 0 ? std::span(sends) : std::span<const Message>(),
                    k == 1 ? std::span(receives) : std::span<const Message>());
    } catch (const Error& e) {
      errors[k] = e.what();
    }
  });
  const std::string expected = "exchange: rank 1 receives 4 bytes with tag 5 from rank 0, which sends 8";
  EXPECT_EQ(errors[0], expected);
  EXPECT_EQ(errors[1], expected);
  EXPECT_FALSE(hub.aborted());
}

TEST(ThreadLink, FailingPartReleasesTheOthersAndItsErrorIsRethrown) {
  ThreadHub hub(4);
  std::vector<int> released(4, 0);
  try {
    run_parts(hub, [&](std::size_t k) {
      ThreadLink link(hub, k);
      std::vector<double> in(1);
      const std::vector<Message> receives{{2, 0, bytes_of(in)}};
      try {
        if (k == 2) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the others wait by now
          throw std::runtime_error("boom");
        }
        if (k == 3) link.exchange({}, receives);  // waits for a message from rank 2
        else link.all_gather(std::vector<double>{1.0});
      } catch (const LinkAborted&) {
        released[k] = 1;
        throw;
      }
    });
    FAIL() << "run_on_threads returned normally";
  } catch (const LinkAborted& e) {
    FAIL() << "rethrew LinkAborted: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "boom");
  }
  EXPECT_EQ(released, (std::vector<int>{1, 1, 0, 1}));
  EXPECT_TRUE(hub.aborted());
  ThreadLink late(hub, 0);
  EXPECT_THROW(late.all_gather(std::vector<double>{1.0}), LinkAborted);
}

TEST(ThreadLink, AbortAloneRethrowsLinkAborted) {
  ThreadHub hub(2);
  EXPECT_THROW(run_parts(hub,
                         [&](std::size_t k) {
                           ThreadLink link(hub, k);
                           if (k == 0) hub.abort();
                           link.all_gather(std::vector<double>{1.0});
                         }),
               LinkAborted);
}

TEST(ThreadLink, RepeatedAllGathersStayInStep) {
  // Lengths and values change every round, so a rank that ran into the next round early, or read
  // offers of another round, shows as a wrong result.
  constexpr std::size_t n = 4, rounds = 1000;
  ThreadHub hub(n);
  std::vector<std::size_t> wrong(n, 0);
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    const auto contribution = [](std::size_t rank, std::size_t round) {
      return std::vector<double>((rank + round) % 3 + 1, static_cast<double>(1000 * round + rank));
    };
    for (std::size_t round = 0; round < rounds; ++round) {
      const std::vector<std::vector<double>> all = link.all_gather(contribution(k, round));
      for (std::size_t r = 0; r < n; ++r) {
        if (all.size() != n || all[r] != contribution(r, round)) ++wrong[k];
      }
    }
  });
  EXPECT_EQ(wrong, (std::vector<std::size_t>(n, 0)));
}

// Rank `rank`'s values in collective `round`: 1 to 600 values that change with the round, so a rank that
// read another round's values, or values being rewritten by a rank already in a later round, shows as a
// wrong result (a rewrite that grows a vector moves it).
std::vector<double> values_of(std::size_t rank, std::size_t round) {
  std::vector<double> v((7 * rank + 131 * round) % 600 + 1);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = 1e6 * static_cast<double>(round) + 1e3 * static_cast<double>(rank) + static_cast<double>(i);
  }
  return v;
}

// Counts, per rank, the all_gathers of `rounds` in a row of n threads that did not return every rank's
// values of that round.
std::vector<std::size_t> wrong_all_gathers(std::size_t n, std::size_t rounds) {
  ThreadHub hub(n);
  std::vector<std::size_t> wrong(n, 0);
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    for (std::size_t round = 0; round < rounds; ++round) {
      const std::vector<std::vector<double>> all = link.all_gather(values_of(k, round));
      for (std::size_t r = 0; r < n; ++r) {
        if (all.size() != n || all[r] != values_of(r, round)) ++wrong[k];
      }
    }
  });
  return wrong;
}

TEST(ThreadLink, AllGathersOfVaryingSizesOverManyRoundsWithTwoThreads) {
  EXPECT_EQ(wrong_all_gathers(2, 4000), (std::vector<std::size_t>(2, 0)));
}

TEST(ThreadLink, AllGathersOfVaryingSizesOverManyRoundsWithThreeThreads) {
  EXPECT_EQ(wrong_all_gathers(3, 3000), (std::vector<std::size_t>(3, 0)));
}

TEST(ThreadLink, AllGathersOfVaryingSizesOverManyRoundsWithFourThreads) {
  EXPECT_EQ(wrong_all_gathers(4, 2000), (std::vector<std::size_t>(4, 0)));
}

// Every rank runs the same sequence of exchanges on a ring, all_gathers and gathers, with sizes that
// change every round, and counts the collectives whose results are wrong.
std::vector<std::size_t> wrong_mixed_collectives(std::size_t n, std::size_t rounds) {
  ThreadHub hub(n);
  std::vector<std::size_t> wrong(n, 0);
  constexpr std::string_view sequence = "eaaegaee";  // e: exchange, a: all_gather, g: gather
  run_parts(hub, [&](std::size_t k) {
    ThreadLink link(hub, k);
    const std::size_t next = (k + 1) % n, previous = (k + n - 1) % n;
    for (std::size_t round = 0; round < rounds; ++round) {
      const char kind = sequence[round % sequence.size()];
      if (kind == 'e') {
        std::vector<double> out = values_of(k, round), in(values_of(previous, round).size());
        const std::vector<Message> sends{{next, 0, bytes_of(out)}}, receives{{previous, 0, bytes_of(in)}};
        link.exchange(sends, receives);
        if (in != values_of(previous, round)) ++wrong[k];
      } else if (kind == 'a') {
        const std::vector<std::vector<double>> all = link.all_gather(values_of(k, round));
        for (std::size_t r = 0; r < n; ++r) {
          if (all.size() != n || all[r] != values_of(r, round)) ++wrong[k];
        }
      } else {
        // Rank r gathers values_of(r, round) into its place of the concatenation of every rank's values.
        std::vector<std::size_t> first(n + 1, 0);
        for (std::size_t r = 0; r < n; ++r) first[r + 1] = first[r] + values_of(r, round).size();
        std::vector<double> whole(first[n], -1.0);
        const std::vector<double> mine = values_of(k, round);
        std::copy(mine.begin(), mine.end(), whole.begin() + static_cast<std::ptrdiff_t>(first[k]));
        link.gather(bytes_of(whole), first[k] * sizeof(double), mine.size() * sizeof(double));
        if (k == 0) {
          std::vector<double> expected;
          for (std::size_t r = 0; r < n; ++r) {
            const std::vector<double> theirs = values_of(r, round);
            expected.insert(expected.end(), theirs.begin(), theirs.end());
          }
          if (whole != expected) ++wrong[k];
        }
      }
    }
  });
  return wrong;
}

TEST(ThreadLink, MixedExchangesAllGathersAndGathersStayInStepWithTwoThreads) {
  EXPECT_EQ(wrong_mixed_collectives(2, 2000), (std::vector<std::size_t>(2, 0)));
}

TEST(ThreadLink, MixedExchangesAllGathersAndGathersStayInStepWithFourThreads) {
  EXPECT_EQ(wrong_mixed_collectives(4, 1000), (std::vector<std::size_t>(4, 0)));
}

// Rank 0 aborts the hub after `delay` while rank 1 waits at the all_gather barrier, rank 2 for rank 0 to
// take its message, and rank 3 for a message from rank 0: every one of them throws LinkAborted.
std::vector<int> released_by_abort(std::chrono::microseconds delay) {
  ThreadHub hub(4);
  std::vector<int> released(4, 0);
  try {
    run_parts(hub, [&](std::size_t k) {
      ThreadLink link(hub, k);
      std::vector<double> out{2.5}, in(1);
      const std::vector<Message> sends{{0, 0, bytes_of(out)}}, receives{{0, 0, bytes_of(in)}};
      try {
        if (k == 0) {
          std::this_thread::sleep_for(delay);
          hub.abort();
        } else if (k == 1) {
          link.all_gather(out);
        } else if (k == 2) {
          link.exchange(sends, {});
        } else {
          link.exchange({}, receives);
        }
      } catch (const LinkAborted&) {
        released[k] = 1;
        throw;
      }
    });
    ADD_FAILURE() << "run_on_threads returned normally";
  } catch (const LinkAborted&) {
    // the parts released by the abort, and no other failure
  }
  return released;
}

TEST(ThreadLink, AbortReleasesPartsThatStillSpin) {
  // Within the spin before blocking (50 us): the waiting parts most likely still spin.
  for (const int us : {0, 5, 20}) {
    EXPECT_EQ(released_by_abort(std::chrono::microseconds(us)), (std::vector<int>{0, 1, 1, 1})) << us << " us";
  }
}

TEST(ThreadLink, AbortReleasesPartsThatBlock) {
  EXPECT_EQ(released_by_abort(std::chrono::milliseconds(20)), (std::vector<int>{0, 1, 1, 1}));
}

}  // namespace
}  // namespace hetflow::core
