// gnuplot as a subprocess: the report's charts are gnuplot scripts whose SVG
// output is embedded in the page.
#include "rlopt/eval/Report.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace rlopt::eval {

namespace {

/// A private directory under $TMPDIR (or /tmp), removed with its files.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base ? base : "/tmp") + "/rlopt-gnuplot-XXXXXX";
    if (mkdtemp(pattern.data()))
      dir = pattern;
  }
  ~TempDir() {
    for (const std::string &file : files)
      unlink(file.c_str());
    if (!dir.empty())
      rmdir(dir.c_str());
  }
  bool ok() const { return !dir.empty(); }
  std::string file(const std::string &name) {
    files.push_back(dir + "/" + name);
    return files.back();
  }

private:
  std::string dir;
  std::vector<std::string> files;
};

std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

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
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/gnuplot";
    struct stat info;
    if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return makeError("gnuplot not found on PATH (the report's charts need it); "
                   "run scripts/bootstrap to install it (Debian package "
                   "gnuplot-nox)");
}

Result<std::string> runGnuplot(const std::string &gnuplot,
                               const std::string &script, int timeoutSeconds) {
  TempDir temp;
  if (!temp.ok())
    return makeError(std::string("cannot create a temporary directory for "
                                 "gnuplot: ") +
                     std::strerror(errno));
  std::string scriptPath = temp.file("chart.gp");
  std::string outPath = temp.file("chart.svg");
  std::string errPath = temp.file("stderr.txt");
  {
    std::ofstream out(scriptPath, std::ios::binary);
    out << script;
    if (!out.flush())
      return makeError(scriptPath + ": cannot write the gnuplot script");
  }
  int outFd = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int errFd = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int nullFd = open("/dev/null", O_RDONLY);
  if (outFd < 0 || errFd < 0 || nullFd < 0) {
    for (int fd : {outFd, errFd, nullFd})
      if (fd >= 0)
        close(fd);
    return makeError("cannot open the temporary files for gnuplot");
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(nullFd, 0);
    dup2(outFd, 1);
    dup2(errFd, 2);
    execl(gnuplot.c_str(), "gnuplot", scriptPath.c_str(),
          static_cast<char *>(nullptr));
    _exit(127);
  }
  close(outFd);
  close(errFd);
  close(nullFd);
  if (pid < 0)
    return makeError(std::string("cannot start gnuplot: ") +
                     std::strerror(errno));

  int status = 0;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR)
      return makeError(std::string("waiting for gnuplot: ") +
                       std::strerror(errno));
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return makeError("gnuplot did not finish within " +
                       std::to_string(timeoutSeconds) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::string errors = oneLine(readWholeFile(errPath));
  if (WIFSIGNALED(status))
    return makeError("gnuplot crashed (signal " +
                     std::to_string(WTERMSIG(status)) + ")" +
                     (errors.empty() ? "" : ": " + errors));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 127 && errors.empty())
      return makeError("cannot run " + gnuplot +
                       "; run scripts/bootstrap to install gnuplot");
    return makeError("gnuplot failed (exit code " + std::to_string(code) + ")" +
                     (errors.empty() ? "" : ": " + errors));
  }
  return readWholeFile(outPath);
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
