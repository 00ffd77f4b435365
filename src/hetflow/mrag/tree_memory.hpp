#pragma once
#include <cstdint>

namespace hetflow::mrag {

// What a flow's trees may take of its devices' memory: in all, and in one buffer (the least of its
// devices').
struct DeviceMemory {
  std::uint64_t total = 0, buffer = 0;
};

// Device memory a tree of `leaves` leaves of s² cells takes with values of `value_bytes` (8 in FP64, 4 in
// FP32), about: per leaf the fields of every cell in four state buffers (the state, two stages and, while
// an adaptation remaps, the new state), and twice the fields of every ghost of the right-hand side's band
// (3 wide) and of the adaptation's (4 wide, corners), for the ghosts and the nodes they read.
double tree_bytes(double leaves, int s, int value_bytes);
// The largest of its buffers: a state.
double state_bytes(double leaves, int s, int value_bytes);

}  // namespace hetflow::mrag
