#pragma once
#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hetflow/core/context.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/handle.hpp"
#include "hetflow/core/trace.hpp"

namespace hetflow::core {

enum class Blocking { no, yes };
enum class MapMode { read, write, read_write };

inline constexpr std::size_t to_end = std::numeric_limits<std::size_t>::max();

namespace detail {
[[noreturn]] void throw_range(const char* op, std::size_t offset, std::size_t count, std::size_t size);
cl_mem create_buffer(const Context& context, std::size_t bytes, cl_mem_flags flags);
void* map_buffer(const Queue& queue, cl_mem mem, MapMode mode, std::size_t byte_offset, std::size_t bytes);
void unmap_buffer(const Queue& queue, cl_mem mem, void* ptr);
}  // namespace detail

// A host view of a mapped buffer region, unmapped on destruction (blocking, so the device sees the
// host's writes before any later command).
template <class T>
class Mapping {
 public:
  Mapping(const Queue& queue, MemHandle mem, T* data, std::size_t size)
      : queue_(queue), mem_(std::move(mem)), data_(data), size_(size) {}
  Mapping(Mapping&& other) noexcept
      : queue_(other.queue_), mem_(other.mem_), data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  Mapping& operator=(Mapping&&) = delete;
  ~Mapping() {
    if (data_) detail::unmap_buffer(queue_, mem_.get(), data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> span() const { return {data_, size_}; }

 private:
  Queue queue_;
  MemHandle mem_;
  T* data_;
  std::size_t size_;
};

// A typed device buffer; sizes and offsets count elements of T. Every transfer checks its range; all but the
// enqueue_ forms return its event, and non-blocking transfers keep the host memory alive until it completes.
template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable elements");

 public:
  Buffer() = default;
  Buffer(const Context& context, std::size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE)
      : mem_(size ? detail::create_buffer(context, size * sizeof(T), flags) : nullptr), size_(size) {}

  cl_mem get() const { return mem_.get(); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  Event write(const Queue& q, std::span<const T> src, std::size_t offset = 0, Blocking b = Blocking::yes,
              std::span<const Event> wait = {}) {
    return Event(transfer_command(q, src, offset, b, raw_events(wait), true));
  }
  Event read(const Queue& q, std::span<T> dst, std::size_t offset = 0, Blocking b = Blocking::yes,
             std::span<const Event> wait = {}) const {
    return Event(transfer_command(q, dst, offset, b, raw_events(wait), true));
  }

  std::vector<T> to_vector(const Queue& q) const {
    std::vector<T> out(size_);
    read(q, out);
    return out;
  }

  // Sets `n` elements from `offset` to `value` on the device (clEnqueueFillBuffer).
  Event fill(const Queue& q, const T& value, std::size_t offset = 0, std::size_t n = to_end,
             std::span<const Event> wait = {}) {
    return Event(fill_command(q, value, offset, n, raw_events(wait), true));
  }

  // Copies `n` elements of `src` (same context) from `src_offset` to `dst_offset` of this buffer.
  Event copy_from(const Queue& q, const Buffer& src, std::size_t src_offset, std::size_t dst_offset, std::size_t n,
                  std::span<const Event> wait = {}) {
    return Event(copy_command(q, src, src_offset, dst_offset, n, raw_events(wait), true));
  }

  // The same commands without an event, non-blocking, for chains of commands whose end a later blocking
  // read or a finish shows: on NVIDIA's OpenCL with a profiling queue an event more than doubles the host's
  // cost of a command. The host memory of a write or read must live until then.
  void enqueue_write(const Queue& q, std::span<const T> src, std::size_t offset = 0) {
    drop(transfer_command(q, src, offset, Blocking::no, {}, false));
  }
  void enqueue_read(const Queue& q, std::span<T> dst, std::size_t offset = 0) const {
    drop(transfer_command(q, dst, offset, Blocking::no, {}, false));
  }
  void enqueue_fill(const Queue& q, const T& value, std::size_t offset = 0, std::size_t n = to_end) {
    drop(fill_command(q, value, offset, n, {}, false));
  }
  void enqueue_copy_from(const Queue& q, const Buffer& src, std::size_t src_offset, std::size_t dst_offset,
                         std::size_t n) {
    drop(copy_command(q, src, src_offset, dst_offset, n, {}, false));
  }

  Mapping<T> map(const Queue& q, MapMode mode, std::size_t offset = 0, std::size_t n = to_end) const {
    if (n == to_end) n = size_ - std::min(offset, size_);
    check_range("map", offset, n);
    T* ptr = n ? static_cast<T*>(detail::map_buffer(q, get(), mode, offset * sizeof(T), n * sizeof(T))) : nullptr;
    return Mapping<T>(q, mem_, ptr, n);
  }

 private:
  void check_range(const char* op, std::size_t offset, std::size_t n) const {
    if (offset > size_ || n > size_ - offset) detail::throw_range(op, offset, n, size_);
  }
  // Each command asks for an event when its caller keeps it or tracing records it; record() retains its own.
  static cl_event* slot(cl_event& e, bool keep) { return keep || trace::enabled() ? &e : nullptr; }
  static void drop(cl_event e) {
    if (e) check(clReleaseEvent(e), "clReleaseEvent");
  }
  // A write (from const host memory) or a read (into it).
  template <class U>
  cl_event transfer_command(const Queue& q, std::span<U> host, std::size_t offset, Blocking b,
                            const std::vector<cl_event>& list, bool keep) const {
    constexpr bool writing = std::is_const_v<U>;
    check_range(writing ? "write" : "read", offset, host.size());
    if (host.empty()) return nullptr;
    cl_event e = nullptr;
    const cl_bool blocking = b == Blocking::yes;
    const std::size_t at = offset * sizeof(T);
    if constexpr (writing)
      check(clEnqueueWriteBuffer(q.get(), get(), blocking, at, host.size_bytes(), host.data(), count(list), data(list),
                                 slot(e, keep)),
            "clEnqueueWriteBuffer");
    else
      check(clEnqueueReadBuffer(q.get(), get(), blocking, at, host.size_bytes(), host.data(), count(list), data(list),
                                slot(e, keep)),
            "clEnqueueReadBuffer");
    trace::record(q, writing ? "write" : "read", e, host.size_bytes());
    return e;
  }
  cl_event fill_command(const Queue& q, const T& value, std::size_t offset, std::size_t n,
                        const std::vector<cl_event>& list, bool keep) {
    static_assert(sizeof(T) <= 128 && (sizeof(T) & (sizeof(T) - 1)) == 0,
                  "fill needs an element size that is a power of two up to 128 bytes");
    if (n == to_end) n = size_ - std::min(offset, size_);
    check_range("fill", offset, n);
    if (n == 0) return nullptr;
    cl_event e = nullptr;
    check(clEnqueueFillBuffer(q.get(), get(), &value, sizeof(T), offset * sizeof(T), n * sizeof(T), count(list),
                              data(list), slot(e, keep)),
          "clEnqueueFillBuffer");
    trace::record(q, "fill", e, n * sizeof(T));
    return e;
  }
  cl_event copy_command(const Queue& q, const Buffer& src, std::size_t src_offset, std::size_t dst_offset,
                        std::size_t n, const std::vector<cl_event>& list, bool keep) {
    src.check_range("copy source", src_offset, n);
    check_range("copy destination", dst_offset, n);
    if (n == 0) return nullptr;
    cl_event e = nullptr;
    check(clEnqueueCopyBuffer(q.get(), src.get(), get(), src_offset * sizeof(T), dst_offset * sizeof(T), n * sizeof(T),
                              count(list), data(list), slot(e, keep)),
          "clEnqueueCopyBuffer");
    trace::record(q, "copy", e, n * sizeof(T));
    return e;
  }
  static cl_uint count(const std::vector<cl_event>& l) { return static_cast<cl_uint>(l.size()); }
  static const cl_event* data(const std::vector<cl_event>& l) { return l.empty() ? nullptr : l.data(); }

  MemHandle mem_;
  std::size_t size_ = 0;
};

// `buffer` when it holds at least `size` elements, else a new one an eighth larger than that: for buffers
// that are rebuilt as their contents grow and shrink a little (the blocks of an adapted grid), which then
// keep their memory instead of paying a release and an allocation each time.
template <class T>
Buffer<T> at_least(const Context& context, Buffer<T> buffer, std::size_t size) {
  if (buffer.size() >= size) return buffer;
  return Buffer<T>(context, size + size / 8);
}

// A new device buffer holding `host`, written before it returns. OpenCL has no empty buffers: an empty
// `host` gets one unused slot.
template <class T>
Buffer<T> upload(const Queue& queue, const std::vector<T>& host, cl_mem_flags flags = CL_MEM_READ_WRITE) {
  Buffer<T> buffer(queue.context(), std::max<std::size_t>(host.size(), 1), flags);
  if (!host.empty()) buffer.write(queue, std::span<const T>(host));
  return buffer;
}

// The buffer `member` of `owner`, taken over (left empty there), or none without an owner: for objects
// rebuilt with every new grid that keep their predecessor's device memory (at_least, upload_into).
template <class Owner, class T>
Buffer<T> taken_from(Owner* owner, Buffer<T> Owner::*member) {
  return owner ? std::exchange(owner->*member, {}) : Buffer<T>{};
}

// upload() into `buffer` where it is large enough (at_least), so that a table rebuilt with every new grid
// keeps its device memory; the values past host.size() are left as they were.
template <class T>
Buffer<T> upload_into(const Queue& queue, const std::vector<T>& host, Buffer<T> buffer) {
  buffer = at_least(queue.context(), std::move(buffer), std::max<std::size_t>(host.size(), 1));
  if (!host.empty()) buffer.write(queue, std::span<const T>(host));
  return buffer;
}

// Page-locked host memory the device can reach directly: a CL_MEM_ALLOC_HOST_PTR buffer kept mapped,
// the way NVIDIA's OpenCL hands out pinned memory. Transfers that use data() as their host pointer run
// at full link speed and can overlap with kernels.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer(const Queue& queue, std::size_t size)
      : buffer_(queue.context(), size, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR),
        mapping_(buffer_.map(queue, MapMode::read_write)) {}

  T* data() const { return mapping_.data(); }
  std::size_t size() const { return buffer_.size(); }
  std::span<T> span() const { return mapping_.span(); }
  T& operator[](std::size_t i) const { return mapping_[i]; }

 private:
  Buffer<T> buffer_;
  Mapping<T> mapping_;
};

}  // namespace hetflow::core
