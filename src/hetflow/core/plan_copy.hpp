#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/link.hpp"

namespace hetflow::core {

// How one piece of a copy between plans (or between a plan and a single buffer) travels.
// DeviceSet gives every device a context of its own, devices of one platform too (see context.hpp), so a
// piece goes direct only when both of its ends are on one device of one DeviceSet: part k of two plans
// on the same set, or a plan's part and a buffer made in that part's context. Pieces between two devices,
// even of one platform, and between a device and a repetition of it in a DeviceSet are staged.
enum class CopyPath {
  direct,  // both ends in one OpenCL context: clEnqueueCopyBuffer on the destination's queue
  staged,  // through pinned host memory: read on the source's queue, written on the destination's
  link     // one end in another process: staged on both sides and carried by Link::exchange
};

// A part of a copy that one source part and one destination part hold. Offsets count elements of the
// whole arrays; parts are partition parts (0 for a single buffer).
struct CopyPiece {
  std::size_t src_offset = 0;
  std::size_t dst_offset = 0;
  std::size_t count = 0;
  std::size_t src_part = 0;
  std::size_t dst_part = 0;
  CopyPath path = CopyPath::staged;
  bool operator==(const CopyPiece&) const = default;
};

namespace detail {

// Where a contiguous run of an array's elements lives. B is Buffer<T> for a destination and const
// Buffer<T> for a source.
template <class B>
struct Run {
  std::size_t offset = 0;  // the array's elements [offset, offset + count)
  std::size_t count = 0;
  std::size_t part = 0;
  std::size_t rank = 0;          // the process that holds the run
  B* buffer = nullptr;           // null: held by another process
  std::size_t base = 0;          // where element `offset` lies in *buffer
  const Queue* queue = nullptr;  // reads and writes *buffer
};

// An array as a copy sees it: its non-empty runs in offset order, covering [0, size).
template <class B>
struct Layout {
  const char* kind = "plan";
  std::size_t size = 0;
  std::vector<Run<B>> runs;

