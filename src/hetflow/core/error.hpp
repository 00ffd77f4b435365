#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "hetflow/core/cl.hpp"

namespace hetflow::core {

// Base of every error the device runtime reports; what() is a complete sentence for the user.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An OpenCL call failed; code() is the OpenCL status.
class ClError : public Error {
 public:
  ClError(cl_int code, std::string_view call);
  cl_int code() const { return code_; }

 private:
  cl_int code_;
};

// No OpenCL platform is installed or visible (no ICD, empty OCL_ICD_VENDORS, ...).
class NoPlatformError : public Error {
 public:
  using Error::Error;
};

// A device selection that is not of the documented form ("gpu:x", an empty entry in a list): a mistake
// in what the user typed, whatever devices exist.
class SelectionError : public Error {
 public:
  using Error::Error;
};

// A well-formed device selection that no device here matches ("gpu:7" with one GPU, a platform name no
// platform has): the same selection may be right on another machine.
class NoDeviceError : public Error {
 public:
  using Error::Error;
};

// A kernel failed to compile; what() holds the kernel name, options, device and the full build log.
class KernelBuildError : public Error {
 public:
  KernelBuildError(std::string kernel, std::string options, std::string device, std::string log);
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

const char* cl_status_name(cl_int code);

inline void check(cl_int code, std::string_view call) {
  if (code != CL_SUCCESS) throw ClError(code, call);
}

}  // namespace hetflow::core
