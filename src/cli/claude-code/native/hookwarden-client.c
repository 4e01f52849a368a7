/*
 * hookwarden-client: the command `hookwarden <agent> install` writes for an agent's hook (Claude
 * Code, Codex, Gemini CLI, Cursor, Copilot CLI) when it was built. The agent starts one process per
 * hook call, and a Node process costs ~60-80 ms to start before it does anything; this program costs
 * well under one. It is started as
 *
 *   hookwarden-client <node> <bin/hookwarden> <adapter> [adapter flags…]
 *
 * and does what that Node command would answer, through the user's daemon (docs/claude-code.md):
 * it reads the hook input on stdin, connects to the daemon's socket (a socket of this user, in a
 * 0700 directory of this user, served by a process of this user: SO_PEERCRED), digests every file
 * the daemon's load read (its manifest lists them), sends the adapter's arguments, its working
 * directory and environment, the digests and the input in one request, and prints the daemon's
 * answer and exits with its code.
 *
 * On any doubt it runs the Node command itself instead (as its child, the input on a memfd), which
 * answers in its own process and fails closed: no daemon (the adapter then starts one for the next
 * call), a socket or directory that is not this user's, a daemon of another configuration, a file
 * changed since the daemon loaded it, a protocol error, a daemon that dies mid-call or does not
 * answer within the adapter's --timeout and a second. When that command cannot answer (node or
 * hookwarden gone, a crash before it answered), the client gives the adapter's own fail-closed
 * answer for the event (client-event.c): hookwarden missing never lets a call through.
 *
 *   hookwarden-client --print-socket <node> <bin> <adapter> [flags…]   prints the socket it uses
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "client-paths.h"
#include "client-wire.h"
#include "client.h"

extern char **environ;

/* The adapter's limit on its input (limits.maxInputBytes); more is the adapter's to refuse. */
#define MAX_INPUT (8 * 1024 * 1024)
/* A healthy daemon reads a request at once; past this the call runs in process. */
#define HANDSHAKE_MS 10000
/* Past the adapter's --timeout, the daemon gets this much longer (it answers at the timeout itself). */
#define BACKSTOP_MS 1000

static int read_input(struct client *c) {
  size_t cap = 65536;
  c->input = malloc(cap);
  if (c->input == NULL) return -1;
  c->input_read = 1;
  for (;;) {
    if (c->input_len == cap) {
      if (cap > MAX_INPUT) return 1; /* more than the adapter takes: its answer */
      char *more = realloc(c->input, cap * 2);
      if (more == NULL) return -1;
      c->input = more;
      cap *= 2;
    }
    ssize_t r = read(0, c->input + c->input_len, cap - c->input_len);
    if (r == 0) return c->input_len > MAX_INPUT ? 1 : 0;
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    c->input_len += (size_t)r;
  }
}

static int connect_daemon(const char *path) {
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof a.sun_path) return errno = ENAMETOOLONG, -1;
  strcpy(a.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    int e = errno;
    close(fd);
    return errno = e, -1;
  }
  return fd;
}

/* The daemon's manifest (`<socket>.reads`, wire.ts): a regular file of this user, mode 0600. */
static char *read_manifest(const char *socket, size_t *len, char *why, size_t whyn) {
  char path[HW_PATH_MAX + 8];
  snprintf(path, sizeof path, "%s.reads", socket);
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid() ||
      (st.st_mode & 077) != 0 || st.st_size > (64 << 20)) {
    snprintf(why, whyn, "the daemon's list of files %.400s is missing or not this user's", path);
    if (fd >= 0) close(fd);
    return NULL;
  }
  char *p = malloc((size_t)st.st_size + 1);
  size_t off = 0;
  while (p != NULL && off < (size_t)st.st_size) {
    ssize_t r = read(fd, p + off, (size_t)st.st_size - off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    off += (size_t)r;
  }
  close(fd);
  if (p == NULL || off != (size_t)st.st_size) {
    free(p);
    snprintf(why, whyn, "cannot read %.400s", path);
    return NULL;
  }
  p[off] = '\0';
  *len = off;
  return p;
}

/* The request (wire.ts): who, from where, with which environment; the manifest's token and a
 * digest of each path it lists; the deadline; the input. 0, or -1 with why[] set. */
