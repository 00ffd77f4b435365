#include <gtest/gtest.h>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

TEST(IoAtomic, UncommittedFileLeavesNothing) {
  TempDir dir;
  {
    AtomicFile f(dir / "out.bin");
    f.write("partial data");
    EXPECT_TRUE(std::filesystem::exists(f.temp_path()));
    EXPECT_EQ(f.temp_path().parent_path(), dir.path());
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoAtomic, CommitLeavesOnlyTheFinalFile) {
  TempDir dir;
  AtomicFile f(dir / "out.txt");
  f.write("hello ");
  f.write("world");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.txt"));
  f.commit();
  EXPECT_TRUE(f.committed());
  EXPECT_EQ(test::slurp(dir / "out.txt"), "hello world");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.txt"});
}

TEST(IoAtomic, CommitReplacesAnOldFileWholly) {
  TempDir dir;
  write_file_atomically(dir / "a", std::string(1000, 'x'));
  write_file_atomically(dir / "a", "new");
  EXPECT_EQ(test::slurp(dir / "a"), "new");
  EXPECT_EQ(dir.entries().size(), 1u);
}

TEST(IoAtomic, LargeWritesRoundTrip) {
  TempDir dir;
  std::string big(3'000'017, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7919 % 251);
  AtomicFile f(dir / "big");
  f.write(big.substr(0, 10));
  f.write(big.substr(10, 2'000'000));
  f.write(big.substr(2'000'010));
  f.commit();
  EXPECT_EQ(test::slurp(dir / "big"), big);
}

TEST(IoAtomic, ErrorsNameThePathAndTheReason) {
  TempDir dir;
  try {
    AtomicFile f(dir / "missing-dir" / "x.vti");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("missing-dir"), std::string::npos) << msg;
    EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  }
}

TEST(IoAtomic, DoubleCommitIsAnError) {
  TempDir dir;
  AtomicFile f(dir / "x");
  f.commit();
  EXPECT_THROW(f.commit(), IoError);
  EXPECT_THROW(f.write("late"), IoError);
  EXPECT_EQ(test::slurp(dir / "x"), "");
}

}  // namespace
}  // namespace hetflow::io
