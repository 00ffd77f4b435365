#pragma once
// RAII pieces over the HDF5 C API shared by the HDF5 writer and reader; included only where
// HETFLOW_HAVE_HDF5 is defined, so no other part of hetflow sees HDF5's headers.
#ifdef HETFLOW_HAVE_HDF5
#include <hdf5.h>

#include <utility>

namespace hetflow::io::hdf5 {

// HDF5 prints its error stack to stderr by default; we report errors ourselves, with the file's name.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// An HDF5 identifier closed by its own close function when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }
  herr_t release() { return id_ >= 0 ? close_(std::exchange(id_, -1)) : 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

}  // namespace hetflow::io::hdf5
#endif
