#include "hetflow/app/tuning_lookup.hpp"

#include <charconv>

#include "hetflow/tune/database.hpp"

namespace hetflow::app {

std::optional<std::size_t> whole_number(const tune::Setting& setting, const std::string& key, std::size_t lowest,
                                        std::size_t highest) {
  const auto it = setting.find(key);
  if (it == setting.end()) return std::nullopt;
  const std::string& text = it->second;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lowest || value > highest) return std::nullopt;
  return value;
}

std::optional<tune::Entry> find_tuning(const core::DeviceSet& devices, const tune::Key& key, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != first.name || d.driver != first.driver) {
      record = "none: the devices differ, and one device's setting need not suit another";
      return std::nullopt;
    }
  }
  return find_entry(key, record);
}

std::optional<tune::Entry> find_entry(const tune::Key& key, nlohmann::json& record) {
  if (tune::tuning_disabled()) {
    record = "disabled (HETFLOW_NO_TUNE)";
    return std::nullopt;
  }
  const tune::Database db(tune::default_database_path());
  std::optional<tune::Entry> entry = db.find(key);
  if (!entry) {
    record = std::string("none: nothing tuned for this device, driver, kernel and problem class (`hetflow tune ")
                 .append(key.tunable)
                 .append("`)");
    return std::nullopt;
  }
  record = {{"database", db.path().string()}, {"tuned_at", entry->tuned_at}, {"tuned_on", entry->problem}};
  return entry;
}

}  // namespace hetflow::app
