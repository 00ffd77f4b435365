# Warnings for hetflow's own targets (not for third-party headers, which come in as SYSTEM).
# No -Wnull-dereference: g++ 12 reports false positives inside libstdc++ streams.
add_library(hetflow_warnings INTERFACE)
target_compile_options(hetflow_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wformat=2)
