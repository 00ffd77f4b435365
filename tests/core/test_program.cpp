#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "hetflow/core/binary_cache.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"
#include "test_devices.hpp"

namespace hetflow::core {
namespace {

namespace fs = std::filesystem;

// Points the binary cache at a fresh folder for one test and restores the environment after.
class CacheDir {
 public:
  CacheDir() : dir_(fs::temp_directory_path() / ("hetflow-cache-" + std::to_string(::getpid()) + "-" + test_name())) {
    fs::remove_all(dir_);
    setenv("HETFLOW_CACHE_DIR", dir_.c_str(), 1);
  }
  ~CacheDir() {
    unsetenv("HETFLOW_CACHE_DIR");
    fs::remove_all(dir_);
  }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    if (fs::exists(dir_)) {
      for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path());
    }
    return out;
  }

 private:
  static std::string test_name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }
  fs::path dir_;
};

// Built from a source string: build_program() takes text, the registry resolves includes.
const char* saxpy = R"(
__kernel void saxpy(__global real_t* y, __global const real_t* x, const real_t a) {
  const size_t i = get_global_id(0);
  y[i] += a * x[i];
})";

TEST(CoreRegistry, FindsEmbeddedKernelsAndExpandsIncludes) {
  const auto names = kernel_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "core/probe.cl"), names.end());
  const std::string probe = kernel_source("core/probe.cl");
  EXPECT_NE(probe.find("typedef REAL real_t;"), std::string::npos);  // core/common.cl pulled in
  EXPECT_NE(probe.find("__kernel void probe_copy"), std::string::npos);
  EXPECT_EQ(probe.find("\n#include"), std::string::npos);
  try {
    kernel_source("lbm/nothing.cl");
    FAIL() << "unknown kernel accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'lbm/nothing.cl' is not registered; registered: "), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("core/probe.cl"), std::string::npos);
  }
}

TEST(CoreProgram, BuildsWithPrecisionDefinesAndRuns) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  CacheDir cache;
  const std::string source = kernel_source("core/common.cl") + saxpy;
  for (Precision p : {Precision::f32, Precision::f64}) {
    if (p == Precision::f64 && !ctx.device().info.fp64) continue;
    const Program program = build_program(ctx, "test/saxpy", source, BuildOptions(p).str());
    Kernel k = program.kernel("saxpy");
    if (p == Precision::f32) {
      Buffer<float> y(ctx, 256), x(ctx, 256);
      y.fill(q, 1.0f);
      x.fill(q, 2.0f);
      k.args(y, x, 0.5f).launch(q, 256).wait();
      EXPECT_EQ(y.to_vector(q)[255], 2.0f);
    } else {
      Buffer<double> y(ctx, 256), x(ctx, 256);
      y.fill(q, 1.0);
      x.fill(q, 1.0 / 3.0);
      k.args(y, x, 3.0).launch(q, 256).wait();
      EXPECT_DOUBLE_EQ(y.to_vector(q)[7], 2.0);
    }
  }
}

// enqueue() runs the kernel as launch() does, in queue order, without handing out an event.
TEST(CoreProgram, EnqueueRunsTheKernelInQueueOrder) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  CacheDir cache;
  const Program program =
      build_program(ctx, "test/twice.cl", "__kernel void twice(__global int* v) { v[0] *= 2; }\n", "");
  Kernel k = program.kernel("twice");
  Buffer<cl_int> v(ctx, 1);
  v.fill(q, 3);
  k.args(v);
  for (int i = 0; i < 5; ++i) k.enqueue(q, 1);
  EXPECT_EQ(v.to_vector(q)[0], 96);
}

// A context's extra options (`hetflow bench --build-options`, a case's device.build_options) reach
// programs built from generated source too, as RADAU5's and the chem benchmark's are.
TEST(CoreProgram, SourceBuildsTakeTheContextsExtraOptions) {
  DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  CacheDir cache;
  const std::string source = "__kernel void extra(__global int* out) { out[0] = EXTRA_VALUE; }\n";
  ds.set_extra_build_options("-D EXTRA_VALUE=7");
  const Program program = build_program(ctx, "test/extra.cl", source, "");
  ds.set_extra_build_options("");
  EXPECT_NE(program.options().find("-D EXTRA_VALUE=7"), std::string::npos) << program.options();
  Buffer<cl_int> out(ctx, 1);
  program.kernel("extra").args(out).launch(q, 1).wait();
  EXPECT_EQ(out.to_vector(q)[0], 7);
}

TEST(CoreProgram, BuildErrorCarriesTheFullLog) {
  const DeviceSet ds = test::test_device();
  CacheDir cache;
  const std::string broken = "__kernel void f(__global float* a) { a[0] = undefined_symbol_xyz; }\n";
  try {
    build_program(ds.context(0), "test/broken.cl", broken, "");
    FAIL() << "a broken kernel built";
  } catch (const KernelBuildError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("kernel 'test/broken.cl' failed to build for"), std::string::npos) << what;
    EXPECT_NE(e.log().find("undefined_symbol_xyz"), std::string::npos) << e.log();
  }
  EXPECT_TRUE(cache.files().empty());  // nothing cached for a failed build
}

