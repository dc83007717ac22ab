#include "TextCursor.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

namespace rlopt::graph::detail {

static bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-';
}

void TextCursor::skipTrivia() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      ++pos;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      size_t close = text.find("*/", pos + 2);
      // An unterminated comment swallows the rest; the caller then reports
      // what it expected at the end of the text.
      pos = close == std::string_view::npos ? text.size() : close + 2;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      size_t newline = text.find('\n', pos);
      pos = newline == std::string_view::npos ? text.size() : newline + 1;
    } else {
      return;
    }
  }
}

bool TextCursor::consume(std::string_view token) {
  skipTrivia();
  if (text.substr(pos, token.size()) != token)
    return false;
  pos += token.size();
  return true;
}

Status TextCursor::expect(char c, std::string_view context) {
  if (consume(c))
    return Status::success();
  std::string message =
      "expected '" + std::string(1, c) + "' " + std::string(context) + ", got ";
  if (pos >= text.size())
    message += "end of file";
  else
    message += quoteForError(text.substr(pos, 16));
  return errorAt(pos, message);
}

std::string_view TextCursor::readIdentifier() {
  skipTrivia();
  size_t begin = pos;
  while (pos < text.size() && isIdentifierChar(text[pos]))
    ++pos;
  return text.substr(begin, pos - begin);
}

std::string_view TextCursor::readName(bool *hadPercent) {
  bool percent = consume('%');
  if (hadPercent)
    *hadPercent = percent;
  return readIdentifier();
}

std::string_view TextCursor::peekIdentifier() {
  size_t saved = pos;
  std::string_view word = readIdentifier();
  pos = saved;
  return word;
}

Result<int64_t> TextCursor::readInteger(std::string_view what) {
  skipTrivia();
  size_t begin = pos;
  bool negative = pos < text.size() && text[pos] == '-';
  if (negative)
    ++pos;
  if (pos >= text.size() ||
      !std::isdigit(static_cast<unsigned char>(text[pos])))
    return errorAt(begin, "expected an integer " + std::string(what));
  uint64_t value = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos]))) {
    uint64_t digit = text[pos] - '0';
    if (value > (uint64_t(INT64_MAX) - digit) / 10)
      return errorAt(begin, "integer " + std::string(what) + " is too large");
    value = value * 10 + digit;
    ++pos;
  }
  int64_t result = static_cast<int64_t>(value);
  return negative ? -result : result;
}

Result<std::string_view> TextCursor::scanValue(std::string_view key) {
  return scanBalanced(/*stopAtSeparator=*/true, /*withinLine=*/true,
                      "attribute '" + std::string(key) + "'");
}

Result<std::string_view> TextCursor::scanParenthesized(std::string_view what) {
  auto inner =
      scanBalanced(/*stopAtSeparator=*/false, /*withinLine=*/false, what);
  if (!inner)
    return inner;
  if (pos >= text.size() || text[pos] != ')')
    return errorAt(pos, "expected ')' after " + std::string(what));
  ++pos;
  return inner;
}

Result<std::string_view> TextCursor::scanBalanced(bool stopAtSeparator,
                                                  bool withinLine,
                                                  std::string_view what) {
  skipTrivia();
  size_t begin = pos;
  size_t end = text.size();
  // XLA writes one instruction per line: a bracket still open at the end of
  // the line is reported where it opened, not where the file runs out.
  if (withinLine)
    end = std::min(end, text.find('\n', pos));
  // Offsets of the open brackets, to name the one left unclosed.
  std::vector<size_t> open;
  while (pos < end) {
    char c = text[pos];
    if (c == '"') {
      size_t quote = pos++;
      while (pos < end && text[pos] != '"')
        pos += text[pos] == '\\' ? 2 : 1;
      if (pos >= end)
        return errorAt(quote, "unterminated string in " + std::string(what));
      ++pos;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      open.push_back(pos++);
      continue;
    }
    if (c == '}' || c == ')' || c == ']') {
      if (open.empty())
        break;
      char opener = text[open.back()];
      char expected = opener == '{' ? '}' : opener == '(' ? ')' : ']';
      if (c != expected)
        return errorAt(pos, "unbalanced brackets in " + std::string(what) +
                                ": '" + std::string(1, opener) +
                                "' closed by '" + std::string(1, c) + "'");
      open.pop_back();
      ++pos;
      continue;
    }
    if (open.empty() && stopAtSeparator &&
        (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r'))
      break;
    ++pos;
  }
  if (!open.empty())
    return errorAt(
        open.back(),
        "unbalanced '" + std::string(1, text[open.back()]) + "' in " +
            std::string(what) +
            (withinLine ? ": not closed on its line" : ": never closed"));
  std::string_view value = text.substr(begin, pos - begin);
  while (!value.empty() &&
         std::isspace(static_cast<unsigned char>(value.back())))
    value.remove_suffix(1);
  return value;
}

std::pair<size_t, size_t> TextCursor::lineColumn(size_t offset) const {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return {line, offset - lineStart + 1};
}

Error TextCursor::errorAt(size_t offset, std::string_view message) const {
  auto [line, column] = lineColumn(offset);
  return makeError(std::string(sourceName) + ":" + std::to_string(line) + ":" +
                   std::to_string(column) + ": " + std::string(message));
}

std::string quoteForError(std::string_view text) {
  size_t newline = text.find('\n');
  if (newline != std::string_view::npos)
    text = text.substr(0, newline);
  constexpr size_t kMaxShown = 40;
  std::string shown;
  for (char c : text.substr(0, kMaxShown)) {
    // Binary junk is shown escaped so the message stays one readable line.
    if (std::isprint(static_cast<unsigned char>(c))) {
      shown += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x",
                    static_cast<unsigned char>(c));
      shown += escaped;
    }
  }
  if (text.size() > kMaxShown)
    shown += "...";
  return "'" + shown + "'";
}

} // namespace rlopt::graph::detail
