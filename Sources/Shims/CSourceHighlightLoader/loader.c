#include "CSourceHighlightLoader.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// The file SwiftPM builds for the CSourceHighlight product, and where `make install` puts it
// (relative to the folder of the executable).
static const char libraryName[] = "libCSourceHighlight.so";
static const char *const folders[] = {"", "../lib/ps-tools/"};

// The library's functions, as found in the library ps_highlight_load opened.
static struct {
    const char *(*language_file)(const char *);
    ps_code_highlighter *(*create)(const char *);
    void (*destroy)(ps_code_highlighter *);
    size_t (*run)(ps_code_highlighter *, const char *, size_t, const ps_code_span **);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int available;

// Opens `path` and fills `api`; 1, or 0 with the library closed again. Every symbol is bound
// now (a few milliseconds, once): a library that does not fit the libraries beside it fails
// here, and highlighting is off, rather than ending the process at its first call.
static int open_library(const char *path) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return 0;
    void *language_file = dlsym(handle, "ps_code_language_file");
    void *create = dlsym(handle, "ps_code_highlighter_create");
    void *destroy = dlsym(handle, "ps_code_highlighter_destroy");
    void *run = dlsym(handle, "ps_code_highlighter_run");
    if (!language_file || !create || !destroy || !run) {
        dlclose(handle);
        return 0;
    }
    api.language_file = (const char *(*)(const char *))language_file;
    api.create = (ps_code_highlighter * (*)(const char *)) create;
    api.destroy = (void (*)(ps_code_highlighter *))destroy;
    api.run = (size_t(*)(ps_code_highlighter *, const char *, size_t, const ps_code_span **))run;
    return 1;
}

static void load(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return;
    executable[length] = '\0';
    char *slash = strrchr(executable, '/');
    if (!slash) return;
    slash[1] = '\0';
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        char path[PATH_MAX];
        int written = snprintf(path, sizeof path, "%s%s%s", executable, folders[i], libraryName);
        if (written <= 0 || (size_t)written >= sizeof path) continue;
        if (open_library(path)) {
            available = 1;
            return;
        }
    }
}

int ps_highlight_load(void) {
    pthread_once(&once, load);
    return available;
}

const char *ps_highlight_language_file(const char *name) { return api.language_file(name); }
ps_code_highlighter *ps_highlight_create(const char *language_file) { return api.create(language_file); }
void ps_highlight_destroy(ps_code_highlighter *highlighter) { api.destroy(highlighter); }
size_t ps_highlight_run(ps_code_highlighter *highlighter, const char *text, size_t length, const ps_code_span **spans) {
    return api.run(highlighter, text, length, spans);
}