static int build_request(struct client *c, struct hw_buf *b, char *why, size_t whyn) {
  char cwd[HW_PATH_MAX], num[32];
  if (getcwd(cwd, sizeof cwd) == NULL) return snprintf(why, whyn, "no working directory"), -1;
  size_t mlen = 0;
  char *m = read_manifest(c->socket, &mlen, why, whyn);
  if (m == NULL) return -1;
  /* "HWR1\0" token\0 n\0 then n × <kind><path>\0 */
  char *end = m + mlen, *token = m + 5, *p;
  char *tend = mlen > 5 && memcmp(m, "HWR1", 5) == 0 ? memchr(token, '\0', (size_t)(end - token)) : NULL;
  char *nend = tend != NULL ? memchr(tend + 1, '\0', (size_t)(end - tend - 1)) : NULL;
  if (nend == NULL) {
    free(m);
    return snprintf(why, whyn, "the daemon's list of files is malformed"), -1;
  }
  long n = strtol(tend + 1, NULL, 10);
  int envc = 0;
  for (char **e = environ; *e != NULL; e++) envc++;
  int ok = hw_put_str(b, "HWC3") == 0 && hw_put_str(b, "call") == 0 && hw_put_str(b, cwd) == 0;
  snprintf(num, sizeof num, "%d", c->nargs);
  ok = ok && hw_put_str(b, num) == 0;
  for (int i = 0; ok && i < c->nargs; i++) ok = hw_put_str(b, c->args[i]) == 0;
  snprintf(num, sizeof num, "%d", envc);
  ok = ok && hw_put_str(b, num) == 0;
  for (char **e = environ; ok && *e != NULL; e++) ok = hw_put_str(b, *e) == 0;
  snprintf(num, sizeof num, "%ld", n);
  ok = ok && hw_put_str(b, token) == 0 && hw_put_str(b, num) == 0;
  p = nend + 1;
  for (long i = 0; ok && i < n; i++) {
    char *e = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;
    if (e == NULL || e == p) {
      free(m);
      return snprintf(why, whyn, "the daemon's list of files is malformed"), -1;
    }
    char digest[80];
    hw_digest(p[0], p + 1, digest);
    ok = hw_put_str(b, digest) == 0;
    p = e + 1;
  }
  free(m);
  if (c->timeout_ms < 0) ok = ok && hw_put_str(b, "-") == 0;
  else {
    int64_t left = c->timeout_ms - (hw_now_ms() - c->started);
    snprintf(num, sizeof num, "%lld", (long long)(left < 0 ? 0 : left));
    ok = ok && hw_put_str(b, num) == 0;
  }
  ok = ok && hw_put(b, c->input, c->input_len) == 0;
  return ok ? 0 : (snprintf(why, whyn, "out of memory"), -1);
}

/* The call, once the daemon is found: returns the exit code, or falls back. */
static int call_daemon(struct client *c, int fd) {
  char why[512];
  struct ucred cred;
  socklen_t cl = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 || cred.uid != getuid()) {
    snprintf(why, sizeof why, "the daemon on %s runs as another user", c->socket);
    return hw_fall_back(c, why, 0, 0);
  }
  struct hw_buf b = {0};
  if (build_request(c, &b, why, sizeof why) != 0) return hw_fall_back(c, why, 0, 0);
  int64_t backstop = c->timeout_ms < 0 ? -1 : c->started + c->timeout_ms + BACKSTOP_MS;
  /* Sending takes no time with a daemon that reads: a daemon that does not is a dead one. */
  int64_t sending = hw_now_ms() + HANDSHAKE_MS;
  if (backstop >= 0 && backstop < sending) sending = backstop;
  char *reply = NULL;
  size_t len = 0;
  if (hw_send_frame(fd, &b, sending) != 0 || hw_recv_frame(fd, &reply, &len, 64 << 20, backstop) != 0 || len == 0) {
    snprintf(why, sizeof why, "the daemon did not answer the call (%s)", strerror(errno));
    return hw_fall_back(c, why, 0, 1);
  }
  hw_buf_free(&b);
  close(fd);
  if (reply[0] == 'F') {
    snprintf(why, sizeof why, "%.*s", (int)(len - 1), reply + 1);
    return hw_fall_back(c, why, 0, 0);
  }
  if (reply[0] != 'A' || len < 6) return hw_fall_back(c, "protocol: a malformed answer", 0, 0);
  int code = (unsigned char)reply[1];
  size_t out = (size_t)(unsigned char)reply[2] << 24 | (size_t)(unsigned char)reply[3] << 16 |
               (size_t)(unsigned char)reply[4] << 8 | (unsigned char)reply[5];
  if (out > len - 6) return hw_fall_back(c, "protocol: a malformed answer", 0, 0);
  /* As the adapter writes it: stderr, then stdout. */
  const char *parts[2] = {reply + 6 + out, reply + 6};
  size_t sizes[2] = {len - 6 - out, out};
  for (int i = 0; i < 2; i++)
    for (size_t off = 0; off < sizes[i];) {
      ssize_t w = write(i == 0 ? 2 : 1, parts[i] + off, sizes[i] - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      off += (size_t)w;
    }
  return code;
}

