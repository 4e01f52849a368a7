/* Templates and network namespaces, kept by the server: see spawn-template.h. */
#define _GNU_SOURCE
#include "spawn-template.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
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
static int host_mnt = -1, host_net = -1;

int tpl_init(void) {
  host_mnt = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  host_net = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  return host_mnt >= 0 && host_net >= 0 ? 0 : -1;
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

/* Builds the template in a private copy of the server's mount namespace, then returns to its own. */
static int build(struct ns_plan *p, const char **stage) {
  if (unshare(CLONE_NEWNS) != 0) return *stage = "unshare", -1;
  int fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
  int ok = fd >= 0 || (*stage = "template", 0);
  ok = ok && (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 || (*stage = "mount private", 0));
  ok = ok && mounts_open(p, 0, 1, stage) == 0;
  ok = ok && (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID, "mode=0755") == 0 || (*stage = "template tmpfs", 0));
  ok = ok && mounts_build(p, STAGE, 0, 1, 0, stage) == 0;
  /* Read-only for good: every hook's copy shares this file system. */
  ok = ok && (mount(NULL, STAGE, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID, "mode=0755") == 0 ||
              (*stage = "template read-only", 0));
  ok = ok && mounts_pivot(STAGE, stage) == 0;
  int err = errno;
  mounts_close(p);
  if (setns(host_mnt, CLONE_NEWNS) != 0) abort(); /* never carry on in the wrong namespace */
  if (ok) return fd;
  if (fd >= 0) close(fd);
  return errno = err, -1;
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

int net_get(const char *key, const char **stage) {
  size_t len = strlen(key) + 1;
  struct held *slot, *hit = find(nets, MAX_NETS, key, len, &slot);
  if (hit != NULL) return hit->fd;
  uint8_t *ident = malloc(len);
  if (ident == NULL) return *stage = "network namespace", errno = ENOMEM, -1;
  memcpy(ident, key, len);
  if (unshare(CLONE_NEWNET) != 0) {
    free(ident);
    return *stage = "network namespace", -1;
  }
  int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  int ok = fd >= 0 && ns_loopback_up() == 0;
  int err = errno;
  if (setns(host_net, CLONE_NEWNET) != 0) abort();
  if (!ok) {
    free(ident);
    if (fd >= 0) close(fd);
    return *stage = "network namespace", errno = err, -1;
  }
  keep(slot, ident, len, fd);
  return fd;
}
