#!/bin/sh
# Builds bench/wasm/trivial.wasm (Debian: apt-get install clang lld wasi-libc libclang-rt-dev-wasm32).
set -eu
cd "$(dirname "$0")"
clang --target=wasm32-wasi -O2 -s -o trivial.wasm trivial.c
