/* hookwarden-client's frames and digests; see client-wire.h. */
#define _GNU_SOURCE
#include "client-wire.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sha256.h"

int hw_put(struct hw_buf *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap == 0 ? 4096 : b->cap;
    while (cap < b->len + n) cap *= 2;
    char *q = realloc(b->p, cap);
    if (q == NULL) return -1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

int hw_put_str(struct hw_buf *b, const char *s) { return hw_put(b, s, strlen(s) + 1); }

void hw_buf_free(struct hw_buf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

int64_t hw_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` or the deadline; 0, or -1 with errno. */
static int wait_for(int fd, short events, int64_t deadline) {
  for (;;) {
    int timeout = -1;
    if (deadline >= 0) {
      int64_t left = deadline - hw_now_ms();
      if (left <= 0) return errno = ETIMEDOUT, -1;
      timeout = left > 1000000 ? 1000000 : (int)left;
    }
    struct pollfd p = {.fd = fd, .events = events};
    int r = poll(&p, 1, timeout);
    if (r > 0) return 0;
    if (r < 0 && errno != EINTR) return -1;
  }
}

static int send_all(int fd, const char *p, size_t n, int64_t deadline) {
  while (n > 0) {
    if (wait_for(fd, POLLOUT, deadline) != 0) return -1;
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int hw_send_frame(int fd, const struct hw_buf *b, int64_t deadline) {
  uint8_t head[4] = {(uint8_t)(b->len >> 24), (uint8_t)(b->len >> 16), (uint8_t)(b->len >> 8), (uint8_t)b->len};
  if (send_all(fd, (const char *)head, 4, deadline) != 0) return -1;
  return send_all(fd, b->p, b->len, deadline);
}

static int recv_all(int fd, char *p, size_t n, int64_t deadline) {
  while (n > 0) {
    if (wait_for(fd, POLLIN, deadline) != 0) return -1;
    ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
    if (r == 0) return errno = ECONNRESET, -1;
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -1;
    }
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

int hw_recv_frame(int fd, char **out, size_t *len, size_t max, int64_t deadline) {
  uint8_t head[4];
  if (recv_all(fd, (char *)head, 4, deadline) != 0) return -1;
  size_t n = (size_t)head[0] << 24 | (size_t)head[1] << 16 | (size_t)head[2] << 8 | head[3];
  if (n > max) return errno = EPROTO, -1;
  char *p = malloc(n + 1);
  if (p == NULL) return -1;
  if (recv_all(fd, p, n, deadline) != 0) {
    int e = errno;
    free(p);
    return errno = e, -1;
  }
  p[n] = '\0';
  *out = p;
  *len = n;
  return 0;
}

/* Largest file digested (read-log.ts MAX_DIGEST_BYTES). */
#define MAX_DIGEST_BYTES (64LL * 1024 * 1024)

static const char *error_digest(int e) { return e == ENOENT ? "absent" : "unreadable"; }

static void file_digest(const char *path, int nofollow, char out[80]) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
  if (fd < 0) {
    strcpy(out, error_digest(errno));
    return;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_DIGEST_BYTES) {
    strcpy(out, "unreadable");
    close(fd);
    return;
  }
  struct sha256 s;
  sha256_init(&s);
  char buf[65536];
  for (;;) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      strcpy(out, "unreadable");
      close(fd);
      return;
    }
    sha256_update(&s, buf, (size_t)r);
  }
  close(fd);
  sha256_hex(&s, out);
}

static int by_bytes(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* SHA-256 over each name and a NUL, in byte order (strcmp compares as unsigned char). */
static void dir_digest(const char *path, char out[80]) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    strcpy(out, error_digest(errno));
    return;
  }
  DIR *d = fdopendir(fd);
  if (d == NULL) {
    close(fd);
    strcpy(out, "unreadable");
    return;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  int failed = 0;
  for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (count == cap) {
      cap = cap == 0 ? 64 : cap * 2;
      char **more = realloc(names, cap * sizeof *names);
      if (more == NULL) {
        failed = 1;
        break;
      }
      names = more;
    }
    if ((names[count] = strdup(e->d_name)) == NULL) {
      failed = 1;
      break;
    }
    count++;
  }
  closedir(d);
  if (!failed) {
    qsort(names, count, sizeof *names, by_bytes);
    struct sha256 s;
    sha256_init(&s);
    for (size_t i = 0; i < count; i++) sha256_update(&s, names[i], strlen(names[i]) + 1);
    sha256_hex(&s, out);
  } else
    strcpy(out, "unreadable");
  for (size_t i = 0; i < count; i++) free(names[i]);
  free(names);
}

void hw_digest(char kind, const char *path, char out[80]) {
  struct stat st;
  switch (kind) {
    case 'f':
    case 'F':
      file_digest(path, kind == 'F', out);
      return;
    case 'd':
      dir_digest(path, out);
      return;
    case 'e':
      strcpy(out, stat(path, &st) == 0 && S_ISREG(st.st_mode) ? "present" : "absent");
      return;
    case 's':
      if (stat(path, &st) != 0) {
        strcpy(out, error_digest(errno));
        return;
      }
      snprintf(out, 80, "%llu:%lld:%lld:%lld", (unsigned long long)st.st_ino, (long long)st.st_size,
               (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
               (long long)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec);
      return;
    default:
      strcpy(out, "unreadable");
  }
}
