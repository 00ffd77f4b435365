#include <gtest/gtest.h>

#include <sstream>
#include <utility>
#include <vector>

#include "hetflow/display/progress.hpp"

namespace hetflow::display {
namespace {

// A clock the test moves by hand.
struct FakeClock {
  double now = 0;
  Progress::Clock function() {
    return [this] { return now; };
  }
};

TEST(Progress, PlainLinesAtEachTenPercentAndASummary) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(100, "run", Verbosity::normal, out, Terminal::no, clock.function());
  EXPECT_FALSE(p.is_tty());
  clock.now = 1;
  p.update(10);
  EXPECT_EQ(out.str(), "run: 10% (10/100 steps), 10.0 steps/s, ETA 0:09, elapsed 0:01\n");
  clock.now = 1.5;
  p.update(15);  // no milestone crossed, no heartbeat due
  clock.now = 2;
  p.update(25);
  clock.now = 10;
  p.update(100);  // the end is left to finish()
  p.finish();
  p.finish();  // once only
  EXPECT_EQ(out.str(),
            "run: 10% (10/100 steps), 10.0 steps/s, ETA 0:09, elapsed 0:01\n"
            "run: 25% (25/100 steps), 12.5 steps/s, ETA 0:06, elapsed 0:02\n"
            "run: 100 steps in 10.00 s (10.0 steps/s)\n");
  EXPECT_EQ(out.str().find('\r'), std::string::npos);
}

// A batch of ODE systems counts systems, in the lines, the rate and the summary of a stopped run.
TEST(Progress, CountsTheUnitItIsGiven) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(200, "reactor_batch", Verbosity::normal, out, Terminal::no, clock.function());
  p.count("systems");
  clock.now = 2;
  p.update(50);
  clock.now = 4;
  p.update(56);  // 28 %: no milestone
  p.finish();
  EXPECT_EQ(out.str(),
            "reactor_batch: 25% (50/200 systems), 25.0 systems/s, ETA 0:06, elapsed 0:02\n"
            "reactor_batch: stopped after 56 of 200 systems in 4.00 s (14.0 systems/s)\n");
}

// Quiet for a second: work done sooner prints nothing, work that outlasts it shows its lines and summary.
TEST(Progress, QuietForASecondThenAsUsual) {
  const auto shown = [](const std::vector<std::pair<double, std::int64_t>>& updates) {
    FakeClock clock;
    std::ostringstream out;
    Progress p(100, "run", Verbosity::normal, out, Terminal::no, clock.function());
    p.quiet_for(1);
    for (const auto& [now, done] : updates) {
      clock.now = now;
      p.update(done);
    }
    p.finish();
    return out.str();
  };
  EXPECT_EQ(shown({{0.5, 60}, {0.9, 100}}), "");
  EXPECT_EQ(shown({{0.5, 20}, {2, 40}, {4, 100}}),
            "run: 40% (40/100 steps), 20.0 steps/s, ETA 0:03, elapsed 0:02\n"
            "run: 100 steps in 4.00 s (25.0 steps/s)\n");
}

TEST(Progress, PlainHeartbeatWhenProgressIsSlow) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(1000000, "slow", Verbosity::normal, out, Terminal::no, clock.function());
  clock.now = 5;
  p.update(10);
  EXPECT_EQ(out.str(), "");
  clock.now = 10;
  p.update(20);
  EXPECT_EQ(out.str(), "slow: 0% (20/1000000 steps), 2.00 steps/s, ETA 138:53:10, elapsed 0:10\n");
}

TEST(Progress, TerminalBarIsRedrawnInPlaceAndThrottled) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(100, "run", Verbosity::normal, out, Terminal::yes, clock.function());
  EXPECT_TRUE(p.is_tty());
  clock.now = 1;
  p.update(10);
  const std::string first = "\rrun [##----------------------]  10% 10/100, 10.0 steps/s, ETA 0:09, elapsed 0:01";
  EXPECT_EQ(out.str(), first);
  clock.now = 1.05;
  p.update(11);  // within 0.1 s of the last draw
  EXPECT_EQ(out.str(), first);
  clock.now = 1.2;
  p.update(12);
  const std::string second = "\rrun [##----------------------]  12% 12/100, 10.0 steps/s, ETA 0:09, elapsed 0:01";
  EXPECT_EQ(out.str(), first + second);
  clock.now = 2;
  p.finish();
  std::string summary = "\rrun: stopped after 12 of 100 steps in 2.00 s (6.00 steps/s)";
  summary.resize(second.size(), ' ');  // blanks what is left of the bar
  EXPECT_EQ(out.str(), first + second + summary + "\n");
  EXPECT_EQ(out.str().find('\n'), out.str().size() - 1);
}

