/*
 * hookwarden-client's side of the daemon protocol (src/cli/claude-code/daemon/wire.ts describes it):
 * a growable buffer, frames sent and received under a deadline, and the digests of the reads a
 * daemon lists (src/config/read-log.ts's rules, byte for byte).
 */
#ifndef HW_CLIENT_WIRE_H
#define HW_CLIENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

struct hw_buf {
  char *p;
  size_t len, cap;
};

/* Appends; 0, or -1 when out of memory. */
int hw_put(struct hw_buf *b, const void *p, size_t n);
/* Appends a string and its NUL. */
int hw_put_str(struct hw_buf *b, const char *s);
void hw_buf_free(struct hw_buf *b);

/* Milliseconds of CLOCK_MONOTONIC. */
int64_t hw_now_ms(void);

/* Sends one frame (length, then b) before `deadline` (hw_now_ms; -1: none); 0, or -1 with errno. */
int hw_send_frame(int fd, const struct hw_buf *b, int64_t deadline);
/*
 * Receives one frame into *out (malloc'd, *len bytes) before `deadline`, at most `max` bytes:
 * 0; -1 with errno (ETIMEDOUT at the deadline, EPROTO for a frame too large, ECONNRESET at an end
 * before a whole frame).
 */
int hw_recv_frame(int fd, char **out, size_t *len, size_t max, int64_t deadline);

/* The digest of a read of `kind` (f F d e s) at `path`, into out[80]. */
void hw_digest(char kind, const char *path, char out[80]);

#endif
