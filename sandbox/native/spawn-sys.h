/*
 * System calls newer than the C library's headers (Debian 12's glibc 2.36 and kernel 6.1 headers lack
 * some, and <linux/mount.h> clashes with <sys/mount.h>): the mount API (open_tree, move_mount,
 * mount_setattr, fsopen, fsconfig, fsmount) and Landlock. Their numbers are the same on every
 * architecture (the unified table from 424 on). Each is a plain system call: safe in the spawn
 * server's vfork child.
 */
#ifndef HW_SPAWN_SYS_H
#define HW_SPAWN_SYS_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HW_SYS_open_tree 428
#define HW_SYS_move_mount 429
#define HW_SYS_fsopen 430
#define HW_SYS_fsconfig 431
#define HW_SYS_fsmount 432
#define HW_SYS_mount_setattr 442
#define HW_SYS_landlock_create_ruleset 444
#define HW_SYS_landlock_add_rule 445
#define HW_SYS_landlock_restrict_self 446

#define HW_OPEN_TREE_CLONE 1u
#define HW_OPEN_TREE_CLOEXEC 02000000u
#define HW_AT_EMPTY_PATH 0x1000
#define HW_AT_RECURSIVE 0x8000
#define HW_AT_SYMLINK_NOFOLLOW 0x100
#define HW_MOVE_MOUNT_F_EMPTY_PATH 0x4u

#define HW_MOUNT_ATTR_RDONLY 0x1ull
#define HW_MOUNT_ATTR_NOSUID 0x2ull
#define HW_MOUNT_ATTR_NODEV 0x4ull
#define HW_MOUNT_ATTR_NOEXEC 0x8ull

struct hw_mount_attr {
  uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static inline int hw_open_tree(int dfd, const char *path, unsigned flags) {
  return (int)syscall(HW_SYS_open_tree, dfd, path, flags);
}
static inline int hw_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned flags) {
  return (int)syscall(HW_SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}
static inline int hw_mount_setattr(int dfd, const char *path, unsigned flags, uint64_t set, uint64_t clear) {
  struct hw_mount_attr a = {set, clear, 0, 0};
  return (int)syscall(HW_SYS_mount_setattr, dfd, path, flags, &a, sizeof a);
}

/* Landlock (include/uapi/linux/landlock.h), up to ABI 6 (scoping). */
#define HW_LANDLOCK_CREATE_RULESET_VERSION 1u
#define HW_LANDLOCK_RULE_PATH_BENEATH 1

#define HW_LL_FS_EXECUTE (1ull << 0)
#define HW_LL_FS_WRITE_FILE (1ull << 1)
#define HW_LL_FS_READ_FILE (1ull << 2)
#define HW_LL_FS_READ_DIR (1ull << 3)
#define HW_LL_FS_REMOVE_DIR (1ull << 4)
#define HW_LL_FS_REMOVE_FILE (1ull << 5)
#define HW_LL_FS_MAKE_CHAR (1ull << 6)
#define HW_LL_FS_MAKE_DIR (1ull << 7)
#define HW_LL_FS_MAKE_REG (1ull << 8)
#define HW_LL_FS_MAKE_SOCK (1ull << 9)
#define HW_LL_FS_MAKE_FIFO (1ull << 10)
#define HW_LL_FS_MAKE_BLOCK (1ull << 11)
#define HW_LL_FS_MAKE_SYM (1ull << 12)
#define HW_LL_FS_REFER (1ull << 13)
#define HW_LL_FS_TRUNCATE (1ull << 14)
#define HW_LL_NET_BIND_TCP (1ull << 0)
#define HW_LL_NET_CONNECT_TCP (1ull << 1)
#define HW_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define HW_LL_SCOPE_SIGNAL (1ull << 1)

struct hw_landlock_ruleset_attr {
  uint64_t handled_access_fs, handled_access_net, scoped;
};

struct hw_landlock_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#endif
