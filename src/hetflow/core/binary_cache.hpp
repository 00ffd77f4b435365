#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/device.hpp"

namespace hetflow::core {

// Persistent cache of compiled program binaries, one file per key. A file carries a magic line and
// the SHA-256 of its payload; a file that fails either check is deleted and reported as a miss, so a
// corrupt entry is rebuilt, never trusted. Stale entries cannot be hit: the key covers the source,
// the options, the platform, the device and the driver version.
class BinaryCache {
 public:
  // $HETFLOW_CACHE_DIR, else $XDG_CACHE_HOME/hetflow, else ~/.cache/hetflow; disabled when
  // HETFLOW_CACHE=off. Read from the environment at each call so tests can redirect it.
  static BinaryCache from_environment();
  BinaryCache(std::filesystem::path dir, bool enabled);

  static std::string key(std::string_view source, std::string_view options, const DeviceInfo& device);

  bool enabled() const { return enabled_; }
  std::filesystem::path path(const std::string& key) const;
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  // Writes under a temporary name and renames; a failure to write only costs the next start a rebuild.
  void store(const std::string& key, std::span<const unsigned char> binary) const;
  void remove(const std::string& key) const;

 private:
  std::filesystem::path dir_;
  bool enabled_;
};

}  // namespace hetflow::core
