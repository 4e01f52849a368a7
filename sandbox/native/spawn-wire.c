/* The spawn server's wire format: see spawn-wire.h and the protocol in spawn-server.c. */
#include "spawn-wire.h"

#include "env-record.h"

#include <stdlib.h>
#include <string.h>

/* A request larger than this is a confused host (stdin and environment are capped far below). */
#define MAX_FRAME (1u << 30)

void wire_u32(uint8_t *to, uint32_t v) {
  to[0] = (uint8_t)v;
  to[1] = (uint8_t)(v >> 8);
  to[2] = (uint8_t)(v >> 16);
  to[3] = (uint8_t)(v >> 24);
}

uint32_t wire_get_u32(const uint8_t *from) {
  return (uint32_t)from[0] | (uint32_t)from[1] << 8 | (uint32_t)from[2] << 16 | (uint32_t)from[3] << 24;
}

void wire_compact(struct wire_buf *b) {
  if (b->off == b->len) b->off = b->len = 0;
  else if (b->off > b->cap / 2) {
    memmove(b->p, b->p + b->off, b->len - b->off);
    b->len -= b->off;
    b->off = 0;
  }
}

int wire_reserve(struct wire_buf *b, size_t n) {
  if (b->cap - b->len >= n) return 0;
  if (b->off > 0) {
    memmove(b->p, b->p + b->off, b->len - b->off);
    b->len -= b->off;
    b->off = 0;
    if (b->cap - b->len >= n) return 0;
  }
  size_t cap = b->cap == 0 ? 65536 : b->cap;
  while (cap - b->len < n) cap *= 2;
  uint8_t *p = realloc(b->p, cap);
  if (p == NULL) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

int wire_frame(struct wire_buf *b, uint8_t type, uint32_t id, const void *a, size_t alen, const void *c, size_t clen) {
  if (wire_reserve(b, 9 + alen + clen) != 0) return -1;
  uint8_t *to = b->p + b->len;
  wire_u32(to, (uint32_t)(5 + alen + clen));
  to[4] = type;
  wire_u32(to + 5, id);
  if (alen > 0) memcpy(to + 9, a, alen);
  if (clen > 0) memcpy(to + 9 + alen, c, clen);
  b->len += 9 + alen + clen;
  return 0;
}

int wire_next(struct wire_buf *b, const uint8_t **frame, size_t *size) {
  if (b->len - b->off < 4) return 0;
  uint32_t n = wire_get_u32(b->p + b->off);
  if (n > MAX_FRAME) return -1;
  if (b->len - b->off - 4 < n) return 0;
  *frame = b->p + b->off + 4;
  *size = n;
  b->off += 4 + (size_t)n;
  return 1;
}

struct cursor {
  const uint8_t *p;
  size_t left;
  int bad;
};

static uint64_t take(struct cursor *c, size_t n) {
  if (c->bad || c->left < n) {
    c->bad = 1;
    return 0;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)c->p[i] << (8 * i);
  c->p += n;
  c->left -= n;
  return v;
}

static struct wire_bytes take_bytes(struct cursor *c) {
  struct wire_bytes b = {NULL, (uint32_t)take(c, 4)};
  if (c->bad || c->left < b.len) {
    c->bad = 1;
    b.len = 0;
    return b;
  }
  b.p = c->p;
  c->p += b.len;
  c->left -= b.len;
  return b;
}

/* Copies a string into the arena, NUL-terminated; NULL when it holds a NUL itself. */
static char *take_string(struct cursor *c, char **arena) {
  struct wire_bytes b = take_bytes(c);
  if (c->bad || memchr(b.p, 0, b.len) != NULL) return c->bad = 1, NULL;
  char *s = *arena;
  if (b.len > 0) memcpy(s, b.p, b.len);
  s[b.len] = '\0';
  *arena += b.len + 1;
  return s;
}

static int bad(struct spawn_parse *p, const char *why) {
  p->error = why;
  spawn_parse_free(p);
  return -1;
}

/* A well-formed request past one of the caps: refused (the hook fails), the server carries on. */
static int refused(struct spawn_parse *p, const char *why) {
  p->error = why;
  spawn_parse_free(p);
  return -2;
}

/* A path the plan may name: absolute, no longer than the kernel's PATH_MAX. */
static int plan_path(const char *s) {
  return s != NULL && s[0] == '/' && strlen(s) < 4096;
}

/* Namespace mode's part of a SPAWN: whose network namespace, and the mount plan (spawn-ns.h). */
static void take_plan(struct cursor *c, char **arena, struct spawn_parse *p) {
  struct ns_plan *plan = &p->req.plan;
  plan->key = take_string(c, arena);
  plan->nops = (uint32_t)take(c, 4);
  plan->tpl_fd = plan->net_fd = -1;
  if (c->bad || plan->nops > NS_MAX_OPS || plan->nops > c->left / 10) {
    c->bad = 1;
    return;
  }
  plan->ops = p->ops = calloc(plan->nops + 1, sizeof *plan->ops);
  if (plan->ops == NULL) {
    c->bad = 1;
    return;
  }
  for (uint32_t i = 0; i < plan->nops && !c->bad; i++) {
    struct ns_op *o = &plan->ops[i];
    o->op = (uint8_t)take(c, 1);
    o->flags = (uint8_t)take(c, 1);
    o->src = take_string(c, arena);
    o->dst = take_string(c, arena);
    o->fd = -1;
    int sourced = o->op == NS_BIND || o->op == NS_COPY;
    if (o->op < NS_BIND || o->op >= NS_OP_END || (o->flags & ~NS_FLAGS_ALL) != 0 || !plan_path(o->dst) ||
        (sourced && !plan_path(o->src)) || (o->op == NS_SYMLINK && (o->src == NULL || o->src[0] == '\0')))
      c->bad = 1;
  }
}

int spawn_parse(struct spawn_parse *p, const uint8_t *payload, size_t size) {
  memset(p, 0, sizeof *p);
  struct cursor c = {payload, size, 0};
  p->req.flags = (uint32_t)take(&c, 4);
  p->req.uid = (uint32_t)take(&c, 4);
  p->req.gid = (uint32_t)take(&c, 4);
  for (int i = 0; i < LIM_COUNT; i++) p->req.limit[i] = take(&c, 8);
  p->output_cap = take(&c, 8);
  p->req.max_procs = (uint32_t)take(&c, 4);
  if (c.bad) return bad(p, "truncated SPAWN header");
  /* Every string has a 4-byte length before it: the copies fit in size bytes plus their NULs. */
  char *arena = p->arena = malloc(2 * size + 1);
  if (arena == NULL) return bad(p, "out of memory");
  p->req.cwd = take_string(&c, &arena);
  uint32_t argc = (uint32_t)take(&c, 4);
  if (c.bad || argc == 0 || argc > c.left / 4) return bad(p, "bad argv count");
  if (argc > SPAWN_MAX_ARGS) return refused(p, "the command has more arguments than hookwarden passes (" STR(SPAWN_MAX_ARGS) ")");
  /* argv, the /bin/sh argv and envp share one block; envc is bounded by what is left after argv. */
  p->arrays = malloc((2 * argc + 3 + size / 4 + 1) * sizeof *p->arrays);
  if (p->arrays == NULL) return bad(p, "out of memory");
  p->req.argc = argc;
  p->req.argv = p->arrays;
  size_t exec_bytes = 0;
  for (uint32_t i = 0; i < argc; i++) {
    p->req.argv[i] = take_string(&c, &arena);
    if (p->req.argv[i] != NULL) exec_bytes += strlen(p->req.argv[i]) + 1;
  }
  p->req.argv[argc] = NULL;
  p->req.shell_argv = p->arrays + argc + 1;
  p->req.shell_argv[0] = "/bin/sh";
  p->req.shell_argv[1] = NULL;
  for (uint32_t i = 1; i < argc; i++) p->req.shell_argv[i + 1] = p->req.argv[i];
  p->req.shell_argv[argc + 1] = NULL;
  uint32_t envc = (uint32_t)take(&c, 4);
  if (c.bad || envc > c.left / 4) return bad(p, "bad environment count");
  p->req.envp = p->req.shell_argv + argc + 2;
  for (uint32_t i = 0; i < envc; i++) {
    char *record = take_string(&c, &arena);
    if (record != NULL && (strchr(record, '=') == NULL || !valid_env_record(record))) c.bad = 1;
    if (record != NULL) exec_bytes += strlen(record) + 1;
    p->req.envp[i] = record;
  }
  p->req.envp[envc] = NULL;
  p->fd3_data = take_bytes(&c);
  p->stdin_data = take_bytes(&c);
  if ((p->req.flags & SPAWN_NAMESPACE) != 0) take_plan(&c, &arena, p);
  if (c.bad || c.left != 0 || p->req.cwd[0] == '\0') return bad(p, "malformed SPAWN request");
  if (envc > SPAWN_MAX_ENV)
    return refused(p, "the environment has more variables than hookwarden passes (" STR(SPAWN_MAX_ENV) ")");
  for (uint32_t i = 0; i < argc + envc; i++) {
    const char *s = i < argc ? p->req.argv[i] : p->req.envp[i - argc];
    if (strlen(s) >= SPAWN_MAX_STRING)
      return refused(p, "an argument or variable is longer than the kernel passes to a program (" STR(SPAWN_MAX_STRING) " bytes)");
  }
  if (exec_bytes > SPAWN_MAX_EXEC_BYTES)
    return refused(p, "the arguments and environment together are larger than hookwarden passes (" STR(SPAWN_MAX_EXEC_BYTES) " bytes)");
  if (p->fd3_data.len > 0) p->req.flags |= SPAWN_FD3;
  return 0;
}

void spawn_parse_free(struct spawn_parse *p) {
  free(p->arena);
  free(p->arrays);
  free(p->ops);
  p->arena = NULL;
  p->arrays = NULL;
  p->ops = NULL;
}
