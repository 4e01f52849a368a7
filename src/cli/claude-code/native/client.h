/*
 * What hookwarden-client knows about its call (hookwarden-client.c), the adapters it speaks for
 * (client-event.c, with the table the build generates from the adapters' specs), and its ways out
 * besides the daemon's answer: running the Node adapter in its place (client-fallback.c), or, when
 * even that cannot answer, the adapter's own fail-closed answer (client-event.c).
 */
#ifndef HW_CLIENT_H
#define HW_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "client-paths.h"

/* A fail-closed answer: exit code, stdout and stderr, the reason inserted at each \x01. */
struct hw_answer {
  int code;
  const char *out;
  const char *err;
};

/* One of an adapter's events and the index of its fail-closed answer. */
struct hw_event {
  const char *name;
  int answer;
};

/* An adapter: its command, its agent's name, the variable the agent sets to the project directory
 * (NULL: none), whether it takes --event, its events in HW_EVENTS, its answer to an unknown event. */
struct hw_agent {
  const char *command;
  const char *title;
  const char *project_env;
  int event_flag;
  int first, count;
  int unknown;
};

struct client {
  char **command; /* node bin <adapter> args…: what runs on a fallback */
  const struct hw_agent *agent;
  char **args; /* the adapter's command and its flags: <adapter> args… */
  int nargs;
  int64_t started;
  int64_t timeout_ms; /* the adapter's --timeout; -1: none */
  char socket[HW_PATH_MAX];
  char *input;
  size_t input_len;
  int input_read;
};

/* The adapter named `command`, or NULL. */
const struct hw_agent *hw_agent_of(const char *command);

/* Writes the adapter's fail-closed answer for the call's event with `reason` (one line); returns its exit code. */
int hw_fail_closed(const struct client *c, const char *reason);

/* The adapter's --timeout in milliseconds: -1 none, -2 one the adapter refuses (it says why). */
int64_t hw_timeout_of(char **args, int n);

/*
 * Runs the Node adapter (the words after the client's name) as a child, with the reason in
 * HOOKWARDEN_CLIENT_FALLBACK, the socket in HOOKWARDEN_CLIENT_SOCKET, HOOKWARDEN_CLIENT_START=1 when it
 * should start a daemon, the input back on stdin when it was read, (`late`) --timeout cut to what is
 * left of it, and a pipe on which it says it answered (HOOKWARDEN_CLIENT_ANSWER_FD). Returns its exit
 * code; when it could not be started, or ended without answering, the fail-closed answer's.
 */
int hw_fall_back(struct client *c, const char *why, int start, int late);

#endif
