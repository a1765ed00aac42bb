// GNU source-highlight behind the C interface of CSourceHighlight.h. The library's language
// definitions (/usr/share/source-highlight/*.lang, or SOURCE_HIGHLIGHT_DATADIR) are regular
// expressions applied line by line; its formatters are called with each element it recognised,
// and ours record them as spans instead of writing any output.
#include "CSourceHighlight.h"

#include <srchilite/formatter.h>
#include <srchilite/formattermanager.h>
#include <srchilite/formatterparams.h>
#include <srchilite/langdefmanager.h>
#include <srchilite/langmap.h>
#include <srchilite/regexrulefactory.h>
#include <srchilite/settings.h>
#include <srchilite/sourcehighlighter.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

// Longer lines are left plain: the cost of a line grows with its length squared in some
// definitions (a long line of minified JSON).
constexpr size_t maxLineLength = 512;
// The sum of the lines' lengths squared (a line counts as 32 bytes at least), past which the rest
// of a text is plain: about 1,250 lines of 80 columns, 8,192 short ones. It bounds the time spent
// on hostile code (lines of 512 bytes of JSON) and the memory kept per line as well.
constexpr uint64_t workBudget = 8u << 20;
constexpr uint64_t shortestLine = 32;

// A keyword rule as one pattern of `words` (separated by spaces): \<(?:actor|any|...)\>.
std::string keywordPattern(std::string words) {
    std::replace(words.begin(), words.end(), ' ', '|');
    return "\\<(?:" + words + ")\\>";
}

// Languages source-highlight has no definition for, defined here in its own language-definition
// syntax and read from memory (see builtinState). Their file names start with "ps-tools:", which
// no file in the data folder has.
//
// Swift: declarations, statements and common modifiers are keywords; capitalised names are
// types (Int, String, MyStruct); @attributes and #directives are preprocessor; // and nested
// /* */ comments; "strings" and """multi-line strings""" with \ escapes; numbers with _ and
// 0x/0b/0o; a name before "(" is a function. There is no rule for operators and brackets, which
// are not coloured: in source-highlight each rule is searched for again after every match, so a
// rule that matches every bracket costs much of the time, for nothing shown.
const char *const swiftKeywords =
    "associatedtype class deinit enum extension fileprivate func import init inout internal "
    "let open operator private protocol public rethrows static struct subscript typealias var "
    "break case catch continue default defer do else fallthrough for guard if in repeat return "
    "throw switch where while as await async false is nil self Self super throws true try "
    "actor any convenience final indirect lazy mutating nonisolated override required some unowned weak";

const std::string swiftDefinition = R"lang(
comment start "//"
comment delim "/*" "*/" multiline nested
string delim "\"\"\"" "\"\"\"" escape "\\" multiline
string delim "\"" "\"" escape "\\"
preproc = '#[[:alpha:]]+'
preproc = '@[[:alpha:]_][[:word:]]*'
)lang" + std::string("keyword = '") + keywordPattern(swiftKeywords) + "'\n" + R"lang(type = '\<[[:upper:]][[:word:]]*'
number = '\<(?:0x[[:xdigit:]_]+|0b[01_]+|0o[0-7_]+|[[:digit:]][[:digit:]_]*(?:\.[[:digit:]][[:digit:]_]*)?(?:[eE][+-]?[[:digit:]]+)?)\>'
function = '\<[[:alpha:]_][[:word:]]*(?=\()'
)lang";

const std::map<std::string, std::string> builtinDefinitions = {
    {"ps-tools:swift.lang", swiftDefinition},
};

// Names written after a fence that lang.map does not know, and the definition that fits them.
const std::map<std::string, std::string> aliases = {
    {"rust", "rust.lang"}, {"golang", "go.lang"}, {"swift", "ps-tools:swift.lang"},
    {"typescript", "javascript.lang"}, {"ts", "javascript.lang"}, {"tsx", "javascript.lang"},
    {"jsx", "javascript.lang"}, {"mjs", "javascript.lang"}, {"cjs", "javascript.lang"},
    {"python3", "python.lang"}, {"py3", "python.lang"}, {"c++", "cpp.lang"},
    {"jsonc", "json.lang"},
};

