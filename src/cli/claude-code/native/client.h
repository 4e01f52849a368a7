/*
 * What hookwarden-client knows about its call (hookwarden-client.c), and its one way out besides the
 * daemon's answer: running the Node adapter in its place (client-fallback.c).
 */
#ifndef HW_CLIENT_H
#define HW_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "client-paths.h"

struct client {
  char **command; /* node bin claude-code args…: what runs on a fallback */
  char **args;    /* after claude-code */
  int nargs;
  int64_t started;
  int64_t timeout_ms; /* the adapter's --timeout; -1: none */
  char socket[HW_PATH_MAX];
  char *input;
  size_t input_len;
  int input_read;
};

/* The adapter's --timeout in milliseconds: -1 none, -2 one the adapter refuses (it says why). */
int64_t hw_timeout_of(char **args, int n);

/*
 * Runs the Node adapter (the words after the client's name) in this process's place, with the
 * reason in HOOKWARDEN_CLIENT_FALLBACK, the socket in HOOKWARDEN_CLIENT_SOCKET, HOOKWARDEN_CLIENT_START=1
 * when it should start a daemon, the input back on stdin when it was read, and (`late`) --timeout
 * cut to what is left of it. Returns only when that cannot be done: exit 2, one line on stderr.
 */
int hw_fall_back(struct client *c, const char *why, int start, int late);

#endif
