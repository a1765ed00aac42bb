#include "CToolVersion.h"

const char *ps_tools_version(void) { return PS_TOOLS_VERSION; }