// source-highlight's managers are not thread-safe; every call into them holds this lock.
std::mutex libraryLock;

struct Library {
    std::string dataDir;
    srchilite::RegexRuleFactory ruleFactory;
    srchilite::LangDefManager definitions{&ruleFactory};
    std::unique_ptr<srchilite::LangMap> languages;
    // The definition files named so far (a few dozen at most): every string returned lives on.
    std::set<std::string> files;
    // Names looked up, and their file (null: none), forgotten when there are many.
    std::map<std::string, const std::string *> resolved;
    // The definitions of builtinDefinitions built so far (null: it could not be read).
    std::map<std::string, srchilite::HighlightStatePtr> builtins;

    Library() {
        // The library's own variable, else the folder it was built for. Not Settings::
        // retrieveDataDir, which reads a file in the user's home folder.
        const char *fromEnvironment = std::getenv("SOURCE_HIGHLIGHT_DATADIR");
        dataDir = fromEnvironment && *fromEnvironment ? fromEnvironment : srchilite::Settings::getDefaultDataDir();
        try {
            auto map = std::make_unique<srchilite::LangMap>(dataDir, "lang.map");
            map->open();
            languages = std::move(map);
        } catch (...) {
            languages.reset();
        }
    }
};

// Never destroyed: a highlighter may still be in use while the process exits.
Library &library() {
    static Library *instance = new Library();
    return *instance;
}

// The elements of the language definitions that get a colour, and which. The others (names,
// operators, brackets) stay plain.
const std::map<std::string, uint8_t> elementKinds = {
    {"keyword", PS_CODE_KEYWORD},
    {"type", PS_CODE_TYPE}, {"usertype", PS_CODE_TYPE}, {"classname", PS_CODE_TYPE},
    {"key", PS_CODE_TYPE}, {"keyquote", PS_CODE_TYPE}, {"property", PS_CODE_TYPE}, {"attribute", PS_CODE_TYPE},
    {"selector", PS_CODE_TYPE}, {"label", PS_CODE_TYPE},
    {"string", PS_CODE_STRING}, {"regexp", PS_CODE_STRING}, {"specialchar", PS_CODE_STRING},
    {"value", PS_CODE_STRING}, {"valquote", PS_CODE_STRING},
    {"comment", PS_CODE_COMMENT}, {"todo", PS_CODE_COMMENT},
    {"number", PS_CODE_NUMBER},
    {"preproc", PS_CODE_PREPROCESSOR},
    {"function", PS_CODE_FUNCTION}, {"predef_func", PS_CODE_FUNCTION},
    {"variable", PS_CODE_VARIABLE}, {"predef_var", PS_CODE_VARIABLE},
    {"oldfile", PS_CODE_DELETED}, {"newfile", PS_CODE_INSERTED}, {"difflines", PS_CODE_META},
};

// Where the formatters put what they are given: the spans, and where the current line starts.
struct Sink {
    std::vector<ps_code_span> spans;
    size_t lineStart = 0;
    size_t lineLength = 0;
};

class SpanFormatter : public srchilite::Formatter {
public:
    SpanFormatter(Sink &sink, uint8_t kind) : sink(sink), kind(kind) {}

    void format(const std::string &text, const srchilite::FormatterParams *params) override {
        if (kind == 0 || text.empty() || !params || params->start < 0) return;
        size_t start = static_cast<size_t>(params->start);
        if (start >= sink.lineLength) return;
        size_t length = std::min(text.size(), sink.lineLength - start);
        sink.spans.push_back({static_cast<uint32_t>(sink.lineStart + start), static_cast<uint32_t>(length), kind});
    }

private:
    Sink &sink;
    uint8_t kind;
};

