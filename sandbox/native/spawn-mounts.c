/* Carrying out a mount plan: see spawn-mounts.h. */
#define _GNU_SOURCE
#include "spawn-mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spawn-sys.h"

#define PATH_CAP 4096

/* The /proc entries a hook that is root on the host must not write (Docker's list, less the masks). */
static const char *const PROC_READ_ONLY[] = {"/sys", "/sysrq-trigger", "/bus", "/fs", "/irq", NULL};
/* The device nodes of a sandbox's /dev, and its links. */
static const char *const DEV_NODES[] = {"null", "zero", "full", "random", "urandom", "tty", NULL};
static const char *const DEV_LINKS[][2] = {{"fd", "/proc/self/fd"},
                                           {"stdin", "/proc/self/fd/0"},
                                           {"stdout", "/proc/self/fd/1"},
                                           {"stderr", "/proc/self/fd/2"},
                                           {"shm", "/tmp"},
                                           {NULL, NULL}};

/* prefix + path into buf (PATH_CAP bytes). */
static int join(char *buf, const char *prefix, const char *path) {
  size_t a = strlen(prefix), b = strlen(path);
  if (a + b + 1 > PATH_CAP) return errno = ENAMETOOLONG, -1;
  memcpy(buf, prefix, a);
  memcpy(buf + a, path, b + 1);
  return 0;
}

/* mkdir -p: every missing directory of `path` (restored before returning). */
static int make_dirs(char *path) {
  struct stat st;
  if (stat(path, &st) == 0) return 0;
  for (char *s = path + 1;; s++) {
    if (*s != '/' && *s != '\0') continue;
    char c = *s;
    *s = '\0';
    int r = mkdir(path, 0755);
    *s = c;
    if (r != 0 && errno != EEXIST) return -1;
    if (c == '\0') return 0;
  }
}

/* mkdir -p of the directory `path` is in. */
static int make_parent(char *path) {
  char *slash = strrchr(path, '/');
  if (slash == NULL || slash == path) return 0;
  *slash = '\0';
  int r = make_dirs(path);
  *slash = '/';
  return r;
}

/* Attaches the detached tree `fd` at `path`, made first (a directory, or an empty file for a file). */
static int attach(int fd, char *path, const char **stage) {
  struct stat st, at;
  if (fstat(fd, &st) != 0) return *stage = "bind", -1;
  if (S_ISDIR(st.st_mode)) {
    if (make_dirs(path) != 0) return *stage = "mkdir", -1;
  } else if (stat(path, &at) != 0) {
    int f = make_parent(path) == 0 ? open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0444) : -1;
    if (f < 0) return *stage = "mkdir", -1;
    close(f);
  }
  if (hw_move_mount(fd, "", AT_FDCWD, path, HW_MOVE_MOUNT_F_EMPTY_PATH) != 0) return *stage = "move_mount", -1;
  return 0;
}

/* A detached clone of `src` with these mount attributes; -1 with errno set. */
static int clone_tree(const char *src, uint64_t attrs) {
  int fd = hw_open_tree(AT_FDCWD, src, HW_OPEN_TREE_CLONE | HW_OPEN_TREE_CLOEXEC | HW_AT_RECURSIVE);
  if (fd < 0) return -1;
  if (hw_mount_setattr(fd, "", HW_AT_EMPTY_PATH | HW_AT_RECURSIVE, attrs, 0) != 0) {
    int err = errno;
    close(fd);
    return errno = err, -1;
  }
  return fd;
}

