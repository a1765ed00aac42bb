#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl's functions, as found in the library ps_curl_load opened.
struct ps_curl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
};

static struct ps_curl_api api;
static int loaded;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char reason[512];

// Opens `soname` and fills `out`; NULL, or why not (in `reason`, the library closed again).
static const char *open_library(const char *soname, struct ps_curl_api *out, void **library) {
    // Lazy binding, as when linked: libcurl's own calls are resolved as they are first made.
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(reason, sizeof reason, "%s", error ? error : soname);
        return reason;
    }
    struct { void **slot; const char *name; } functions[] = {
        {(void **)&out->global_init, "curl_global_init"},
        {(void **)&out->easy_init, "curl_easy_init"},
        {(void **)&out->easy_cleanup, "curl_easy_cleanup"},
        {(void **)&out->easy_reset, "curl_easy_reset"},
        {(void **)&out->easy_perform, "curl_easy_perform"},
        {(void **)&out->easy_strerror, "curl_easy_strerror"},
        {(void **)&out->easy_setopt, "curl_easy_setopt"},
        {(void **)&out->easy_getinfo, "curl_easy_getinfo"},
        {(void **)&out->slist_append, "curl_slist_append"},
        {(void **)&out->slist_free_all, "curl_slist_free_all"},
    };
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        *functions[i].slot = dlsym(handle, functions[i].name);
        if (!*functions[i].slot) {
            snprintf(reason, sizeof reason, "%s: no %s", soname, functions[i].name);
            dlclose(handle);
            return reason;
        }
    }
    *library = handle;
    return NULL;
}

const char *ps_curl_load(const char *soname) {
    pthread_mutex_lock(&lock);
    const char *failure = NULL;
    if (!loaded) {
        struct ps_curl_api found;
        void *library;
        failure = open_library(soname, &found, &library);
        if (!failure) {
            api = found;
            api.global_init(CURL_GLOBAL_DEFAULT);
            __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&lock);
    return failure;
}

const char *ps_curl_probe(const char *soname) {
    pthread_mutex_lock(&lock);
    struct ps_curl_api found;
    void *library;
    const char *failure = open_library(soname, &found, &library);
    if (!failure) dlclose(library);
    pthread_mutex_unlock(&lock);
    return failure;
}

int ps_curl_is_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

CURL *ps_curl_easy_init(void) { return api.easy_init(); }
void ps_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
void ps_curl_easy_reset(CURL *handle) { api.easy_reset(handle); }
CURLcode ps_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ps_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *ps_curl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void ps_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ps_curl_setopt_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode ps_curl_setopt_ptr(CURL *h, CURLoption o, const void *v) { return api.easy_setopt(h, o, v); }
CURLcode ps_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return api.easy_setopt(h, o, v); }
CURLcode ps_curl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return api.easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode ps_curl_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return api.easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
CURLcode ps_curl_setopt_xferinfo(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) { return api.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
CURLcode ps_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return api.easy_getinfo(h, i, v); }
