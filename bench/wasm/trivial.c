// The trivial wasm hook of bench/wasm-hook.ts: what the trivial JS hook does (src/measure/baselines.ts
// TRIVIAL_HOOK: deny when the tool is "rm", else allow), as a WASI command built with wasi-libc.
// Built by build.sh; the output is committed so the bench needs no toolchain.
#include <stdio.h>
#include <string.h>

static char input[1 << 16];

int main(void) {
  size_t n = fread(input, 1, sizeof input - 1, stdin);
  input[n] = 0;
  fputs(strstr(input, "\"toolName\":\"rm\"") ? "{\"decision\":\"deny\"}" : "{\"decision\":\"allow\"}", stdout);
  return 0;
}
