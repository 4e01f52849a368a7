/* The spawn server's running hooks: see spawn-relay.h. */
#define _GNU_SOURCE
#include "spawn-relay.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn-cap.h"
#include "spawn-wire.h"

#define READ_CHUNK 65536

struct hook *hooks;
struct wire_buf relay_out;

_Noreturn void kill_all_and_exit(int code) {
  for (struct hook *h = hooks; h != NULL; h = h->next)
    if (!h->exited) kill(-h->pid, SIGKILL);
  cap_cleanup();
  _exit(code);
}

void reply(uint8_t type, uint32_t id, const void *a, size_t alen, const void *b, size_t blen) {
  if (wire_frame(&relay_out, type, id, a, alen, b, blen) != 0) {
    fputs("hw-spawn-server: out of memory\n", stderr);
    kill_all_and_exit(3);
  }
}

void close_fd(struct hook *h, int which) {
  if (h->fd[which] < 0) return;
  close(h->fd[which]);
  h->fd[which] = -1;
  free(h->pending[which]);
  h->pending[which] = NULL;
  if ((which == OUT || which == ERR) && !h->released) {
    uint8_t stream = (uint8_t)which;
    reply(REP_CLOSED, h->id, &stream, 1, NULL, 0);
  }
}

static void maybe_free(struct hook *h) {
  if (!h->exited || !h->released) return;
  for (struct hook **p = &hooks; *p != NULL; p = &(*p)->next) {
    if (*p == h) {
      *p = h->next;
      break;
    }
  }
  free(h);
}

/* One read from a hook's stdout or stderr; relays at most cap + 1 bytes of it in all. */
int read_output(struct hook *h, int which) {
  static char chunk[READ_CHUNK];
  ssize_t n = read(h->fd[which], chunk, sizeof chunk);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
  if (n <= 0) {
    close_fd(h, which);
    return 0;
  }
  uint64_t room = h->cap + 1 - h->forwarded[which];
  size_t send = (uint64_t)n < room ? (size_t)n : (size_t)room;
  h->forwarded[which] += send;
  reply(which == OUT ? REP_STDOUT : REP_STDERR, h->id, chunk, send, NULL, 0);
  /* Past the cap the host stops the hook; nothing more of this stream is read. */
  if (h->forwarded[which] > h->cap) close_fd(h, which);
  return 1;
}

void write_input(struct hook *h, int which) {
  while (h->fd[which] >= 0 && h->off[which] < h->len[which]) {
    ssize_t n = write(h->fd[which], h->pending[which] + h->off[which], h->len[which] - h->off[which]);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n < 0) break; /* EPIPE: the hook does not read it */
    h->off[which] += (size_t)n;
  }
  close_fd(h, which);
}

void release(uint32_t id) {
  for (struct hook *h = hooks; h != NULL; h = h->next) {
    if (h->id != id || h->released) continue;
    h->released = 1;
    for (int i = 0; i < 4; i++) close_fd(h, i);
    maybe_free(h);
    return;
  }
}

void reap(int sigfd) {
  struct signalfd_siginfo si;
  while (read(sigfd, &si, sizeof si) == sizeof si) {
  }
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (struct hook *h = hooks; h != NULL; h = h->next) {
      if (h->pid != pid || h->exited) continue;
      h->exited = 1;
      cap_release(h->cap_slot);
      if (!h->released) {
        /* What it wrote before exiting goes first. */
        while (h->fd[OUT] >= 0 && read_output(h, OUT)) {
        }
        while (h->fd[ERR] >= 0 && read_output(h, ERR)) {
        }
        uint8_t le[8];
        wire_u32(le, WIFEXITED(status) ? (uint32_t)WEXITSTATUS(status) : (uint32_t)-1);
        wire_u32(le + 4, WIFSIGNALED(status) ? (uint32_t)WTERMSIG(status) : 0);
        reply(REP_EXITED, h->id, le, 8, NULL, 0);
      }
      maybe_free(h);
      break;
    }
  }
}

