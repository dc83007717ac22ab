#ifndef RLOPT_EVAL_GNUPLOT_H
#define RLOPT_EVAL_GNUPLOT_H

// gnuplot, run as a child process, and its SVG made part of an HTML page.
// Knows nothing of reports: the report page uses it, not the other way.

#include "rlopt/core/Result.h"

#include <string>

namespace rlopt::eval {

/// The gnuplot executable on PATH, or an error telling to run
/// scripts/bootstrap.
Result<std::string> findGnuplot();

/// Runs `gnuplot` on `script` (written to a temporary file) and returns what
/// it printed on stdout; a non-zero exit, a crash or a hang is an error that
/// quotes gnuplot's stderr.
Result<std::string> runGnuplot(const std::string &gnuplot,
                               const std::string &script,
                               int timeoutSeconds = 60);

/// `text` as a double-quoted gnuplot string literal.
std::string gnuplotQuote(const std::string &text);

/// Makes a standalone SVG document embeddable in HTML: drops the XML prolog
/// and the namespace declarations, prefixes every id (and every reference to
/// one) with `idPrefix` so that several charts can share a page, and sets the
/// accessible title.
std::string inlineSvg(const std::string &svg, const std::string &idPrefix,
                      const std::string &title);

/// `text` with &, <, >, " and ' escaped for HTML and SVG.
std::string escapeHtml(const std::string &text);

} // namespace rlopt::eval

#endif