/* The adapter's words: `<node> <bin> <adapter>` with an absolute node and an adapter the table knows. */
static int usage(int print) {
  fprintf(stderr,
          "usage: hookwarden-client [--print-socket] <node> <bin/hookwarden> <claude-code|codex|gemini|cursor|copilot> "
          "[flags…] (written by `hookwarden <agent> install`)\n");
  return print ? 1 : 2;
}

/* Where the daemon is, and whether to call it; 0 with c->socket set, else the fallback's exit code. */
static int find_daemon(struct client *c, int *done) {
  char why[600], cwd[HW_PATH_MAX], dir[HW_PATH_MAX];
  struct stat st;
  *done = 1;
  if (getcwd(cwd, sizeof cwd) == NULL) return hw_fall_back(c, "no working directory", 0, 0);
  if (hw_socket_path(c->command[0], c->command[1], c->agent->project_env, c->args, c->nargs, cwd, c->socket,
                     sizeof c->socket, why, sizeof why) != 0) {
    c->socket[0] = '\0';
    return hw_fall_back(c, why, 0, 0);
  }
  c->timeout_ms = hw_timeout_of(c->args, c->nargs);
  if (c->timeout_ms == -2) return hw_fall_back(c, "--timeout is not one the adapter takes", 0, 0);
  if (!c->input_read) return hw_fall_back(c, "no input on stdin", 0, 0);
  if (hw_daemon_dir(dir, sizeof dir) != 0) return hw_fall_back(c, "the socket directory's path is too long", 0, 0);
  /* A directory that does not exist yet is the daemon's to create: start one. */
  if (access(dir, F_OK) != 0 && errno == ENOENT)
    return hw_fall_back(c, "no daemon runs for this configuration yet", 1, 0);
  if (hw_dir_problem(dir, why, sizeof why) != 0) return hw_fall_back(c, why, 0, 0);
  if (lstat(c->socket, &st) != 0)
    return hw_fall_back(c, "no daemon runs for this configuration yet", errno == ENOENT, 0);
  if (!S_ISSOCK(st.st_mode) || st.st_uid != getuid()) {
    snprintf(why, sizeof why, "%s is not a socket of this user", c->socket);
    return hw_fall_back(c, why, 0, 0);
  }
  *done = 0;
  return 0;
}

int main(int argc, char **argv) {
  struct client c = {.started = hw_now_ms(), .timeout_ms = -1};
  int print = argc > 1 && strcmp(argv[1], "--print-socket") == 0;
  if (print) argv++, argc--;
  c.agent = argc >= 4 ? hw_agent_of(argv[3]) : NULL;
  if (c.agent == NULL || argv[1][0] != '/') return usage(print);
  c.command = argv + 1;
  c.args = argv + 3;
  c.nargs = argc - 3;
  if (print) {
    char why[600], cwd[HW_PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL) return fprintf(stderr, "hookwarden-client: no working directory\n"), 1;
    if (hw_socket_path(argv[1], argv[2], c.agent->project_env, c.args, c.nargs, cwd, c.socket, sizeof c.socket, why,
                       sizeof why) != 0)
      return fprintf(stderr, "hookwarden-client: %s\n", why), 1;
    return printf("%s\n", c.socket) < 0;
  }
  /* The input first: whatever happens next, the answer is for its event. */
  struct stat st;
  if (fstat(0, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode))) {
    int r = read_input(&c);
    if (r < 0) return hw_fall_back(&c, "cannot read stdin", 0, 0);
    if (r > 0) return hw_fall_back(&c, "the input is larger than the adapter takes", 0, 0);
  }
  int done;
  int code = find_daemon(&c, &done);
  if (done) return code;
  int fd = connect_daemon(c.socket);
  if (fd < 0) {
    char why[600];
    int stale = errno == ECONNREFUSED || errno == ENOENT;
    snprintf(why, sizeof why, "%s: %s", c.socket, stale ? "no daemon listens (a stale socket)" : strerror(errno));
    return hw_fall_back(&c, why, stale, 0);
  }
  return call_daemon(&c, fd);
}
