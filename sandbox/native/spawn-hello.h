/*
 * What the server says of itself (spawn-hello.c): its READY frame, the first it sends, and the lines
 * of `hw-spawn-server --check`. Both report the same checks (spawn_init's).
 */
#ifndef HW_SPAWN_HELLO_H
#define HW_SPAWN_HELLO_H

/* The protocol version, in READY; hookwarden refuses a server of another one. */
#define PROTOCOL 3

/* Appends the READY frame for the host (after spawn_init). */
void send_ready(void);
/* `--check`: runs spawn_init, prints one line per check, and returns the exit status (0). */
int print_check(void);

#endif
