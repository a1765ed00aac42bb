#ifndef C_TOOL_VERSION_H
#define C_TOOL_VERSION_H
// The toolkit's version, read from the file VERSION when the package is built (Package.swift
// defines PS_TOOLS_VERSION from it): the one place the version is written.
const char *ps_tools_version(void);
#endif
