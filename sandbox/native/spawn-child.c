/*
 * The spawn server's child side: clone(CLONE_VM | CLONE_VFORK) on a stack of its own, as glibc's
 * posix_spawn does, so that starting a hook copies no page table; posix_spawn itself cannot set
 * rlimits, no_new_privs, a parent-death signal or a uid. The child shares the server's memory until
 * it execs: it calls only system-call wrappers (no malloc, no stdio, nothing that takes a lock) and
 * reports a failed step through the shared context.
 */
#define _GNU_SOURCE
#include "spawn-child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define STACK_SIZE (256 * 1024)

/* An error's text without locale machinery (strerror may translate, and allocate). */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
#define error_text strerrordesc_np
#else
#define error_text strerror
#endif

struct child_ctx {
  const struct spawn_request *r;
  const struct spawn_fds *fds;
  pid_t server;
  volatile int err;
  const char *volatile stage;
};

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

static int set_limit(int resource, uint64_t value) {
  struct rlimit l = {(rlim_t)value, (rlim_t)value};
  return setrlimit(resource, &l);
}

/* What execvp does for a file without a #! line: run it with /bin/sh. */
static void exec_shell(const struct spawn_request *r, const char *path) {
  char *argv[r->argc + 2];
  argv[0] = "/bin/sh";
  argv[1] = (char *)path;
  for (uint32_t i = 1; i < r->argc; i++) argv[i + 1] = r->argv[i];
  argv[r->argc + 1] = NULL;
  execve("/bin/sh", argv, r->envp);
}

/* execvp with the PATH of the hook's own environment (execvpe would search the server's). */
static void exec_program(const struct spawn_request *r) {
  const char *file = r->argv[0];
  if (file[0] == '\0') {
    errno = ENOENT;
    return;
  }
  if (strchr(file, '/') != NULL) {
    execve(file, r->argv, r->envp);
    if (errno == ENOEXEC) exec_shell(r, file);
    return;
  }
  const char *path = "/bin:/usr/bin";
  for (char **e = r->envp; *e != NULL; e++) {
    if (strncmp(*e, "PATH=", 5) == 0) {
      path = *e + 5;
      break;
    }
  }
  size_t flen = strlen(file);
  char buf[PATH_MAX];
  int eacces = 0;
  for (const char *p = path;;) {
    const char *end = strchrnul(p, ':');
    size_t dlen = (size_t)(end - p);
    if (dlen + flen + 2 <= sizeof buf) {
      /* An empty PATH element is the working directory. */
      if (dlen > 0) {
        memcpy(buf, p, dlen);
        buf[dlen++] = '/';
      }
      memcpy(buf + dlen, file, flen + 1);
      execve(buf, r->argv, r->envp);
      if (errno == ENOEXEC) {
        exec_shell(r, buf);
        return;
      }
      if (errno == EACCES) eacces = 1;
      else if (errno != ENOENT && errno != ENOTDIR && errno != ESTALE && errno != ENODEV && errno != ETIMEDOUT)
        return;
    }
    if (*end == '\0') break;
    p = end + 1;
  }
  errno = eacces ? EACCES : ENOENT;
}

static void say(const char *s) {
  if (write(2, s, strlen(s)) < 0) return;
}

static int child_main(void *arg) {
  struct child_ctx *c = arg;
  const struct spawn_request *r = c->r;
  const struct spawn_fds *f = c->fds;
  /* The server ignores SIGPIPE, and an ignored signal stays ignored across exec. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  if (sigaction(SIGPIPE, &dfl, NULL) != 0) fail(c, "sigaction");
  /* Its own session and process group (pgid = pid): the host kills the group; no terminal. */
  if (setsid() < 0) fail(c, "setsid");
  /* The pipes are all above 2 (the server's own 0-2 are taken), so no dup2 clobbers another. */
  if (dup2(f->in, 0) < 0 || dup2(f->out, 1) < 0 || dup2(f->err, 2) < 0) fail(c, "dup2");
  if (f->fd3 >= 0 && (f->fd3 == 3 ? fcntl(3, F_SETFD, 0) : dup2(f->fd3, 3)) < 0) fail(c, "dup2");
  if (close_from(f->fd3 >= 0 ? 4 : 3) != 0) fail(c, "close_range");
  if (chdir(r->cwd) != 0) fail(c, "chdir");
  if (set_limit(RLIMIT_CPU, r->cpu_seconds) != 0 || set_limit(RLIMIT_NOFILE, r->open_files) != 0 ||
      set_limit(RLIMIT_FSIZE, r->file_size) != 0 ||
      ((r->flags & SPAWN_AS_LIMIT) != 0 && set_limit(RLIMIT_AS, r->address_space) != 0))
    fail(c, "setrlimit");
  /* Armed before the uid change too: from here on the child dies with the server. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) fail(c, "prctl");
  /* Raw system calls: glibc's set*id wrappers coordinate threads, which a vfork child must not do. */
  if ((r->flags & SPAWN_RUN_AS) != 0 &&
      (syscall(SYS_setgroups, 0, NULL) != 0 || syscall(SYS_setgid, r->gid) != 0 || syscall(SYS_setuid, r->uid) != 0))
    fail(c, "setuid");
  /* Again after the uid change, which clears the parent-death signal. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
    fail(c, "prctl");
  /* The server may have died before the parent-death signal was armed. */
  if (getppid() != c->server) _exit(125);
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

static char *stack;

pid_t spawn_hook(const struct spawn_request *r, const struct spawn_fds *fds, const char **stage) {
  if (stack == NULL) {
    void *s = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (s == MAP_FAILED) return *stage = "mmap", -1;
    stack = s;
  }
  struct child_ctx c = {r, fds, getpid(), 0, NULL};
  /* CLONE_VFORK: we resume when the child has exec'd or exited; the stack is free again then. */
  pid_t pid = clone(child_main, stack + STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
  if (pid < 0) return *stage = "clone", -1;
  if (c.err != 0) {
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    errno = c.err;
    *stage = c.stage;
    return -1;
  }
  return pid;
}
