/*
 * Between spawn-start.c (which decides) and spawn-child.c (the clone and the child): one child to
 * start, and what became of it.
 */
#ifndef HW_SPAWN_CLONE_H
#define HW_SPAWN_CLONE_H

#include <sys/types.h>

#include "spawn-cap.h"
#include "spawn-child.h"
#include "spawn-contain.h"

struct child_ctx {
  struct spawn_request *r;
  const struct spawn_fds *fds;
  /* Contained process mode. */
  int contain;
  /* Namespace mode: the request's plan. */
  int ns;
  /* Only try the containment (or namespace) steps, then exit (the start-up checks). */
  int probe;
  /* The process cap to apply; NULL: none. */
  const struct cap_ticket *cap;
  /* Set by a child that failed before its exec. */
  volatile int err;
  const char *volatile stage;
};

/* The rlimits in the wire's order (RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, RLIMIT_AS). */
extern const int SPAWN_RESOURCE[LIM_COUNT];

/* Once: the server's pid (and pidfd) its children watch, and the ids a contained child maps. */
void child_init(const struct contain_ids *ids);
/*
 * One clone(CLONE_VM | CLONE_VFORK), into the namespaces of c; back once the child exec'd or exited.
 * The pid, or -1 with c->stage and c->err saying which step failed (the child has been reaped).
 */
pid_t child_start(struct child_ctx *c);

#endif
