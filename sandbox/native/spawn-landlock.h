/*
 * Landlock (docs/security.md, "Defence in depth"): where the kernel has it, a contained or namespace
 * hook is restricted on top of its namespaces, never instead of them.
 *
 * - contained: it may write only beneath the host's top-level directories other than /proc, /sys
 *   and /dev, and to the harmless device nodes (/dev/null, /dev/tty, /dev/pts, /dev/shm…): no
 *   kernel tunable, cgroup file or raw disk even if a mount were writable. One ruleset, made when
 *   the server starts, serves every contained hook.
 * - namespace: it may read, execute and write what exists beneath its root (the mounts' flags decide
 *   what is writable), and make, remove, link or rename files only beneath its writable mounts (its
 *   scratch directory, a root granted writable).
 * - both, from ABI 6 (Linux 6.12): it can connect to no abstract Unix socket and signal no process
 *   outside its own Landlock domain (another hook's, the host's).
 */
#ifndef HW_SPAWN_LANDLOCK_H
#define HW_SPAWN_LANDLOCK_H

#include "spawn-ns.h"

/* Once, at the start of the server: the ABI here, and the contained mode's ruleset. */
void landlock_init(void);
/* The Landlock ABI of this kernel (0: none). */
int landlock_abi(void);
/* In a contained child, after no_new_privs: restricts it. 0, or -1 with *stage. */
int landlock_contain(const char **stage);
/* In a namespace child, after its mounts and no_new_privs: restricts it to the plan's sandbox. */
int landlock_sandbox(const struct ns_plan *p, const char **stage);

#endif
