#ifndef GB_VERSION_H
#define GB_VERSION_H

#define GB_VERSION "0.1.0"
#define GB_SCHEMA_VERSION 1

#ifndef GB_GIT_REV
#define GB_GIT_REV "unknown"
#endif

/* How --version, -v and info name this build. */
#define GB_VERSION_LINE "gpubench " GB_VERSION " (git " GB_GIT_REV ")"

#ifndef GB_BUILD_FLAGS
#define GB_BUILD_FLAGS ""
#endif

#endif
