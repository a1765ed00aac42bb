// source-highlight's regular-expression rules, with the last search of each one remembered.
//
// For every token it finds in a line, source-highlight asks each rule of the state for its first
// match from the token's end (HighlightState::findBestMatch): a rule whose next match is further
// on, or nowhere, searches the same stretch of the line again after each token. A
// RememberingRule keeps its last search of the line and answers a later one from it: the match
// found stays the first one after the new start, except at the start itself, which a search sees
// as the beginning of its text (no character before it for \< or \b), and which is tried alone.
// The token made is the one RegexHighlightRule::tryToMatch makes.
//
// Rules whose search looks further back than one character (a lookbehind) or that change with
// the text matched before (back references) are searched as before.
#ifndef REMEMBERINGRULE_H
#define REMEMBERINGRULE_H

#include <srchilite/regexhighlightrule.h>
#include <srchilite/regexrulefactory.h>

#include <boost/regex.hpp>

#include <cstdint>
#include <string>

namespace pstools {

// Called before each line is given to source-highlight: what a rule remembers is of one line.
void startLine();

// Off: every rule searches as RegexHighlightRule does (to compare the two). Each call starts a
// new `switchCount`: a highlighter then forgets the lines it keeps, and highlights them again.
void setRemembering(bool on);
uint64_t switchCount();

class RememberingRule : public srchilite::RegexHighlightRule {
public:
    explicit RememberingRule(const srchilite::RegexHighlightRule &rule);

    bool tryToMatch(std::string::const_iterator start, std::string::const_iterator end, srchilite::HighlightToken &token,
                    const srchilite::MatchingParameters &params) override;

    void replaceReferences(const srchilite::ReplacementList &rep) override;

private:
    boost::regex regex;
    bool searchesAsBefore;

    // How a match of the pattern begins, which decides whether a search sees a position at its
    // start as a later search does: the first thing is a character to match (a literal, an
    // escaped one, a class: nothing before it is looked at), \< (the one before is looked at
    // only when both are a word's), or anything else (always tried alone).
    enum class Start { character, wordStart, unknown };
    Start start;
    static Start startOf(const std::string &pattern);
    // Whether a search from `position` may find a match there that one from before did not.
    bool startMayDiffer(const char *position) const;

    // The last search: of which line, from where, and what it found.
    uint64_t line = 0;
    const char *from = nullptr;
    const char *end = nullptr;
    bool beginningOfLine = false;
    bool found = false;
    boost::smatch match;

    bool search(std::string::const_iterator start, std::string::const_iterator stop, bool atLineStart);
    void fill(srchilite::HighlightToken &token, std::string::const_iterator start, std::string::const_iterator stop,
              const boost::smatch &found) const;
};

// RegexRuleFactory whose rules are RememberingRules.
class RememberingRuleFactory : public srchilite::RegexRuleFactory {
public:
    srchilite::HighlightRule *createSimpleRule(const std::string &name, const std::string &s) override;
    srchilite::HighlightRule *createWordListRule(const std::string &name, const srchilite::WordList &list,
                                                 bool caseSensitive = true) override;
    srchilite::HighlightRule *createListRule(const std::string &name, const srchilite::WordList &list,
                                             bool caseSensitive = true) override;
    srchilite::HighlightRule *createLineRule(const std::string &name, const std::string &start, const std::string &end,
                                             const std::string &escape = "", bool nested = false) override;
    srchilite::HighlightRule *createMultiLineRule(const std::string &name, const std::string &start,
                                                  const std::string &end, const std::string &escape,
                                                  bool nested) override;
    srchilite::HighlightRule *createCompoundRule(const srchilite::ElemNameList &nameList,
                                                 const std::string &rep) override;
};

}  // namespace pstools

#endif
