// A wasm hook in C (WASI preview 1, built by ../build.sh with Debian's clang, lld and wasi-libc): the
// same guard as examples/hooks/protect-paths.js. It reads the HookInput JSON on stdin, denies a write
// to a system path (exit 2, the reason on stderr), asks before a lock file is written (JSON on
// stdout), and says nothing otherwise (exit 0). A small JSON scanner, enough to find "file_path".
#include <stdio.h>
#include <string.h>

static char input[1 << 20];
static char path[4096];

static const char *const SYSTEM[] = {"/etc/", "/usr/", "/bin/", "/boot/"};
static const char *const LOCKS[] = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml"};

// Reads the JSON string starting at s (just after its opening quote) into out; returns the position
// after its closing quote, or NULL. Escapes are decoded; \u escapes beyond ASCII become '?'.
static const char *read_string(const char *s, char *out, size_t cap) {
  size_t n = 0;
  while (*s && *s != '"') {
    char c = *s++;
    if (c == '\\') {
      char e = *s++;
      if (e == 0) return NULL;
      if (e == 'n') c = '\n';
      else if (e == 't') c = '\t';
      else if (e == 'r') c = '\r';
      else if (e == 'b') c = '\b';
      else if (e == 'f') c = '\f';
      else if (e == 'u') {
        unsigned v = 0;
        for (int i = 0; i < 4; i++) {
          char h = *s++;
          v = v * 16 + (h >= '0' && h <= '9' ? h - '0' : (h | 32) >= 'a' && (h | 32) <= 'f' ? (h | 32) - 'a' + 10 : 0);
          if (h == 0) return NULL;
        }
        c = v < 128 ? (char)v : '?';
      } else c = e;
    }
    if (out != NULL && n + 1 < cap) out[n++] = c;
  }
  if (out != NULL) out[n] = 0;
  return *s == '"' ? s + 1 : NULL;
}

// Finds the first key "file_path" whose value is a string, anywhere in the JSON, into path.
static int find_file_path(const char *s) {
  char key[16];
  while (*s) {
    if (*s != '"') {
      s++;
      continue;
    }
    s = read_string(s + 1, key, sizeof key);
    if (s == NULL) return 0;
    const char *t = s;
    while (*t == ' ' || *t == '\n' || *t == '\r' || *t == '\t') t++;
    if (*t != ':' || strcmp(key, "file_path") != 0) continue;
    t++;
    while (*t == ' ' || *t == '\n' || *t == '\r' || *t == '\t') t++;
    if (*t == '"') return read_string(t + 1, path, sizeof path) != NULL;
    s = t;
  }
  return 0;
}

static int ends_with_name(const char *p, const char *name) {
  size_t lp = strlen(p), ln = strlen(name);
  if (lp < ln || strcmp(p + lp - ln, name) != 0) return 0;
  return lp == ln || p[lp - ln - 1] == '/';
}

int main(void) {
  size_t n = fread(input, 1, sizeof input - 1, stdin);
  input[n] = 0;
  if (!find_file_path(input)) return 0;
  for (size_t i = 0; i < sizeof SYSTEM / sizeof *SYSTEM; i++) {
    if (strncmp(path, SYSTEM[i], strlen(SYSTEM[i])) == 0) {
      fprintf(stderr, "protect-paths: %s is a system path", path);
      return 2;
    }
  }
  for (size_t i = 0; i < sizeof LOCKS / sizeof *LOCKS; i++) {
    if (ends_with_name(path, LOCKS[i])) {
      fputs("{\"decision\":\"ask\",\"reason\":\"lock files are normally written by the package manager\"}", stdout);
      return 0;
    }
  }
  return 0;
}
