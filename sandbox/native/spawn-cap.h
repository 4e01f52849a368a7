/*
 * The process cap (docs/choices.md, "A process cap that holds as root"): each hook may have at most
 * so many processes and threads at once, so that a fork bomb fails inside its sandbox while the host
 * and other tenants keep forking. One mechanism applies to a hook, the first that works here:
 *
 *   CAP_CGROUP  a pids cgroup of its own (pids.max), where this process may make cgroups (root, or a
 *               delegated subtree): exact, whatever the hook's uid. The server keeps a pool of them
 *               under hookwarden-<pid>, reused once empty.
 *   CAP_PIDNS   its PID namespace's own pid_max (Linux 6.14 and later), for a contained or namespace
 *               hook: no pid above it can be allocated in the namespace, whatever the uid. The kernel
 *               allows no pid_max below 301 and wraps to 300, so the bound is max + 299 processes.
 *   CAP_RLIMIT  RLIMIT_NPROC, which the kernel (5.14 and later) counts per user and user namespace:
 *               for a hook in a user namespace of its own whose uid is not root's (an unprivileged
 *               hookwarden). It does not hold for root, which the kernel exempts.
 *   CAP_NONE    none of them (an old kernel, as root, without a pids cgroup): doctor and the record
 *               say so.
 */
#ifndef HW_SPAWN_CAP_H
#define HW_SPAWN_CAP_H

#include <stdint.h>

enum { CAP_NONE = 0, CAP_CGROUP, CAP_PIDNS, CAP_RLIMIT };

/* What applies to one hook: set in the server before the clone, carried out in the child. */
struct cap_ticket {
  int mech;
  /* The bound reported (for CAP_PIDNS, the namespace's pid_max - 1). */
  uint32_t max;
  /* CAP_CGROUP: the slot, and its cgroup.procs (a path in the server's memory). */
  int slot;
  const char *procs;
  /* CAP_PIDNS: pid_max as text. */
  char pid_max[16];
};

/* Once, at the start of the server: which mechanisms work here. */
void cap_init(void);
/* The best mechanism this host has for a hook in a PID namespace of its own (or not). */
int cap_best(int own_pid_ns, int own_user_ns_not_root);
/* Its name, for doctor and the record. */
const char *cap_name(int mech);

/* In the server, before the clone: the ticket for a hook capped at max (0: none). */
void cap_prepare(struct cap_ticket *t, uint32_t max, int own_pid_ns, int own_user_ns_not_root);
/* In the child, before its namespaces are entered (CAP_CGROUP, CAP_PIDNS): 0, or -1 with *stage. */
int cap_enter(const struct cap_ticket *t, const char **stage);
/* In the child, just before the exec (CAP_RLIMIT). */
int cap_limit(const struct cap_ticket *t, const char **stage);
/* In the server: the hook holding `slot` exited (or never started). */
void cap_release(int slot);
/* In the server, when it exits: removes its cgroups (best effort). */
void cap_cleanup(void);

#endif
