#!/bin/sh
# Builds the example wasm hooks from their sources, on Debian:
#   apt-get install clang lld wasi-libc libclang-rt-dev-wasm32 rustc libstd-rust-dev-wasm32
# The outputs (hooks/*.wasm) are committed: tests need no toolchain. Run this after changing a source.
set -eu
cd "$(dirname "$0")"
clang --target=wasm32-wasi -O2 -s -o hooks/protect-paths-c.wasm src/protect-paths.c
/usr/bin/rustc --target wasm32-wasi -C opt-level=s -C strip=symbols -C panic=abort \
  -o hooks/protect-paths-rust.wasm src/protect-paths.rs
ls -l hooks/protect-paths-c.wasm hooks/protect-paths-rust.wasm
# The pack's digest covers these files: lock it again (and sign it, if you sign it).
echo "now run: hookwarden pack lock $(pwd)"
