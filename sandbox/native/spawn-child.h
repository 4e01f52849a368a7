/*
 * The spawn server's child side (spawn-child.c): what happens between the clone and the exec of a
 * command hook. See spawn-server.c for the server and its protocol, spawn-contain.h for containment.
 */
#ifndef HW_SPAWN_CHILD_H
#define HW_SPAWN_CHILD_H

#include <stdint.h>
#include <sys/types.h>

#include "spawn-ns.h"

#define SPAWN_RUN_AS 1u            /* switch to uid/gid (setgroups, setgid, setuid) */
#define SPAWN_FD3 2u               /* fd 3 is the program's (bubblewrap's --args 3) */
#define SPAWN_AS_LIMIT 4u          /* set RLIMIT_AS */
#define SPAWN_CONTAIN 8u           /* contained process mode (spawn-contain.h) where the host allows it */
#define SPAWN_CONTAIN_REQUIRED 16u /* ... and never without it: a host that refuses it fails the hook */
#define SPAWN_NO_CAPS 32u          /* drop every capability before the exec (process mode) */
#define SPAWN_NAMESPACE 64u        /* namespace mode: the sandbox of the request's plan (spawn-ns.h) */

/* The rlimits in the order of the wire and of the STARTED reply's clamped bits. */
enum { LIM_CPU = 0, LIM_NOFILE, LIM_FSIZE, LIM_AS, LIM_COUNT };

/* One hook to start. Strings are NUL-terminated; argv, shell_argv and envp end with NULL. */
struct spawn_request {
  uint32_t flags;
  uint32_t uid, gid;
  /* As asked; spawn_hook lowers each to the host's hard limit and says so in the outcome. */
  uint64_t limit[LIM_COUNT];
  const char *cwd;
  uint32_t argc;
  char **argv;
  /* argc + 2 slots: /bin/sh, the program's path (filled in the child), argv[1..], NULL. */
  char **shell_argv;
  char **envp;
  /* At most this many processes and threads (spawn-cap.h); 0: no cap asked. */
  uint32_t max_procs;
  /* Namespace mode (SPAWN_NAMESPACE): the mount plan and whose network namespace. */
  struct ns_plan plan;
};

/* The child's ends of its pipes: stdin, stdout, stderr, and fd 3 (-1 when there is none). */
struct spawn_fds {
  int in, out, err, fd3;
};

/* How a start went, beyond the pid. */
struct spawn_outcome {
  /* The step that failed (the child has been reaped), with errno set. */
  const char *stage;
  /* The hook could not have its containment (SPAWN_CONTAIN_REQUIRED, or a start that failed at it). */
  int isolation;
  /* It runs contained. */
  int contained;
  /* Bit LIM_x: that limit was lowered to the host's hard limit (limit[] holds what applies). */
  uint32_t clamped;
  /* Why a hook that asked for containment runs without it (empty when it does not). */
  char uncontained[160];
  /* The process cap that applies (spawn-cap.h: CAP_*), and its bound. */
  uint32_t cap_mech, cap_max;
  /* The Landlock ABI the hook is restricted under (0: none). */
  uint32_t landlock;
  /* The process-cap slot the hook holds (spawn-cap.h), released when it exits; -1: none. */
  int cap_slot;
};

/* Once, at the start of the server: the host's hard limits, and whether it allows containment. */
void spawn_init(void);
/* Whether containment works here, and why not ("" when it does). */
int containment_available(const char **why);
/* Whether the server runs as root (its hooks are root unless they run as nobody). */
int spawn_is_root(void);

/*
 * Starts the hook: a child that shares the server's memory and stops it until the exec (clone with
 * CLONE_VM | CLONE_VFORK: no page table is copied), in its own session and process group, contained
 * when asked and available, with the rlimits (clamped), no_new_privs, no capabilities (process mode)
 * and a parent-death SIGKILL, every other descriptor closed, then execs argv with exactly envp.
 * Returns the pid, or -1 with errno set and out->stage naming the step that failed. A program that
 * cannot be executed is not a failure here: the child writes why on its stderr and exits 127 (not
 * found) or 126, as a shell would.
 */
pid_t spawn_hook(struct spawn_request *r, const struct spawn_fds *fds, struct spawn_outcome *out);

/* Closes every descriptor >= from. */
int close_from(int from);

#endif
