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
#include "spawn-clone.h"

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

#include "spawn-cap.h"
#include "spawn-contain.h"
#include "spawn-exec.h"
#include "spawn-landlock.h"

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

const int SPAWN_RESOURCE[LIM_COUNT] = {RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, RLIMIT_AS};
static const struct contain_ids *ids;
static pid_t server;
/* Readable once the server has exited: how a child in a new PID namespace (getppid() is 0) knows. */
static int server_pidfd = -1;
static char *stack;

void child_init(const struct contain_ids *contain_ids) {
  server = getpid();
  server_pidfd = (int)syscall(SYS_pidfd_open, server, 0);
  ids = contain_ids;
}

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
  /* The cap first: a cgroup is joined, and a pid_max set, before any namespace changes the view. */
  if (c->cap != NULL && cap_enter(c->cap, &stage) != 0) fail(c, stage);
  if (c->ns && ns_enter(&r->plan, ids, run_as, &stage) != 0) fail(c, stage);
  if (c->contain && contain_enter(ids, run_as, &stage) != 0) fail(c, stage);
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
    if (set_limit(SPAWN_RESOURCE[i], r->limit[i]) != 0) fail(c, "setrlimit");
  }
  if ((r->flags & SPAWN_NO_CAPS) != 0 && drop_capabilities(run_as, &stage) != 0) fail(c, stage);
  /* Raw system calls: glibc's set*id wrappers coordinate threads, which a vfork child must not do. */
  if (run_as &&
      (syscall(SYS_setgroups, 0, NULL) != 0 || syscall(SYS_setgid, r->gid) != 0 || syscall(SYS_setuid, r->uid) != 0))
    fail(c, "setuid");
  /* Again after the uid change, which clears the parent-death signal. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
    fail(c, "prctl");
  if (c->cap != NULL && cap_limit(c->cap, &stage) != 0) fail(c, stage);
  /* Landlock last (it needs no_new_privs, and forbids mounts): on top of the namespaces. */
  if (c->ns && landlock_sandbox(&r->plan, &stage) != 0) fail(c, stage);
  if (c->contain && landlock_contain(&stage) != 0) fail(c, stage);
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
pid_t child_start(struct child_ctx *c) {
  if (stack == NULL) {
    void *s = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) return c->stage = "mmap", -1;
    stack = s;
  }
  int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
  if (c->contain) flags |= contain_clone_flags((c->r->flags & SPAWN_RUN_AS) != 0);
  if (c->ns) flags |= ns_clone_flags((c->r->flags & SPAWN_RUN_AS) != 0);
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

