#ifndef PS_CSOURCEHIGHLIGHTLOADER_H
#define PS_CSOURCEHIGHLIGHTLOADER_H
// The highlighter of CSourceHighlight.h, opened on first use. No target links it: it, GNU
// source-highlight, libboost_regex and ICU (their symbol bindings and memory at every start)
// are loaded only when a code block is first coloured, never in a pipe. The library is
// libCSourceHighlight.so beside the running executable (the build folder), else in
// ../lib/ps-tools/ relative to it (make install). Without it, nothing is coloured.
// The types (ps_code_span, ps_code_highlighter) are CSourceHighlight.h's.
#include "../../CSourceHighlight/include/CSourceHighlight.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Opens the library and finds its functions, once per process (later calls return at once).
/// 1 when highlighting is available, 0 when the library is missing or broken (then it stays off).
int ps_highlight_load(void);

// The library's functions of the same names without `highlight_`/`code_`; only once
// ps_highlight_load has returned 1.
const char *ps_highlight_language_file(const char *name);
ps_code_highlighter *ps_highlight_create(const char *language_file);
void ps_highlight_destroy(ps_code_highlighter *highlighter);
size_t ps_highlight_run(ps_code_highlighter *highlighter, const char *text, size_t length, const ps_code_span **spans);

#ifdef __cplusplus
}
#endif

#endif
