/* The server's first words: the READY frame, and `--check`'s lines (see spawn-server.c). */
#define _GNU_SOURCE
#include "spawn-hello.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "spawn-cap.h"
#include "spawn-child.h"
#include "spawn-landlock.h"
#include "spawn-relay.h"
#include "spawn-wire.h"

/* `--check`: what this host lets the server do, one line each (see the top of this file). */
int print_check(void) {
  spawn_init();
  const char *why;
  if (containment_available(&why)) puts("contained");
  else printf("uncontained %s\n", why);
  if (ns_available(&why)) printf("namespace %s\n", ns_prepared() ? "prepared" : "built");
  else printf("no-namespace %s\n", why);
  printf("process-cap %s %s\n", cap_name(cap_best(1, !spawn_is_root())), cap_name(cap_best(1, !ns_prepared())));
  printf("landlock %d\n", landlock_abi());
  cap_cleanup();
  return 0;
}

/* The first frame: the protocol, this server, and what this host lets it do. */
void send_ready(void) {
  const char *why, *ns_why;
  uint8_t head[32];
  wire_u32(head, PROTOCOL);
  wire_u32(head + 4, (uint32_t)getpid());
  wire_u32(head + 8, (uint32_t)containment_available(&why));
  wire_u32(head + 12, (uint32_t)ns_available(&ns_why));
  wire_u32(head + 16, (uint32_t)cap_best(1, !spawn_is_root()));
  wire_u32(head + 20, (uint32_t)cap_best(1, !ns_prepared()));
  wire_u32(head + 24, (uint32_t)landlock_abi());
  wire_u32(head + 28, (uint32_t)strlen(why));
  char text[512];
  snprintf(text, sizeof text, "%s%s", why, ns_why);
  reply(REP_READY, 0, head, sizeof head, text, strlen(text));
}