int mounts_open(struct ns_plan *p, unsigned phase, int copy, const char **stage) {
  for (uint32_t i = 0; i < p->nops; i++) {
    struct ns_op *o = &p->ops[i];
    if ((o->flags & NS_HOOK) != phase || (o->op != NS_BIND && o->op != NS_COPY)) continue;
    if (o->op == NS_COPY && copy)
      o->fd = open(o->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    else
      o->fd = clone_tree(o->src, HW_MOUNT_ATTR_NOSUID | HW_MOUNT_ATTR_NODEV |
                                     ((o->flags & NS_RW) != 0 ? 0 : HW_MOUNT_ATTR_RDONLY));
    if (o->fd >= 0) continue;
    if ((o->flags & NS_TRY) != 0 && errno == ENOENT) o->fd = -2;
    else return *stage = o->op == NS_COPY && copy ? "open" : "open_tree", -1;
  }
  return 0;
}

void mounts_close(struct ns_plan *p) {
  for (uint32_t i = 0; i < p->nops; i++) {
    if (p->ops[i].fd >= 0) close(p->ops[i].fd);
    p->ops[i].fd = -1;
  }
}

/* Mounts `path` over itself read-only (a file or a directory, with what is below it). */
static int read_only(const char *path) {
  if (mount(path, path, NULL, MS_BIND | MS_REC, NULL) != 0) return errno == ENOENT ? 0 : -1;
  return mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

int mounts_proc(const char *dst, int mask, const char **stage) {
  if (mount("proc", dst, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) return *stage = "mount /proc", -1;
  char path[PATH_CAP];
  for (const char *const *e = PROC_READ_ONLY; mask && *e != NULL; e++)
    if (join(path, dst, *e) != 0 || read_only(path) != 0) return *stage = "/proc/sys", -1;
  return 0;
}

int mounts_sys_read_only(const char **stage) {
  uint64_t attrs = HW_MOUNT_ATTR_RDONLY | HW_MOUNT_ATTR_NOSUID | HW_MOUNT_ATTR_NODEV | HW_MOUNT_ATTR_NOEXEC;
  if (hw_mount_setattr(AT_FDCWD, "/sys", HW_AT_RECURSIVE, attrs, 0) == 0 || errno == ENOENT) return 0;
  return *stage = "/sys", -1;
}

/* dir + "/" + name into buf (PATH_CAP bytes). */
static int join_name(char *buf, const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  if (a + b + 2 > PATH_CAP) return errno = ENAMETOOLONG, -1;
  memcpy(buf, dir, a);
  buf[a] = '/';
  memcpy(buf + a + 1, name, b + 1);
  return 0;
}

/* A minimal /dev at `path`: the harmless device nodes, bound from the host's, and the usual links. */
static int make_dev(char *path, const char **stage) {
  if (make_dirs(path) != 0) return *stage = "mkdir", -1;
  char node[PATH_CAP], src[PATH_CAP];
  for (const char *const *n = DEV_NODES; *n != NULL; n++) {
    if (join_name(src, "/dev", *n) != 0 || join_name(node, path, *n) != 0) return *stage = "/dev", -1;
    int fd = clone_tree(src, HW_MOUNT_ATTR_NOSUID | HW_MOUNT_ATTR_NOEXEC);
    if (fd < 0 && errno == ENOENT) continue;
    if (fd < 0) return *stage = "/dev", -1;
    int r = attach(fd, node, stage);
    close(fd);
    if (r != 0) return -1;
  }
  for (int i = 0; DEV_LINKS[i][0] != NULL; i++) {
    if (join_name(node, path, DEV_LINKS[i][0]) != 0) return *stage = "/dev", -1;
    if (symlink(DEV_LINKS[i][1], node) != 0 && errno != EEXIST) return *stage = "/dev", -1;
  }
  return 0;
}

/* One operation of the phase being built, at `path` (the prefix and its destination). */
static int build_one(struct ns_op *o, char *path, int copy, int mask, const char **stage) {
  switch (o->op) {
  case NS_BIND:
    return o->fd == -2 ? 0 : attach(o->fd, path, stage);
  case NS_COPY:
    if (o->fd == -2) return 0;
    if (!copy) return attach(o->fd, path, stage);
    return make_dirs(path) == 0 && mounts_copy(o->fd, path) == 0 ? 0 : (*stage = "/etc", -1);
  case NS_SYMLINK:
    if (make_parent(path) != 0 || (symlink(o->src, path) != 0 && errno != EEXIST)) return *stage = "symlink", -1;
    return 0;
  case NS_DIR:
    return make_dirs(path) == 0 ? 0 : (*stage = "mkdir", -1);
  case NS_DEV:
    return make_dev(path, stage);
  case NS_PROC:
    return mounts_proc(path, mask, stage);
  default:
    return errno = EINVAL, *stage = "plan", -1;
  }
}

int mounts_build(struct ns_plan *p, const char *prefix, unsigned phase, int copy, int mask, const char **stage) {
  char path[PATH_CAP];
  for (uint32_t i = 0; i < p->nops; i++) {
    struct ns_op *o = &p->ops[i];
    if (join(path, prefix, o->dst) != 0) return *stage = "plan", -1;
    if ((o->flags & NS_HOOK) == phase) {
      if (build_one(o, path, copy, mask, stage) != 0) return -1;
    } else if (phase == 0 && (o->op == NS_BIND || o->op == NS_PROC) && make_dirs(path) != 0) {
      /* The template holds the hook phase's mountpoints: its root is read-only afterwards. */
      return *stage = "mkdir", -1;
    }
  }
  return 0;
}

int mounts_pivot(const char *dir, const char **stage) {
  if (chdir(dir) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 || chdir("/") != 0)
    return *stage = "pivot_root", -1;
  return 0;
}
