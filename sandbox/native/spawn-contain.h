/*
 * Contained process mode (spawn-contain.c): what the spawn server's child does between its clone and
 * the exec of a `process`-isolation hook so that the hook sees and can signal only its own processes.
 * It is cloned into new PID, mount and IPC namespaces and, unless it is to run as another uid, a new
 * user namespace mapping only the server's own uid and gid; it mounts a /proc of its own over the
 * host's, and it drops every capability (bounding set, ambient, permitted) before the exec. Inherited
 * mounts are locked in a user namespace the hook owns, and a hook without capabilities cannot unmount
 * its /proc: a hook that is root on the host cannot reveal the host's processes again.
 *
 * Everything here runs in a child that shares the server's memory (CLONE_VM): system calls only, no
 * malloc, no stdio.
 */
#ifndef HW_SPAWN_CONTAIN_H
#define HW_SPAWN_CONTAIN_H

#include <sys/types.h>

/* The uid and gid maps of the contained child's user namespace ("<id> <id> 1"), made at start. */
struct contain_ids {
  char uid_map[32], gid_map[32];
  int is_root;
};

/* Fills ids from the server's own credentials. */
void contain_init(struct contain_ids *ids);

/* The namespaces a contained child is cloned into; run_as: it will switch uid (no user namespace). */
int contain_clone_flags(int run_as);

/* Maps the server's uid and gid (only) in the child's new user namespace, setgroups denied. */
int contain_map(const struct contain_ids *ids, const char **stage);

/*
 * In the cloned child: maps its ids in the new user namespace (unless run_as), then mounts its own
 * /proc (read-only /proc/sys, /proc/sysrq-trigger, /proc/bus, /proc/fs and /proc/irq, and /sys with
 * every cgroup file system below it read-only, for a hook that is root on the host). 0, or -1 with
 * errno set and *stage naming the step.
 */
int contain_enter(const struct contain_ids *ids, int run_as, const char **stage);

/*
 * Drops every capability the child holds in its user namespace: the bounding set (which bounds what
 * an exec can grant), the ambient set, then permitted, effective and inheritable. With keep_setid,
 * CAP_SETUID, CAP_SETGID (and the bounding set empty) stay until the uid change, which clears them.
 * A process without CAP_SETPCAP (an unprivileged user's uncontained hook) has nothing to drop: 0.
 */
int drop_capabilities(int keep_setid, const char **stage);

/* True when the step a child failed at is one of containment's (the host may lack it). */
int contain_stage(const char *stage);

#endif
