// The check that a run directory's manifest lists exactly the files the run wrote there.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "hetflow/io/hdf5_xdmf.hpp"

namespace hetflow::test {

// The files in the run directory `run` but manifest.json and the lock file are exactly the
// keys of the manifest's `outputs`, and each has a description.
inline void expect_outputs_are_the_files(const std::filesystem::path& run) {
  std::ifstream in(run / "manifest.json");
  const nlohmann::json m = nlohmann::json::parse(in);
  std::set<std::string> files, listed;
  for (const auto& e : std::filesystem::recursive_directory_iterator(run)) {
    const std::string name = e.path().lexically_relative(run).generic_string();
    if (!e.is_regular_file() || name == "manifest.json" || name == ".hetflow-lock") continue;
    files.insert(name);
  }
  for (const auto& [name, what] : m["outputs"].items()) {
    listed.insert(name);
    EXPECT_FALSE(what.get<std::string>().empty()) << run << ": " << name << " has no description";
  }
  EXPECT_EQ(files, listed) << run;
}

// Command-line words that add the HDF5 + XDMF outputs where hetflow is built with HDF5.
inline std::string with_hdf5() { return io::hdf5_available() ? " --set output.hdf5=true" : ""; }

}  // namespace hetflow::test
