#pragma once
#include <array>
#include <cstdint>

namespace hetflow::nnls {

// Philox4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011):
// a counter-based generator, so the value for a counter does not depend on what was drawn before. This
// is the host twin of nnls/philox.cl; both must stay bit for bit the same (the Random123 known-answer
// vectors in tests/nnls/test_svc.cpp check this one, the SVC host/device comparison the kernel's).
using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

constexpr PhiloxCounter philox4x32_10(PhiloxCounter x, PhiloxKey key) {
  constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {  // the key schedule: a Weyl sequence, bumped before rounds 2..10
      key[0] += w0;
      key[1] += w1;
    }
    const std::uint64_t p0 = static_cast<std::uint64_t>(m0) * x[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(m1) * x[2];
    x = {static_cast<std::uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<std::uint32_t>(p0)};
  }
  return x;
}

// The key of a 64-bit seed: low word first.
constexpr PhiloxKey philox_key(std::uint64_t seed) {
  return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
}

}  // namespace hetflow::nnls