TEST(CoreProgram, UnknownKernelEntryIsNamed) {
  const DeviceSet ds = test::test_device();
  const Program& p = ds.context(0).program("core/probe.cl");
  try {
    p.kernel("no_such_kernel");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no kernel named 'no_such_kernel'"), std::string::npos);
  }
}

TEST(CoreBinaryCache, SecondBuildLoadsTheBinaryAndCorruptEntriesAreRebuilt) {
  const DeviceSet ds = test::test_device();
  CacheDir cache;
  const std::string src = kernel_source("core/probe.cl");
  const Program first = build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float");
  EXPECT_FALSE(first.from_cache());
  ASSERT_EQ(cache.files().size(), 1u);

  const Program second = build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float");
  EXPECT_TRUE(second.from_cache());
  second.kernel("probe_copy");  // the cached binary yields working kernels

  // Other options are another key: a new entry, not a hit.
  EXPECT_FALSE(build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float -D X=1").from_cache());
  EXPECT_EQ(cache.files().size(), 2u);

  // Flip one byte of the stored payload: the checksum catches it and the program is rebuilt.
  const fs::path entry = BinaryCache::from_environment().path(BinaryCache::key(src, "-D REAL=float", ds.device(0).info));
  ASSERT_TRUE(fs::exists(entry));
  {
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1, std::ios::end);
    const char last = static_cast<char>(f.get());
    f.seekp(-1, std::ios::end);
    f.put(static_cast<char>(last ^ 0x01));
  }
  const Program rebuilt = build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float");
  EXPECT_FALSE(rebuilt.from_cache());
  EXPECT_TRUE(build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float").from_cache());

  // A truncated file is no better.
  fs::resize_file(entry, 10);
  EXPECT_FALSE(build_program(ds.context(0), "core/probe.cl", src, "-D REAL=float").from_cache());
}

// A well-formed entry built from other source (here: another program's binary under this source's key)
// loads, but lacks the kernel asked for: it is rebuilt from source, replaces the entry, and is named on
// stderr; a kernel that the source lacks too is still an error.
TEST(CoreBinaryCache, EntryLackingARequestedKernelIsRebuiltAndReplaced) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  CacheDir cache_dir;
  const BinaryCache cache = BinaryCache::from_environment();
  const std::string alpha = "__kernel void alpha(__global int* out) { out[0] = 1; }\n";
  const std::string beta = "__kernel void beta(__global int* out) { out[0] = 2; }\n";
  const std::string options = ctx.full_build_options("");
  ASSERT_FALSE(build_program(ctx, "test/alpha.cl", alpha, "").from_cache());
  const auto foreign = cache.load(BinaryCache::key(alpha, options, ctx.device().info));
  ASSERT_TRUE(foreign);
  const std::string beta_key = BinaryCache::key(beta, options, ctx.device().info);
  cache.store(beta_key, *foreign);

  const Program planted = build_program(ctx, "test/beta.cl", beta, "");
  EXPECT_TRUE(planted.from_cache());
  ::testing::internal::CaptureStderr();
  Kernel k = planted.kernel("beta");
  const std::string note = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(note.find("hetflow: the cached binary of test/beta.cl for " + ctx.device().label() +
                      " had no kernel 'beta'; rebuilt it from source and replaced the cache entry\n"),
            std::string::npos)
      << note;
  EXPECT_FALSE(planted.from_cache());
  Buffer<cl_int> out(ctx, 1);
  k.args(out).launch(q, 1).wait();
  EXPECT_EQ(out.to_vector(q)[0], 2);
  EXPECT_THROW(planted.kernel("alpha"), Error);

  const auto replaced = cache.load(beta_key);
  ASSERT_TRUE(replaced);
  EXPECT_NE(*replaced, *foreign);
  const Program again = build_program(ctx, "test/beta.cl", beta, "");
  EXPECT_TRUE(again.from_cache());
  ::testing::internal::CaptureStderr();
  again.kernel("beta");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(CoreBinaryCache, KeyCoversDriverAndDevice) {
  DeviceInfo a;
  a.name = "dev";
  a.driver = "1.0";
  DeviceInfo b = a;
  b.driver = "1.1";
  EXPECT_NE(BinaryCache::key("src", "", a), BinaryCache::key("src", "", b));
  EXPECT_NE(BinaryCache::key("src", "-D A", a), BinaryCache::key("src", "", a));
  EXPECT_EQ(BinaryCache::key("src", "", a), BinaryCache::key("src", "", a));
}

}  // namespace
}  // namespace hetflow::core
