#include <gtest/gtest.h>

#include <string>

#include "hetflow/core/sha256.hpp"

namespace hetflow::core {
namespace {

// FIPS 180-2 / NIST example vectors.
TEST(CoreSha256, KnownVectors) {
  EXPECT_EQ(Sha256().hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256().update("abc").hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256().update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256().update(std::string(1000000, 'a')).hex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CoreSha256, SplitUpdatesEqualOneUpdate) {
  EXPECT_EQ(Sha256().update("hello ").update("world").hex(), Sha256().update("hello world").hex());
}

}  // namespace
}  // namespace hetflow::core
