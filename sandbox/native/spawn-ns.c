/* Namespace mode: see spawn-ns.h. */
#define _GNU_SOURCE
#include "spawn-ns.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include "spawn-contain.h"
#include "spawn-mounts.h"
#include "spawn-template.h"

/* Where a hook that builds its own sandbox builds it, in its private copy of the host's mounts. */
#define STAGE "/tmp"

/* Root: templates and network namespaces are prepared by the server (else each hook builds its own). */
static int prepared;
static int ns_ok;
static char ns_why[160] = "not checked";

void ns_init(void) {
#ifdef HW_BUILD_PER_HOOK
  /* A measuring build (docs/choices.md): every hook builds its own sandbox, as unprivileged. */
  prepared = 0;
  return;
#endif
  prepared = geteuid() == 0 && tpl_init() == 0;
}

void ns_checked(int ok, const char *why) {
  ns_ok = ok;
  snprintf(ns_why, sizeof ns_why, "%s", ok ? "" : why);
}

int ns_available(const char **why) {
  *why = ns_ok ? "" : ns_why;
  return ns_ok;
}

void ns_build_per_hook(void) {
  prepared = 0;
}

int ns_prepared(void) {
  return prepared;
}

int ns_prepare(struct ns_plan *p, const char **stage) {
  p->tpl_fd = p->net_fd = -1;
  for (uint32_t i = 0; i < p->nops; i++) p->ops[i].fd = -1;
  if (!prepared) return 0;
  if ((p->tpl_fd = tpl_get(p, stage)) < 0) return -1;
  if ((p->net_fd = net_get(p->key, stage)) < 0) return -1;
  return 0;
}

int ns_clone_flags(int run_as) {
  (void)run_as;
  if (prepared) return CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS;
  return CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP;
}

int ns_loopback_up(void) {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  memcpy(ifr.ifr_name, "lo", 3);
  int r = s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) != 0 ? -1 : 0;
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  if (r == 0) r = ioctl(s, SIOCSIFFLAGS, &ifr);
  if (s >= 0) close(s);
  return r;
}

/*
 * Root: the hook's own sources are cloned while the child still sees the host's mounts; then it
 * enters its tenant's network namespace and a private copy of the template, mounts its own phase,
 * and last takes a user namespace of its own (after which it can change no mount).
 */
static int enter_prepared(struct ns_plan *p, const struct contain_ids *ids, int run_as, const char **stage) {
  if (mounts_open(p, NS_HOOK, 0, stage) != 0) return -1;
  if (setns(p->net_fd, CLONE_NEWNET) != 0) return *stage = "setns network", -1;
  if (setns(p->tpl_fd, CLONE_NEWNS) != 0) return *stage = "setns mount", -1;
  if (unshare(CLONE_NEWNS | CLONE_NEWCGROUP) != 0) return *stage = "unshare", -1;
  if (mounts_build(p, "", NS_HOOK, 0, ids->is_root, stage) != 0) return -1;
  mounts_close(p);
  if (sethostname(NS_HOSTNAME, sizeof NS_HOSTNAME - 1) != 0) return *stage = "sethostname", -1;
  if (!run_as && (unshare(CLONE_NEWUSER) != 0 || contain_map(ids, stage) != 0)) return *stage = "user namespace", -1;
  return 0;
}

/* Unprivileged: the child is already in new namespaces of every kind; it builds the whole plan. */
static int enter_built(struct ns_plan *p, const struct contain_ids *ids, const char **stage) {
  if (contain_map(ids, stage) != 0) return -1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return *stage = "mount private", -1;
  if (mounts_open(p, 0, 0, stage) != 0 || mounts_open(p, NS_HOOK, 0, stage) != 0) return -1;
  if (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID, "mode=0755") != 0) return *stage = "tmpfs", -1;
  if (mounts_build(p, STAGE, 0, 0, 0, stage) != 0 || mounts_build(p, STAGE, NS_HOOK, 0, 0, stage) != 0) return -1;
  mounts_close(p);
  if (mount(NULL, STAGE, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID, "mode=0755") != 0) return *stage = "read-only root", -1;
  if (mounts_pivot(STAGE, stage) != 0) return -1;
  if (ns_loopback_up() != 0) return *stage = "loopback", -1;
  if (sethostname(NS_HOSTNAME, sizeof NS_HOSTNAME - 1) != 0) return *stage = "sethostname", -1;
  return 0;
}

int ns_enter(struct ns_plan *p, const struct contain_ids *ids, int run_as, const char **stage) {
  return prepared ? enter_prepared(p, ids, run_as, stage) : enter_built(p, ids, stage);
}
