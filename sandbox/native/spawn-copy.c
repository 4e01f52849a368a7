/*
 * mounts_copy (spawn-mounts.h): a directory tree copied into a template's root, once per template.
 * A template's /etc is a copy rather than a bind mount, so that nothing of the host's layout (where
 * hookwarden keeps its snapshot) shows in a sandbox's /proc/self/mountinfo. Regular files,
 * directories and symlinks; nothing else (no device, no FIFO), no owner or set-id bits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spawn-mounts.h"

#define PATH_CAP 4096
#define MAX_DEPTH 16

struct dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

static int copy_file(int dir, const char *name, const char *to, mode_t mode) {
  int in = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (in < 0) return -1;
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, (mode & 0755) | 0444);
  if (out < 0) {
    close(in);
    return -1;
  }
  char buf[16384];
  ssize_t n;
  int r = 0;
  while ((n = read(in, buf, sizeof buf)) > 0) {
    for (ssize_t off = 0; off < n;) {
      ssize_t w = write(out, buf + off, (size_t)(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        r = -1;
        break;
      }
      off += w;
    }
    if (r != 0) break;
  }
  if (n < 0) r = -1;
  close(in);
  if (close(out) != 0) r = -1;
  return r;
}

static int copy_entry(int dir, const char *name, const char *to, int depth);

static int copy_dir(int dir, const char *to, int depth) {
  if (depth > MAX_DEPTH) return errno = ELOOP, -1;
  if (mkdir(to, 0755) != 0 && errno != EEXIST) return -1;
  char buf[8192];
  for (;;) {
    long n = syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n < 0) return -1;
    if (n == 0) return 0;
    for (long off = 0; off < n;) {
      struct dirent64 *e = (struct dirent64 *)(buf + off);
      off += e->d_reclen;
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      if (copy_entry(dir, e->d_name, to, depth) != 0) return -1;
    }
  }
}

static int copy_entry(int dir, const char *name, const char *to, int depth) {
  char path[PATH_CAP];
  size_t a = strlen(to), b = strlen(name);
  if (a + b + 2 > PATH_CAP) return errno = ENAMETOOLONG, -1;
  memcpy(path, to, a);
  path[a] = '/';
  memcpy(path + a + 1, name, b + 1);
  struct stat st;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
  if (S_ISDIR(st.st_mode)) {
    int sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (sub < 0) return -1;
    int r = copy_dir(sub, path, depth + 1);
    close(sub);
    return r;
  }
  if (S_ISLNK(st.st_mode)) {
    char target[PATH_CAP];
    ssize_t n = readlinkat(dir, name, target, sizeof target - 1);
    if (n < 0) return -1;
    target[n] = '\0';
    return symlink(target, path) == 0 || errno == EEXIST ? 0 : -1;
  }
  return S_ISREG(st.st_mode) ? copy_file(dir, name, path, st.st_mode) : 0;
}

int mounts_copy(int src, const char *dst) {
  return copy_dir(src, dst, 0);
}
