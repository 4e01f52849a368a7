/* The process cap: see spawn-cap.h. */
#define _GNU_SOURCE
#include "spawn-cap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SLOTS 4096
/* The kernel's lowest pid_max, and where it wraps to (RESERVED_PIDS). */
#define PID_MAX_MIN 301
#define PID_WRAP 300

struct slot {
  /* Its cgroup.procs, which the child writes. */
  char *procs;
  uint32_t max;
  int busy;
};

static int cgroup_ok, pidns_ok, rlimit_ok;
/* Our pids cgroup, and hookwarden-<pid> below it where the slots are. */
static char base[2048], dir[2304];
static struct slot *slots;
static int nslots;

static int kernel_at_least(int major, int minor) {
  struct utsname u;
  int a = 0, b = 0;
  if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &a, &b) != 2) return 0;
  return a > major || (a == major && b >= minor);
}

static int write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  close(fd);
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

static long read_number(const char *path) {
  char buf[32];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  return strtol(buf, NULL, 10);
}

/* Where the pids controller is mounted and our cgroup in it (v1 "N:pids:/path", else v2 "0::/path"). */
static int find_pids_cgroup(void) {
  FILE *f = fopen("/proc/self/cgroup", "re");
  char line[PATH_MAX + 64], v1[PATH_MAX] = "", v2[PATH_MAX] = "";
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    char *a = strchr(line, ':'), *b = a == NULL ? NULL : strchr(a + 1, ':');
    if (b == NULL) continue;
    *b = '\0';
    if (strcmp(a + 1, "") == 0) snprintf(v2, sizeof v2, "%s", b + 1);
    for (char *c = strtok(a + 1, ","); c != NULL; c = strtok(NULL, ","))
      if (strcmp(c, "pids") == 0) snprintf(v1, sizeof v1, "%s", b + 1);
  }
  if (f != NULL) fclose(f);
  f = fopen("/proc/self/mountinfo", "re");
  int found = 0;
  while (!found && f != NULL && fgets(line, sizeof line, f) != NULL) {
    char root[PATH_MAX], point[PATH_MAX], type[64], opts[512];
    char *dash = strstr(line, " - ");
    if (dash == NULL || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
        sscanf(dash + 3, "%63s %*s %511s", type, opts) != 2 || strcmp(root, "/") != 0)
      continue;
    int pids = strstr(opts, "pids") != NULL;
    if (v1[0] != '\0' && strcmp(type, "cgroup") == 0 && pids) {
      snprintf(base, sizeof base, "%.1000s%.1000s", point, strcmp(v1, "/") == 0 ? "" : v1);
      found = 1;
    } else if (v1[0] == '\0' && v2[0] != '\0' && strcmp(type, "cgroup2") == 0) {
      snprintf(base, sizeof base, "%.1000s%.1000s", point, strcmp(v2, "/") == 0 ? "" : v2);
      found = 1;
    }
  }
  if (f != NULL) fclose(f);
  return found;
}

/* Removes what servers that are gone left under `base` (their hooks' empty cgroups). */
static void sweep_stale(void) {
  DIR *d = opendir(base);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    int pid = 0;
    if (sscanf(e->d_name, "hookwarden-%d", &pid) != 1 || pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH)
      continue;
    char path[PATH_MAX];
    for (int i = 0; i < MAX_SLOTS; i++) {
      snprintf(path, sizeof path, "%s/%.255s/h%d", base, e->d_name, i);
      if (rmdir(path) != 0 && errno == ENOENT) break;
    }
    snprintf(path, sizeof path, "%s/%.255s", base, e->d_name);
    rmdir(path);
  }
  if (d != NULL) closedir(d);
}

/* A file of slot `i`'s cgroup. */
static void slot_file(char *path, size_t size, int i, const char *name) {
  snprintf(path, size, "%s/h%d/%.32s", dir, i, name);
}

/* Sets slot `i`'s limit. */
static int slot_limit(int i, uint32_t max) {
  char path[PATH_MAX], text[16];
  slot_file(path, sizeof path, i, "pids.max");
  snprintf(text, sizeof text, "%u", max);
  if (write_text(path, text) != 0) return -1;
  slots[i].max = max;
  return 0;
}

/* A new slot: its cgroup made, its limit set. -1 when none can be made. */
static int slot_new(uint32_t max) {
  if (nslots == MAX_SLOTS) return -1;
  if (slots == NULL && (slots = calloc(MAX_SLOTS, sizeof *slots)) == NULL) return -1;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/h%d", dir, nslots);
  if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
  slot_file(path, sizeof path, nslots, "cgroup.procs");
  if ((slots[nslots].procs = strdup(path)) == NULL || slot_limit(nslots, max) != 0) return -1;
  return nslots++;
}

