#include "hetflow/app/cli.hpp"

int main(int argc, char** argv) { return hetflow::app::main(argc, argv); }
