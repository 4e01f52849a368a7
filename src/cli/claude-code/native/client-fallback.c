/* hookwarden-client's fallback to the Node adapter in process; see client.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
  int n = 3 + c->nargs;
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
  if (pid == 0) { /* the writer: holds nothing of Claude Code's but the input */
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

/* Runs the Node adapter in this process's place; returns only if that cannot be done (fails closed). */
int hw_fall_back(struct client *c, const char *why, int start, int late) {
  setenv("HOOKWARDEN_CLIENT_FALLBACK", why, 1);
  if (c->socket[0] != '\0') setenv("HOOKWARDEN_CLIENT_SOCKET", c->socket, 1);
  if (start) setenv("HOOKWARDEN_CLIENT_START", "1", 1);
  else unsetenv("HOOKWARDEN_CLIENT_START");
  if (c->input_read && restore_stdin(c) != 0) {
    fprintf(stderr, "hookwarden-client: %s, and the input cannot be handed to the adapter (%s)\n", why, strerror(errno));
    return 2;
  }
  char **argv = late ? with_time_left(c) : c->command;
  execv(argv[0], argv);
  fprintf(stderr, "hookwarden-client: cannot run %s (%s): reinstall hookwarden or run `hookwarden claude-code install` again\n",
          argv[0], strerror(errno));
  return 2;
}

