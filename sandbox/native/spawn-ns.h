/*
 * Namespace mode (docs/security.md): the spawn server builds the hook's sandbox itself from a mount
 * plan hookwarden computes (sandbox/command/namespace-plan.ts) and sends with the SPAWN request.
 *
 * A plan is a list of operations, each in one of two phases:
 *   - the template phase (a read-only tmpfs root, /usr, the /bin… links, /etc, a minimal /dev), the
 *     same for every hook of a profile;
 *   - the hook phase (its /proc, the sandbox root, its scratch directory, a pack's directory), fresh
 *     for each hook.
 * Where the server runs as root, the template is built once per profile into a mount namespace the
 * server keeps (spawn-template.c), and each tenant gets one network namespace holding only `lo`,
 * also kept: a hook then enters both and copies the template's few mounts (unshare(CLONE_NEWNS)),
 * and pays only for its own phase. Elsewhere (an unprivileged server) each hook builds the whole plan
 * in namespaces of its own, as bubblewrap does.
 */
#ifndef HW_SPAWN_NS_H
#define HW_SPAWN_NS_H

#include <stddef.h>
#include <stdint.h>

/* Operations (the wire's u8 op). */
enum { NS_BIND = 1, NS_SYMLINK, NS_COPY, NS_DEV, NS_PROC, NS_DIR, NS_OP_END };
/* Their flags (the wire's u8 flags). */
#define NS_RW 1u   /* a bind mount stays writable */
#define NS_TRY 2u  /* a source that does not exist is skipped */
#define NS_HOOK 4u /* the hook phase (else the template phase) */
#define NS_FLAGS_ALL 7u

/* At most this many operations in one plan (hookwarden sends about twenty). */
#define NS_MAX_OPS 128

struct ns_op {
  uint8_t op, flags;
  /* The source (a bind's or a copy's path, a link's target); "" when the op has none. */
  const char *src;
  /* Where, in the sandbox: an absolute path. */
  const char *dst;
  /* A bind's detached tree or a copy's directory, opened before the mounts change; -1 before. */
  int fd;
};

struct ns_plan {
  /* Whose network namespace (the tenant): two keys never share one. */
  const char *key;
  uint32_t nops;
  struct ns_op *ops;
  /* Set by ns_prepare in the server (root): the template's mount namespace and the key's network one. */
  int tpl_fd, net_fd;
};

/* The hostname every sandbox gets. */
#define NS_HOSTNAME "hookwarden"

/* Once, at the start of the server: whether namespace mode works here, and how (prepared or built). */
void ns_init(void);
/* The outcome of the server's start-up check (spawn_init runs a real plan through a probe child). */
void ns_checked(int ok, const char *why);
/* Whether namespace mode works here, and why not ("" when it does). */
int ns_available(const char **why);
/* Whether the server prepares templates and network namespaces (root), or each hook builds its own. */
int ns_prepared(void);
/* From now on each hook builds its own sandbox (the server may not prepare namespaces here). */
void ns_build_per_hook(void);
/* Brings `lo` up in the caller's network namespace. 0, or -1 with errno. */
int ns_loopback_up(void);

/*
 * In the server, before the clone: the template and network namespace of the plan (made on first
 * use). 0, or -1 with *stage naming the step and errno set. A no-op where hooks build their own.
 */
int ns_prepare(struct ns_plan *p, const char **stage);
/* The namespaces a namespace-mode child is cloned into. */
int ns_clone_flags(int run_as);

struct contain_ids;
/*
 * In the cloned child: enters (or builds) the sandbox of the plan; afterwards / is the sandbox's
 * root and, unless run_as, the child is in a user namespace of its own mapping only the server's
 * uid and gid. 0, or -1 with errno set and *stage naming the step.
 */
int ns_enter(struct ns_plan *p, const struct contain_ids *ids, int run_as, const char **stage);

#endif
