# Warnings for hetflow's own targets (not for third-party headers, which come in as SYSTEM).
add_library(hetflow_warnings INTERFACE)
target_compile_options(hetflow_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wnull-dereference -Wformat=2)
