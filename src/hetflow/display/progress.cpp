#include "hetflow/display/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hetflow::display {
namespace {

constexpr double redraw_interval_s = 0.1;
constexpr double line_interval_s = 10.0;
constexpr int bar_width = 24;

double steady_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

bool stream_is_terminal(const std::ostream& out) {
  int fd = -1;
  if (&out == &std::cerr || &out == &std::clog)
    fd = STDERR_FILENO;
  else if (&out == &std::cout)
    fd = STDOUT_FILENO;
  if (fd < 0 || !::isatty(fd)) return false;
  const char* term = std::getenv("TERM");
  return !(term && std::strcmp(term, "dumb") == 0);
}

std::string format_rate(double rate) {
  char buf[48];
  if (!(rate > 0) || !std::isfinite(rate)) return "-";
  if (rate >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", rate);
  else if (rate >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", rate);
  else
    std::snprintf(buf, sizeof buf, "%.2f", rate);
  return buf;
}

std::string format_seconds(double seconds) {
  if (seconds >= 60) return format_duration(seconds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", seconds);
  return buf;
}

// Appends pieces in order; "literal" + std::string temporaries trip a false -Wrestrict in GCC 12.
template <class... Parts>
void append(std::string& out, const Parts&... parts) {
  (out.append(std::string_view(parts)), ...);
}

}  // namespace

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "-";
  const auto total = static_cast<long long>(seconds + 0.5);
  char buf[48];
  if (total >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", total / 60, total % 60);
  return buf;
}

Progress::Progress(std::int64_t total_steps, std::string label, Verbosity verbosity, std::ostream& out,
                   Terminal terminal, Clock clock)
    : total_(std::max<std::int64_t>(0, total_steps)),
      label_(std::move(label)),
      verbosity_(verbosity),
      out_(out),
      tty_(terminal == Terminal::yes || (terminal == Terminal::detect && stream_is_terminal(out))),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      start_(clock_()) {
  last_line_ = start_;
}

Progress::~Progress() {
  // An unfinished run is leaving by an exception; end the bar's line so the error starts on its own.
  if (drawn_ && !finished_) out_ << '\n' << std::flush;
}

double Progress::elapsed() const { return std::max(0.0, clock_() - start_); }

double Progress::rate(double elapsed_s) const { return elapsed_s > 0 ? static_cast<double>(done_) / elapsed_s : 0.0; }

std::string Progress::status_fields(double elapsed_s) const {
  const double r = rate(elapsed_s);
  std::string s = format_rate(r);
  s += " " + unit_ + "/s";
  if (total_ > 0) {
    const double eta = r > 0 ? static_cast<double>(total_ - done_) / r : -1.0;
    append(s, ", ETA ", format_duration(eta));
  }
  append(s, ", elapsed ", format_duration(elapsed_s));
  return s;
}

void Progress::update(std::int64_t steps_done) {
  activity_.clear();
  done_ = std::max<std::int64_t>(0, steps_done);
  if (total_ > 0) done_ = std::min(done_, total_);
  if (verbosity_ == Verbosity::quiet || finished_) return;
  const double now = clock_();
  if (now - start_ < quiet_s_) return;
  if (tty_) {
    if (!drawn_ || now - last_draw_ >= redraw_interval_s || (total_ > 0 && done_ == total_)) draw_bar(now);
    return;
  }
  // Plain lines: each 10 % milestone crossed, or a heartbeat after a long quiet stretch.
  bool due = now - last_line_ >= line_interval_s;
  if (total_ > 0) {
    const auto percent = static_cast<int>(done_ * 100 / total_);
    if (percent >= next_percent_ && percent < 100) {
      due = true;
      next_percent_ = percent / 10 * 10 + 10;
    }
    if (done_ == total_) due = false;  // finish() reports the end
  }
  if (due) print_line(now);
}

void Progress::draw_bar(double now) {
  const double elapsed_s = std::max(0.0, now - start_);
  std::string line = label_;
  if (total_ > 0) {
    const auto filled = static_cast<int>(done_ * bar_width / total_);
    char percent[16];
    std::snprintf(percent, sizeof percent, "%3d%%", static_cast<int>(done_ * 100 / total_));
    append(line, " [", std::string(static_cast<std::size_t>(filled), '#'),
           std::string(static_cast<std::size_t>(bar_width - filled), '-'), "] ", percent, " ", std::to_string(done_),
           "/", std::to_string(total_));
  } else {
    append(line, " ", std::to_string(done_), " ", unit_);
  }
  append(line, ", ", status_fields(elapsed_s));
  if (!activity_.empty()) append(line, ", ", activity_);
  const std::size_t length = line.size();
  if (length < bar_length_) line.append(bar_length_ - length, ' ');
  out_ << '\r' << line << std::flush;
  shown_ = true;
  bar_length_ = length;
  drawn_ = true;
  last_draw_ = now;
}

void Progress::print_line(double now) {
  const double elapsed_s = std::max(0.0, now - start_);
  out_ << label_ << ": ";
  if (total_ > 0)
    out_ << done_ * 100 / total_ << "% (" << done_ << "/" << total_ << " " << unit_ << ")";
  else
    out_ << done_ << " " << unit_;
  out_ << ", " << status_fields(elapsed_s) << '\n' << std::flush;
  shown_ = true;
  last_line_ = now;
}

void Progress::note(std::string_view message) {
  if (verbosity_ != Verbosity::verbose) return;
  if (tty_ && drawn_ && !finished_) {
    std::string line(message);
    if (line.size() < bar_length_) line.append(bar_length_ - line.size(), ' ');
    out_ << '\r' << line << '\n';
    draw_bar(clock_());
  } else {
    out_ << message << '\n' << std::flush;
  }
}

void Progress::activity(std::string_view what) {
  if (verbosity_ == Verbosity::quiet || finished_ || !tty_) return;
  activity_ = what;
  draw_bar(clock_());
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (verbosity_ == Verbosity::quiet) return;
  const double elapsed_s = elapsed();
  if (!shown_ && elapsed_s < quiet_s_) return;
  std::string line = label_ + ": ";
  if (total_ > 0 && done_ < total_)
    append(line, "stopped after ", std::to_string(done_), " of ", std::to_string(total_), " ", unit_);
  else
    append(line, std::to_string(done_), " ", unit_);
  append(line, " in ", format_seconds(elapsed_s), " (", format_rate(rate(elapsed_s)), " ", unit_, "/s)");
  if (tty_) {
    const std::size_t length = line.size();
    if (length < bar_length_) line.append(bar_length_ - length, ' ');
    out_ << '\r';
  }
  out_ << line << '\n' << std::flush;
}

}  // namespace hetflow::display
