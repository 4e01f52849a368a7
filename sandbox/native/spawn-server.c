/*
 * hw-spawn-server: starts every command hook of one hookwarden executor, so that hookwarden's
 * main thread never forks (a fork of Node copies its whole page table: ~1 ms each, synchronously).
 *
 *   hw-spawn-server <executor pid>
 *   hw-spawn-server --check     prints what this host lets it do (the same checks it runs at start),
 *                               one line each: "contained" or "uncontained <why>"; "namespace
 *                               <prepared|built>" or "no-namespace <why>"; "process-cap <contained>
 *                               <namespace>" (the cap's mechanism in each mode); "landlock <abi>"
 *
 * Started by the executor on its first command hook, with an empty environment, stdin and stdout
 * connected to it (socket pairs), and working directory /. It closes every other descriptor it
 * inherited, dies with the executor (PR_SET_PDEATHSIG, and when its stdin closes: then it SIGKILLs
 * the process group of every hook still running first), and starts hooks with spawn_hook()
 * (spawn-child.c). It relays each hook's stdout and stderr, capped, and writes its stdin
 * (spawn-relay.c); the host keeps the deadlines and kills process groups itself (hooks are their
 * own group leaders).
 *
 * Protocol: frames of u32 length (of what follows), u8 type, u32 hook id, payload; integers are
 * little-endian; "bytes" are a u32 length and that many bytes.
 *   host -> server
 *     1 SPAWN    u32 flags (spawn-child.h), u32 uid, u32 gid, u64 cpu-seconds, u64 open-files,
 *                u64 file-size, u64 address-space, u64 output cap, u32 process cap (0 none),
 *                bytes cwd, u32 argc, argc x bytes, u32 envc, envc x bytes (NAME=VALUE), bytes fd3
 *                data, bytes stdin; in namespace mode then bytes key (whose network namespace),
 *                u32 n, n x (u8 op, u8 flags, bytes source, bytes destination): the plan (spawn-ns.h)
 *     2 RELEASE  (the host is done with the hook: close its pipes, report nothing more)
 *   server -> host
 *     0 READY    u32 protocol version, u32 server pid, u32 containment available (1/0), u32
 *                namespace mode available (1/0), u32 the process cap's mechanism (contained),
 *                u32 (namespace) (spawn-cap.h), u32 Landlock ABI, bytes why not contained,
 *                bytes-to-end why no namespace mode (id 0; first frame)
 *     1 STARTED  u32 pid (= its process group), u32 flags (1 contained; 2 << LIM_x: that rlimit was
 *                lowered to the host's hard limit), 4 x u64 the rlimits applied, u32 the process
 *                cap's mechanism, u32 its bound, u32 the Landlock ABI it runs under (0 none),
 *                bytes-to-end why a hook that asked for containment runs without it
 *     2 FAILED   u8 kind (0 spawn failed, 1 isolation unavailable), bytes-to-end message (never
 *                started)
 *     3 STDOUT / 4 STDERR   bytes-to-end data (at most cap + 1 bytes per stream in all)
 *     5 CLOSED   u8 stream (1 stdout, 2 stderr): end of that stream
 *     6 EXITED   i32 exit code (-1 when killed), i32 signal (0 when it exited)
 * A malformed frame from the host is fatal (exit 2): the host is the only peer, and a confused one
 * must not keep starting processes. A well-formed SPAWN past a cap (spawn-wire.h) is a FAILED.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn-child.h"
#include "spawn-hello.h"
#include "spawn-relay.h"
#include "spawn-wire.h"

#define CTL_IN 0
#define CTL_OUT 1
/* Past this much unsent output the server stops reading hooks until the host catches up. */
#define OUT_HIGH_WATER (4u << 20)
#define READ_CHUNK 65536

enum { REQ_SPAWN = 1, REQ_RELEASE = 2 };

static struct wire_buf in;

static _Noreturn void protocol_error(const char *what) {
  fprintf(stderr, "hw-spawn-server: protocol error: %s\n", what);
  kill_all_and_exit(2);
  _exit(2);
}

/* Reports a hook that never started. */
static void failed_text(uint32_t id, uint8_t kind, const char *text) {
  reply(REP_FAILED, id, &kind, 1, text, strlen(text));
}

