/* JSON strings from bytes that may not be UTF-8 (jsontext.h). Plain malloc: the replayer
 * writes nothing with it, but links cex.c, which uses it. */
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"

/* The length of the valid UTF-8 sequence at p (n bytes left), RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF; 0 if there is none. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len, i;
	unsigned long cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

json_t *mpiv_json_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, i = 0, k, out = 0;
	json_t *j;
	char *buf;

	if (!s)
		return json_null();
	n = strlen(s);
	j = json_stringn(s, n);
	if (j)
		return j;
	/* at most three bytes (U+FFFD) for each byte */
	buf = malloc(3 * n + 1);
	if (!buf)
		return NULL;
	while (i < n) {
		k = utf8_seq(p + i, n - i);
		if (k) {
			memcpy(buf + out, p + i, k);
			out += k;
			i += k;
		} else {
			memcpy(buf + out, "\xef\xbf\xbd", 3);
			out += 3;
			i++;
		}
	}
	j = json_stringn(buf, out);
	free(buf);
	return j;
}
