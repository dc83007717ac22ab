// Checking a rewritten graph against its original on the interpreter.
#include "rlopt/graph/RewriteCheck.h"

#include "rlopt/graph/Module.h"

#include <cmath>

namespace rlopt::graph {

namespace {

/// Reshapes the default random arguments into the `set`th distribution.
void shapeArguments(Value &value, int set) {
  for (Value &element : value.elements)
    shapeArguments(element, set);
  ElementType type = value.shape.type();
  if (set % 3 == 1) {
    if (isFloating(type))
      for (double &x : value.data)
        x *= 0.1;
    else if (type != ElementType::Pred)
      for (double &x : value.data)
        x = std::fmod(std::fabs(x), 2.0) < 1.0 ? 0 : 1;
  } else if (set % 3 == 2 && isFloating(type)) {
    for (double &x : value.data)
      x *= 8;
  }
}

/// Counts the original's finite and non-finite output elements.
void countElements(const Value &value, RewriteCheck &check) {
  for (const Value &element : value.elements)
    countElements(element, check);
  for (double x : value.data)
    ++(std::isfinite(x) ? check.compared : check.notFinite);
}

std::string withCommas(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

} // namespace

std::string RewriteCheck::checked() const {
  std::string text = std::to_string(argumentSets) + " argument set" +
                     (argumentSets == 1 ? "" : "s") + ", " +
                     withCommas(compared) + " finite output elements";
  if (notFinite > 0)
    text += " (" + withCommas(notFinite) +
            " NaN or infinite in the original, only checked to stay so)";
  return text;
}

nlohmann::json RewriteCheck::toJson() const {
  return {{"ok", ok()},
          {"checked", checked()},
          {"argument_sets", argumentSets},
          {"compared_elements", compared},
          {"not_finite_in_original", notFinite},
          {"errors", errors}};
}

RewriteCheck checkRewrite(const Module &original, const Module &rewritten,
                          const RewriteCheckOptions &options) {
  RewriteCheck check;
  for (int set = 0; set < options.argumentSets; ++set) {
    auto arguments =
        randomArguments(original, 0x7a11d + set, options.interpreter);
    if (!arguments) {
      check.errors.push_back(arguments.error().message);
      return check;
    }
    for (Value &argument : *arguments)
      shapeArguments(argument, set);
    auto expected = evaluate(original, *arguments, options.interpreter);
    if (!expected) {
      check.errors.push_back("original: " + expected.error().message);
      return check;
    }
    auto actual = evaluate(rewritten, *arguments, options.interpreter);
    if (!actual) {
      check.errors.push_back("rewritten: " + actual.error().message);
      return check;
    }
    ++check.argumentSets;
    countElements(*expected, check);
    if (Status same =
            compareValues(*expected, *actual, options.rtol, options.atol);
        !same) {
      check.errors.push_back("argument set " + std::to_string(set + 1) + ": " +
                             same.error().message);
      return check;
    }
  }
  if (check.errors.empty() && check.compared == 0)
    check.errors.push_back("nothing compared: every output element of the "
                           "original is NaN or infinite");
  return check;
}

} // namespace rlopt::graph
