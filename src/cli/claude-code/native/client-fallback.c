/*
 * hookwarden-client's fallback to the Node adapter; see client.h. The adapter runs as a child that
 * says, on a pipe, the exit code of the answer it printed (src/cli/adapter/answer-fd.ts). A child that
 * ends without saying so never answered — node or bin/hookwarden missing, a build half removed, a
 * crash before its own fail-closed handling took over, a signal — and the client answers for it, in
 * the adapter's own fail-closed form (client-event.c). A signal to the client is passed on to the
 * child, which answers it as the adapter answers an interrupt; the child dies with the client.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client-wire.h"
#include "client.h"

/* --timeout as the adapter reads it: seconds, digits with an optional fraction, in (0, 86400]. */
static int64_t parse_timeout(const char *v) {
  const char *p = v;
  if (*p < '0' || *p > '9') return -2;
  while (*p >= '0' && *p <= '9') p++;
  if (*p == '.') {
    p++;
    if (*p < '0' || *p > '9') return -2;
    while (*p >= '0' && *p <= '9') p++;
  }
  if (*p != '\0') return -2;
  double s = strtod(v, NULL);
  if (!(s > 0) || s > 86400) return -2;
  return (int64_t)(s * 1000 + 0.5);
}

/* The last --timeout of the arguments (-1: none, -2: one the adapter refuses). */
int64_t hw_timeout_of(char **args, int n) {
  int64_t t = -1;
  for (int i = 0; i < n; i++) {
    if (strcmp(args[i], "--timeout") == 0) t = i + 1 < n ? parse_timeout(args[++i]) : -2;
    else if (strncmp(args[i], "--timeout=", 10) == 0) t = parse_timeout(args[i] + 10);
  }
  return t;
}

/* A copy of the command with --timeout set to what is left of it (at least one second). */
static char **with_time_left(struct client *c) {
  if (c->timeout_ms < 0) return c->command;
  int64_t left = c->timeout_ms - (hw_now_ms() - c->started);
  static char value[32], joined[48];
  snprintf(value, sizeof value, "%.1f", left < 1000 ? 1.0 : (double)left / 1000);
  snprintf(joined, sizeof joined, "--timeout=%s", value);
  int n = 2 + c->nargs;
  char **argv = calloc((size_t)n + 1, sizeof *argv);
  if (argv == NULL) return c->command;
  for (int i = 0; i < n; i++) argv[i] = c->command[i];
  for (int i = 3; i < n; i++) {
    if (strcmp(argv[i], "--timeout") == 0 && i + 1 < n) argv[++i] = value;
    else if (strncmp(argv[i], "--timeout=", 10) == 0) argv[i] = joined;
  }
  return argv;
}

/* The input already read becomes the adapter's stdin again: a memfd, else a pipe fed by a child. */
static int restore_stdin(const struct client *c) {
  int fd = memfd_create("hookwarden-input", 0);
  if (fd >= 0) {
    size_t off = 0;
    while (off < c->input_len) {
      ssize_t w = write(fd, c->input + off, c->input_len - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return -1;
      off += (size_t)w;
    }
    if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) < 0) return -1;
    close(fd);
    return 0;
  }
  int p[2];
  if (pipe(p) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) { /* the writer: holds nothing of the agent's but the input */
    close(p[0]);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    size_t off = 0;
    while (off < c->input_len) {
      ssize_t w = write(p[1], c->input + off, c->input_len - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) _exit(0);
      off += (size_t)w;
    }
    _exit(0);
  }
  close(p[1]);
  if (dup2(p[0], 0) < 0) return -1;
  close(p[0]);
  return 0;
}

/*
 * bin/hookwarden and the adapters' bundle, waited for a moment when either is missing: an npm
 * upgrade, or the first atomic build of an older checkout, renames folders, and between two renames
 * they are not there. Half a second, then the adapter runs (and fails closed) as it is.
 */
static void wait_for_installation(const char *bin) {
  char bundle[HW_PATH_MAX];
  const char *slash = strrchr(bin, '/');
  int n = slash == NULL ? -1 : snprintf(bundle, sizeof bundle, "%.*s/../dist/cli/bundle/claude-code.cjs", (int)(slash - bin), bin);
  if (n < 0 || (size_t)n >= sizeof bundle) return;
  struct timespec tick = {.tv_sec = 0, .tv_nsec = 10 * 1000 * 1000};
  for (int i = 0; i < 50 && (access(bin, F_OK) != 0 || access(bundle, F_OK) != 0); i++) nanosleep(&tick, NULL);
}

static volatile pid_t child_pid = -1;

/* A signal to the client goes to the adapter, which answers it (an interrupt: fail closed). */
static void pass_on(int sig) {
  if (child_pid > 0) kill(child_pid, sig);
}

/* In the child: the adapter's environment, stdin and exec. Never returns. */
static void run_adapter(struct client *c, char **argv, int answer_fd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);
  char fd[16];
  snprintf(fd, sizeof fd, "%d", answer_fd);
  setenv("HOOKWARDEN_CLIENT_ANSWER_FD", fd, 1);
  if (c->input_read && restore_stdin(c) != 0) _exit(127);
  execv(argv[0], argv);
  _exit(127);
}

/* Waits for the child; its status (0 when waitpid fails). */
static int wait_child(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int hw_fall_back(struct client *c, const char *why, int start, int late) {
  char reason[900];
  setenv("HOOKWARDEN_CLIENT_FALLBACK", why, 1);
  if (c->socket[0] != '\0') setenv("HOOKWARDEN_CLIENT_SOCKET", c->socket, 1);
  if (start) setenv("HOOKWARDEN_CLIENT_START", "1", 1);
  else unsetenv("HOOKWARDEN_CLIENT_START");
  char **argv = late ? with_time_left(c) : c->command;
  wait_for_installation(argv[1]);
  int answered[2];
  if (pipe2(answered, O_CLOEXEC) != 0) {
    snprintf(reason, sizeof reason, "hookwarden-client cannot run %.300s (%s)", argv[0], strerror(errno));
    return hw_fail_closed(c, reason);
  }
  struct sigaction sa = {.sa_handler = pass_on};
  sigemptyset(&sa.sa_mask);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    close(answered[0]);
    /* The write end crosses exec: the adapter closes it once it has answered. */
    fcntl(answered[1], F_SETFD, 0);
    run_adapter(c, argv, answered[1], parent);
  }
  close(answered[1]);
  if (pid < 0) {
    close(answered[0]);
    snprintf(reason, sizeof reason, "hookwarden-client cannot run %.300s (%s)", argv[0], strerror(errno));
    return hw_fail_closed(c, reason);
  }
  child_pid = pid;
  int sigs[] = {SIGTERM, SIGINT, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* Its exit first: a process it started may hold the pipe's write end for longer. */
  int status = wait_child(pid);
  char code = 0;
  fcntl(answered[0], F_SETFL, O_NONBLOCK);
  ssize_t r;
  do r = read(answered[0], &code, 1);
  while (r < 0 && errno == EINTR);
  close(answered[0]);
  if (r == 1 && code >= '0' && code <= '2') return code - '0';
  if (WIFSIGNALED(status))
    snprintf(reason, sizeof reason, "%.300s ended by signal %d before it answered: %s", argv[0], WTERMSIG(status),
             "hookwarden cannot start here; run `hookwarden doctor`");
  else
    snprintf(reason, sizeof reason, "%.300s %.300s exited %d before it answered: hookwarden is missing or cannot start here (reinstall it, or run `hookwarden %s install` again)",
             argv[0], argv[1], WEXITSTATUS(status), c->agent->command);
  return hw_fail_closed(c, reason);
}
