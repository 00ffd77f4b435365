#pragma once

namespace hetflow::app {

// The `hetflow` command: parses the command line, runs the subcommand and turns every error into a
// short message on stderr and a non-zero exit status.
int main(int argc, char** argv);

}  // namespace hetflow::app
