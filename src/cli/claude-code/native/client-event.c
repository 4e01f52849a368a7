/*
 * The adapters hookwarden-client speaks for, and its answer when no adapter can: the fail-closed
 * answer of the call's event, from the table the build generates from the adapters' own specs
 * (scripts/client-tables.ts): a block where the event can block (and when it is unknown), a
 * non-blocking error elsewhere, in the agent's protocol. The event is --event where the adapter takes
 * it and it is given (Copilot CLI's inputs do not name theirs), else the input's hook_event_name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "agents.gen.h"

const struct hw_agent *hw_agent_of(const char *command) {
  for (int i = 0; i < HW_AGENT_COUNT; i++)
    if (strcmp(HW_AGENTS[i].command, command) == 0) return &HW_AGENTS[i];
  return NULL;
}

/* --- a top-level string member of a JSON object, by a scanner that skips every other value --- */

static size_t skip_ws(const char *p, size_t i, size_t n) {
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
  return i;
}

/* Past the string at p[i] (its opening quote); n+1 when it does not end. */
static size_t skip_string(const char *p, size_t i, size_t n) {
  for (i++; i < n; i++) {
    if (p[i] == '\\') i++;
    else if (p[i] == '"') return i + 1;
  }
  return n + 1;
}

/* Past the value at p[i]: a string, or anything up to the ',' or '}' that ends it at depth 0. */
static size_t skip_value(const char *p, size_t i, size_t n) {
  int depth = 0;
  while (i < n) {
    char ch = p[i];
    if (ch == '"') {
      i = skip_string(p, i, n);
      if (depth == 0) return i;
      continue;
    }
    if (ch == '{' || ch == '[') depth++;
    else if (ch == '}' || ch == ']') {
      if (depth == 0) return i;
      depth--;
    } else if (ch == ',' && depth == 0)
      return i;
    i++;
  }
  return n + 1;
}

/*
 * The string value of `key` at the top level of the object in p[0..n) into out, the last one when
 * the key repeats (as JSON.parse reads it); 0, or -1 (not there, not a plain string, not an object).
 */
static int member(const char *p, size_t n, const char *key, char *out, size_t outn) {
  size_t klen = strlen(key), i = 0;
  int found = -1;
  if (n >= 3 && (unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb && (unsigned char)p[2] == 0xbf) i = 3;
  i = skip_ws(p, i, n);
  if (i >= n || p[i] != '{') return -1;
  i = skip_ws(p, i + 1, n);
  if (i < n && p[i] == '}') return -1;
  for (;;) {
    if (i >= n || p[i] != '"') return -1;
    size_t kstart = i + 1, kend = skip_string(p, i, n);
    if (kend > n) return -1;
    int match = kend - 1 - kstart == klen && memcmp(p + kstart, key, klen) == 0;
    i = skip_ws(p, kend, n);
    if (i >= n || p[i] != ':') return -1;
    i = skip_ws(p, i + 1, n);
    size_t vend = skip_value(p, i, n);
    if (vend > n) return -1;
    if (match) {
      found = -1;
      size_t len = vend - i - 2;
      if (p[i] == '"' && len < outn && memchr(p + i + 1, '\\', len) == NULL) {
        memcpy(out, p + i + 1, len);
        out[len] = '\0';
        found = 0;
      }
    }
    i = skip_ws(p, vend, n);
    if (i < n && p[i] == '}') return found;
    if (i >= n || p[i] != ',') return -1;
    i = skip_ws(p, i + 1, n);
  }
}

/* The call's event: the last --event where the adapter takes it, else the input's hook_event_name. */
static const char *event_of(const struct client *c, char *buf, size_t n) {
  const char *flag = NULL;
  if (c->agent->event_flag)
    for (int i = 1; i < c->nargs; i++) {
      if (strcmp(c->args[i], "--event") == 0 && i + 1 < c->nargs) flag = c->args[++i];
      else if (strncmp(c->args[i], "--event=", 8) == 0) flag = c->args[i] + 8;
    }
  if (flag != NULL) return flag;
  if (c->input != NULL && member(c->input, c->input_len, "hook_event_name", buf, n) == 0) return buf;
  return NULL;
}

/* --- writing the answer --- */

static void put(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

/* The reason as the inside of a JSON string (JSON.stringify's escapes). */
static void put_json(int fd, const char *s) {
  char esc[8];
  for (; *s != '\0'; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') {
      esc[0] = '\\';
      esc[1] = (char)ch;
      put(fd, esc, 2);
    } else if (ch < 0x20) {
      const char *named = ch == '\n' ? "\\n" : ch == '\t' ? "\\t" : ch == '\r' ? "\\r" : ch == '\b' ? "\\b" : ch == '\f' ? "\\f" : NULL;
      if (named != NULL) put(fd, named, 2);
      else put(fd, esc, (size_t)snprintf(esc, sizeof esc, "\\u%04x", ch));
    } else
      put(fd, (const char *)s, 1);
  }
}

static void put_template(int fd, const char *t, const char *reason, int json) {
  for (const char *at; (at = strchr(t, '\x01')) != NULL; t = at + 1) {
    put(fd, t, (size_t)(at - t));
    if (json) put_json(fd, reason);
    else put(fd, reason, strlen(reason));
  }
  put(fd, t, strlen(t));
}

int hw_fail_closed(const struct client *c, const char *reason) {
  char buf[256];
  const struct hw_agent *a = c->agent;
  const char *event = event_of(c, buf, sizeof buf);
  int index = a->unknown;
  for (int i = 0; event != NULL && i < a->count; i++)
    if (strcmp(HW_EVENTS[a->first + i].name, event) == 0) index = HW_EVENTS[a->first + i].answer;
  /* One line: the adapters' reasons are (failureLine keeps the first). */
  char line[1024];
  snprintf(line, sizeof line, "%s", reason);
  line[strcspn(line, "\n")] = '\0';
  const struct hw_answer *answer = &HW_ANSWERS[index];
  put_template(2, answer->err, line, 0);
  put_template(1, answer->out, line, 1);
  return answer->code;
}
