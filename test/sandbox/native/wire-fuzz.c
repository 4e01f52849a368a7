/*
 * Fuzz driver for the spawn server's frame decoder (sandbox/native/spawn-wire.c), compiled and run by
 * spawn-wire.test.ts (with AddressSanitizer and UndefinedBehaviorSanitizer where the compiler has
 * them): random bytes, and valid SPAWN payloads with random mutations (truncated, bytes flipped,
 * lengths and counts rewritten), through wire_next and spawn_parse. Any read outside the input, a
 * crash, a leak (under ASan) or a parsed request that breaks its own invariants fails the run.
 *
 *   wire-fuzz <seed> <runs>     prints "ok <runs> <parsed> <refused> <malformed>"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spawn-wire.h"

static uint64_t state;
static uint32_t rnd(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (uint32_t)state;
}

struct out {
  uint8_t *p;
  size_t len, cap;
};
static void put(struct out *o, const void *b, size_t n) {
  if (o->len + n > o->cap) {
    o->cap = (o->len + n) * 2 + 64;
    o->p = realloc(o->p, o->cap);
    if (o->p == NULL) abort();
  }
  memcpy(o->p + o->len, b, n);
  o->len += n;
}
static void u32(struct out *o, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(o, b, 4);
}
static void u64(struct out *o, uint64_t v) {
  u32(o, (uint32_t)v);
  u32(o, (uint32_t)(v >> 32));
}
static void str(struct out *o, const char *s) {
  u32(o, (uint32_t)strlen(s));
  put(o, s, strlen(s));
}

/* A namespace plan: a key and a few operations, now and then one the decoder must refuse. */
static void plan(struct out *o) {
  str(o, rnd() % 2 ? "tenant:acme" : "");
  uint32_t n = rnd() % 6;
  u32(o, n);
  for (uint32_t i = 0; i < n; i++) {
    uint8_t op = (uint8_t)(1 + rnd() % 5), flags = (uint8_t)(rnd() % 8);
    if (rnd() % 32 == 0) op = (uint8_t)rnd();
    put(o, &op, 1);
    put(o, &flags, 1);
    str(o, op == 2 ? "usr/bin" : op == 1 || op == 3 ? "/usr" : "");
    str(o, rnd() % 32 == 0 ? "relative" : "/usr");
  }
}

/* A valid SPAWN payload with a random shape. */
static void valid(struct out *o) {
  uint32_t flags = rnd() & 127;
  u32(o, flags);
  u32(o, rnd());
  u32(o, rnd());
  for (int i = 0; i < 5; i++) u64(o, rnd());
  u32(o, rnd() % 1024);
  str(o, "/tmp");
  uint32_t argc = 1 + rnd() % 8, envc = rnd() % 6;
  /* Now and then past the argument cap: a well-formed request the server refuses. */
  if (rnd() % 64 == 0) argc = 65537;
  u32(o, argc);
  for (uint32_t i = 0; i < argc; i++) str(o, i == 0 ? "/bin/true" : "arg");
  u32(o, envc);
  for (uint32_t i = 0; i < envc; i++) str(o, i % 3 == 2 ? "BAD NAME=x" : "NAME=value");
  str(o, rnd() % 2 ? "" : "--clearenv");
  str(o, "{}");
  if ((flags & 64) != 0) plan(o);
}

/* What a parsed request promises spawn-child.c: NULL-terminated arrays of NUL-terminated strings. */
static void check(const struct spawn_parse *p) {
  const struct spawn_request *q = &p->req;
  if (q->argc == 0 || q->argv[q->argc] != NULL || q->cwd == NULL || q->cwd[0] == '\0') abort();
  if (strcmp(q->shell_argv[0], "/bin/sh") != 0 || q->shell_argv[q->argc + 1] != NULL) abort();
  for (uint32_t i = 0; i < q->argc; i++) {
    if (q->argv[i] == NULL) abort();
    (void)strlen(q->argv[i]);
    if (i > 0 && q->shell_argv[i + 1] != q->argv[i]) abort();
  }
  for (size_t n = 0; q->envp[n] != NULL; n++)
    if (strchr(q->envp[n], '=') == NULL) abort();
  if ((q->flags & 64) == 0) return;
  if (q->plan.key == NULL || q->plan.nops > 128) abort();
  for (uint32_t i = 0; i < q->plan.nops; i++) {
    const struct ns_op *op = &q->plan.ops[i];
    if (op->op < 1 || op->op > 6 || op->dst == NULL || op->dst[0] != '/' || op->src == NULL) abort();
  }
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  state = strtoull(argv[1], NULL, 10) * 2654435761u + 1;
  long runs = strtol(argv[2], NULL, 10);
  long parsed = 0, refused = 0, malformed = 0;
  for (long r = 0; r < runs; r++) {
    struct out o = {NULL, 0, 0};
    if (rnd() % 4 == 0) {
      size_t n = rnd() % 200;
      for (size_t i = 0; i < n; i++) {
        uint8_t b = (uint8_t)rnd();
        put(&o, &b, 1);
      }
    } else {
      valid(&o);
      int edits = (int)(rnd() % 4);
      for (int e = 0; e < edits && o.len > 0; e++) {
        size_t at = rnd() % o.len;
        switch (rnd() % 4) {
          case 0: o.len = at; break;                                  /* truncated */
          case 1: o.p[at] ^= (uint8_t)(1u << (rnd() % 8)); break;      /* a bit flipped */
          case 2: if (at + 4 <= o.len) memcpy(o.p + at, &(uint32_t){rnd()}, 4); break; /* a length */
          default: if (at + 4 <= o.len) memset(o.p + at, 0xff, 4); break;
        }
      }
    }
    /* Through the framing first: the decoder sees what wire_next hands it. */
    struct wire_buf b = {NULL, 0, 0, 0};
    if (wire_reserve(&b, o.len + 9) != 0) abort();
    uint8_t head[9];
    uint32_t len = (uint32_t)(o.len + 5);
    if (rnd() % 8 == 0) len = rnd();
    memcpy(head, &len, 4);
    head[4] = 1;
    memset(head + 5, 0, 4);
    memcpy(b.p, head, 9);
    if (o.len > 0) memcpy(b.p + 9, o.p, o.len);
    b.len = o.len + 9;
    const uint8_t *frame;
    size_t size;
    int w = wire_next(&b, &frame, &size);
    if (w == 1) {
      if (size < 5 || size > b.len) {
        if (size < 5) {
          malformed++;
          free(b.p);
          free(o.p);
          continue;
        }
        abort();
      }
      struct spawn_parse p;
      int rc = spawn_parse(&p, frame + 5, size - 5);
      if (rc == 0) {
        check(&p);
        spawn_parse_free(&p);
        parsed++;
      } else if (rc == -2) refused++;
      else malformed++;
    } else malformed++;
    free(b.p);
    free(o.p);
  }
  printf("ok %ld %ld %ld %ld\n", runs, parsed, refused, malformed);
  return 0;
}