TEST(Progress, TerminalDrawsTheLastStepEvenWhenThrottled) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(4, "x", Verbosity::normal, out, Terminal::yes, clock.function());
  clock.now = 1;
  p.update(3);
  clock.now = 1.01;
  p.update(4);
  EXPECT_NE(out.str().find("100% 4/4"), std::string::npos) << out.str();
}

TEST(Progress, AnActivityIsDrawnAtOnceAndDroppedByTheNextUpdate) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(100, "run", Verbosity::normal, out, Terminal::yes, clock.function());
  clock.now = 1;
  p.update(10);
  clock.now = 1.01;  // within the redraw interval: an activity still draws
  p.activity("adapting the grid");
  const std::string bar = "\rrun [##----------------------]  10% 10/100, 9.90 steps/s, ETA 0:09, elapsed 0:01";
  EXPECT_EQ(out.str().substr(out.str().rfind('\r')), bar + ", adapting the grid");
  clock.now = 2.5;
  p.update(20);
  const std::string last = out.str().substr(out.str().rfind('\r'));
  EXPECT_EQ(last.find("adapting"), std::string::npos) << last;
  EXPECT_NE(last.find(" 20/100"), std::string::npos) << last;

  std::ostringstream log;
  Progress plain(100, "run", Verbosity::normal, log, Terminal::no, clock.function());
  plain.activity("adapting the grid");
  EXPECT_EQ(log.str(), "");
}

TEST(Progress, QuietPrintsNothing) {
  FakeClock clock;
  std::ostringstream out;
  {
    Progress p(10, "q", Verbosity::quiet, out, Terminal::yes, clock.function());
    for (int i = 1; i <= 10; ++i) {
      clock.now = i;
      p.advance();
      p.note("wrote a file");
    }
    p.finish();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, NotesShowOnlyWhenVerbose) {
  FakeClock clock;
  std::ostringstream normal, verbose;
  Progress a(10, "a", Verbosity::normal, normal, Terminal::no, clock.function());
  Progress b(10, "b", Verbosity::verbose, verbose, Terminal::no, clock.function());
  a.note("wrote f.vti");
  b.note("wrote f.vti");
  EXPECT_EQ(normal.str(), "");
  EXPECT_EQ(verbose.str(), "wrote f.vti\n");
}

// Outputs are written after the stepping: their notes still show, below the summary line.
TEST(Progress, NotesAfterTheSummaryShowOnALineOfTheirOwn) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(2, "t", Verbosity::verbose, out, Terminal::yes, clock.function());
  clock.now = 1;
  p.advance(2);
  p.finish();
  const std::size_t summary = out.str().size();
  p.note("wrote f.vti");
  EXPECT_EQ(out.str().substr(summary), "wrote f.vti\n");
}

TEST(Progress, NoteOnATerminalKeepsTheBarBelow) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(10, "t", Verbosity::verbose, out, Terminal::yes, clock.function());
  clock.now = 1;
  p.update(5);
  p.note("hi");
  const std::string s = out.str();
  const auto note = s.find("\rhi ");
  ASSERT_NE(note, std::string::npos) << s;
  EXPECT_NE(s.find("\rt [", s.find('\n', note)), std::string::npos) << s;
}

TEST(Progress, UnknownTotalShowsCountAndRate) {
  FakeClock clock;
  std::ostringstream out;
  Progress p(0, "scan", Verbosity::normal, out, Terminal::yes, clock.function());
  clock.now = 2;
  p.update(50);
  EXPECT_EQ(out.str(), "\rscan 50 steps, 25.0 steps/s, elapsed 0:02");
  p.finish();
  EXPECT_NE(out.str().find("scan: 50 steps in 2.00 s (25.0 steps/s)"), std::string::npos);
}

TEST(Progress, UnfinishedBarEndsItsLineOnDestruction) {
  FakeClock clock;
  std::ostringstream out;
  {
    Progress p(10, "e", Verbosity::normal, out, Terminal::yes, clock.function());
    clock.now = 1;
    p.update(1);
  }
  EXPECT_EQ(out.str().back(), '\n');
}

TEST(Progress, StringStreamIsNotDetectedAsATerminal) {
  std::ostringstream out;
  EXPECT_FALSE(Progress(10, "d", Verbosity::normal, out).is_tty());
}

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(7.4), "0:07");
  EXPECT_EQ(format_duration(754), "12:34");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(-1), "-");
}

}  // namespace
}  // namespace hetflow::display
