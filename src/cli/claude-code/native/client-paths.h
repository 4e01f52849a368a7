/*
 * Where hookwarden-client looks for its daemon: the socket directory of this user (the rule of
 * src/cli/claude-code/daemon/places.ts), checked as the daemon checks it, and the socket's name, a
 * digest of what the configuration depends on (the adapter and its arguments but the per-call flags, the sandbox
 * root, the working directory when a path is relative, node, hookwarden and its machinery settings).
 * The daemon decides for itself whether it answers (identity.ts); the name only finds it.
 */
#ifndef HW_CLIENT_PATHS_H
#define HW_CLIENT_PATHS_H

#include <stddef.h>

#define HW_PATH_MAX 4096

/* path.resolve(base, p) for absolute `base`: joined and normalised (., .., //); 0, or -1 if too long. */
int hw_resolve(const char *base, const char *p, char *out, size_t n);
/* The socket directory: $XDG_RUNTIME_DIR/hookwarden (absolute only), else /tmp/hookwarden-<uid>. */
int hw_daemon_dir(char *out, size_t n);
/* Why `dir` cannot hold this user's sockets (into why[n]), or 0 when it can (places.ts's rule). */
int hw_dir_problem(const char *dir, char *why, size_t n);
/*
 * The daemon socket for the adapter command `node bin <adapter> flags…` (args: the adapter and its
 * flags; project_env: the variable its agent names the project with, or NULL), into out[n]; 0, or -1
 * with why[] set.
 */
int hw_socket_path(const char *node, const char *bin, const char *project_env, char *const *args, int nargs,
                   const char *cwd, char *out, size_t n, char *why, size_t whyn);

#endif