// The stack of states inside nested environments (a string in a comment...), as a vector: a
// std::stack copied for every line would allocate a deque block each time.
using StateList = std::vector<srchilite::HighlightStatePtr>;

struct StackAccess : srchilite::HighlightStateStack {
    static StateList list(const srchilite::HighlightStateStack &stack) {
        const auto &items = stack.*(&StackAccess::c);
        return StateList(items.begin(), items.end());
    }
};

// A definition of builtinDefinitions, built the first time it is asked for. The library reads
// definitions from files only, so the text is given to it as an anonymous file in memory
// (memfd), through its name in /proc/self/fd; without /proc, the language is not highlighted.
// Called with libraryLock held.
srchilite::HighlightStatePtr builtinState(Library &lib, const std::string &file) {
    auto built = lib.builtins.find(file);
    if (built != lib.builtins.end()) return built->second;
    srchilite::HighlightStatePtr state;
    const std::string &definition = builtinDefinitions.at(file);
    int fd = memfd_create(file.c_str(), MFD_CLOEXEC);
    if (fd >= 0) {
        size_t length = definition.size(), written = 0;
        while (written < length) {
            ssize_t count = write(fd, definition.data() + written, length - written);
            if (count <= 0) break;
            written += static_cast<size_t>(count);
        }
        if (written == length) {
            try {
                state = lib.definitions.buildHighlightState("/proc/self/fd", std::to_string(fd));
            } catch (...) {
                state.reset();
            }
        }
        close(fd);
    }
    lib.builtins[file] = state;
    return state;
}

}  // namespace

struct ps_code_highlighter {
    srchilite::HighlightStatePtr mainState;
    Sink sink;
    srchilite::FormatterManager formatters{srchilite::FormatterPtr(new SpanFormatter(sink, 0))};
    srchilite::FormatterParams params;
    std::unique_ptr<srchilite::SourceHighlighter> highlighter;

    // What the highlighter was at the end of each line of the previous text that had its newline.
    struct LineEnd {
        size_t newline;    // offset of the "\n"
        size_t spanCount;  // spans up to here
        srchilite::HighlightStatePtr state;
        StateList stack;
        uint64_t workUsed;  // workBudget + 1 once the rest is plain
    };
    std::string previousText;
    std::vector<LineEnd> lineEnds;

    explicit ps_code_highlighter(srchilite::HighlightStatePtr state) : mainState(state) {
        for (const auto &element : elementKinds) {
            formatters.addFormatter(element.first, srchilite::FormatterPtr(new SpanFormatter(sink, element.second)));
        }
        highlighter = std::make_unique<srchilite::SourceHighlighter>(mainState);
        highlighter->setFormatterManager(&formatters);
        highlighter->setFormatterParams(&params);
        highlighter->setOptimize(false);
    }

    void restore(const srchilite::HighlightStatePtr &state, const StateList &stack) {
        highlighter->setCurrentState(state);
        srchilite::HighlightStateStackPtr restored(new srchilite::HighlightStateStack());
        for (const auto &item : stack) restored->push(item);
        highlighter->setStateStack(restored);
    }

    void startAfresh() { restore(mainState, {}); }

