#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hetflow::core {

// SHA-256 (FIPS 180-4): keys the program-binary cache and checks cached files for corruption.
class Sha256 {
 public:
  Sha256();
  Sha256& update(std::span<const unsigned char> bytes);
  Sha256& update(std::string_view text);
  std::array<unsigned char, 32> digest();
  std::string hex();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace hetflow::core
