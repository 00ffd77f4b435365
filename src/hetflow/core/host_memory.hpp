#pragma once

namespace hetflow::core {

// Keeps the host memory the program frees for its later allocations instead of handing it back to the
// system (glibc's malloc: allocations below 32 MB come from its heaps, whose tops are not trimmed below
// 1 GB; elsewhere nothing). An adapted grid rebuilds tables of megabytes each adaptation (the grid of
// leaves, the flux correction's table, the ghost plans), and memory returned after one would be faulted
// back in page by page for the next. The command-line program sets it at start; a program that links the
// library calls it, or sets MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_, as it sees fit.
void keep_freed_host_memory();

}  // namespace hetflow::core
