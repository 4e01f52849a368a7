#!/bin/sh
# BeforeTool guard for shell commands: a recursive, forced `rm` is refused. Exit 2 denies, and stderr
# is the reason; exit 0 without output takes no decision. Flags count in any order and spelling:
# -rf, -fr, -Rf, -r -f, --recursive --force. It reads the event JSON as text (no jq needed): every
# `rm` followed by option words is looked at, in the command and wherever else it appears.
# An illustration, not a sandbox: `$(echo rm) -rf`, `find -delete` or a script file get past it.
set -f
input=$(cat)
calls=$(printf '%s' "$input" | sed 's/\\[tn]/ /g' | grep -oE '(^|[^[:alnum:]_.-])rm([[:space:]]+-[^[:space:]"\\]+)+')
[ -z "$calls" ] && exit 0
printf '%s\n' "$calls" | while IFS= read -r call; do
  recursive=no
  force=no
  for word in $call; do
    case "$word" in
      --recursive) recursive=yes ;;
      --force) force=yes ;;
      --*) ;;
      -*)
        case "$word" in *[rR]*) recursive=yes ;; esac
        case "$word" in *f*) force=yes ;; esac
        ;;
    esac
  done
  if [ "$recursive" = yes ] && [ "$force" = yes ]; then
    echo "refusing a recursive forced delete (${call#?}): delete what you mean, without -rf" >&2
    exit 2
  fi
done
