#ifndef PS_CCURL_H
#define PS_CCURL_H
// libcurl, loaded on first use. The commands do not link libcurl: it and the thirty libraries
// it needs (TLS, HTTP/2, SSH, Kerberos, LDAP, ...) cost a few milliseconds of relocations at
// every start, and a command that makes no request (--help, --version, a local verb) never
// needs them. ps_curl_load opens libcurl.so.4 the first time a request is made; every other
// function here calls libcurl's function of the same name and may only be called after it.
// The header gives libcurl's types and constants (from libcurl4-openssl-dev at build time).
#include <curl/curl.h>

/// Loads libcurl (`soname`, e.g. "libcurl.so.4") and runs curl_global_init, once per process;
/// later calls return at once. NULL when it is loaded, else why not (dlerror's text, or the
/// function it lacks), in a buffer that stays valid: the next call may try again.
const char *ps_curl_load(const char *soname);
/// Opens `soname` and looks up every function used here, then closes it again: whether this
/// library would load, without loading it for the process. NULL or why not, as ps_curl_load.
const char *ps_curl_probe(const char *soname);
/// 1 once ps_curl_load has succeeded.
int ps_curl_is_loaded(void);

CURL *ps_curl_easy_init(void);
void ps_curl_easy_cleanup(CURL *handle);
void ps_curl_easy_reset(CURL *handle);
CURLcode ps_curl_easy_perform(CURL *handle);
const char *ps_curl_easy_strerror(CURLcode code);
struct curl_slist *ps_curl_slist_append(struct curl_slist *list, const char *text);
void ps_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them directly.
CURLcode ps_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ps_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode ps_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ps_curl_setopt_write(CURL *handle, size_t (*function)(char *, size_t, size_t, void *));
CURLcode ps_curl_setopt_header(CURL *handle, size_t (*function)(char *, size_t, size_t, void *));
CURLcode ps_curl_setopt_xferinfo(CURL *handle, int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode ps_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

#endif
