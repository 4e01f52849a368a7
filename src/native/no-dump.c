/*
 * hw-no-dump.node: a Node-API module whose loading marks the process not dumpable
 * (prctl(PR_SET_DUMPABLE, 0)). Its /proc/<pid>/environ, mem, maps, fd and the rest then belong to
 * root and need CAP_SYS_PTRACE to read: a hook running as the same user beside the host (process
 * mode where the kernel refuses containment) cannot take the secrets hookwarden holds, nor the
 * environment it was started with (an agent's API keys). Process-mode hooks run without
 * capabilities, so a hook that is root on the host cannot either. host-guard.ts loads it.
 *
 * No headers: Node resolves the napi_* symbols this file uses from its own executable, and calls
 * napi_register_module_v1; its return value (true when the prctl succeeded) is the module's exports.
 */
#include <stdbool.h>
#include <sys/prctl.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef int napi_status;

extern napi_status napi_get_boolean(napi_env env, bool value, napi_value *result);

__attribute__((visibility("default"))) int node_api_module_get_api_version_v1(void) { return 8; }

__attribute__((visibility("default"))) napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value done;
  if (napi_get_boolean(env, prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0, &done) != 0) return exports;
  return done;
}
