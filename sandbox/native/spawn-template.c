/* Templates and network namespaces, kept by the server: see spawn-template.h. */
#define _GNU_SOURCE
#include "spawn-template.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn-mounts.h"

#define MAX_TEMPLATES 8
#define MAX_NETS 64
/* Where a template is built in the server's private copy of its mount namespace. */
#define STAGE "/tmp"

struct held {
  uint8_t *ident;
  size_t len;
  int fd;
  uint64_t used;
};

static struct held templates[MAX_TEMPLATES], nets[MAX_NETS];
static uint64_t tick;
/* The stack of the children that make namespaces (a template's copy recurses: generous). */
#define STACK_SIZE (512 * 1024)
static char *stack;

int tpl_init(void) {
  void *s = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (s == MAP_FAILED) return -1;
  stack = s;
  return 0;
}

/* What a maker child (a new namespace of its own) reports: the namespace's descriptor, or why not. */
struct maker {
  struct ns_plan *p;
  volatile int fd, err;
  const char *volatile stage;
};

/*
 * Runs `fn` in a child cloned into `ns_flag`'s new namespace, sharing this process's memory and
 * descriptor table (CLONE_VM | CLONE_FILES | CLONE_VFORK): the descriptor it opens on its namespace
 * stays here when it exits, and the server itself never leaves its own namespaces.
 */
static int make(int (*fn)(void *), int ns_flag, struct maker *m) {
  m->fd = -1;
  m->err = 0;
  pid_t pid = clone(fn, stack + STACK_SIZE, CLONE_VM | CLONE_VFORK | CLONE_FILES | ns_flag | SIGCHLD, m);
  if (pid < 0) return m->stage = "unshare", -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && m->fd >= 0) return m->fd;
  if (m->fd >= 0) close(m->fd);
  errno = m->err != 0 ? m->err : EIO;
  return -1;
}

/* The identity of a plan's template: its template ops, and where its hook phase mounts. */
static uint8_t *identity(const struct ns_plan *p, size_t *len) {
  size_t n = 0;
  for (uint32_t i = 0; i < p->nops; i++) n += 2 + strlen(p->ops[i].src) + 1 + strlen(p->ops[i].dst) + 1;
  uint8_t *b = malloc(n + 1), *at = b;
  if (b == NULL) return NULL;
  for (uint32_t i = 0; i < p->nops; i++) {
    const struct ns_op *o = &p->ops[i];
    int hook = (o->flags & NS_HOOK) != 0;
    *at++ = o->op;
    *at++ = hook ? NS_HOOK : o->flags;
    size_t s = hook ? 0 : strlen(o->src), d = strlen(o->dst);
    memcpy(at, o->src, s);
    at[s] = '\0';
    at += s + 1;
    memcpy(at, o->dst, d + 1);
    at += d + 1;
  }
  *len = (size_t)(at - b);
  return b;
}

/* The held entry for (ident, len), or NULL; `slot` gets the one to replace when absent (empty, or oldest). */
static struct held *find(struct held *set, int count, const void *ident, size_t len, struct held **slot) {
  struct held *best = NULL;
  for (int i = 0; i < count; i++) {
    struct held *h = &set[i];
    if (h->ident != NULL && h->len == len && memcmp(h->ident, ident, len) == 0) {
      h->used = ++tick;
      return h;
    }
    if (best == NULL || (best->ident != NULL && (h->ident == NULL || h->used < best->used))) best = h;
  }
  *slot = best;
  return NULL;
}

static void keep(struct held *slot, uint8_t *ident, size_t len, int fd) {
  if (slot->ident != NULL) {
    free(slot->ident);
    close(slot->fd);
  }
  *slot = (struct held){ident, len, fd, ++tick};
}

static _Noreturn void made(struct maker *m, int ok, const char *stage) {
  if (!ok) {
    m->err = errno != 0 ? errno : EIO;
    m->stage = stage;
  }
  _exit(ok ? 0 : 1);
}

/* In a child with a private copy of the server's mounts: the template, then pivoted into it. */
static int template_child(void *arg) {
  struct maker *m = arg;
  const char *stage = "template";
  if ((m->fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0) made(m, 0, "template");
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) made(m, 0, "mount private");
  if (mounts_open(m->p, 0, 1, &stage) != 0) made(m, 0, stage);
  if (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID, "mode=0755") != 0) made(m, 0, "template tmpfs");
  if (mounts_build(m->p, STAGE, 0, 1, 0, &stage) != 0) made(m, 0, stage);
  /* Read-only for good: every hook's copy shares this file system. */
  if (mount(NULL, STAGE, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID, "mode=0755") != 0)
    made(m, 0, "template read-only");
  made(m, mounts_pivot(STAGE, &stage) == 0, stage);
}

/* Builds the plan's template; its mount namespace's descriptor. */
static int build(struct ns_plan *p, const char **stage) {
  struct maker m = {p, -1, 0, NULL};
  int fd = make(template_child, CLONE_NEWNS, &m);
  mounts_close(p);
  if (fd < 0) *stage = m.stage != NULL ? m.stage : "template";
  return fd;
}

int tpl_get(struct ns_plan *p, const char **stage) {
  size_t len;
  uint8_t *ident = identity(p, &len);
  if (ident == NULL) return *stage = "template", errno = ENOMEM, -1;
  struct held *slot, *hit = find(templates, MAX_TEMPLATES, ident, len, &slot);
  if (hit != NULL) {
    free(ident);
    return hit->fd;
  }
  int fd = build(p, stage);
  if (fd < 0) {
    free(ident);
    return -1;
  }
  keep(slot, ident, len, fd);
  return fd;
}

/* In a child in a new network namespace: `lo` up. */
static int net_child(void *arg) {
  struct maker *m = arg;
  if ((m->fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) < 0) made(m, 0, "network namespace");
  made(m, ns_loopback_up() == 0, "network namespace");
}

int net_get(const char *key, const char **stage) {
  size_t len = strlen(key) + 1;
  struct held *slot, *hit = find(nets, MAX_NETS, key, len, &slot);
  if (hit != NULL) return hit->fd;
  uint8_t *ident = malloc(len);
  if (ident == NULL) return *stage = "network namespace", errno = ENOMEM, -1;
  memcpy(ident, key, len);
  struct maker m = {NULL, -1, 0, NULL};
  int fd = make(net_child, CLONE_NEWNET, &m);
  if (fd < 0) {
    free(ident);
    return *stage = "network namespace", -1;
  }
  keep(slot, ident, len, fd);
  return fd;
}
