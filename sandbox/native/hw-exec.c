/*
 * hw-exec: the exec helper of hookwarden's `process` isolation profile.
 *
 *   hw-exec <cpu-seconds> <open-files> <file-size-bytes> <address-space-bytes|-> <fd3> -- program [args...]
 *
 * Sets the rlimits (soft = hard, each at most the host's hard limit), PR_SET_NO_NEW_PRIVS (setuid binaries and file capabilities cannot
 * raise privileges) and PR_SET_PDEATHSIG=SIGKILL (the hook dies if hookwarden's thread dies), then
 * execs the program in place: same pid, same process group. It does what prlimit(1) does for
 * hookwarden, in a fraction of prlimit's start-up time (bench/README.md); without a C compiler,
 * hookwarden falls back to prlimit(1).
 *
 * The environment (docs/security.md, invariant 5: the sandbox's machinery runs in a clean environment).
 * hw-exec is started with an empty environment and never passes its own on. What the program gets is chosen
 * by <fd3>:
 *   env   fd 3 carries the program's environment as NUL-terminated NAME=VALUE records; hw-exec reads
 *         it to EOF and closes it. The values never appear in any process's argv or environ but the
 *         hook's own.
 *   pass  fd 3 belongs to the program (bubblewrap reads its `--args 3` from it); the program gets an
 *         empty environment.
 *   -     no fd 3; the program gets an empty environment.
 * Every other descriptor above 2 is closed before the exec: nothing hookwarden's process inherited
 * reaches the hook.
 *
 * Exit codes when the program never starts: 125 usage/setrlimit/environment error, 126 cannot
 * execute, 127 not found.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env-record.h"

extern char **environ;

/* Far above what execve accepts for a whole environment (a quarter of the 8 MiB stack limit). */
#define MAX_ENV_BYTES (4u << 20)
#define ENV_FD 3

static int set_limit(int resource, const char *value) {
  if (strcmp(value, "-") == 0) return 0;
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(value, &end, 10);
  if (errno != 0 || end == value || *end != '\0') {
    errno = EINVAL;
    return -1;
  }
  /* Never above the host's hard limit (a lowered `ulimit -n` must not fail every hook). */
  struct rlimit r;
  if (getrlimit(resource, &r) == 0 && r.rlim_max != RLIM_INFINITY && (rlim_t)n > r.rlim_max) n = r.rlim_max;
  r.rlim_cur = r.rlim_max = (rlim_t)n;
  return setrlimit(resource, &r);
}

static int fail(const char *what, const char *why) {
  fprintf(stderr, "hw-exec: %s: %s\n", what, why);
  return 125;
}

/* Reads fd 3 to EOF into a NULL-terminated envp (pointing into one buffer), then closes fd 3. */
static char **read_env(const char **error) {
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  if (buf == NULL) return *error = "out of memory", NULL;
  for (;;) {
    if (len == cap) {
      if (cap >= MAX_ENV_BYTES) return *error = "more than 4 MiB", NULL;
      char *bigger = realloc(buf, cap *= 2);
      if (bigger == NULL) return *error = "out of memory", NULL;
      buf = bigger;
    }
    ssize_t n = read(ENV_FD, buf + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return *error = strerror(errno), NULL;
    if (n == 0) break;
    len += (size_t)n;
  }
  close(ENV_FD);
  if (len > 0 && buf[len - 1] != '\0') return *error = "the last record is not NUL-terminated", NULL;
  size_t count = 0;
  for (size_t i = 0; i < len; i++) count += buf[i] == '\0';
  char **envp = calloc(count + 1, sizeof *envp);
  if (envp == NULL) return *error = "out of memory", NULL;
  size_t k = 0;
  for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
    if (strchr(buf + i, '=') == NULL || !valid_env_record(buf + i)) return *error = "malformed NAME=VALUE record", NULL;
    envp[k++] = buf + i;
  }
  envp[k] = NULL;
  return envp;
}

/* Closes every descriptor >= from: inherited ones must not reach the hook (or a sandbox). */
static int close_from(int from) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)from, ~0u, 0u) == 0) return 0;
#endif
  DIR *d = opendir("/proc/self/fd");
  if (d == NULL) return -1;
  int own = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    int fd = atoi(e->d_name);
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd >= from && fd != own) close(fd);
  }
  closedir(d);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 8 || strcmp(argv[6], "--") != 0) {
    fputs("usage: hw-exec <cpu-s> <nofile> <fsize-bytes> <as-bytes|-> <env|pass|-> -- program [args...]\n", stderr);
    return 125;
  }
  const char *fd3 = argv[5];
  if (strcmp(fd3, "env") != 0 && strcmp(fd3, "pass") != 0 && strcmp(fd3, "-") != 0)
    return fail("fd3", "expected env, pass or -");
  pid_t parent = getppid();
  if (set_limit(RLIMIT_CPU, argv[1]) || set_limit(RLIMIT_NOFILE, argv[2]) || set_limit(RLIMIT_FSIZE, argv[3]) ||
      set_limit(RLIMIT_AS, argv[4])) {
    return fail("setrlimit", strerror(errno));
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    return fail("prctl", strerror(errno));
  }
  /* The parent may have died before PDEATHSIG was armed. */
  if (getppid() != parent) return 125;
  static char *empty[] = {NULL};
  char **envp = empty;
  if (strcmp(fd3, "env") == 0) {
    const char *error = NULL;
    envp = read_env(&error);
    if (envp == NULL) return fail("environment on fd 3", error);
  }
  if (close_from(strcmp(fd3, "pass") == 0 ? ENV_FD + 1 : ENV_FD) != 0) return fail("close", strerror(errno));
  /* execvp looks the program up in the PATH of the environment it passes on: the hook's. */
  environ = envp;
  execvp(argv[7], &argv[7]);
  int err = errno;
  fprintf(stderr, "hw-exec: failed to execute %s: %s\n", argv[7], strerror(err));
  return err == ENOENT ? 127 : 126;
}