static void failed(uint32_t id, const struct spawn_outcome *o, const char *cwd, int err) {
  char message[4352];
  const char *stage = o->stage != NULL ? o->stage : "start";
  int chdir_failed = strcmp(stage, "chdir") == 0;
  const char *why = "";
  if (o->isolation && strcmp(stage, "namespace") == 0 && !ns_available(&why))
    snprintf(message, sizeof message, "namespace isolation is not available on this host: %s", why);
  else if (o->isolation && strcmp(stage, "containment") == 0 && !containment_available(&why))
    snprintf(message, sizeof message, "containment is not available on this host: %s", why);
  else
    snprintf(message, sizeof message, "%s%s%s%s: %s", o->isolation ? "cannot contain the hook: " : "cannot start the hook: ",
             stage, chdir_failed ? " " : "", chdir_failed ? cwd : "", strerror(err));
  failed_text(id, o->isolation ? 1 : 0, message);
}

/* Copies what the hook reads (stdin, fd 3) and starts writing it. */
static void start_input(struct hook *h, int which, const struct wire_bytes *data) {
  if (h->fd[which] < 0) return;
  if (data->len > 0 && (h->pending[which] = malloc(data->len)) == NULL) {
    /* Never a hook that silently misses its input: it is killed (the host sees SIGKILL). */
    kill(-h->pid, SIGKILL);
  } else if (data->len > 0) {
    memcpy(h->pending[which], data->p, data->len);
    h->len[which] = data->len;
  }
  write_input(h, which);
}

