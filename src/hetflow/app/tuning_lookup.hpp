#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::app {

// The database's entry for `key` when every device shares one name and driver and tuning is enabled;
// else nothing. `record` (the manifest's "tuning") says what was found, or why nothing.
std::optional<tune::Entry> find_tuning(const core::DeviceSet& devices, const tune::Key& key, nlohmann::json& record);

// The database's entry for `key` when tuning is enabled; else nothing. `record` says what was found, or
// why nothing.
std::optional<tune::Entry> find_entry(const tune::Key& key, nlohmann::json& record);

// The whole number an entry's setting holds under `key`, or nothing when it lacks the key or the value is
// not one in [lowest, highest]: entries are advisory data, perhaps edited by hand.
std::optional<std::size_t> whole_number(const tune::Setting& setting, const std::string& key, std::size_t lowest,
                                        std::size_t highest);

}  // namespace hetflow::app
