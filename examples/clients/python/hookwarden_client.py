#!/usr/bin/env python3
"""A client of `hookwarden serve`, standard library only.

As a command (one dispatch; the HookInput JSON on stdin, camelCase or Claude Code's snake_case):

    python3 hookwarden_client.py --url http://127.0.0.1:8080 --token "$TOKEN" --event PreToolUse < input.json

prints the DispatchResult JSON on stdout and exits 2 on deny, 1 on any error (message on stderr),
0 on every other verdict, as `hookwarden dispatch` does. The token may also come from the
HOOKWARDEN_TOKEN environment variable (a command line is visible to other users of the machine).
A 429 (the tenant's queue is full) is retried after its Retry-After, --retries times.

As a module (keeps one keep-alive connection per client; not thread-safe: one client per thread):

    from hookwarden_client import HookwardenClient, HookwardenError
    client = HookwardenClient("http://127.0.0.1:8080", token)
    result = client.dispatch("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    if result["decision"] == "deny": ...
"""

import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse

__all__ = ["HookwardenClient", "HookwardenError", "exit_code"]


class HookwardenError(Exception):
    """The server answered an error (`status`, `code`, `message`), or could not be reached (status 0)."""

    def __init__(self, status, code, message, retry_after=None):
        super().__init__(f"{code}: {message}" if status == 0 else f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class HookwardenClient:
    """Dispatches events to a hookwarden server over one keep-alive HTTP connection."""

    def __init__(self, url, token, timeout=30.0):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"--url: expected http://HOST:PORT or https://HOST:PORT, got {url!r}")
        self._parsed = parsed
        self._token = token
        self._timeout = timeout
        self._conn = None

    def _connection(self):
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._parsed.scheme == "https" else http.client.HTTPConnection
            self._conn = cls(self._parsed.hostname, self._parsed.port, timeout=self._timeout)
        return self._conn

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _request(self, method, path, body):
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        prefix = self._parsed.path.rstrip("/")
        # A keep-alive connection the server closed meanwhile fails on first use: retry once, fresh.
        for attempt in (1, 2):
            try:
                conn = self._connection()
                conn.request(method, prefix + path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, response.getheader("Retry-After"), data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt == 2:
                    raise HookwardenError(0, "unreachable", "the server closed the connection")
            except OSError as err:
                self.close()
                raise HookwardenError(0, "unreachable", f"cannot reach {self._parsed.geturl()}: {err}") from err
        raise AssertionError("unreachable")

    def dispatch(self, event, hook_input=None):
        """Runs `event`'s hooks on `hook_input` (a dict); returns the DispatchResult (a dict)."""
        body = json.dumps({} if hook_input is None else hook_input).encode("utf-8")
        status, retry_after, data = self._request("POST", "/v1/dispatch/" + urllib.parse.quote(event, safe=""), body)
        try:
            answer = json.loads(data) if data else None
        except ValueError:
            answer = None
        if status == 200 and isinstance(answer, dict) and "decision" in answer:
            return answer
        error = answer.get("error") if isinstance(answer, dict) else None
        if isinstance(error, dict):
            raise HookwardenError(status, str(error.get("code")), str(error.get("message")), retry_after)
        raise HookwardenError(status, "bad_answer", f"unexpected answer: {data[:200]!r}", retry_after)


def exit_code(result):
    """The hook protocol's exit status of a DispatchResult: 2 on deny, else 0."""
    return 2 if result.get("decision") == "deny" else 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Dispatch one event to a hookwarden server (HookInput JSON on stdin).",
        epilog="Exit status: 2 deny, 1 error, 0 any other verdict (allow, ask, defer, passthrough).",
    )
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--token", default=os.environ.get("HOOKWARDEN_TOKEN"), help="bearer token (default: $HOOKWARDEN_TOKEN)")
    parser.add_argument("--event", required=True, help="event name or alias, e.g. PreToolUse")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for the answer (default 30)")
    parser.add_argument("--retries", type=int, default=2, help="retries of a 429 after its Retry-After (default 2)")
    args = parser.parse_args(argv)
    if not args.token:
        print("hookwarden_client: error: give --token or set HOOKWARDEN_TOKEN", file=sys.stderr)
        return 1
    text = sys.stdin.read()
    try:
        hook_input = json.loads(text) if text.strip() else {}
    except ValueError as err:
        print(f"hookwarden_client: error: stdin is not JSON: {err}", file=sys.stderr)
        return 1
    if not isinstance(hook_input, dict):
        print("hookwarden_client: error: stdin must hold a JSON object (a HookInput)", file=sys.stderr)
        return 1
    try:
        client = HookwardenClient(args.url, args.token, timeout=args.timeout)
    except ValueError as err:
        print(f"hookwarden_client: error: {err}", file=sys.stderr)
        return 1
    try:
        for attempt in range(args.retries + 1):
            try:
                result = client.dispatch(args.event, hook_input)
                break
            except HookwardenError as err:
                if err.status != 429 or attempt == args.retries:
                    raise
                time.sleep(min(float(err.retry_after or 1), 30.0))
    except HookwardenError as err:
        print(f"hookwarden_client: error: {err}", file=sys.stderr)
        return 1
    finally:
        client.close()
    print(json.dumps(result))
    return exit_code(result)


if __name__ == "__main__":
    sys.exit(main())
