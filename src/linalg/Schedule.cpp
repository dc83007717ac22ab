#include "rlopt/linalg/Schedule.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace rlopt::linalg {

bool Schedule::empty() const {
  for (const OpSchedule &op : ops)
    if (!op.steps.empty())
      return false;
  return true;
}

std::string Schedule::str() const {
  std::string text;
  for (const OpSchedule &op : ops) {
    if (!text.empty())
      text += "; ";
    text += op.opId + ":";
    for (const TransformStep &step : op.steps) {
      text += " " + step.name;
      if (step.params.empty())
        continue;
      text += "(";
      for (size_t i = 0; i < step.params.size(); ++i)
        text += (i ? "," : "") + std::to_string(step.params[i]);
      text += ")";
    }
  }
  return text;
}

namespace {

/// A hand-written recursive-descent parser: the grammar is four rules.
class ScheduleParser {
public:
  explicit ScheduleParser(const std::string &text) : text(text) {}

  Result<Schedule> parse() {
    Schedule schedule;
    skipSpace();
    while (pos < text.size()) {
      OpSchedule op;
      size_t idStart = pos;
      op.opId = identifier();
      if (op.opId.empty())
        return fail("expected an op id such as op0");
      if (op.opId.rfind("op", 0) != 0 || op.opId.size() < 3 ||
          !std::all_of(op.opId.begin() + 2, op.opId.end(), ::isdigit))
        return failAt(idStart,
                      "bad op id '" + op.opId + "' (expected op<N>, e.g. op0)");
      for (const OpSchedule &seen : schedule.ops)
        if (seen.opId == op.opId)
          return failAt(idStart, op.opId + " is scheduled twice");
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after " + op.opId);
      skipSpace();
      while (pos < text.size() && text[pos] != ';') {
        TransformStep step;
        step.name = identifier();
        if (step.name.empty())
          return fail(std::string("unexpected '") + text[pos] + "'");
        skipSpace();
        if (consume('(')) {
          do {
            skipSpace();
            auto value = integer();
            if (!value)
              return value.error();
            step.params.push_back(*value);
            skipSpace();
          } while (consume(','));
          if (!consume(')'))
            return fail("expected ',' or ')' in the parameters of " +
                        step.name);
        }
        op.steps.push_back(std::move(step));
        skipSpace();
      }
      schedule.ops.push_back(std::move(op));
      if (consume(';'))
        skipSpace();
    }
    return schedule;
  }

private:
  Error fail(const std::string &message) { return failAt(pos, message); }
  Error failAt(size_t at, const std::string &message) {
    return makeError("schedule:" + std::to_string(at + 1) + ": " + message);
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace((unsigned char)text[pos]))
      ++pos;
  }
  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  std::string identifier() {
    size_t start = pos;
    while (pos < text.size() &&
           (std::isalnum((unsigned char)text[pos]) || text[pos] == '_'))
      ++pos;
    return text.substr(start, pos - start);
  }
  Result<int64_t> integer() {
    size_t start = pos;
    bool negative = consume('-');
    if (pos >= text.size() || !std::isdigit((unsigned char)text[pos]))
      return fail("expected an integer");
    int64_t value = 0;
    while (pos < text.size() && std::isdigit((unsigned char)text[pos])) {
      int digit = text[pos] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
        return failAt(start, "integer out of range");
      value = value * 10 + digit;
      ++pos;
    }
    return negative ? -value : value;
  }

  const std::string &text;
  size_t pos = 0;
};

} // namespace

Result<Schedule> parseSchedule(const std::string &text) {
  return ScheduleParser(text).parse();
}

} // namespace rlopt::linalg
