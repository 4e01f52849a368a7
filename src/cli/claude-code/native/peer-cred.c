// peer-cred.node: the credentials of the process at the other end of a connected Unix socket, as
// the kernel reports them (SO_PEERCRED): the Claude Code daemon refuses a peer of another user
// (src/cli/claude-code/daemon/peer-cred.ts). Node has no API for it; this N-API addon is the one
// call. Built by `npm run build` (scripts/build-client.ts) against the running Node's headers.
#define _GNU_SOURCE
#include <errno.h>
#include <node_api.h>
#include <string.h>
#include <sys/socket.h>

static napi_value fail(napi_env env, const char *what) {
  napi_throw_error(env, NULL, what);
  return NULL;
}

static int set_number(napi_env env, napi_value obj, const char *name, double value) {
  napi_value v;
  return napi_create_double(env, value, &v) == napi_ok &&
         napi_set_named_property(env, obj, name, v) == napi_ok;
}

// peerCred(fd) -> { pid, uid, gid }; throws with strerror(errno).
static napi_value peer_cred(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok)
    return fail(env, "peerCred(fd): expected a file descriptor");
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return fail(env, strerror(errno));
  napi_value obj;
  if (napi_create_object(env, &obj) != napi_ok || !set_number(env, obj, "pid", cred.pid) ||
      !set_number(env, obj, "uid", cred.uid) || !set_number(env, obj, "gid", cred.gid))
    return fail(env, "peerCred: cannot build the result");
  return obj;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "peerCred", NAPI_AUTO_LENGTH, peer_cred, NULL, &fn) != napi_ok ||
      napi_set_named_property(env, exports, "peerCred", fn) != napi_ok)
    return NULL;
  return exports;
}
