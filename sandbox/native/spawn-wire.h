/*
 * The spawn server's wire format (spawn-server.c describes the protocol): growable buffers, frames,
 * and the parsing of a SPAWN request into a spawn_request.
 */
#ifndef HW_SPAWN_WIRE_H
#define HW_SPAWN_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "spawn-child.h"

/* Bytes [off, len) of p are pending; cap is allocated. */
struct wire_buf {
  uint8_t *p;
  size_t len, off, cap;
};

struct wire_bytes {
  const uint8_t *p;
  uint32_t len;
};

/* A parsed SPAWN request; its strings live in `arena` until spawn_parse_free. */
struct spawn_parse {
  struct spawn_request req;
  uint64_t output_cap;
  struct wire_bytes fd3_data, stdin_data; /* point into the request */
  char *arena;
  char **arrays;
  struct ns_op *ops;
  const char *error;
};

void wire_u32(uint8_t *to, uint32_t v);
uint32_t wire_get_u32(const uint8_t *from);
/* Makes room for n more bytes after len; 0, or -1 when out of memory. */
int wire_reserve(struct wire_buf *b, size_t n);
/* Appends one frame: u32 length, u8 type, u32 id, then a and b. 0, or -1 when out of memory. */
int wire_frame(struct wire_buf *b, uint8_t type, uint32_t id, const void *a, size_t alen, const void *c, size_t clen);
/* The next whole frame (type, id, payload) of b: 1 and consumed, 0 when incomplete, -1 when too large. */
int wire_next(struct wire_buf *b, const uint8_t **frame, size_t *size);
/* Drops what was sent. */
void wire_compact(struct wire_buf *b);

/*
 * What one SPAWN may carry (the host checks the same before it sends): argument and variable counts,
 * one string's length (the kernel's MAX_ARG_STRLEN), and argv plus environment in bytes.
 */
#define SPAWN_MAX_ARGS 65536
#define SPAWN_MAX_ENV 4096
#define SPAWN_MAX_STRING 131072
#define SPAWN_MAX_EXEC_BYTES 2097152
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * Parses a SPAWN payload: 0; -1 with p->error set when it is malformed (fatal: the host is
 * confused); -2 with p->error set when it is well-formed but past a cap (the hook fails).
 */
int spawn_parse(struct spawn_parse *p, const uint8_t *payload, size_t size);
void spawn_parse_free(struct spawn_parse *p);

#endif
