// A C interface to GNU source-highlight (libsource-highlight, C++) for the renderer: it finds
// where the keywords, strings, comments... of a piece of code are, and leaves the colours and the
// escape codes to the caller.
#ifndef CSOURCEHIGHLIGHT_H
#define CSOURCEHIGHLIGHT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a span of code is. Everything else (names, operators, spaces) has no span.
typedef enum {
    PS_CODE_KEYWORD = 1,
    PS_CODE_TYPE = 2,          // types, class names, JSON keys, CSS properties, attributes
    PS_CODE_STRING = 3,        // strings, characters, regular expressions, escapes
    PS_CODE_COMMENT = 4,
    PS_CODE_NUMBER = 5,
    PS_CODE_PREPROCESSOR = 6,  // #include, import
    PS_CODE_FUNCTION = 7,
    PS_CODE_VARIABLE = 8,      // $name in shells and Perl
    PS_CODE_DELETED = 9,       // diff: removed lines
    PS_CODE_INSERTED = 10,     // diff: added lines
    PS_CODE_META = 11,         // diff: hunk headers
} ps_code_kind;

/// `length` bytes at byte `offset` of the text given to `ps_code_highlighter_run`.
typedef struct {
    uint32_t offset;
    uint32_t length;
    uint8_t kind;
} ps_code_span;

/// The language definition file (such as "python.lang") for the name written after a code
/// fence ("python", "py", "sh", "json"...), or NULL when source-highlight has none (or its data
/// folder cannot be read). The string lives as long as the process.
const char *ps_code_language_file(const char *name);

typedef struct ps_code_highlighter ps_code_highlighter;

/// A highlighter for the language file from `ps_code_language_file`, or NULL when its
/// definition cannot be loaded.
ps_code_highlighter *ps_code_highlighter_create(const char *language_file);
void ps_code_highlighter_destroy(ps_code_highlighter *highlighter);

/// Highlights `text` (lines separated by "\n") and sets `*spans` to its spans, in order; they
/// stay valid until the next call with this highlighter. Returns how many there are.
///
/// Each line is highlighted from the state the lines before it left (an open comment...), never
/// from what follows it, so a line's spans do not change when text is appended after it. Lines
/// that the previous call had, with the same text before them, are not highlighted again: text
/// that grows at its end costs only its new lines.
///
/// Work is bounded: a line over 512 bytes is left plain (and the next line starts afresh), and
/// once the lines so far add up to a fixed budget (their lengths squared, 32 bytes at least),
/// the rest is plain.
size_t ps_code_highlighter_run(ps_code_highlighter *highlighter, const char *text, size_t length,
                               const ps_code_span **spans);

#ifdef __cplusplus
}
#endif

#endif
