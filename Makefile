# Install in one line:   make install PREFIX="$HOME/.local"
# and take it away:      make uninstall PREFIX="$HOME/.local" (its files, and the folders it
#                        made once they are empty; it names what it leaves: your configuration,
#                        credentials, archive and state)
# As Debian packages:    make deb  (ps-tools_VERSION_amd64.deb and ps-tools-server_VERSION_amd64.deb)
# `make install` and `make deb` build in release mode first (scripts/build-release, the one
# release build both reuse); `make install-files BUILD=.build/debug` installs binaries already
# built (the tests use it). DESTDIR is honoured, for packagers; the binaries and libraries are
# stripped unless STRIP= is given empty (packagers that strip themselves).
# Every command links libPSKit.so and the Swift runtime as shared objects: install-files copies
# them, the runtime's objects that the binaries need (scripts/runtime-libraries), into
# lib/ps-tools, where the commands' RPATH ($ORIGIN/../lib/ps-tools) finds them, so that no Swift
# toolchain is needed to run them.

PREFIX ?= /usr/local
BUILD ?= .build/release
DESTDIR ?=
STRIP ?= -s
# zsh's folder for completions, under PREFIX: the one zsh searches for /usr/local; Debian's
# package uses share/zsh/vendor-completions.
ZSH_COMPLETIONS ?= share/zsh/site-functions

COMMANDS = ps-sse ps-parts ps-render ps-auth ps-send ps-batch ps-history ps-message ps-models \
	ps-search ps-archive ps-facts ps-summary ps-settings ps-agents ps-keys ps-local-server \
	ps-archive-postgres
# ps-tools' shared objects, in $(bindir)/../lib/ps-tools/: the libraries every command links
# (libPSKit.so, kit/Package.swift), and the highlighter of fenced code, which the commands that
# render open themselves (dlopen) only when they colour code.
LIBRARIES = libPSKit.so libCSourceHighlight.so
# Internal helpers the commands run from $(bindir)/../lib/ps-tools/, off PATH, with a page and
# completions as the commands have: ps-mcp, the only one linking the MCP SDK (and Foundation),
# which ps-send runs per --mcp server.
HELPERS = ps-mcp
# ps-local-server's model catalog: SwiftPM's resource bundle, found beside the executable.
RESOURCES = ps-tools_ps-local-server.resources

root = $(DESTDIR)$(PREFIX)
bindir = $(root)/bin
libdir = $(root)/lib/ps-tools
mandir = $(root)/share/man
bashdir = $(root)/share/bash-completion/completions
zshdir = $(root)/$(ZSH_COMPLETIONS)
fishdir = $(root)/share/fish/vendor_completions.d

.PHONY: all build install install-files uninstall deb

all: build

build:
	scripts/build-release >/dev/null

install: build install-files

deb: build
	scripts/build-deb

install-files:
	install -d "$(bindir)" "$(mandir)/man1" "$(mandir)/man5" "$(mandir)/man7" \
		"$(bashdir)" "$(zshdir)" "$(fishdir)" "$(bindir)/$(RESOURCES)" "$(libdir)"
	for c in $(COMMANDS); do install $(STRIP) -m 755 "$(BUILD)/$$c" "$(bindir)/$$c" || exit 1; done
	for h in $(HELPERS); do install $(STRIP) -m 755 "$(BUILD)/$$h" "$(libdir)/$$h" || exit 1; done
	for l in $(foreach l,$(LIBRARIES),"$(BUILD)/$(l)") $$(scripts/runtime-libraries $(foreach f,$(COMMANDS) $(HELPERS) $(LIBRARIES),"$(BUILD)/$(f)")); do \
		install -m 644 "$$l" "$(libdir)/" && \
		{ [ -z "$(STRIP)" ] || strip --strip-unneeded "$(libdir)/$${l##*/}"; } || exit 1; \
	done
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
	# lib/ps-tools is ps-tools' own folder: the helpers, the highlighter and the Swift runtime.
	rm -f "$(libdir)"/lib*.so $(foreach h,$(HELPERS),"$(libdir)/$(h)")
	# Where ps-archive-postgres lay when it was ps-archive's hidden helper.
	rm -f "$(libdir)/ps-archive-postgres"
	rm -rf "$(bindir)/$(RESOURCES)"
	rm -f "$(mandir)/man5/ps-ndjson.5" "$(mandir)/man7/ps-tools.7"
	# The folders install made, once empty, up to PREFIX (never PREFIX itself, never one
	# that still holds something of someone else's).
	for d in "$(bindir)" "$(libdir)" "$(mandir)/man1" "$(mandir)/man5" "$(mandir)/man7" "$(bashdir)" "$(zshdir)" "$(fishdir)"; do \
		while [ "$$d" != "$(root)" ] && [ "$$d" != "/" ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done
	@scripts/uninstall-leaves