/* A free slot whose cgroup is empty (a finished hook's processes may still be dying), or a new one. */
static int slot_take(uint32_t max) {
  char path[PATH_MAX];
  int found = -1;
  for (int i = 0; i < nslots && found < 0; i++) {
    if (slots[i].busy) continue;
    slot_file(path, sizeof path, i, "pids.current");
    if (read_number(path) == 0) found = i;
  }
  if (found < 0) found = slot_new(max);
  if (found < 0 || (slots[found].max != max && slot_limit(found, max) != 0)) return -1;
  slots[found].busy = 1;
  return found;
}

/* Whether a child can put itself in a slot: the check a hook's start relies on. */
static int slot_works(int s) {
  pid_t pid = fork();
  if (pid == 0) _exit(write_text(slots[s].procs, "0") == 0 ? 0 : 1);
  int status = 1;
  while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int cgroup_setup(void) {
  if (!find_pids_cgroup()) return 0;
  sweep_stale();
  snprintf(dir, sizeof dir, "%s/hookwarden-%d", base, (int)getpid());
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return 0;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/cgroup.subtree_control", base);
  /* cgroup v2: the controller must be enabled for our directory, and below it for the slots. */
  if (access(path, F_OK) == 0) {
    write_text(path, "+pids");
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
    write_text(path, "+pids");
  }
  int s = slot_new(1024);
  if (s >= 0 && slot_works(s)) return 1;
  cap_cleanup();
  return 0;
}

void cap_init(void) {
  pidns_ok = kernel_at_least(6, 14);
  rlimit_ok = kernel_at_least(5, 14);
  cgroup_ok = cgroup_setup();
}

int cap_best(int own_pid_ns, int own_user_ns_not_root) {
  if (cgroup_ok) return CAP_CGROUP;
  if (pidns_ok && own_pid_ns) return CAP_PIDNS;
  if (rlimit_ok && own_user_ns_not_root) return CAP_RLIMIT;
  return CAP_NONE;
}

const char *cap_name(int mech) {
  static const char *const NAMES[] = {"none", "pids-cgroup", "pid-namespace", "rlimit-nproc"};
  return mech >= 0 && mech <= CAP_RLIMIT ? NAMES[mech] : "none";
}

void cap_prepare(struct cap_ticket *t, uint32_t max, int own_pid_ns, int own_user_ns_not_root) {
  memset(t, 0, sizeof *t);
  t->slot = -1;
  t->max = max;
  t->mech = max == 0 ? CAP_NONE : cap_best(own_pid_ns, own_user_ns_not_root);
  if (t->mech == CAP_CGROUP && (t->slot = slot_take(max)) >= 0) {
    t->procs = slots[t->slot].procs;
    return;
  }
  /* No cgroup to be had for this one (the pool is exhausted): the next mechanism. */
  if (t->mech == CAP_CGROUP)
    t->mech = pidns_ok && own_pid_ns ? CAP_PIDNS : rlimit_ok && own_user_ns_not_root ? CAP_RLIMIT : CAP_NONE;
  if (t->mech == CAP_PIDNS) {
    uint32_t pid_max = max + PID_WRAP < PID_MAX_MIN ? PID_MAX_MIN : max + PID_WRAP;
    snprintf(t->pid_max, sizeof t->pid_max, "%u", pid_max);
    t->max = pid_max - 1;
  }
}

int cap_enter(const struct cap_ticket *t, const char **stage) {
  if (t->mech == CAP_CGROUP && write_text(t->procs, "0") != 0) return *stage = "pids cgroup", -1;
  /* The PID namespace's own pid_max: the child is its first process, and the sysctl is its namespace's. */
  if (t->mech == CAP_PIDNS && write_text("/proc/sys/kernel/pid_max", t->pid_max) != 0) return *stage = "pid_max", -1;
  return 0;
}

int cap_limit(const struct cap_ticket *t, const char **stage) {
  struct rlimit l = {t->max, t->max};
  if (t->mech == CAP_RLIMIT && setrlimit(RLIMIT_NPROC, &l) != 0) return *stage = "setrlimit", -1;
  return 0;
}

void cap_release(int slot) {
  if (slot >= 0 && slot < nslots) slots[slot].busy = 0;
}

void cap_cleanup(void) {
  char path[PATH_MAX];
  for (int i = 0; i < nslots; i++) {
    snprintf(path, sizeof path, "%s/h%d", dir, i);
    rmdir(path);
    free(slots[i].procs);
    slots[i].procs = NULL;
  }
  nslots = 0;
  if (dir[0] != '\0') rmdir(dir);
}
