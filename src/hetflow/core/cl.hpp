#pragma once
// The one place OpenCL's C header is included: hetflow uses the OpenCL 1.2 API only
// (CL_TARGET_OPENCL_VERSION=120 is set by the build), which NVIDIA's driver and PoCL both provide.
#include <CL/cl.h>
