#pragma once
#include <iosfwd>

#include "hetflow/app/tune_request.hpp"

namespace CLI {
class App;
}

namespace hetflow::app {

// Adds the `tune` subcommand and its options (writing into `request`) to `app`: the tunables it offers
// and what its options mean for each come from solvers().
CLI::App* add_tune_command(CLI::App& app, TuneRequest& request);

// `hetflow tune NAME`: measures the settings, prints each and the best with its best/mean and
// best/worst ratios, and writes the best into the tuning database.
int tune_command(const TuneRequest& request, std::ostream& out);

}  // namespace hetflow::app
