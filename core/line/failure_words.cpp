// SPDX-License-Identifier: MIT
#include "failure_words.h"

#include "text_util.h"

namespace rankscope {

namespace {

bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// `word` at `at`, not glued to a letter before it.
bool wordAt(std::string_view s, std::size_t at, std::string_view word)
{
    return startsWith(s.substr(at), word) && (at == 0 || !isLetter(s[at - 1]));
}

// A level word: upper case, then ' ', ':' or ']' ("ERROR 04-13", "[FATAL]", "ERROR:root:").
bool levelWordAt(std::string_view s, std::size_t at, std::string_view word)
{
    const std::size_t end = at + word.size();
    return wordAt(s, at, word) && end < s.size() && (s[end] == ' ' || s[end] == ':' || s[end] == ']');
}

// `word` at `at` as a whole word: not glued to a letter on either side ("CUDA error:", not "CUDA errors").
bool wholeWordAt(std::string_view s, std::size_t at, std::string_view word)
{
    const std::size_t end = at + word.size();
    return wordAt(s, at, word) && (end == s.size() || !isLetter(s[end]));
}

bool blankFrom(std::string_view s, std::size_t at)
{
    for (; at < s.size(); ++at) {
        if (s[at] != ' ' && s[at] != '\t')
            return false;
    }
    return true;
}

// One pass that stops only at the letters a failure word starts with.
bool scan(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        const std::string_view at = s.substr(i);
        switch (s[i]) {
        case 'f': // glibc's heap checks abort with "free(): corrupted unsorted chunks"
            if (startsWith(at, "failed") || startsWith(at, "failure") || startsWith(at, "free(): "))
                return true;
            break;
        case 'm':
            if (startsWith(at, "malloc(): ") || startsWith(at, "munmap_chunk(): "))
                return true;
            break;
        case 'd':
            if (startsWith(at, "double free or corruption"))
                return true;
            break;
        case '*': // OpenMPI's and PMIx's crash banner: "[host:pid] *** Process received signal ***"; Abseil's
                  // failure signal handler: "*** SIGBUS received at time=1692322557 on cpu 5 ***"
            if (startsWith(at, "*** Process received signal") || startsWith(at, "*** SIG"))
                return true;
            break;
        case 'F':
            if (startsWith(at, "Failed") || startsWith(at, "Failure") || startsWith(at, "FAILED")
                || startsWith(at, "FAILURE") || levelWordAt(s, i, "FATAL") || startsWith(at, "Fatal error"))
                return true;
            break;
        case 't':
            if (startsWith(at, "timed out") || startsWith(at, "timing out"))
                return true;
            break;
        case 'o': // the watchdog's "Watchdog caught collective operation timeout"
            if (startsWith(at, "operation timeout"))
                return true;
            break;
        case 's':
            if (startsWith(at, "socket timeout"))
                return true;
            break;
        case 'T':
            if (startsWith(at, "Timed out") || startsWith(at, "Traceback (most recent call"))
                return true;
            break;
        case 'E':
            // "RuntimeError:", "DistBackendError:", "Exception:", "ERROR", "Error:"
            if (startsWith(at, "Error:") || startsWith(at, "Exception:") || levelWordAt(s, i, "ERROR")
                || (wordAt(s, i, "Error") && startsWith(at, "Error ")))
                return true;
            break;
        case 'e':
            // "error:" with nothing after it leads into what follows ("I get the following error:"); the
            // error itself is on the next line.
            if ((wordAt(s, i, "error:") && !blankFrom(s, i + 6)) || startsWith(at, "exit code")
                || startsWith(at, "exitcode"))
                return true;
            break;
        case 'C':
            if (startsWith(at, "Caught signal") || wordAt(s, i, "CRITICAL")
                || wholeWordAt(s, i, "CUDA error"))
                return true;
            break;
        case 'S': // c10d's store: "got error: Socket Timeout"
            if (startsWith(at, "Segmentation fault") || startsWith(at, "Socket Timeout"))
                return true;
            break;
        case 'B':
            if (startsWith(at, "Bus error"))
                return true;
            break;
        case 'U': // an embedding's catch-all: "Unhandled exception <class 'RuntimeError'> in thread ..."
            if (startsWith(at, "Unhandled exception"))
                return true;
            break;
        case 'K':
            if (wordAt(s, i, "Killed") || wordAt(s, i, "KILLED"))
                return true;
            break;
        case 'N': // "NCCL error in: ...ProcessGroupNCCL.cpp:272, unhandled system error" behind any wrapper
            if (startsWith(at, "NVRM: Xid") || startsWith(at, "NCCL WARN") || wholeWordAt(s, i, "NCCL error"))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

bool isLowerLetter(char c)
{
    return c >= 'a' && c <= 'z';
}

// A heading that leads into a paste ("Error:", "**Error info:**", "## Error log:", "Full error output:"):
// at most four words of letters, each capitalised at most at its start, then ':' and nothing else. The
// error is on the lines below it. An exception name alone ("RuntimeError:") and a level ("ERROR:") have an
// upper-case letter inside a word and stay failures.
bool headingLeadIn(std::string_view s)
{
    constexpr std::string_view kMarks = " \t*_#>-`";
    const std::size_t from = s.find_first_not_of(kMarks);
    const std::size_t to = s.find_last_not_of(" \t*_`\r");
    if (from == std::string_view::npos || to == std::string_view::npos || to <= from || s[to] != ':')
        return false;
    const std::string_view body = s.substr(from, to - from);
    if (body.size() > 40)
        return false;
    int words = 0;
    bool inWord = false;
    for (const char c : body) {
        if (c == ' ') {
            inWord = false;
            continue;
        }
        if (!isLetter(c) || (inWord && !isLowerLetter(c)))
            return false;
        if (!inWord)
            ++words;
        inWord = true;
    }
    return words >= 1 && words <= 4;
}

// "RuntimeError: ...", "torch.distributed.DistBackendError: ...": a dotted name ending in Error or
// Exception, then ':'.
bool namesAnException(std::string_view s)
{
    std::size_t end = 0;
    while (end < s.size() && end < 120
        && (isLetter(s[end]) || s[end] == '.' || s[end] == '_' || (s[end] >= '0' && s[end] <= '9')))
        ++end;
    if (end >= s.size() || s[end] != ':')
        return false;
    const std::string_view name = s.substr(0, end);
    const auto endsWith = [&](std::string_view tail) {
        return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
    };
    return endsWith("Error") || endsWith("Exception") || endsWith("Failure");
}

// A Markdown heading: a whole line in bold ("**Unexpected failure of training**") or a "## " heading. No
// program prints those; they are the reporter's prose around the paste.
bool markdownHeading(std::string_view s)
{
    const std::size_t from = s.find_first_not_of(" \t>");
    const std::size_t to = s.find_last_not_of(" \t\r");
    if (from == std::string_view::npos || to == std::string_view::npos || to < from + 4)
        return false;
    const std::string_view t = s.substr(from, to - from + 1);
    const bool bold = (startsWith(t, "**") && t.substr(t.size() - 2) == "**" && t[2] != '*')
        || (startsWith(t, "__") && t.substr(t.size() - 2) == "__" && t[2] != '_');
    // A log line the reporter put in bold ("**RuntimeError: [enforce fail at ...] ...**") stays one.
    if (bold && namesAnException(t.substr(2, t.size() - 4)))
        return false;
    return bold || startsWith(t, "## ") || startsWith(t, "### ") || startsWith(t, "#### ");
}

// IPython's and Jupyter's traceback banner, "ImportError                 Traceback (most recent call last)":
// the exception's own line closes the traceback further down and is the event.
bool notebookBanner(std::string_view s)
{
    const std::size_t at = s.find("Traceback (most recent call last)");
    if (at == std::string_view::npos || at < 8 || s.substr(at - 4, 4) != "    ")
        return false;
    const std::size_t name = s.find_first_not_of(" \t");
    return name < at && isLetter(s[name]);
}

} // namespace

bool hasFailureWord(std::string_view line)
{
    return scan(line) && !isHeadingLeadIn(line);
}

bool isReporterProse(std::string_view line)
{
    // Whole words only; a program's message speaks of itself, not as "I" or "we".
    static constexpr std::string_view kFirstPerson[] = { "I", "I'm", "I've", "I'd", "my", "My", "we", "We",
        "our", "Our", "me" };
    int words = 0;
    bool firstPerson = false;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t from = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i == from)
            break;
        ++words;
        std::string_view word = line.substr(from, i - from);
        while (!word.empty() && (word.back() == ',' || word.back() == '.'))
            word.remove_suffix(1);
        for (const std::string_view f : kFirstPerson)
            firstPerson = firstPerson || word == f;
    }
    return firstPerson && words >= 8;
}

bool isHeadingLeadIn(std::string_view line)
{
    return headingLeadIn(line) || markdownHeading(line) || notebookBanner(line);
}

} // namespace rankscope
