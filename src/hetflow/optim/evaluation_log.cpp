#include "hetflow/optim/evaluation_log.hpp"

#include <cerrno>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::optim {

namespace {

constexpr std::string_view format_name = "hetflow-optim-log";

core::Error log_error(const std::filesystem::path& path, std::size_t line, const std::string& what) {
  return core::Error("optimisation log '" + path.string() + "' line " + std::to_string(line) + ": " + what);
}

std::string point_text(const Point& p) { return nlohmann::json(p).dump(); }

// One evaluation line; throws nlohmann's errors on a wrong shape, which the caller turns into a core::Error.
Evaluation evaluation_of(const nlohmann::json& line) {
  const auto status = line.at("status").get<std::string>();
  if (status == "failed") return Evaluation::failed(line.at("reason").get<std::string>());
  if (status != "ok") throw std::invalid_argument("status is '" + status + "', not 'ok' or 'failed'");
  Evaluation e = Evaluation::of(line.at("value").get<double>());
  if (line.contains("residuals")) e.residuals = line.at("residuals").get<std::vector<double>>();
  return e;
}

}  // namespace

void EvaluationLog::open(std::ios::openmode mode) {
  out_.open(path_, std::ios::out | mode);
  if (!out_) throw io::system_error("open the optimisation log", path_, errno);
}

EvaluationLog EvaluationLog::create(std::filesystem::path path) {
  EvaluationLog log(std::move(path));
  io::write_file_atomically(log.path_, "");
  log.open(std::ios::app);
  return log;
}

EvaluationLog EvaluationLog::resume(std::filesystem::path path) {
  EvaluationLog log(std::move(path));
  std::ifstream in(log.path_, std::ios::binary);
  if (!in) throw io::system_error("read the optimisation log", log.path_, errno);

  std::uintmax_t kept_bytes = 0;  // the header and complete batches; the rest is cut
  std::uintmax_t offset = 0;
  std::size_t line_number = 0;
  LoggedBatch batch;
  std::size_t batch_size = 0;
  std::string text;
  while (std::getline(in, text)) {
    ++line_number;
    const bool complete_line = !in.eof();  // the last line lacks its newline if a write was cut
    offset += text.size() + (complete_line ? 1 : 0);
    auto line = nlohmann::json::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object()) {
      if (!complete_line) break;
      throw log_error(log.path_, line_number, "not a JSON object");
    }
    try {
      if (line_number == 1) {
        if (line.value("log", "") != format_name) throw std::invalid_argument("not a hetflow optimisation log header");
        log.method_ = line.at("method").get<std::string>();
        kept_bytes = offset;
        continue;
      }
      const auto index = line.at("index").get<std::size_t>();
      if (index == 0) {
        batch = LoggedBatch{line_number, {}, {}};
        batch_size = line.at("size").get<std::size_t>();
        if (line.at("batch").get<std::size_t>() != log.batches_)
          throw std::invalid_argument("batch " + std::to_string(log.batches_) + " was expected here");
      }
      if (index != batch.points.size()) throw std::invalid_argument("evaluation " + std::to_string(batch.points.size()) + " of its batch was expected here");
      batch.points.push_back(line.at("point").get<Point>());
      batch.evaluations.push_back(evaluation_of(line));
    } catch (const std::exception& e) {
      throw log_error(log.path_, line_number, e.what());
    }
    if (batch.points.size() == batch_size && complete_line) {
      log.replay_.push_back(std::move(batch));
      batch = {};
      ++log.batches_;
      kept_bytes = offset;
    }
  }
  in.close();
  std::error_code ec;
  std::filesystem::resize_file(log.path_, kept_bytes, ec);
  if (ec) throw io::system_error("cut the unfinished batch from the optimisation log", log.path_, ec.value());
  log.open(std::ios::app);
  return log;
}

void EvaluationLog::begin(std::string_view method) {
  if (method_.empty()) {
    method_ = method;
    const nlohmann::ordered_json header = {{"log", format_name}, {"version", 1}, {"method", method_}};
    out_ << header.dump() << '\n' << std::flush;
    if (!out_) throw io::system_error("write the optimisation log", path_, errno);
  } else if (method_ != method) {
    throw core::Error("optimisation log '" + path_.string() + "' was written by " + method_ + ", not by " + std::string(method));
  }
}

std::optional<std::vector<Evaluation>> EvaluationLog::replay(std::span<const Point> points) {
  if (replay_.empty()) return std::nullopt;
  LoggedBatch batch = std::move(replay_.front());
  replay_.pop_front();
  if (batch.points.size() != points.size())
    throw log_error(path_, batch.line, "the run asks for a batch of " + std::to_string(points.size()) +
                                           " points where the log holds " + std::to_string(batch.points.size()) +
                                           "; the log belongs to another run or other options");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (batch.points[i] != points[i])
      throw log_error(path_, batch.line + i, "the run asks for point " + point_text(points[i]) + " where the log holds " +
                                                 point_text(batch.points[i]) + "; the log belongs to another run or other options");
  }
  return std::move(batch.evaluations);
}

void EvaluationLog::append(std::size_t iteration, std::span<const Point> points, std::span<const Evaluation> evaluations) {
  std::string text;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Evaluation& e = evaluations[i];
    // ordered_json keeps the fields in the order a reader scans them.
    nlohmann::ordered_json line = {{"batch", batches_}, {"size", points.size()}, {"index", i}, {"iteration", iteration},
                           {"point", points[i]}, {"status", e.ok() ? "ok" : "failed"}};
    if (e.ok()) {
      line["value"] = e.value;
      if (!e.residuals.empty()) line["residuals"] = e.residuals;
    } else {
      line["reason"] = e.failure;
    }
    text += line.dump();
    text += '\n';
  }
  // One write per batch, then a flush: a crash leaves whole batches and at most one cut one.
  out_ << text << std::flush;
  if (!out_) throw io::system_error("append to the optimisation log", path_, errno);
  ++batches_;
}

}  // namespace hetflow::optim
