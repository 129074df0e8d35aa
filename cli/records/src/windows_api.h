// <windows.h> without its min/max macros and its rarely used parts, for the harness's
// Windows-only code paths (replacing renames, the golden folder's lock).
#pragma once

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#endif
