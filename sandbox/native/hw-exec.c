/*
 * hw-exec: the exec helper of hookwarden's `process` isolation profile.
 *
 *   hw-exec <cpu-seconds> <open-files> <file-size-bytes> <address-space-bytes|-> -- program [args...]
 *
 * Sets the rlimits (soft = hard), PR_SET_NO_NEW_PRIVS (setuid binaries and file capabilities cannot
 * raise privileges) and PR_SET_PDEATHSIG=SIGKILL (the hook dies if hookwarden's thread dies), then
 * execs the program in place: same pid, same process group. It does what prlimit(1) does for
 * hookwarden, in a fraction of prlimit's start-up time (bench/README.md); without a C compiler,
 * hookwarden falls back to prlimit(1).
 *
 * Exit codes when the program never starts: 125 usage/setrlimit error, 126 cannot execute, 127 not found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

static int set_limit(int resource, const char *value) {
  if (strcmp(value, "-") == 0) return 0;
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(value, &end, 10);
  if (errno != 0 || end == value || *end != '\0') {
    errno = EINVAL;
    return -1;
  }
  struct rlimit r = {(rlim_t)n, (rlim_t)n};
  return setrlimit(resource, &r);
}

int main(int argc, char **argv) {
  if (argc < 7 || strcmp(argv[5], "--") != 0) {
    fputs("usage: hw-exec <cpu-s> <nofile> <fsize-bytes> <as-bytes|-> -- program [args...]\n", stderr);
    return 125;
  }
  pid_t parent = getppid();
  if (set_limit(RLIMIT_CPU, argv[1]) || set_limit(RLIMIT_NOFILE, argv[2]) || set_limit(RLIMIT_FSIZE, argv[3]) ||
      set_limit(RLIMIT_AS, argv[4])) {
    fprintf(stderr, "hw-exec: setrlimit: %s\n", strerror(errno));
    return 125;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
    fprintf(stderr, "hw-exec: prctl: %s\n", strerror(errno));
    return 125;
  }
  /* The parent may have died before PDEATHSIG was armed. */
  if (getppid() != parent) return 125;
  execvp(argv[6], &argv[6]);
  int err = errno;
  fprintf(stderr, "hw-exec: failed to execute %s: %s\n", argv[6], strerror(err));
  return err == ENOENT ? 127 : 126;
}
