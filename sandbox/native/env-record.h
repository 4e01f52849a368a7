/* What hookwarden's native helpers accept as an environment record (hw-exec.c, spawn-wire.c). */
#ifndef HW_ENV_RECORD_H
#define HW_ENV_RECORD_H

/* NAME=VALUE with NAME in [A-Za-z_][A-Za-z0-9_]*. */
static inline int valid_env_record(const char *s) {
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
  for (s++; *s != '='; s++) {
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  }
  return 1;
}

#endif
