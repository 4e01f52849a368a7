/*
 * The spawn server's child side (spawn-child.c): what happens between the clone and the exec of a
 * command hook. See spawn-server.c for the server and its protocol.
 */
#ifndef HW_SPAWN_CHILD_H
#define HW_SPAWN_CHILD_H

#include <stdint.h>
#include <sys/types.h>

#define SPAWN_RUN_AS 1u   /* switch to uid/gid (setgroups, setgid, setuid) */
#define SPAWN_FD3 2u      /* fd 3 is the program's (bubblewrap's --args 3) */
#define SPAWN_AS_LIMIT 4u /* set RLIMIT_AS */

/* One hook to start. Strings are NUL-terminated; argv and envp end with NULL. */
struct spawn_request {
  uint32_t flags;
  uint32_t uid, gid;
  uint64_t cpu_seconds, open_files, file_size, address_space;
  const char *cwd;
  uint32_t argc;
  char **argv;
  char **envp;
};

/* The child's ends of its pipes: stdin, stdout, stderr, and fd 3 (-1 when there is none). */
struct spawn_fds {
  int in, out, err, fd3;
};

/*
 * Starts the hook: a child that shares the server's memory and stops it until the exec (clone with
 * CLONE_VM | CLONE_VFORK: no page table is copied), in its own session and process group, with the
 * rlimits, no_new_privs and a parent-death SIGKILL, every other descriptor closed, then execs argv
 * with exactly envp. Returns the pid, or -1 with errno set and *stage naming the step that failed
 * (the child has been reaped). A program that cannot be executed is not a failure here: the child
 * writes why on its stderr and exits 127 (not found) or 126, as a shell would.
 */
pid_t spawn_hook(const struct spawn_request *r, const struct spawn_fds *fds, const char **stage);

/* Closes every descriptor >= from. */
int close_from(int from);

#endif
