/*
 * The spawn server's child side: clone(CLONE_VM | CLONE_VFORK) on a stack of its own, as glibc's
 * posix_spawn does, so that starting a hook copies no page table; posix_spawn itself cannot set
 * rlimits, no_new_privs, a parent-death signal, namespaces or a uid. The child shares the server's
 * memory until it execs: it calls only system-call wrappers (no malloc, no stdio, nothing that takes
 * a lock), uses nothing on its stack that grows with the request (argv for /bin/sh is built before
 * the clone), and reports a failed step through the shared context.
 */
#define _GNU_SOURCE
#include "spawn-child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn-contain.h"
#include "spawn-exec.h"

#define STACK_SIZE (256 * 1024)

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* An error's text without locale machinery (strerror may translate, and allocate). */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
#define error_text strerrordesc_np
#else
#define error_text strerror
#endif

struct child_ctx {
  struct spawn_request *r;
  const struct spawn_fds *fds;
  int contain;
  /* Only try the containment steps, then exit (spawn_init's check). */
  int probe;
  volatile int err;
  const char *volatile stage;
};

static const int RESOURCE[LIM_COUNT] = {RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, RLIMIT_AS};
static rlim_t hard[LIM_COUNT];
static struct contain_ids ids;
static pid_t server;
/* Readable once the server has exited: how a child in a new PID namespace (getppid() is 0) knows. */
static int server_pidfd = -1;
static int contain_ok;
static char contain_why[160];
static char *stack;

int close_from(int from) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)from, ~0u, 0u) == 0) return 0;
#endif
  struct rlimit l;
  if (getrlimit(RLIMIT_NOFILE, &l) != 0) return -1;
  rlim_t max = l.rlim_cur == RLIM_INFINITY || l.rlim_cur > (1u << 20) ? (1u << 20) : l.rlim_cur;
  for (rlim_t fd = (rlim_t)from; fd < max; fd++) close((int)fd);
  return 0;
}

static _Noreturn void fail(struct child_ctx *c, const char *stage) {
  c->err = errno != 0 ? errno : EINVAL;
  c->stage = stage;
  _exit(125);
}

static int server_alive(void) {
  if (server_pidfd >= 0) {
    struct pollfd p = {server_pidfd, POLLIN, 0};
    return poll(&p, 1, 0) < 0 || (p.revents & POLLIN) == 0;
  }
  pid_t parent = getppid();
  return parent == server || parent == 0;
}

static void say(const char *s) {
  if (write(2, s, strlen(s)) < 0) return;
}

static int set_limit(int resource, uint64_t value) {
  struct rlimit l = {(rlim_t)value, (rlim_t)value};
  return setrlimit(resource, &l);
}

static int child_main(void *arg) {
  struct child_ctx *c = arg;
  struct spawn_request *r = c->r;
  const struct spawn_fds *f = c->fds;
  const char *stage = NULL;
  int run_as = (r->flags & SPAWN_RUN_AS) != 0;
  if (c->contain && contain_enter(&ids, run_as, &stage) != 0) fail(c, stage);
  if (c->probe) _exit(0);
  /* The server ignores SIGPIPE, and an ignored signal stays ignored across exec. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  if (sigaction(SIGPIPE, &dfl, NULL) != 0) fail(c, "sigaction");
  /* Its own session and process group (pgid = pid): the host kills the group; no terminal. */
  if (setsid() < 0) fail(c, "setsid");
  /* From here on the child dies with the server; it may have died before this was armed. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(c, "prctl");
  if (!server_alive()) _exit(125);
  /* The pipes are all above 2 (the server's own 0-2 are taken), so no dup2 clobbers another. */
  if (dup2(f->in, 0) < 0 || dup2(f->out, 1) < 0 || dup2(f->err, 2) < 0) fail(c, "dup2");
  if (f->fd3 >= 0 && (f->fd3 == 3 ? fcntl(3, F_SETFD, 0) : dup2(f->fd3, 3)) < 0) fail(c, "dup2");
  if (chdir(r->cwd) != 0) fail(c, "chdir");
  for (int i = 0; i < LIM_COUNT; i++) {
    if ((i == LIM_AS && (r->flags & SPAWN_AS_LIMIT) == 0)) continue;
    if (set_limit(RESOURCE[i], r->limit[i]) != 0) fail(c, "setrlimit");
  }
  if ((r->flags & SPAWN_NO_CAPS) != 0 && drop_capabilities(run_as, &stage) != 0) fail(c, stage);
  /* Raw system calls: glibc's set*id wrappers coordinate threads, which a vfork child must not do. */
  if (run_as &&
      (syscall(SYS_setgroups, 0, NULL) != 0 || syscall(SYS_setgid, r->gid) != 0 || syscall(SYS_setuid, r->uid) != 0))
    fail(c, "setuid");
  /* Again after the uid change, which clears the parent-death signal. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
    fail(c, "prctl");
  if (!server_alive()) _exit(125);
  /* Last: the server's pidfd is among them. */
  if (close_from(f->fd3 >= 0 ? 4 : 3) != 0) fail(c, "close_range");
  sigset_t none;
  sigemptyset(&none);
  if (sigprocmask(SIG_SETMASK, &none, NULL) != 0) fail(c, "sigprocmask");
  exec_program(r);
  int err = errno;
  const char *why = error_text(err);
  say("hookwarden: cannot execute ");
  say(r->argv[0]);
  say(": ");
  say(why != NULL ? why : "unknown error");
  say("\n");
  _exit(err == ENOENT ? 127 : 126);
}

