/*
 * Carrying out a namespace-mode mount plan (spawn-ns.h), and the /proc and /sys every contained
 * mode gets: system calls only, no allocation (the spawn server's vfork child calls these), except
 * mounts_copy, which only the server itself runs (a template's /etc).
 */
#ifndef HW_SPAWN_MOUNTS_H
#define HW_SPAWN_MOUNTS_H

#include "spawn-ns.h"

/*
 * Opens the sources of the operations of one phase (NS_HOOK, or 0: the template's) before the
 * mounts change: for a bind a detached clone of its tree, read-only unless NS_RW, nosuid and nodev;
 * for a copy, its directory (with copy; else it is bound read-only like a bind).
 */
int mounts_open(struct ns_plan *p, unsigned phase, int copy, const char **stage);
/* Closes what mounts_open opened. */
void mounts_close(struct ns_plan *p);

/*
 * Carries out the operations of one phase under `prefix` ("" in place). The template phase also
 * makes the hook phase's mountpoints. mask: the /proc a hook phase mounts gets read-only /proc/sys,
 * /proc/sysrq-trigger, /proc/bus, /proc/fs and /proc/irq (a hook that is root on the host).
 */
int mounts_build(struct ns_plan *p, const char *prefix, unsigned phase, int copy, int mask, const char **stage);

/* Makes `dir` (the new tree) the root: pivot_root, the old root detached. */
int mounts_pivot(const char *dir, const char **stage);

/* Mounts a /proc of the caller's PID namespace at `dst`, masked as in mounts_build when mask. */
int mounts_proc(const char *dst, int mask, const char **stage);

/* /sys and everything mounted below it (cgroupfs included) read-only, nosuid, nodev, noexec. */
int mounts_sys_read_only(const char **stage);

/* Copies the directory tree `src` (regular files, directories, symlinks) to `dst`. The server only. */
int mounts_copy(int src, const char *dst);

#endif
