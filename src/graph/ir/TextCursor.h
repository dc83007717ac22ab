// Internal: a position in HLO text with the lexical rules the parser shares
// (trivia, names, integers, balanced raw values) and errors that carry
// `source:line:col`.
#ifndef RLOPT_SRC_GRAPH_IR_TEXTCURSOR_H
#define RLOPT_SRC_GRAPH_IR_TEXTCURSOR_H

#include "rlopt/core/Result.h"
#include "rlopt/graph/Shape.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace rlopt::graph::detail {

class TextCursor {
public:
  TextCursor(std::string_view text, std::string_view sourceName)
      : text(text), sourceName(sourceName) {}

  /// Skips whitespace, `/* ... */` (e.g. `/*index=5*/`) and `// ...`.
  void skipTrivia();
  bool atEnd() {
    skipTrivia();
    return pos >= text.size();
  }
  size_t offset() const { return pos; }
  size_t size() const { return text.size(); }
  void seek(size_t offset) { pos = offset; }
  std::string_view slice(size_t begin, size_t end) const {
    return text.substr(begin, end - begin);
  }

  /// The next character after trivia, or '\0' at the end.
  char peek() {
    skipTrivia();
    return pos < text.size() ? text[pos] : '\0';
  }
  /// The character at the cursor, trivia not skipped.
  char peekRaw() const { return pos < text.size() ? text[pos] : '\0'; }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }
  bool consume(std::string_view token);
  /// Consumes `c` or fails with "expected 'c' <context>".
  Status expect(char c, std::string_view context);

  /// `[A-Za-z0-9_.-]+` after trivia; empty if none.
  std::string_view readIdentifier();
  /// An identifier with an optional `%` prefix, which is dropped.
  std::string_view readName(bool *hadPercent = nullptr);
  /// The next identifier without consuming it.
  std::string_view peekIdentifier();
  Result<int64_t> readInteger(std::string_view what);

  /// Raw text of an attribute value: up to a `,`, whitespace or unmatched
  /// closing bracket at nesting depth 0, skipping over strings; brackets and
  /// strings must close on the same line.
  Result<std::string_view> scanValue(std::string_view key);
  /// Raw text up to the `)` that closes an already consumed `(`; the `)` is
  /// consumed too.
  Result<std::string_view> scanParenthesized(std::string_view what);

  Error errorAt(size_t offset, std::string_view message) const;
  /// An error at the next token; "at end of file" is added there.
  Error error(std::string_view message) {
    skipTrivia();
    if (pos >= text.size())
      return errorAt(pos, std::string(message) + " at end of file");
    return errorAt(pos, message);
  }
  /// 1-based line and column of `offset`.
  std::pair<size_t, size_t> lineColumn(size_t offset) const;

private:
  Result<std::string_view> scanBalanced(bool stopAtSeparator, bool withinLine,
                                        std::string_view what);

  std::string_view text;
  std::string_view sourceName;
  size_t pos = 0;
};

/// True if the cursor is at a shape: `(` or an element type name directly
/// followed by `[`.
bool atShape(TextCursor &cursor);
/// Parses a shape at the cursor.
Result<Shape> parseShapeAt(TextCursor &cursor);

/// Quotes `text` for an error message, shortened to a readable length.
std::string quoteForError(std::string_view text);

} // namespace rlopt::graph::detail

#endif