  // The run that holds element i < size.
  const Run<B>& run_at(std::size_t i) const {
    const auto after =
        std::upper_bound(runs.begin(), runs.end(), i, [](std::size_t v, const Run<B>& r) { return v < r.offset; });
    return *(after - 1);
  }
};

// A whole buffer that `q` reads and writes, as one run.
template <class B>
Layout<B> single_buffer(B& buffer, const Queue& q) {
  Layout<B> layout{"buffer", buffer.size(), {}};
  if (!buffer.empty()) layout.runs.push_back({0, buffer.size(), 0, 0, &buffer, 0, &q});
  return layout;
}

inline void check_copy_range(const char* src_kind, std::size_t src_size, const char* dst_kind, std::size_t dst_size,
                             std::size_t src_offset, std::size_t dst_offset, std::size_t count) {
  const bool src_fits = src_offset <= src_size && count <= src_size - src_offset;
  const bool dst_fits = dst_offset <= dst_size && count <= dst_size - dst_offset;
  if (src_fits && dst_fits) return;
  const char* past = !src_fits && !dst_fits ? "the source and the destination"
                     : src_fits             ? "the destination"
                                            : "the source";
  throw Error("plan copy of " + std::to_string(count) + " elements from offset " + std::to_string(src_offset) +
              " of the source (a " + src_kind + " of " + std::to_string(src_size) + " elements) to offset " +
              std::to_string(dst_offset) + " of the destination (a " + dst_kind + " of " + std::to_string(dst_size) +
              " elements) runs past the end of " + past);
}

// Copies `count` elements from `src_offset` of `src` to `dst_offset` of `dst`, cut wherever either
// array's runs change, and returns once every piece has landed, with the pieces this process took part
// in. A blocking copy is the contract because events cannot cross contexts, so the host bridges each
// staged piece between its read and its write anyway, and the pinned stage must outlive the writes.
// Pieces with an end in another process travel through `link`; without one they are left to the
// processes that hold them. Every staged read completes before any staged write starts, so when the
// pieces read buffer elements that pieces write (an overlapping copy within one plan), every piece is
// staged and the copy behaves as if the whole source were read first.
template <class T>
std::vector<CopyPiece> copy_elements(const Layout<const Buffer<T>>& src, const Layout<Buffer<T>>& dst,
                                     std::size_t src_offset, std::size_t dst_offset, std::size_t count, Link* link) {
  check_copy_range(src.kind, src.size, dst.kind, dst.size, src_offset, dst_offset, count);
  struct Cut {
    CopyPiece piece;
    const Run<const Buffer<T>>* from;
    const Run<Buffer<T>>* to;
    int tag;  // the cut's place in the whole copy, the same in every process
    std::size_t src_at() const { return from->base + piece.src_offset - from->offset; }
    std::size_t dst_at() const { return to->base + piece.dst_offset - to->offset; }
  };
  std::vector<Cut> cuts;
  int tag = 0;
  for (std::size_t done = 0; done < count; ++tag) {
    const Run<const Buffer<T>>& from = src.run_at(src_offset + done);
    const Run<Buffer<T>>& to = dst.run_at(dst_offset + done);
    const std::size_t n = std::min(
        {from.offset + from.count - (src_offset + done), to.offset + to.count - (dst_offset + done), count - done});
    const bool mine = from.buffer || to.buffer, crosses = !from.buffer || !to.buffer;
    if (mine && (link || !crosses)) {
      cuts.push_back({{src_offset + done, dst_offset + done, n, from.part, to.part, CopyPath::link}, &from, &to, tag});
    }
    done += n;
  }

  bool aliased = false;
  for (const Cut& w : cuts) {
    for (const Cut& r : cuts) {
      if (w.to->buffer && r.from->buffer && w.to->buffer->get() == r.from->buffer->get() &&
          w.dst_at() < r.src_at() + r.piece.count && r.src_at() < w.dst_at() + w.piece.count) {
        aliased = true;
      }
    }
  }
  std::size_t staged = 0;
  for (Cut& c : cuts) {
    if (c.from->buffer && c.to->buffer) {
      const bool same_context = c.from->queue->context().get() == c.to->queue->context().get();
      c.piece.path = same_context && !aliased ? CopyPath::direct : CopyPath::staged;
    }
    if (c.piece.path != CopyPath::direct) staged += c.piece.count;
  }

  std::optional<PinnedBuffer<T>> stage;
  if (staged > 0) {
    const Cut& first =
        *std::find_if(cuts.begin(), cuts.end(), [](const Cut& c) { return c.piece.path != CopyPath::direct; });
    stage.emplace(first.from->buffer ? *first.from->queue : *first.to->queue, staged);
  }
  // A direct copy runs on the destination's queue only, so what the source's queue holds must be done.
  for (const Cut& c : cuts) {
    if (c.piece.path == CopyPath::direct && c.from->queue->get() != c.to->queue->get()) c.from->queue->finish();
  }
  std::vector<Event> reads, writes;
  std::vector<Message> sends, receives;
  std::vector<std::span<T>> slots(cuts.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    const Cut& c = cuts[i];
    if (c.piece.path == CopyPath::direct) {
      writes.push_back(c.to->buffer->copy_from(*c.to->queue, *c.from->buffer, c.src_at(), c.dst_at(), c.piece.count));
      c.to->queue->flush();
      continue;
    }
    slots[i] = stage->span().subspan(next, c.piece.count);
    next += c.piece.count;
    if (c.from->buffer) {
      reads.push_back(c.from->buffer->read(*c.from->queue, slots[i], c.src_at(), Blocking::no));
    } else {
      receives.push_back({c.from->rank, c.tag, std::as_writable_bytes(slots[i])});
    }
    if (!c.to->buffer) sends.push_back({c.to->rank, c.tag, std::as_writable_bytes(slots[i])});
  }
  wait_all(reads);  // events cannot cross contexts: the host bridges them
  if (!sends.empty() || !receives.empty()) link->exchange(sends, receives);
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    const Cut& c = cuts[i];
    if (c.piece.path != CopyPath::direct && c.to->buffer) {
      writes.push_back(c.to->buffer->write(*c.to->queue, slots[i], c.dst_at(), Blocking::no));
    }
  }
  wait_all(writes);
  std::vector<CopyPiece> pieces;
  for (const Cut& c : cuts) pieces.push_back(c.piece);
  return pieces;
}

}  // namespace detail
}  // namespace hetflow::core
