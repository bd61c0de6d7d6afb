/* Translator, for verify (doc/verify.md): what tells messages apart, their sends' call sites
 * and the digests of their data. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "xalloc.h"

int32_t tr_site_key(const struct mpiv_rank_trace *t, uint64_t site)
{
	const char *module = site ? mpiv_trace_module(t, site) : NULL;
	uint64_t h = 1469598103934665603ULL, addr = MPIV_SITE_ADDR(site);
	int i;

	if (!site)
		return 0;
	/* FNV-1a of the module's path and the address in it: the same in every run of the
	 * program, whatever address the module was loaded at */
	for (; module && *module; module++)
		h = (h ^ (unsigned char)*module) * 1099511628211ULL;
	for (i = 0; i < 8; i++, addr >>= 8)
		h = (h ^ (addr & 0xff)) * 1099511628211ULL;
	h = (h ^ (h >> 32)) & 0x7fffffff;
	return h ? (int32_t)h : 1;
}

int32_t tr_message_key(int32_t site, uint32_t data)
{
	uint64_t h = ((uint64_t)(uint32_t)site << 32 | data) * 0x9e3779b97f4a7c15ULL;

	if (!site && !data)
		return 0;
	h = (h ^ (h >> 31)) & 0x7fffffff;
	return h ? (int32_t)h : 1;
}
