#include "hetflow/core/selection.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::core {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

std::optional<std::size_t> parse_index(std::string_view s) {
  std::size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::string selection_message(std::string_view term, const std::string& why) {
  return "device selection '" + std::string(term) + "': " + why +
         " (valid: auto, all, gpu, cpu, gpu:N, cpu:N, PLATFORM, PLATFORM:N, N or a comma list; "
         "`hetflow devices` lists the devices)";
}

[[noreturn]] void malformed(std::string_view term, const std::string& why) {
  throw SelectionError(selection_message(term, why));
}

[[noreturn]] void missing(std::string_view term, const std::string& why) {
  throw NoDeviceError(selection_message(term, why));
}

std::vector<std::size_t> pick_nth(std::string_view term, const std::vector<std::size_t>& group,
                                  std::optional<std::string_view> nth, const std::string& what) {
  if (!nth) return group;
  const auto n = parse_index(*nth);  // a number: terms() checked the form
  if (*n >= group.size()) {
    missing(term, "there " + std::string(group.size() == 1 ? "is " : "are ") + std::to_string(group.size()) +
                      " " + what + " device" + (group.size() == 1 ? "" : "s") + ", numbered from 0");
  }
  return {group[*n]};
}

std::vector<std::size_t> auto_choice(std::span<const DeviceInfo> devices) {
  std::map<unsigned, std::vector<std::size_t>> gpus_by_platform;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].kind == DeviceKind::gpu) gpus_by_platform[devices[i].platform_index].push_back(i);
  }
  const std::vector<std::size_t>* best = nullptr;
  for (const auto& [platform, gpus] : gpus_by_platform) {
    if (!best || gpus.size() > best->size()) best = &gpus;
  }
  if (best) return *best;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].kind == DeviceKind::cpu) return {i};
  }
  return {0};
}

// The selection's terms, trimmed, once its form is checked: a malformed selection is reported as such on
// every machine, before any term is looked up among the devices.
std::vector<std::string> terms(std::string_view spec) {
  if (trim(spec).empty()) malformed(spec, "the selection is empty");
  std::vector<std::string> list;
  std::string_view rest = spec;
  while (true) {
    const auto comma = rest.find(',');
    const std::string term = trim(rest.substr(0, comma));
    if (term.empty()) malformed(spec, "empty entry in the list");
    if (const auto colon = term.find(':'); colon != std::string::npos) {
      if (colon == 0) malformed(term, "empty platform name");
      const std::string nth = term.substr(colon + 1);
      if (!parse_index(nth)) malformed(term, "'" + nth + "' is not a device number");
    }
    list.push_back(term);
    if (comma == std::string_view::npos) return list;
    rest = rest.substr(comma + 1);
  }
}

std::vector<std::size_t> resolve_term(std::string_view term, std::span<const DeviceInfo> devices) {
  const std::string t = lower(term);
  if (t == "auto") return auto_choice(devices);
  if (t == "all") {
    std::vector<std::size_t> all(devices.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  }
  if (const auto n = parse_index(t)) {
    if (*n >= devices.size()) {
      missing(term, "there are " + std::to_string(devices.size()) + " devices, numbered from 0");
    }
    return {*n};
  }
  const auto colon = t.find(':');
  const std::string head = t.substr(0, colon);
  const std::optional<std::string_view> nth =
      colon == std::string::npos ? std::nullopt : std::optional<std::string_view>(term.substr(colon + 1));
  std::vector<std::size_t> group;
  if (head == "gpu" || head == "cpu") {
    const DeviceKind kind = head == "gpu" ? DeviceKind::gpu : DeviceKind::cpu;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (devices[i].kind == kind) group.push_back(i);
    }
    if (group.empty()) missing(term, "no " + head + " device is available");
    return pick_nth(term, group, nth, head);
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (lower(devices[i].platform).find(head) != std::string::npos ||
        lower(devices[i].platform_vendor).find(head) != std::string::npos) {
      group.push_back(i);
    }
  }
  if (group.empty()) missing(term, "no platform matches '" + head + "'");
  return pick_nth(term, group, nth, "'" + head + "'");
}

}  // namespace

std::vector<std::size_t> select_indices(std::string_view spec, std::span<const DeviceInfo> devices) {
  const std::vector<std::string> list = terms(spec);
  if (devices.empty()) throw NoDeviceError("device selection '" + std::string(spec) + "': no device exists");
  std::vector<std::size_t> chosen;
  for (const std::string& term : list) {
    for (std::size_t i : resolve_term(term, devices)) {
      if (std::find(chosen.begin(), chosen.end(), i) == chosen.end()) chosen.push_back(i);
    }
  }
  return chosen;
}

std::vector<Device> select_devices(std::string_view spec) {
  terms(spec);  // a malformed selection is reported as such on a machine without OpenCL too
  std::vector<Device> all = discover_devices();
  std::vector<DeviceInfo> infos;
  infos.reserve(all.size());
  for (const Device& d : all) infos.push_back(d.info);
  std::vector<Device> chosen;
  for (std::size_t i : select_indices(spec, infos)) chosen.push_back(all[i]);
  return chosen;
}

}  // namespace hetflow::core
