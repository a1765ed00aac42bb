// See RememberingRule.h.
#include "RememberingRule.h"

#include <srchilite/highlighttoken.h>
#include <srchilite/matchingparameters.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace pstools {

namespace {

// Which line source-highlight is reading (startLine), and whether rules remember their searches.
// Read and written only with CodeHighlighter's library lock held, as the rules themselves.
uint64_t currentLine = 1;
bool remembering = true;
uint64_t switches = 0;

srchilite::HighlightRule *remembered(srchilite::HighlightRule *rule) {
    auto *regex = dynamic_cast<srchilite::RegexHighlightRule *>(rule);
    if (!regex) return rule;
    auto *wrapped = new RememberingRule(*regex);
    delete rule;
    return wrapped;
}

// RegexHighlightRule's flags: the start of a search is the start of a line only at the line's start.
boost::match_flag_type flagsFor(bool beginningOfLine) {
    return beginningOfLine ? boost::match_default : boost::match_not_bol;
}

// Whether a word assertion (\w, \<, \b) may take the byte for a word's character: an ASCII
// letter, digit or underscore, or any byte of a multi-byte character (whatever the locale says).
bool mayBeWord(char c) {
    unsigned char byte = static_cast<unsigned char>(c);
    return byte >= 0x80 || std::isalnum(byte) || byte == '_';
}

// The end of the atom (a character, an escaped one, a bracket class) at `i`, or npos when it is
// something else (a group, an assertion, a class escape such as \w, an anchor).
size_t atomEnd(const std::string &p, size_t i) {
    if (i >= p.size()) return std::string::npos;
    char c = p[i];
    if (c == '\\') {
        if (i + 1 >= p.size() || std::isalnum(static_cast<unsigned char>(p[i + 1]))) return std::string::npos;
        return i + 2;
    }
    if (c == '[') {
        size_t j = i + 1;
        if (j < p.size() && p[j] == '^') ++j;
        if (j < p.size() && p[j] == ']') ++j;
        while (j < p.size() && p[j] != ']') {
            if (p[j] == '[' && j + 1 < p.size() && (p[j + 1] == ':' || p[j + 1] == '=' || p[j + 1] == '.')) {
                size_t close = p.find(std::string(1, p[j + 1]) + "]", j + 2);
                if (close == std::string::npos) return std::string::npos;
                j = close + 2;
            } else {
                j += p[j] == '\\' ? 2 : 1;
            }
        }
        return j < p.size() ? j + 1 : std::string::npos;
    }
    if (std::strchr("()|^$*+?{", c)) return std::string::npos;
    return i + 1;
}

// Whether `p` has an alternative (|) outside groups deeper than `depth` (brackets and escapes
// skipped).
bool alternativeWithin(const std::string &p, size_t from, int depth) {
    int level = depth;
    for (size_t i = from; i < p.size(); ++i) {
        char c = p[i];
        if (c == '\\') {
            ++i;
        } else if (c == '[') {
            size_t end = atomEnd(p, i);
            if (end == std::string::npos) return true;
            i = end - 1;
        } else if (c == '(') {
            ++level;
        } else if (c == ')') {
            --level;
        } else if (c == '|' && level <= depth) {
            return true;
        }
    }
    return false;
}

}  // namespace

RememberingRule::Start RememberingRule::startOf(const std::string &pattern) {
    size_t i = 0;
    int groups = 0;
    while (pattern.compare(i, 3, "(?:") == 0) {
        i += 3;
        ++groups;
    }
    if (alternativeWithin(pattern, i, groups)) return Start::unknown;
    if (pattern.compare(i, 2, "\\<") == 0) return Start::wordStart;
    size_t end = atomEnd(pattern, i);
    // A first atom that may be left out ("a?", "a*", "a{0,1}") does not decide.
    if (end == std::string::npos || (end < pattern.size() && std::strchr("?*{", pattern[end]))) return Start::unknown;
    return Start::character;
}

bool RememberingRule::startMayDiffer(const char *position) const {
    switch (start) {
    case Start::character: return false;
    case Start::wordStart: return mayBeWord(position[-1]) && mayBeWord(position[0]);
    case Start::unknown: return true;
    }
    return true;
}

void startLine() { ++currentLine; }

void setRemembering(bool on) {
    remembering = on;
    ++switches;
}

uint64_t switchCount() { return switches; }

RememberingRule::RememberingRule(const srchilite::RegexHighlightRule &rule) : srchilite::RegexHighlightRule(rule) {
    const std::string pattern = toString();
    // A lookbehind (or a named group, which is left alone with it) sees more than one character
    // before a position: what a search finds there depends on where it started.
    searchesAsBefore = pattern.find("(?<") != std::string::npos;
    start = startOf(pattern);
    if (!searchesAsBefore) {
        try {
            regex.assign(pattern);
        } catch (...) {
            searchesAsBefore = true;
        }
    }
}

