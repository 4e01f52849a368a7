/*
 * SHA-256 (FIPS 180-4), for hookwarden-client: the digests of the files a daemon's load read
 * (src/config/read-log.ts computes the same with node:crypto) and the name of a daemon's socket.
 * Written out here rather than linked from libcrypto so that the client stays one static binary that
 * starts in well under a millisecond (docs/choices.md); checked against the FIPS test vectors and
 * node:crypto in test/cli/native-client.test.ts.
 */
#ifndef HW_SHA256_H
#define HW_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
  uint32_t h[8];
  uint64_t bytes;
  uint8_t block[64];
  size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes the digest as 64 lowercase hex digits and a NUL into hex[65]. */
void sha256_hex(struct sha256 *s, char hex[65]);

#endif
