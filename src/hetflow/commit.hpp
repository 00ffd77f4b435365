#pragma once

namespace hetflow {

// The git commit the build was made from, as manifests and benchmark records name it: read at every
// build (cmake/write_commit.cmake), so a commit made since configuring is not missed; "-dirty" when the
// sources differed from it.
const char* git_commit();

}  // namespace hetflow
