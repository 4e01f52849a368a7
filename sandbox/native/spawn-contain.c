/* Contained process mode: see spawn-contain.h. */
#define _GNU_SOURCE
#include "spawn-contain.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spawn-mounts.h"

static const char *const STAGES[] = {"clone", "setgroups", "uid_map", "gid_map", "mount /proc", "/proc/sys", "/sys", NULL};

void contain_init(struct contain_ids *ids) {
  snprintf(ids->uid_map, sizeof ids->uid_map, "%u %u 1", (unsigned)geteuid(), (unsigned)geteuid());
  snprintf(ids->gid_map, sizeof ids->gid_map, "%u %u 1", (unsigned)getegid(), (unsigned)getegid());
  ids->is_root = geteuid() == 0;
}

int contain_clone_flags(int run_as) {
  return CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | (run_as ? 0 : CLONE_NEWUSER);
}

int contain_stage(const char *stage) {
  for (const char *const *s = STAGES; *s != NULL; s++)
    if (strcmp(*s, stage) == 0) return 1;
  return 0;
}

static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t len = strlen(text);
  ssize_t n = write(fd, text, len);
  int err = errno;
  close(fd);
  if (n == (ssize_t)len) return 0;
  errno = n < 0 ? err : EIO;
  return -1;
}

int contain_map(const struct contain_ids *ids, const char **stage) {
  /* /proc is still the host's (or already the hook's own): /proc/self is this child either way. */
  if (write_file("/proc/self/setgroups", "deny") != 0) return *stage = "setgroups", -1;
  if (write_file("/proc/self/uid_map", ids->uid_map) != 0) return *stage = "uid_map", -1;
  if (write_file("/proc/self/gid_map", ids->gid_map) != 0) return *stage = "gid_map", -1;
  return 0;
}

int contain_enter(const struct contain_ids *ids, int run_as, const char **stage) {
  if (!run_as && contain_map(ids, stage) != 0) return -1;
  /* Private first: a mount on a shared /proc would propagate back to the host's. */
  if (mount(NULL, "/proc", NULL, MS_PRIVATE, NULL) != 0) return *stage = "mount /proc", -1;
  /* Without capabilities, root still owns the kernel's tunables, cgroup files and sysrq by their modes. */
  if (mounts_proc("/proc", ids->is_root, stage) != 0) return -1;
  if (ids->is_root && mounts_sys_read_only(stage) != 0) return -1;
  return 0;
}

int drop_capabilities(int keep_setid, const char **stage) {
  struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct caps[2];
  if (syscall(SYS_capget, &hdr, caps) != 0) return *stage = "capabilities", -1;
  /* Nothing held (an unprivileged user's uncontained hook): nothing to drop. */
  if ((caps[0].permitted | caps[1].permitted | caps[0].inheritable | caps[1].inheritable) == 0) return 0;
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    return *stage = "capabilities", -1;
  if ((caps[CAP_TO_INDEX(CAP_SETPCAP)].effective & CAP_TO_MASK(CAP_SETPCAP)) != 0) {
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
      if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) return *stage = "capabilities", -1;
    if (!keep_setid) {
      /* An exec as root would grant a full set again: no root magic, locked. */
      unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                           SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED;
      if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) return *stage = "capabilities", -1;
    }
  }
  /* With keep_setid the uid change that follows clears what is left. */
  if (keep_setid) return 0;
  memset(caps, 0, sizeof caps);
  if (syscall(SYS_capset, &hdr, caps) != 0) return *stage = "capabilities", -1;
  return 0;
}
