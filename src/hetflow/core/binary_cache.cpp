#include "hetflow/core/binary_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "hetflow/core/sha256.hpp"

namespace hetflow::core {
namespace {

constexpr std::string_view magic = "hetflow-program-binary 1\n";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

BinaryCache BinaryCache::from_environment() {
  const bool enabled = env("HETFLOW_CACHE") != "off";
  std::filesystem::path dir;
  if (!env("HETFLOW_CACHE_DIR").empty()) {
    dir = env("HETFLOW_CACHE_DIR");
  } else if (!env("XDG_CACHE_HOME").empty()) {
    dir = std::filesystem::path(env("XDG_CACHE_HOME")) / "hetflow";
  } else if (!env("HOME").empty()) {
    dir = std::filesystem::path(env("HOME")) / ".cache" / "hetflow";
  } else {
    return BinaryCache({}, false);
  }
  return BinaryCache(dir, enabled);
}

BinaryCache::BinaryCache(std::filesystem::path dir, bool enabled) : dir_(std::move(dir)), enabled_(enabled) {}

std::string BinaryCache::key(std::string_view source, std::string_view options, const DeviceInfo& d) {
  Sha256 h;
  // Length-prefix each field so no two different field lists hash the same text.
  for (std::string_view field : {source, options, std::string_view(d.platform), std::string_view(d.platform_version),
                                 std::string_view(d.name), std::string_view(d.vendor), std::string_view(d.driver),
                                 std::string_view(d.version)}) {
    h.update(std::to_string(field.size()) + ":");
    h.update(field);
  }
  return h.hex();
}

std::filesystem::path BinaryCache::path(const std::string& key) const { return dir_ / (key + ".bin"); }

std::optional<std::vector<unsigned char>> BinaryCache::load(const std::string& key) const {
  if (!enabled_) return std::nullopt;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t header = magic.size() + 32;
  const bool framed = file.size() > header && std::equal(magic.begin(), magic.end(), file.begin());
  if (framed) {
    std::vector<unsigned char> payload(file.begin() + static_cast<std::ptrdiff_t>(header), file.end());
    const auto digest = Sha256().update(payload).digest();
    if (std::equal(digest.begin(), digest.end(), file.begin() + static_cast<std::ptrdiff_t>(magic.size()))) {
      return payload;
    }
  }
  remove(key);
  return std::nullopt;
}

void BinaryCache::store(const std::string& key, std::span<const unsigned char> binary) const {
  if (!enabled_ || binary.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const std::filesystem::path final_path = path(key);
  std::filesystem::path tmp = final_path;
  tmp += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    const auto digest = Sha256().update(binary).digest();
    out.write(magic.data(), static_cast<std::streamsize>(magic.size()));
    out.write(reinterpret_cast<const char*>(digest.data()), static_cast<std::streamsize>(digest.size()));
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, final_path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

void BinaryCache::remove(const std::string& key) const {
  std::error_code ec;
  std::filesystem::remove(path(key), ec);
}

}  // namespace hetflow::core
