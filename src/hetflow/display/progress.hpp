#pragma once
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>

namespace hetflow::display {

enum class Verbosity { quiet, normal, verbose };

// Whether the stream is a terminal: detected (isatty on the stream's file descriptor) or forced.
enum class Terminal { detect, yes, no };

// Run-time feedback for a loop of steps. On a terminal, one line redrawn in place with '\r' at most
// ten times a second (a bar, percentage, steps/s, ETA, elapsed); in a log file, a plain line at every
// 10 % and at least every 10 s, so a log holds no '\r' and stays short; quiet prints nothing.
class Progress {
 public:
  // Seconds on any monotonic scale; tests inject their own.
  using Clock = std::function<double()>;

  // total_steps 0: unknown, so the display shows steps and rate but no percentage or ETA.
  Progress(std::int64_t total_steps, std::string label, Verbosity verbosity = Verbosity::normal,
           std::ostream& out = std::cerr, Terminal terminal = Terminal::detect, Clock clock = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Steps done so far (absolute), or advance by a number of steps.
  void update(std::int64_t steps_done);
  void advance(std::int64_t steps = 1) { update(done_ + steps); }
  // A message shown only when verbose (for example "wrote run/field_0010.vti"), printed above the bar,
  // or as a line of its own once the bar is finished (outputs are written after the stepping).
  void note(std::string_view message);
  // On a terminal, redraws the bar at once with `what` after it (for example "adapting the grid"), so that
  // work between steps that outlasts a redraw is not a silent pause; the next update drops it. Plain lines
  // and quiet output ignore it.
  void activity(std::string_view what);
  // Prints the summary line: "label: 1000 steps in 6.67 s (150 steps/s)", or "stopped after ..."
  // when fewer steps than the total were done. Later calls do nothing.
  void finish();

  // What is counted, "steps" unless set (a batch of ODE systems counts "systems").
  void count(std::string unit) { unit_ = std::move(unit); }
  // Shows nothing until `seconds` have passed: work that ends sooner prints nothing at all, not even the
  // summary (the Python package's functions, which hand their results back instead of printing them).
  void quiet_for(double seconds) { quiet_s_ = seconds; }

  bool is_tty() const { return tty_; }
  std::int64_t done() const { return done_; }

 private:
  double elapsed() const;
  double rate(double elapsed_s) const;
  std::string status_fields(double elapsed_s) const;
  void draw_bar(double now);
  void print_line(double now);

  std::int64_t total_;
  std::string label_;
  std::string unit_ = "steps";
  Verbosity verbosity_;
  std::ostream& out_;
  bool tty_;
  Clock clock_;
  double start_;
  std::int64_t done_ = 0;
  double last_draw_ = 0;
  bool drawn_ = false;          // a bar is on the current terminal line
  std::size_t bar_length_ = 0;  // to blank the rest of a shorter redraw
  int next_percent_ = 10;       // next milestone for plain lines
  double last_line_ = 0;
  bool finished_ = false;
  double quiet_s_ = 0;
  bool shown_ = false;    // a bar or a line was printed
  std::string activity_;  // shown after the bar until the next update
};

// "0:07", "12:34", "1:02:03".
std::string format_duration(double seconds);

}  // namespace hetflow::display