/* One clone: the child runs child_main; back here once it exec'd or exited. */
static pid_t start(struct child_ctx *c) {
  if (stack == NULL) {
    void *s = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) return c->stage = "mmap", -1;
    stack = s;
  }
  int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
  if (c->contain) flags |= contain_clone_flags((c->r->flags & SPAWN_RUN_AS) != 0);
  /* CLONE_VFORK: we resume when the child has exec'd or exited; the stack is free again then. */
  pid_t pid = clone(child_main, stack + STACK_SIZE, flags, c);
  if (pid < 0) {
    c->err = errno;
    c->stage = "clone";
    return -1;
  }
  if (c->err != 0) {
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return -1;
  }
  return pid;
}

/* A kernel that refuses a namespace refuses the clone with one of these (or a step after it). */
static int refused_containment(const struct child_ctx *c) {
  if (c->stage == NULL || !contain_stage(c->stage)) return 0;
  if (strcmp(c->stage, "clone") != 0) return 1;
  return c->err == EPERM || c->err == EINVAL || c->err == ENOSPC || c->err == EUSERS || c->err == EACCES;
}

void spawn_init(void) {
  server = getpid();
  server_pidfd = (int)syscall(SYS_pidfd_open, server, 0);
  for (int i = 0; i < LIM_COUNT; i++) {
    struct rlimit l;
    hard[i] = getrlimit(RESOURCE[i], &l) == 0 ? l.rlim_max : RLIM_INFINITY;
  }
  contain_init(&ids);
  struct spawn_request none;
  memset(&none, 0, sizeof none);
  struct child_ctx c = {&none, NULL, 1, 1, 0, NULL};
  pid_t pid = start(&c);
  if (pid >= 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    contain_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!contain_ok) snprintf(contain_why, sizeof contain_why, "the containment check exited with status %d", status);
  } else {
    snprintf(contain_why, sizeof contain_why, "%s: %s", c.stage, strerror(c.err));
  }
}

int containment_available(const char **why) {
  *why = contain_ok ? "" : contain_why;
  return contain_ok;
}

pid_t spawn_hook(struct spawn_request *r, const struct spawn_fds *fds, struct spawn_outcome *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < LIM_COUNT; i++) {
    if (hard[i] != RLIM_INFINITY && r->limit[i] > (uint64_t)hard[i]) {
      r->limit[i] = (uint64_t)hard[i];
      if (i != LIM_AS || (r->flags & SPAWN_AS_LIMIT) != 0) out->clamped |= 1u << i;
    }
  }
  int want = (r->flags & SPAWN_CONTAIN) != 0;
  int required = (r->flags & SPAWN_CONTAIN_REQUIRED) != 0;
  if (want && !contain_ok) {
    if (required) {
      out->isolation = 1;
      out->stage = "containment";
      errno = EPERM;
      return -1;
    }
    snprintf(out->uncontained, sizeof out->uncontained, "%s", contain_why);
    want = 0;
  }
  struct child_ctx c = {r, fds, want, 0, 0, NULL};
  pid_t pid = start(&c);
  if (pid < 0 && want && refused_containment(&c)) {
    if (required) {
      out->isolation = 1;
      out->stage = c.stage;
      errno = c.err;
      return -1;
    }
    snprintf(out->uncontained, sizeof out->uncontained, "%s: %s", c.stage, strerror(c.err));
    struct child_ctx plain = {r, fds, 0, 0, 0, NULL};
    c = plain;
    pid = start(&c);
    want = 0;
  }
  if (pid < 0) {
    out->stage = c.stage;
    errno = c.err;
    return -1;
  }
  out->contained = want;
  return pid;
}
