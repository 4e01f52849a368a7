/* Landlock: see spawn-landlock.h. */
#define _GNU_SOURCE
#include "spawn-landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spawn-sys.h"

#define READ (HW_LL_FS_EXECUTE | HW_LL_FS_READ_FILE | HW_LL_FS_READ_DIR)
/* What a rule on a file (not a directory) may allow. */
#define FILE_RIGHTS (HW_LL_FS_EXECUTE | HW_LL_FS_WRITE_FILE | HW_LL_FS_READ_FILE | HW_LL_FS_TRUNCATE)

/* Device nodes and /dev directories a contained hook may write. */
static const char *const DEV_WRITABLE[] = {"null", "zero", "full", "random", "urandom", "tty",
                                           "ptmx", "pts",  "shm",  "mqueue", NULL};

static int abi;
static int contained_fd = -1;

static long ll_create(const struct hw_landlock_ruleset_attr *a, size_t size, unsigned flags) {
  return syscall(HW_SYS_landlock_create_ruleset, a, size, flags);
}

/* The write rights this ABI knows (REFER from 2, TRUNCATE from 3). */
static uint64_t write_rights(void) {
  uint64_t w = HW_LL_FS_WRITE_FILE | HW_LL_FS_REMOVE_DIR | HW_LL_FS_REMOVE_FILE | HW_LL_FS_MAKE_CHAR |
               HW_LL_FS_MAKE_DIR | HW_LL_FS_MAKE_REG | HW_LL_FS_MAKE_SOCK | HW_LL_FS_MAKE_FIFO |
               HW_LL_FS_MAKE_BLOCK | HW_LL_FS_MAKE_SYM;
  if (abi >= 2) w |= HW_LL_FS_REFER;
  if (abi >= 3) w |= HW_LL_FS_TRUNCATE;
  return w;
}

static int new_ruleset(uint64_t fs) {
  struct hw_landlock_ruleset_attr a = {fs, 0, abi >= 6 ? HW_LL_SCOPE_ABSTRACT_UNIX_SOCKET | HW_LL_SCOPE_SIGNAL : 0};
  /* Before ABI 4 the kernel knows no handled_access_net, before 6 no scoped: a shorter struct. */
  size_t size = abi >= 6 ? sizeof a : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  return (int)ll_create(&a, size, 0);
}

/* Allows `rights` beneath `path` (or on it, a file: file rights only); a path that is not there is skipped. */
static int allow(int ruleset, const char *path, uint64_t rights, uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : -1;
  struct stat st;
  int r = fstat(fd, &st);
  if (r == 0) {
    struct hw_landlock_path_beneath_attr b = {rights & handled & (S_ISDIR(st.st_mode) ? ~0ull : FILE_RIGHTS), fd};
    r = b.allowed_access == 0 ? 0 : (int)syscall(HW_SYS_landlock_add_rule, ruleset, HW_LANDLOCK_RULE_PATH_BENEATH, &b, 0);
  }
  close(fd);
  return r;
}

/* The contained ruleset: writes beneath every top-level entry but /proc, /sys, /dev, and dev's nodes. */
static int contained_ruleset(void) {
  uint64_t w = write_rights();
  int fd = new_ruleset(w);
  DIR *d = fd < 0 ? NULL : opendir("/");
  struct dirent *e;
  char path[512];
  int ok = d != NULL;
  while (ok && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0'))) continue;
    if (strcmp(e->d_name, "proc") == 0 || strcmp(e->d_name, "sys") == 0 || strcmp(e->d_name, "dev") == 0) continue;
    struct stat st;
    path[0] = '/';
    strncpy(path + 1, e->d_name, sizeof path - 2);
    path[sizeof path - 1] = '\0';
    if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode)) continue;
    ok = allow(fd, path, w, w) == 0;
  }
  if (d != NULL) closedir(d);
  for (const char *const *n = DEV_WRITABLE; ok && *n != NULL; n++) {
    strcpy(path, "/dev/");
    strncat(path, *n, sizeof path - 6);
    ok = allow(fd, path, w, w) == 0;
  }
  if (!ok && fd >= 0) close(fd);
  return ok ? fd : -1;
}

void landlock_init(void) {
  long v = ll_create(NULL, 0, HW_LANDLOCK_CREATE_RULESET_VERSION);
  abi = v > 0 ? (int)v : 0;
  if (abi > 0) contained_fd = contained_ruleset();
  if (contained_fd < 0) abi = 0;
}

int landlock_abi(void) {
  return abi;
}

int landlock_contain(const char **stage) {
  if (abi == 0) return 0;
  if (syscall(HW_SYS_landlock_restrict_self, contained_fd, 0) != 0) return *stage = "landlock", -1;
  return 0;
}

int landlock_sandbox(const struct ns_plan *p, const char **stage) {
  if (abi == 0) return 0;
  uint64_t w = write_rights(), all = READ | w;
  int fd = new_ruleset(all);
  /* Writing to what is there (a FIFO in the root, /dev/null) is the mounts' to allow; making, removing,
   * linking and renaming only beneath the writable ones. */
  int ok = fd >= 0 && allow(fd, "/", READ | HW_LL_FS_WRITE_FILE, all) == 0;
  for (uint32_t i = 0; ok && i < p->nops; i++)
    if (p->ops[i].op == NS_BIND && (p->ops[i].flags & NS_RW) != 0) ok = allow(fd, p->ops[i].dst, all, all) == 0;
  ok = ok && syscall(HW_SYS_landlock_restrict_self, fd, 0) == 0;
  if (fd >= 0) close(fd);
  return ok ? 0 : (*stage = "landlock", -1);
}
