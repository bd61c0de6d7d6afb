/* The digest of a message's data that traces record (doc/trace-format.md, "Data digests"): a
 * 32-bit hash of its size and of its first bytes, made by the recorder at every send and
 * receive, so that check can tell messages of the same envelope apart by what they carry. Not
 * cryptographic: a few instructions for a short message, the recorder being on every call's
 * path. The one definition, which traces written by other producers must follow. */
#ifndef MPIV_DIGEST_H
#define MPIV_DIGEST_H

#include <stdint.h>
#include <string.h>

/* The bytes of a message a digest reads at most, from its start: a message's first bytes
 * mostly tell it from another (a header, a count, the first values), and reading all of a large
 * one would cost the recorder as much as moving it. */
#define MPIV_DATA_BYTES 64

/* The multipliers of the mixing (odd 64-bit constants of SplitMix64). */
#define MPIV_DIGEST_SEED 0x9e3779b97f4a7c15ULL
#define MPIV_DIGEST_MUL 0xbf58476d1ce4e5b9ULL
#define MPIV_DIGEST_FIN 0x94d049bb133111ebULL

static inline uint64_t mpiv_digest_load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static inline uint64_t mpiv_digest_load32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* One word into the state h: multiply, then fold the high bits down. */
static inline uint64_t mpiv_digest_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * MPIV_DIGEST_MUL;
	return h ^ (h >> 31);
}

/* The digest of a message of `bytes` bytes whose first ones are at data (at least
 * min(bytes, MPIV_DATA_BYTES) of them readable; data may be NULL if bytes is 0): never 0, which
 * traces keep for "unknown". The state starts from the size; the bytes read (n, at most
 * MPIV_DATA_BYTES) go in as 8-byte words in host order, the last word being the last 8 bytes
 * read (overlapping the word before when n is not a multiple of 8); fewer than 8 as one word
 * of their first and last 4 bytes (4 to 7), or of their first, middle and last byte (1 to 3);
 * every word is mixed in, then the high half of the state times MPIV_DIGEST_FIN taken. */
static inline uint32_t mpiv_digest(const void *data, uint64_t bytes)
{
	const unsigned char *p = data;
	size_t n = bytes < MPIV_DATA_BYTES ? (size_t)bytes : MPIV_DATA_BYTES;
	uint64_t h = (bytes + 1) * MPIV_DIGEST_SEED, w;
	uint32_t d;

	if (n >= 8) {
		for (; n > 8; n -= 8, p += 8)
			h = mpiv_digest_mix(h, mpiv_digest_load64(p));
		w = mpiv_digest_load64(p + n - 8);
	} else if (n >= 4) {
		w = mpiv_digest_load32(p) | mpiv_digest_load32(p + n - 4) << 32;
	} else if (n > 0) {
		w = (uint64_t)p[0] | (uint64_t)p[n / 2] << 8 | (uint64_t)p[n - 1] << 16;
	} else {
		w = 0;
	}
	d = (uint32_t)(mpiv_digest_mix(h, w) * MPIV_DIGEST_FIN >> 32);
	return d ? d : 1;
}

#endif
