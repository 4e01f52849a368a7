/* The spawn server child's execvp (spawn-exec.c). */
#ifndef HW_SPAWN_EXEC_H
#define HW_SPAWN_EXEC_H

#include "spawn-child.h"

/* Execs r->argv with exactly r->envp; returns only on failure, errno set. */
void exec_program(const struct spawn_request *r);

#endif
