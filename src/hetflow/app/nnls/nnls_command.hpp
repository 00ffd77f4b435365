#pragma once
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/app/nnls/nnls_input.hpp"
#include "hetflow/io/npy.hpp"

namespace CLI {
class App;
}

namespace hetflow::nnls {
struct TntResult;
}

namespace hetflow::app {

// What `hetflow nnls` was asked to do.
struct NnlsRequest {
  std::string a_file, b_file;  // any form io::read_dense takes: .npy, .csv/.txt, file.h5:/dataset
  std::string output = "nnls";
  std::string method = "tnt";  // tnt, fnnls, lawson-hanson
  std::string device = "auto";
  bool fp32 = false;
  // TNT's rc and ec when given; else the tuned class's (`problem_class`), else TntOptions' defaults.
  std::optional<double> reduction, expansion;
  std::string problem_class;  // tnt: a class tuned by `hetflow tune nnls-constants`; empty: none
  std::optional<double> early_reach;  // tnt: TntOptions::early_reach when given, else its default
  double tolerance = 0;       // 0: each solver's default KKT tolerance
  // tnt: TntOptions::keep_going of every right-hand side's solve (the Python package's progress).
  std::function<bool(int)> keep_going;
  int max_iterations = 0;     // 0: 3n
  bool no_tune = false;       // tnt: take nothing from the tuning database
};

// Adds the `nnls` subcommand and its options (writing into `request`) to `app`. Options that only TNT
// reads are refused, as a command-line error, with another method.
CLI::App* add_nnls_command(CLI::App& app, NnlsRequest& request);

// What solve_nnls found: report.json's content, x (A.cols, or A.cols x k for k right-hand sides), one
// summary line per right-hand side, how many did not converge, and the TNT constants' description (tnt).
struct NnlsOutcome {
  nlohmann::json report;
  io::DenseArray x;
  std::vector<std::string> lines;
  std::size_t failed = 0;
  std::string constants;
};

// min ||A x - b||_2 subject to x >= 0 for each column b of B by the request's method and options (its
// files are only named in the report); `vector`: B came as a vector, and x is returned as one. What
// `hetflow nnls` and hetflow.nnls in Python both run, the latter on views of the caller's arrays.
NnlsOutcome solve_nnls(const NnlsRequest& request, nnls::MatrixView A, nnls::MatrixView B, bool vector);

// TNT's trials, CG iterations and factorisations, and where its time went (TntResult's *_seconds), as
// report.json and `hetflow bench nnls` record them.
nlohmann::json tnt_report(const nnls::TntResult& result);

// `hetflow nnls A b`: min ||A x - b||_2 subject to x >= 0 for each column of b. Writes OUTPUT/x.npy and
// OUTPUT/report.json and prints one line per right-hand side to `out`. Throws core::Error for unreadable
// or inconsistent input (naming the file) before anything is written, and after writing both files
// when a right-hand side did not converge: every failure is exit status 1, as for `hetflow run`.
int nnls_command(const NnlsRequest& request, std::ostream& out);

}  // namespace hetflow::app
