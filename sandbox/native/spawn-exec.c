/*
 * execvp for the spawn server's child (spawn-child.c): the program looked up on the PATH of the hook's
 * own environment (execvpe would search the server's), and a file without a #! line run with
 * /bin/sh, as execvp does. Called between the clone and the exec: system calls only, and nothing on
 * the stack that grows with the request (the /bin/sh argv was built by spawn_parse).
 */
#define _GNU_SOURCE
#include "spawn-exec.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* What execvp does for a file without a #! line: run it with /bin/sh. */
static void exec_shell(const struct spawn_request *r, const char *path) {
  r->shell_argv[1] = (char *)path;
  execve("/bin/sh", r->shell_argv, r->envp);
}

/* execvp with the PATH of the hook's own environment (execvpe would search the server's). */
void exec_program(const struct spawn_request *r) {
  const char *file = r->argv[0];
  if (file[0] == '\0') {
    errno = ENOENT;
    return;
  }
  if (strchr(file, '/') != NULL) {
    execve(file, r->argv, r->envp);
    if (errno == ENOEXEC) exec_shell(r, file);
    return;
  }
  const char *path = "/bin:/usr/bin";
  for (char **e = r->envp; *e != NULL; e++) {
    if (strncmp(*e, "PATH=", 5) == 0) {
      path = *e + 5;
      break;
    }
  }
  size_t flen = strlen(file);
  char buf[PATH_MAX];
  int eacces = 0;
  for (const char *p = path;;) {
    const char *end = strchrnul(p, ':');
    size_t dlen = (size_t)(end - p);
    if (dlen + flen + 2 <= sizeof buf) {
      /* An empty PATH element is the working directory. */
      if (dlen > 0) {
        memcpy(buf, p, dlen);
        buf[dlen++] = '/';
      }
      memcpy(buf + dlen, file, flen + 1);
      execve(buf, r->argv, r->envp);
      if (errno == ENOEXEC) {
        exec_shell(r, buf);
        return;
      }
      if (errno == EACCES) eacces = 1;
      else if (errno != ENOENT && errno != ENOTDIR && errno != ESTALE && errno != ENODEV && errno != ETIMEDOUT)
        return;
    }
    if (*end == '\0') break;
    p = end + 1;
  }
  errno = eacces ? EACCES : ENOENT;
}

