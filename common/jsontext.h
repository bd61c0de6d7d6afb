/* JSON strings from C strings that may not be UTF-8 (paths, host names, command lines are
 * bytes on Linux): Jansson refuses such a string, and a caller that does not look writes
 * null or drops it. Shared by every JSON writer of common/. */
#ifndef MPIV_JSONTEXT_H
#define MPIV_JSONTEXT_H

#include <jansson.h>

/* A new JSON string of s, each byte that is not part of valid UTF-8 replaced by U+FFFD
 * (the text stays readable; such a byte cannot be written in JSON). NULL s gives JSON null.
 * Returns NULL only without memory. */
json_t *mpiv_json_text(const char *s);

#endif
