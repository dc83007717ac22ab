// gnuplot as a subprocess: the report's charts are gnuplot scripts whose SVG
// output is embedded in the page.
#include "rlopt/eval/Gnuplot.h"

#include "rlopt/core/Process.h"
#include "rlopt/core/TempDir.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rlopt::eval {

std::string escapeHtml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

namespace {

/// gnuplot's stderr on one line: its non-empty lines joined, at most 400
/// characters.
std::string oneLine(const std::string &text) {
  std::string line;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part);) {
    size_t begin = part.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
      continue;
    if (!line.empty())
      line += " | ";
    line += part.substr(begin);
  }
  if (line.size() > 400)
    line = line.substr(0, 400) + "...";
  return line;
}

} // namespace

Result<std::string> findGnuplot() {
  auto found = findProgram("gnuplot");
  if (!found)
    return makeError("gnuplot not found on PATH (the report's charts need "
                     "it); run scripts/bootstrap to install it (Debian "
                     "package gnuplot-nox)");
  return found;
}

Result<std::string> runGnuplot(const std::string &gnuplot,
                               const std::string &script, int timeoutSeconds) {
  auto temp = TempDir::create("rlopt-gnuplot");
  if (!temp)
    return temp.error();
  std::string scriptPath = temp->file("chart.gp");
  {
    std::ofstream out(scriptPath, std::ios::binary);
    out << script;
    if (!out.flush())
      return makeError(scriptPath + ": cannot write the gnuplot script");
  }
  ProcessOptions options;
  options.timeoutSeconds = timeoutSeconds;
  auto run = runProcess({gnuplot, scriptPath}, options);
  if (!run)
    return run.error();
  std::string errors = oneLine(run->err);
  std::string quoted = errors.empty() ? "" : ": " + errors;
  if (run->timedOut)
    return makeError("gnuplot did not finish within " +
                     std::to_string(timeoutSeconds) + " s");
  if (run->signal != 0)
    return makeError("gnuplot crashed (" + describeFailure(*run, options) +
                     ")" + quoted);
  if (run->exitCode != 0)
    return makeError("gnuplot failed (exit code " +
                     std::to_string(run->exitCode) + ")" + quoted);
  return run->out;
}

std::string gnuplotQuote(const std::string &text) {
  // Single quotes: no backslash escapes and no `command` substitution; a
  // quote is doubled.
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'')
      quoted += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      quoted += ' ';
    else
      quoted += c;
  }
  return quoted + "'";
}

std::string inlineSvg(const std::string &svg, const std::string &idPrefix,
                      const std::string &title) {
  size_t start = svg.find("<svg");
  if (start == std::string::npos)
    return "";
  std::string text = svg.substr(start);

  // The opening tag without its xmlns declarations: the HTML parser puts
  // inline <svg> in the SVG namespace and maps xlink:href by itself.
  size_t tagEnd = text.find('>');
  std::string tag = text.substr(0, tagEnd);
  for (size_t at; (at = tag.find("xmlns")) != std::string::npos;) {
    size_t quote = tag.find_first_of("\"'", at);
    if (quote == std::string::npos)
      break;
    size_t close = tag.find(tag[quote], quote + 1);
    if (close == std::string::npos)
      break;
    size_t begin = at;
    while (begin > 0 &&
           std::isspace(static_cast<unsigned char>(tag[begin - 1])))
      --begin;
    tag.erase(begin, close + 1 - begin);
  }
  text = tag + text.substr(tagEnd);

  // Prefix ids and the references to them, inside tags only: id='x',
  // href='#x', url(#x).
  std::string out;
  out.reserve(text.size() + 1024);
  bool inTag = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    out += c;
    if (c == '<')
      inTag = true;
    else if (c == '>')
      inTag = false;
    if (!inTag)
      continue;
    auto follows = [&](const char *word) {
      return text.compare(i + 1, std::strlen(word), word) == 0;
    };
    if (std::isspace(static_cast<unsigned char>(c)) &&
        (follows("id='") || follows("id=\""))) {
      out += text.substr(i + 1, 4) + idPrefix;
      i += 4;
    } else if (c == 'h' && (follows("ref='#") || follows("ref=\"#"))) {
      out += text.substr(i + 1, 6) + idPrefix;
      i += 6;
    } else if (c == 'u' && follows("rl(#")) {
      out += "rl(#" + idPrefix;
      i += 4;
    }
  }

  std::string gnuplotTitle = "<title>Gnuplot</title>";
  if (size_t at = out.find(gnuplotTitle); at != std::string::npos)
    out.replace(at, gnuplotTitle.size(),
                "<title>" + escapeHtml(title) + "</title>");
  return out;
}

} // namespace rlopt::eval
