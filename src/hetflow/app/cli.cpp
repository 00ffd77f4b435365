#include "hetflow/app/cli.hpp"

#include <iostream>

#include "hetflow/version.hpp"

namespace hetflow::app {

int main(int, char**) {
  std::cout << "hetflow " << version << "\n";
  return 0;
}

}  // namespace hetflow::app
