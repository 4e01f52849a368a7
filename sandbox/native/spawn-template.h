/*
 * What namespace mode prepares once (spawn-ns.h), kept by a server that runs as root: a template
 * mount namespace per profile (the template phase of a plan, built once into a read-only tmpfs), and
 * a network namespace holding only `lo` per key (tenant). Both are held as descriptors and evicted
 * least recently used (a network namespace lives on while a hook still uses it).
 */
#ifndef HW_SPAWN_TEMPLATE_H
#define HW_SPAWN_TEMPLATE_H

#include "spawn-ns.h"

/* Once: the server's own mount and network namespaces, to return to. 0, or -1 with errno. */
int tpl_init(void);
/* The template of the plan's profile (built on first use): a descriptor of its mount namespace. */
int tpl_get(struct ns_plan *p, const char **stage);
/* The network namespace of a key (made on first use, `lo` up). */
int net_get(const char *key, const char **stage);

#endif
