/*
 * The spawn server's running hooks (spawn-relay.c): their records, the stdin and fd 3 data written
 * to them, the stdout and stderr relayed from them, and their exits. See spawn-server.c.
 */
#ifndef HW_SPAWN_RELAY_H
#define HW_SPAWN_RELAY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "spawn-wire.h"

enum { REP_READY = 0, REP_STARTED, REP_FAILED, REP_STDOUT, REP_STDERR, REP_CLOSED, REP_EXITED };
/* A hook's descriptors: what it reads (stdin, fd 3) is written here, what it writes is read. */
enum { IN = 0, OUT = 1, ERR = 2, FD3 = 3 };

struct hook {
  uint32_t id;
  pid_t pid;
  int fd[4];
  char *pending[4]; /* IN and FD3: what is left to write */
  size_t len[4], off[4];
  uint64_t cap, forwarded[3];
  int exited, released;
  /* Its process-cap slot (spawn-cap.h), released when it exits; -1: none. */
  int cap_slot;
  struct hook *next;
};

extern struct hook *hooks;
/* The reply frames not yet sent to the host (spawn-server.c writes them out). */
extern struct wire_buf relay_out;

/* Appends a reply frame for the host to relay_out. */
void reply(uint8_t type, uint32_t id, const void *a, size_t alen, const void *b, size_t blen);
/* SIGKILLs the process group of every hook still running, then exits. */
_Noreturn void kill_all_and_exit(int code);

/* Closes one of a hook's descriptors; for stdout and stderr, tells the host (unless released). */
void close_fd(struct hook *h, int which);
/* One read from a hook's stdout or stderr, relayed up to its cap; 1 when something was read. */
int read_output(struct hook *h, int which);
/* Writes what is pending for a hook's stdin or fd 3, without blocking; closes it when done. */
void write_input(struct hook *h, int which);
/* The host is done with the hook: its pipes close, nothing more is reported. */
void release(uint32_t id);
/* Reaps exited hooks (after SIGCHLD on sigfd) and reports their exits. */
void reap(int sigfd);

#endif
