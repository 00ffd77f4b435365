#pragma once
// How results leave C++: a numpy array takes over the std::vector that holds them, so that nothing is
// copied on the way out.
#include <pybind11/numpy.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace hetflow::python {

enum class Order { c, fortran };

// A numpy array of `shape` over `values` (whose size is the shape's product), which the array owns from
// now on: the vector lives in a capsule that numpy frees with the array.
template <class T>
pybind11::array_t<T> moved_array(std::vector<T>&& values, const std::vector<pybind11::ssize_t>& shape,
                                 Order order = Order::c) {
  std::vector<pybind11::ssize_t> strides(shape.size());
  pybind11::ssize_t stride = sizeof(T);
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::size_t axis = order == Order::c ? shape.size() - 1 - k : k;
    strides[axis] = stride;
    stride *= shape[axis];
  }
  auto* owned = new std::vector<T>(std::move(values));
  const pybind11::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return pybind11::array_t<T>(shape, strides, owned->data(), owner);
}

}  // namespace hetflow::python