static void spawn(uint32_t id, const uint8_t *payload, size_t size) {
  struct spawn_parse p;
  int parsed = spawn_parse(&p, payload, size);
  if (parsed == -2) {
    char message[256];
    snprintf(message, sizeof message, "cannot start the hook: %s", p.error);
    failed_text(id, 0, message);
    return;
  }
  if (parsed != 0) protocol_error(p.error);
  int pipes[4][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
  struct hook *h = calloc(1, sizeof *h);
  struct spawn_outcome o;
  memset(&o, 0, sizeof o);
  o.stage = h == NULL ? "calloc" : "pipe";
  int ok = h != NULL;
  for (int i = 0; i < 4 && ok; i++)
    if (i != FD3 || (p.req.flags & SPAWN_FD3) != 0) ok = pipe2(pipes[i], O_CLOEXEC) == 0;
  pid_t pid = -1;
  if (ok) {
    /* [0] is a pipe's read end: the child reads stdin and fd 3, and writes stdout and stderr. */
    struct spawn_fds fds = {pipes[IN][0], pipes[OUT][1], pipes[ERR][1], pipes[FD3][0]};
    pid = spawn_hook(&p.req, &fds, &o);
  }
  int err = h == NULL ? ENOMEM : errno;
  for (int i = 0; i < 4; i++) {
    int mine = i == IN || i == FD3 ? 1 : 0;
    if (pipes[i][1 - mine] >= 0) close(pipes[i][1 - mine]);
    if (pid < 0 && pipes[i][mine] >= 0) close(pipes[i][mine]);
    if (pid >= 0) h->fd[i] = pipes[i][mine];
  }
  if (pid < 0) {
    failed(id, &o, p.req.cwd, err);
    free(h);
    spawn_parse_free(&p);
    return;
  }
  h->id = id;
  h->pid = pid;
  h->cap_slot = o.cap_slot;
  h->cap = p.output_cap;
  h->next = hooks;
  hooks = h;
  for (int i = 0; i < 4; i++)
    if (h->fd[i] >= 0) fcntl(h->fd[i], F_SETFL, O_NONBLOCK);
  uint8_t le[8 + 8 * LIM_COUNT + 12];
  wire_u32(le, (uint32_t)pid);
  wire_u32(le + 4, (o.contained ? 1u : 0u) | o.clamped << 1);
  for (int i = 0; i < LIM_COUNT; i++) {
    wire_u32(le + 8 + 8 * i, (uint32_t)p.req.limit[i]);
    wire_u32(le + 12 + 8 * i, (uint32_t)(p.req.limit[i] >> 32));
  }
  wire_u32(le + 8 + 8 * LIM_COUNT, o.cap_mech);
  wire_u32(le + 12 + 8 * LIM_COUNT, o.cap_max);
  wire_u32(le + 16 + 8 * LIM_COUNT, o.landlock);
  reply(REP_STARTED, id, le, sizeof le, o.uncontained, strlen(o.uncontained));
  start_input(h, IN, &p.stdin_data);
  start_input(h, FD3, &p.fd3_data);
  spawn_parse_free(&p);
}

static void handle(const uint8_t *frame, size_t size) {
  if (size < 5) protocol_error("short frame");
  uint32_t id = wire_get_u32(frame + 1);
  if (frame[0] == REQ_SPAWN) spawn(id, frame + 5, size - 5);
  else if (frame[0] == REQ_RELEASE) release(id);
  else protocol_error("unknown request");
}

static void read_requests(void) {
  for (;;) {
    if (wire_reserve(&in, READ_CHUNK) != 0) protocol_error("out of memory");
    ssize_t n = read(CTL_IN, in.p + in.len, in.cap - in.len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    /* The executor closed its end or is gone: nothing it started may outlive it. */
    if (n <= 0) kill_all_and_exit(0);
    in.len += (size_t)n;
    const uint8_t *frame;
    size_t size;
    int r;
    while ((r = wire_next(&in, &frame, &size)) == 1) handle(frame, size);
    if (r < 0) protocol_error("frame too large");
  }
}

static void flush(void) {
  while (relay_out.off < relay_out.len) {
    ssize_t n = write(CTL_OUT, relay_out.p + relay_out.off, relay_out.len - relay_out.off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    if (n < 0) kill_all_and_exit(0);
    relay_out.off += (size_t)n;
  }
  wire_compact(&relay_out);
}

static void serve(int sigfd) {
  size_t cap = 16;
  struct pollfd *pfd = malloc(cap * sizeof *pfd);
  struct hook **owner = malloc(cap * sizeof *owner);
  int *which = malloc(cap * sizeof *which);
  for (;;) {
    size_t n = 0, count = 3;
    for (struct hook *h = hooks; h != NULL; h = h->next) count += 4;
    if (count > cap) {
      while (cap < count) cap *= 2;
      pfd = realloc(pfd, cap * sizeof *pfd);
      owner = realloc(owner, cap * sizeof *owner);
      which = realloc(which, cap * sizeof *which);
    }
    if (pfd == NULL || owner == NULL || which == NULL) protocol_error("out of memory");
    pfd[n++] = (struct pollfd){CTL_IN, POLLIN, 0};
    pfd[n++] = (struct pollfd){sigfd, POLLIN, 0};
    pfd[n++] = (struct pollfd){CTL_OUT, relay_out.off < relay_out.len ? POLLOUT : 0, 0};
    int backlog = relay_out.len - relay_out.off > OUT_HIGH_WATER;
    for (struct hook *h = hooks; h != NULL; h = h->next) {
      for (int i = 0; i < 4; i++) {
        if (h->fd[i] < 0 || ((i == OUT || i == ERR) && backlog)) continue;
        owner[n] = h;
        which[n] = i;
        pfd[n++] = (struct pollfd){h->fd[i], (short)(i == IN || i == FD3 ? POLLOUT : POLLIN), 0};
      }
    }
    if (poll(pfd, n, -1) < 0) {
      if (errno == EINTR) continue;
      protocol_error("poll failed");
    }
    /* The executor's end of the channel is gone. */
    if ((pfd[2].revents & (POLLERR | POLLHUP)) != 0) kill_all_and_exit(0);
    if (pfd[1].revents != 0) reap(sigfd);
    /* Hooks first: a request may add or free hooks, and the pollfds point at them. */
    for (size_t k = 3; k < n; k++) {
      if (pfd[k].revents == 0 || owner[k]->fd[which[k]] != pfd[k].fd) continue;
      if (which[k] == IN || which[k] == FD3) write_input(owner[k], which[k]);
      else read_output(owner[k], which[k]);
    }
    if (pfd[0].revents != 0) read_requests();
    flush();
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--check") == 0) return print_check();
  if (argc != 2) {
    fputs("usage: hw-spawn-server <executor pid> (started by hookwarden, not by hand)\n", stderr);
    return 2;
  }
  pid_t executor = (pid_t)strtol(argv[1], NULL, 10);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return 2;
  /* Hook variables pass through this process's memory: no other process of its uid may read it. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return 2;
  /* The executor may have died before the parent-death signal was armed. */
  if (getppid() != executor) return 0;
  /* Nothing the executor inherited without close-on-exec stays open here. */
  if (close_from(3) != 0) return 2;
  clearenv();
  signal(SIGPIPE, SIG_IGN);
  if (chdir("/") != 0) return 2;
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &chld, NULL) != 0) return 2;
  int sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sigfd < 0) return 2;
  if (fcntl(CTL_IN, F_SETFL, O_NONBLOCK) != 0 || fcntl(CTL_OUT, F_SETFL, O_NONBLOCK) != 0) return 2;
  spawn_init();
  send_ready();
  flush();
  serve(sigfd);
}
