/*
 * The spawn server's start of a hook (spawn-child.h): its checks at start (containment, namespace
 * mode, the process cap, Landlock), and for each SPAWN which sandbox the child gets, with what cap,
 * and what happens when the host refuses containment. The child itself is spawn-child.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn-cap.h"
#include "spawn-child.h"
#include "spawn-clone.h"
#include "spawn-contain.h"
#include "spawn-landlock.h"

static rlim_t hard[LIM_COUNT];
static struct contain_ids ids;
static int contain_ok;
static char contain_why[160];

/* A kernel that refuses a namespace refuses the clone with one of these (or a step after it). */
static int refused_containment(const struct child_ctx *c) {
  if (c->stage == NULL || !contain_stage(c->stage)) return 0;
  if (strcmp(c->stage, "clone") != 0) return 1;
  return c->err == EPERM || c->err == EINVAL || c->err == ENOSPC || c->err == EUSERS || c->err == EACCES;
}

/* Runs a probe child (containment or a namespace plan) to its exit: 0, or -1 with *why filled. */
static int probe(struct child_ctx *c, char *why, size_t size) {
  pid_t pid = child_start(c);
  if (pid < 0) {
    snprintf(why, size, "%s: %s", c->stage, strerror(c->err));
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  snprintf(why, size, "the check exited with status %d", status);
  return -1;
}

/* Namespace mode's check: a real plan (a /dev, a /proc) entered by a child that exits at once. */
static void check_namespace(void) {
  char why[160] = "", first[160] = "";
  for (int attempt = 0; attempt < 2; attempt++) {
    struct ns_op ops[2] = {{NS_DEV, 0, "", "/dev", -1}, {NS_PROC, NS_HOOK, "", "/proc", -1}};
    struct spawn_request none;
    memset(&none, 0, sizeof none);
    none.plan = (struct ns_plan){"hookwarden-check", 2, ops, -1, -1};
    const char *stage = "start";
    if (ns_prepare(&none.plan, &stage) != 0) snprintf(why, sizeof why, "%s: %s", stage, strerror(errno));
    else {
      struct child_ctx c = {&none, NULL, 0, 1, 1, NULL, 0, NULL};
      if (probe(&c, why, sizeof why) == 0) return ns_checked(1, "");
    }
    if (attempt == 0) snprintf(first, sizeof first, "%s", why);
    /* Root that may not prepare namespaces (a container): each hook may still build its own. */
    if (!ns_prepared()) break;
    ns_build_per_hook();
  }
  ns_checked(0, first);
}

void spawn_init(void) {
  for (int i = 0; i < LIM_COUNT; i++) {
    struct rlimit l;
    hard[i] = getrlimit(SPAWN_RESOURCE[i], &l) == 0 ? l.rlim_max : RLIM_INFINITY;
  }
  contain_init(&ids);
  child_init(&ids);
  cap_init();
  landlock_init();
  ns_init();
  struct spawn_request none;
  memset(&none, 0, sizeof none);
  struct child_ctx c = {&none, NULL, 1, 0, 1, NULL, 0, NULL};
  contain_ok = probe(&c, contain_why, sizeof contain_why) == 0;
  check_namespace();
}

int spawn_is_root(void) {
  return ids.is_root;
}

int containment_available(const char **why) {
  *why = contain_ok ? "" : contain_why;
  return contain_ok;
}

/* Fails a start that never happened: what the outcome says, errno, the cap slot released. */
static pid_t not_started(struct spawn_outcome *out, int isolation, const char *stage, int err) {
  cap_release(out->cap_slot);
  out->cap_slot = -1;
  out->isolation = isolation;
  out->stage = stage;
  errno = err;
  return -1;
}

/* Namespace mode: the plan's sandbox, never anything less. */
static pid_t spawn_namespace(struct spawn_request *r, const struct spawn_fds *fds, struct spawn_outcome *out) {
  const char *why, *stage = "namespace";
  if (!ns_available(&why)) return not_started(out, 1, "namespace", EPERM);
  if (ns_prepare(&r->plan, &stage) != 0) return not_started(out, 1, stage, errno);
  int run_as = (r->flags & SPAWN_RUN_AS) != 0;
  struct cap_ticket cap;
  cap_prepare(&cap, r->max_procs, 1, !ns_prepared() && !ids.is_root);
  out->cap_mech = (uint32_t)cap.mech;
  out->cap_max = cap.max;
  out->cap_slot = cap.slot;
  out->landlock = (uint32_t)landlock_abi();
  (void)run_as;
  struct child_ctx c = {r, fds, 0, 1, 0, &cap, 0, NULL};
  pid_t pid = child_start(&c);
  if (pid < 0) return not_started(out, 0, c.stage, c.err);
  out->contained = 1;
  return pid;
}

/* The cap of a process-mode hook, contained or not, into the outcome. */
static void process_cap(struct cap_ticket *cap, const struct spawn_request *r, int contained, struct spawn_outcome *out) {
  cap_release(out->cap_slot);
  int own_user = contained && (r->flags & SPAWN_RUN_AS) == 0 && !ids.is_root;
  cap_prepare(cap, r->max_procs, contained, own_user);
  out->cap_mech = (uint32_t)cap->mech;
  out->cap_max = cap->max;
  out->cap_slot = cap->slot;
  out->landlock = contained ? (uint32_t)landlock_abi() : 0;
}

pid_t spawn_hook(struct spawn_request *r, const struct spawn_fds *fds, struct spawn_outcome *out) {
  memset(out, 0, sizeof *out);
  out->cap_slot = -1;
  for (int i = 0; i < LIM_COUNT; i++) {
    if (hard[i] != RLIM_INFINITY && r->limit[i] > (uint64_t)hard[i]) {
      r->limit[i] = (uint64_t)hard[i];
      if (i != LIM_AS || (r->flags & SPAWN_AS_LIMIT) != 0) out->clamped |= 1u << i;
    }
  }
  if ((r->flags & SPAWN_NAMESPACE) != 0) return spawn_namespace(r, fds, out);
  int want = (r->flags & SPAWN_CONTAIN) != 0;
  int required = (r->flags & SPAWN_CONTAIN_REQUIRED) != 0;
  if (want && !contain_ok) {
    if (required) return not_started(out, 1, "containment", EPERM);
    snprintf(out->uncontained, sizeof out->uncontained, "%s", contain_why);
    want = 0;
  }
  struct cap_ticket cap;
  process_cap(&cap, r, want, out);
  struct child_ctx c = {r, fds, want, 0, 0, &cap, 0, NULL};
  pid_t pid = child_start(&c);
  if (pid < 0 && want && refused_containment(&c)) {
    if (required) return not_started(out, 1, c.stage, c.err);
    snprintf(out->uncontained, sizeof out->uncontained, "%s: %s", c.stage, strerror(c.err));
    process_cap(&cap, r, 0, out);
    struct child_ctx plain = {r, fds, 0, 0, 0, &cap, 0, NULL};
    c = plain;
    pid = child_start(&c);
    want = 0;
  }
  if (pid < 0) return not_started(out, 0, c.stage, c.err);
  out->contained = want;
  return pid;
}