    size_t run(const char *text, size_t length) {
        // Lines kept: their bytes and their newline are the same as in the previous text.
        size_t common = 0;
        size_t limit = std::min(length, previousText.size());
        while (common < limit && text[common] == previousText[common]) ++common;
        size_t kept = 0;
        while (kept < lineEnds.size() && lineEnds[kept].newline < common) ++kept;
        lineEnds.resize(kept);
        uint64_t workUsed = 0;
        size_t position = 0;
        if (kept > 0) {
            const LineEnd &last = lineEnds.back();
            sink.spans.resize(last.spanCount);
            restore(last.state, last.stack);
            workUsed = last.workUsed;
            position = last.newline + 1;
        } else {
            sink.spans.clear();
            startAfresh();
        }
        // Once the budget is spent the rest is plain: nothing more to read or to keep.
        while (position <= length && workUsed <= workBudget) {
            const void *found = std::memchr(text + position, '\n', length - position);
            size_t end = found ? static_cast<const char *>(found) - text : length;
            highlightLine(text, position, end - position, workUsed);
            if (!found) break;
            lineEnds.push_back({end, sink.spans.size(), highlighter->getCurrentState(),
                                StackAccess::list(*highlighter->getStateStack()), workUsed});
            position = end + 1;
        }
        // Only the lines with a state kept can be compared next time.
        previousText.assign(text, lineEnds.empty() ? 0 : lineEnds.back().newline + 1);
        return sink.spans.size();
    }

    void highlightLine(const char *text, size_t start, size_t lineLength, uint64_t &workUsed) {
        uint64_t counted = lineLength > maxLineLength ? shortestLine : std::max<uint64_t>(lineLength, shortestLine);
        if (workUsed + counted * counted > workBudget) {
            workUsed = workBudget + 1;
            return;
        }
        workUsed += counted * counted;
        if (lineLength > maxLineLength) {
            startAfresh();
            return;
        }
        size_t spansBefore = sink.spans.size();
        sink.lineStart = start;
        sink.lineLength = lineLength;
        params.start = 0;
        try {
            highlighter->highlightParagraph(std::string(text + start, lineLength));
        } catch (...) {
            // A regular expression that gave up (boost's complexity limit): the rest is plain.
            sink.spans.resize(spansBefore);
            workUsed = workBudget + 1;
            startAfresh();
        }
    }
};

extern "C" {

const char *ps_code_language_file(const char *name) {
    if (!name || !*name) return nullptr;
    std::lock_guard<std::mutex> lock(libraryLock);
    Library &lib = library();
    if (!lib.languages) return nullptr;
    std::string key(name);
    auto cached = lib.resolved.find(key);
    if (cached == lib.resolved.end()) {
        std::string lower = key;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        std::string file;
        auto alias = aliases.find(lower);
        if (alias != aliases.end()) {
            file = alias->second;
        } else {
            try {
                file = lib.languages->getMappedFileName(key);
                if (file.empty()) file = lib.languages->getMappedFileName(lower);
            } catch (...) {
                file.clear();
            }
        }
        // Plain text needs no highlighter.
        if (file == "nohilite.lang") file.clear();
        // Bounded: names are only remembered while there are few.
        if (lib.resolved.size() >= 512) lib.resolved.clear();
        cached = lib.resolved.emplace(key, file.empty() ? nullptr : &*lib.files.insert(file).first).first;
    }
    return cached->second ? cached->second->c_str() : nullptr;
}

ps_code_highlighter *ps_code_highlighter_create(const char *language_file) {
    if (!language_file) return nullptr;
    std::lock_guard<std::mutex> lock(libraryLock);
    Library &lib = library();
    try {
        // The manager keeps each definition it has built: a language is read once per process.
        srchilite::HighlightStatePtr state = builtinDefinitions.count(language_file)
            ? builtinState(lib, language_file)
            : lib.definitions.getHighlightState(lib.dataDir, language_file);
        if (!state) return nullptr;
        return new ps_code_highlighter(state);
    } catch (...) {
        return nullptr;
    }
}

void ps_code_highlighter_destroy(ps_code_highlighter *highlighter) { delete highlighter; }

size_t ps_code_highlighter_run(ps_code_highlighter *highlighter, const char *text, size_t length,
                               const ps_code_span **spans) {
    *spans = nullptr;
    if (!highlighter || !text || length > UINT32_MAX) return 0;
    std::lock_guard<std::mutex> lock(libraryLock);
    size_t count = highlighter->run(text, length);
    *spans = highlighter->sink.spans.data();
    return count;
}

}  // extern "C"
