#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/written_files.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

// Committed files under the folder are listed once each, in commit order, by their names relative to
// the folder; a file outside it, an uncommitted one and one committed after the record ends are not.
TEST(IoWrittenFiles, ListsEveryFileCommittedUnderItsFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir / "run/sub");
  std::optional<WrittenFiles> record(std::in_place, dir / "run");
  write_file_atomically(dir / "run/b.txt", "b");
  write_file_atomically(dir / "run/sub/a.txt", "a");
  write_file_atomically(dir / "run/b.txt", "b again");
  write_file_atomically(dir / "elsewhere.txt", "x");
  CsvWriter csv(dir / "run/series.csv", {"t"});
  { AtomicFile dropped(dir / "run/dropped.txt"); }
  EXPECT_EQ(record->names(), (std::vector<std::string>{"b.txt", "sub/a.txt", "series.csv"}));
  record.reset();
  WrittenFiles later(dir.path() / "run" / ".." / "run");
  write_file_atomically(dir / "run/c.txt", "c");
  EXPECT_EQ(later.names(), (std::vector<std::string>{"c.txt"}));
}

}  // namespace
}  // namespace hetflow::io
