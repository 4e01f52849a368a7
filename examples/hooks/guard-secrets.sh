#!/bin/sh
# BeforeTool guard for file writes: touching a secrets file needs a human (decision "ask").
input=$(cat)
case "$input" in
  *'.env"'*|*'id_rsa'*|*'.pem"'*)
    printf '{"decision":"ask","reason":"%s"}\n' "writes to secret files need approval" ;;
esac