void RememberingRule::replaceReferences(const srchilite::ReplacementList &rep) {
    srchilite::RegexHighlightRule::replaceReferences(rep);
    searchesAsBefore = true;
}

bool RememberingRule::search(std::string::const_iterator start, std::string::const_iterator stop, bool atLineStart) {
    found = boost::regex_search(start, stop, match, regex, flagsFor(atLineStart));
    line = currentLine;
    from = start.base();
    end = stop.base();
    beginningOfLine = atLineStart;
    return found;
}

bool RememberingRule::tryToMatch(std::string::const_iterator start, std::string::const_iterator stop,
                                 srchilite::HighlightToken &token, const srchilite::MatchingParameters &params) {
    if (!remembering || searchesAsBefore || getNeedsReferenceReplacement()) {
        return srchilite::RegexHighlightRule::tryToMatch(start, stop, token, params);
    }
    const char *position = start.base();
    // The last search was of this line, from here or before, and found nothing or a match from here on.
    bool known = line == currentLine && end == stop.base() && from <= position &&
                 (!found || position <= match[0].first.base());
    if (!known) {
        if (!search(start, stop, params.beginningOfLine)) return false;
    } else if (position == from && beginningOfLine != params.beginningOfLine) {
        if (!search(start, stop, params.beginningOfLine)) return false;
    } else if (position != from && startMayDiffer(position)) {
        // Between the two starts nothing matched; here, where a search sees the start of its
        // text, something may.
        boost::smatch here;
        if (boost::regex_search(start, stop, here, regex, flagsFor(params.beginningOfLine) | boost::match_continuous)) {
            match = here;
            found = true;
            from = position;
            beginningOfLine = params.beginningOfLine;
        } else if (found && match[0].first == start) {
            // What matched here with a character before it does not without: search on.
            if (!search(start, stop, params.beginningOfLine)) return false;
        }
    }
    if (!found) return false;
    fill(token, start, stop, match);
    return true;
}

// As RegexHighlightRule::tryToMatch fills the token.
void RememberingRule::fill(srchilite::HighlightToken &token, std::string::const_iterator start,
                           std::string::const_iterator stop, const boost::smatch &found) const {
    token.prefix.assign(start, found[0].first);
    token.suffix.assign(found[0].second, stop);
    token.prefixOnlySpaces =
        std::all_of(token.prefix.begin(), token.prefix.end(), [](char c) { return c == ' ' || c == '\t'; });
    if (getHasSubexpressions()) {
        for (size_t index = 1; index < found.size(); ++index) token.matchedSubExps.push_back(found[index].str());
    }
    const srchilite::ElemList &elements = getElemList();
    if (elements.size() > 1) {
        for (size_t index = 1; index < found.size(); ++index) {
            if (found[index].matched) token.addMatched(elements[index - 1], found[index].str());
        }
    } else {
        token.addMatched(elements[0], found[0].str());
    }
}

srchilite::HighlightRule *RememberingRuleFactory::createSimpleRule(const std::string &name, const std::string &s) {
    return remembered(RegexRuleFactory::createSimpleRule(name, s));
}

srchilite::HighlightRule *RememberingRuleFactory::createWordListRule(const std::string &name,
                                                                     const srchilite::WordList &list,
                                                                     bool caseSensitive) {
    return remembered(RegexRuleFactory::createWordListRule(name, list, caseSensitive));
}

srchilite::HighlightRule *RememberingRuleFactory::createListRule(const std::string &name,
                                                                 const srchilite::WordList &list, bool caseSensitive) {
    return remembered(RegexRuleFactory::createListRule(name, list, caseSensitive));
}

srchilite::HighlightRule *RememberingRuleFactory::createLineRule(const std::string &name, const std::string &start,
                                                                 const std::string &end, const std::string &escape,
                                                                 bool nested) {
    return remembered(RegexRuleFactory::createLineRule(name, start, end, escape, nested));
}

srchilite::HighlightRule *RememberingRuleFactory::createMultiLineRule(const std::string &name, const std::string &start,
                                                                      const std::string &end,
                                                                      const std::string &escape, bool nested) {
    return remembered(RegexRuleFactory::createMultiLineRule(name, start, end, escape, nested));
}

srchilite::HighlightRule *RememberingRuleFactory::createCompoundRule(const srchilite::ElemNameList &nameList,
                                                                     const std::string &rep) {
    return remembered(RegexRuleFactory::createCompoundRule(nameList, rep));
}

}  // namespace pstools
