#!/bin/sh
# BeforeTool guard for shell commands: exit 2 denies, stderr is the reason.
input=$(cat)
case "$input" in
  *'rm -rf /'*|*'rm -rf ~'*) echo "refusing a recursive delete of / or ~" >&2; exit 2 ;;
  *'curl '*'| sh'*|*'curl '*'|sh'*) echo "refusing to pipe a download into a shell" >&2; exit 2 ;;
esac
exit 0
