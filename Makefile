# Install in one line:   make install PREFIX=~/.local
# and take it away:      make uninstall PREFIX=~/.local (its files, and the folders it
#                        made once they are empty)
# `make install` builds in release mode first; `make install-files BUILD=.build/debug` installs
# binaries already built (the tests use it). DESTDIR is honoured, for packagers; the binaries
# are stripped unless STRIP= is given empty (packagers that strip themselves).

PREFIX ?= /usr/local
BUILD ?= .build/release
DESTDIR ?=
STRIP ?= -s

COMMANDS = ps-sse ps-parts ps-render ps-auth ps-send ps-batch ps-history ps-message ps-models \
	ps-search ps-archive ps-facts ps-summary ps-settings ps-agents ps-keys ps-local-server
# Shared objects the commands open themselves (dlopen), from $(bindir)/../lib/ps-tools/: the
# highlighter of fenced code, which the commands that render open only when they colour code.
LIBRARIES = libCSourceHighlight.so
# Internal helpers the commands run from $(bindir)/../lib/ps-tools/, off PATH, with a page and
# completions as the commands have: ps-archive-postgres, the only one linking PostgreSQL's
# client, which ps-archive becomes for a postgresql:// archive and ps-search runs to search one.
HELPERS = ps-archive-postgres
# ps-local-server's model catalog: SwiftPM's resource bundle, found beside the executable.
RESOURCES = ps-tools_ps-local-server.resources

root = $(DESTDIR)$(PREFIX)
bindir = $(root)/bin
libdir = $(root)/lib/ps-tools
mandir = $(root)/share/man
bashdir = $(root)/share/bash-completion/completions
zshdir = $(root)/share/zsh/site-functions
fishdir = $(root)/share/fish/vendor_completions.d

.PHONY: all build install install-files uninstall

all: build

build:
	scripts/build-release >/dev/null

install: build install-files

install-files:
	install -d "$(bindir)" "$(mandir)/man1" "$(mandir)/man5" "$(mandir)/man7" \
		"$(bashdir)" "$(zshdir)" "$(fishdir)" "$(bindir)/$(RESOURCES)" "$(libdir)"
	for c in $(COMMANDS); do install $(STRIP) -m 755 "$(BUILD)/$$c" "$(bindir)/$$c" || exit 1; done
	for l in $(LIBRARIES); do install -m 644 "$(BUILD)/$$l" "$(libdir)/$$l" || exit 1; done
	for h in $(HELPERS); do install $(STRIP) -m 755 "$(BUILD)/$$h" "$(libdir)/$$h" || exit 1; done
	install -m 644 "$(BUILD)/$(RESOURCES)"/* "$(bindir)/$(RESOURCES)/"
	install -m 644 man/*.1 "$(mandir)/man1/"
	install -m 644 man/*.5 "$(mandir)/man5/"
	install -m 644 man/*.7 "$(mandir)/man7/"
	for c in $(COMMANDS) $(HELPERS); do \
		install -m 644 "completions/$$c.bash" "$(bashdir)/$$c" && \
		install -m 644 "completions/_$$c" "$(zshdir)/_$$c" && \
		install -m 644 "completions/$$c.fish" "$(fishdir)/$$c.fish" || exit 1; \
	done

uninstall:
	for c in $(COMMANDS) $(HELPERS); do \
		rm -f "$(bindir)/$$c" "$(mandir)/man1/$$c.1" "$(bashdir)/$$c" "$(zshdir)/_$$c" "$(fishdir)/$$c.fish"; \
	done
	for l in $(LIBRARIES) $(HELPERS); do rm -f "$(libdir)/$$l"; done
	rm -rf "$(bindir)/$(RESOURCES)"
	rm -f "$(mandir)/man5/ps-ndjson.5" "$(mandir)/man7/ps-tools.7"
	# The folders install made, once empty, up to PREFIX (never PREFIX itself, never one
	# that still holds something of someone else's).
	for d in "$(bindir)" "$(libdir)" "$(mandir)/man1" "$(mandir)/man5" "$(mandir)/man7" "$(bashdir)" "$(zshdir)" "$(fishdir)"; do \
		while [ "$$d" != "$(root)" ] && [ "$$d" != "/" ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done
