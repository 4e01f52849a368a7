/* Where the daemon's socket is; see client-paths.h. */
#define _GNU_SOURCE
#include "client-paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

int hw_resolve(const char *base, const char *p, char *out, size_t n) {
  char joined[2 * HW_PATH_MAX + 2];
  if (p[0] == '/') {
    if (strlen(p) >= sizeof joined) return -1;
    strcpy(joined, p);
  } else if ((size_t)snprintf(joined, sizeof joined, "%s/%s", base, p) >= sizeof joined)
    return -1;
  /* Segments: skip "" and ".", ".." drops the last one (never above /). */
  size_t len = 0;
  char *save = NULL;
  for (char *seg = strtok_r(joined, "/", &save); seg != NULL; seg = strtok_r(NULL, "/", &save)) {
    if (strcmp(seg, ".") == 0) continue;
    if (strcmp(seg, "..") == 0) {
      while (len > 0 && out[len - 1] != '/') len--;
      if (len > 0) len--;
      continue;
    }
    size_t s = strlen(seg);
    if (len + 1 + s + 1 > n) return -1;
    out[len++] = '/';
    memcpy(out + len, seg, s);
    len += s;
  }
  if (len == 0) {
    if (n < 2) return -1;
    out[len++] = '/';
  }
  out[len] = '\0';
  return 0;
}

int hw_daemon_dir(char *out, size_t n) {
  const char *run = getenv("XDG_RUNTIME_DIR");
  if (run != NULL && run[0] == '/') return hw_resolve(run, "hookwarden", out, n);
  return (size_t)snprintf(out, n, "/tmp/hookwarden-%u", (unsigned)getuid()) < n ? 0 : -1;
}

int hw_dir_problem(const char *dir, char *why, size_t n) {
  struct stat st;
  uid_t me = getuid();
  if (lstat(dir, &st) != 0) {
    snprintf(why, n, "%s: %s", dir, errno == ENOENT ? "no such directory" : strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) return snprintf(why, n, "%s is not a directory", dir), -1;
  if (st.st_uid != me)
    return snprintf(why, n, "%s belongs to user %u, not to this user (%u)", dir, (unsigned)st.st_uid, (unsigned)me), -1;
  if ((st.st_mode & 077) != 0)
    return snprintf(why, n, "%s has mode %o; only its owner may use it (700)", dir, st.st_mode & 0777), -1;
  char parent[HW_PATH_MAX];
  if (hw_resolve(dir, "..", parent, sizeof parent) != 0 || lstat(parent, &st) != 0)
    return snprintf(why, n, "the parent of %s cannot be read", dir), -1;
  if (st.st_uid != me && st.st_uid != 0)
    return snprintf(why, n, "%s belongs to user %u: its owner could replace %s", parent, (unsigned)st.st_uid, dir), -1;
  if ((st.st_mode & 022) != 0 && (st.st_mode & S_ISVTX) == 0)
    return snprintf(why, n, "%s is writable by others and not sticky: they could replace %s", parent, dir), -1;
  return 0;
}

/* The value an argument carries: after "=" of --name=value, none for another flag, else itself. */
static const char *value_of(const char *arg) {
  if (arg[0] != '-') return arg;
  const char *eq = strchr(arg, '=');
  return eq == NULL ? NULL : eq + 1;
}

/*
 * Flags each call brings its own of (start.ts's PER_CALL_*): 2 when the flag takes the next argument,
 * 1 for one word, 0 for any other argument.
 */
static int per_call(const char *arg) {
  if (strcmp(arg, "--timeout") == 0 || strcmp(arg, "--event") == 0) return 2;
  if (strncmp(arg, "--timeout=", 10) == 0 || strncmp(arg, "--event=", 8) == 0) return 1;
  return strcmp(arg, "--explicit-allow") == 0;
}

/* The sandbox root as the adapter picks it: --root (last), else the agent's project directory if a directory, else cwd. */
static int root_of(const char *project_env, char *const *args, int nargs, const char *cwd, char *out, size_t n) {
  const char *root = NULL;
  for (int i = 1; i < nargs; i++) {
    if (strcmp(args[i], "--root") == 0 && i + 1 < nargs) root = args[++i];
    else if (strncmp(args[i], "--root=", 7) == 0) root = args[i] + 7;
  }
  char project[HW_PATH_MAX];
  const char *env = project_env == NULL ? NULL : getenv(project_env);
  struct stat st;
  if (root == NULL && env != NULL && env[0] != '\0' && hw_resolve(cwd, env, project, sizeof project) == 0 &&
      stat(project, &st) == 0 && S_ISDIR(st.st_mode))
    root = env;
  return hw_resolve(cwd, root == NULL ? "." : root, out, n);
}

static void line(struct sha256 *s, const char *tag, const char *value) {
  char len[32];
  snprintf(len, sizeof len, " %zu:", strlen(value));
  sha256_update(s, tag, strlen(tag));
  sha256_update(s, len, strlen(len));
  sha256_update(s, value, strlen(value));
  sha256_update(s, "\n", 1);
}

int hw_socket_path(const char *node, const char *bin, const char *project_env, char *const *args, int nargs,
                   const char *cwd, char *out, size_t n, char *why, size_t whyn) {
  char dir[HW_PATH_MAX], root[HW_PATH_MAX], uid[32];
  if (hw_daemon_dir(dir, sizeof dir) != 0) return snprintf(why, whyn, "the socket directory's path is too long"), -1;
  if (root_of(project_env, args, nargs, cwd, root, sizeof root) != 0) return snprintf(why, whyn, "the sandbox root's path is too long"), -1;
  struct sha256 s;
  sha256_init(&s);
  snprintf(uid, sizeof uid, "%u", (unsigned)getuid());
  line(&s, "hookwarden-client", "2");
  line(&s, "uid", uid);
  line(&s, "node", node);
  line(&s, "bin", bin);
  line(&s, "root", root);
  line(&s, "adapter", args[0]);
  int relative = 0;
  for (int i = 1; i < nargs; i++) {
    int skip = per_call(args[i]);
    if (skip > 0) {
      i += skip - 1;
      continue;
    }
    const char *v = value_of(args[i]);
    if (v != NULL && v[0] != '\0' && v[0] != '/') relative = 1;
    line(&s, "arg", args[i]);
  }
  if (relative) line(&s, "cwd", cwd);
  static const char *const machinery[] = {"HOOKWARDEN_BWRAP", "HOOKWARDEN_SPAWN_SERVER"};
  for (size_t i = 0; i < sizeof machinery / sizeof machinery[0]; i++) {
    const char *v = getenv(machinery[i]);
    if (v != NULL) line(&s, machinery[i], v);
  }
  char hex[65];
  sha256_hex(&s, hex);
  if ((size_t)snprintf(out, n, "%s/hw-%.32s.sock", dir, hex) >= n || strlen(out) > 107)
    return snprintf(why, whyn, "the socket path %s/cc-….sock is longer than a Unix socket path may be", dir), -1;
  return 0;
}
