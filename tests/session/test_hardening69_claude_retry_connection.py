"""What a request the Claude Code CLI retried failed with, when the network dropped it. CLI
2.1.2xx writes the retry as ``{"type": "system", "subtype": "api_error", "error": {"message":
"Connection error.", "formatted": …, "connection": {"code": "ECONNRESET", "message": …,
"isSSLError": false}, "isNetworkDown": false, …}, "retryAttempt": 1, "maxRetries": 10}`` (the
2.1.278 shape a public usage meter keeps as its self-test fixture, "key names and nesting copied
from real files", found with code search); the older shape named the cause as ``{"cause":
{"code": "FailedToOpenSocket"}}``.

Before: the connection's code was dropped: "API error: Connection error. (retry 1/10)", where
ECONNRESET (the peer reset it) and ECONNREFUSED (nothing listens: a proxy or a local gateway is
down) point at different fixes."""

from __future__ import annotations

import json

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code
from spec_debug.session.formats.common import Cursor


def _notes(tmp_path, errors: list[dict]) -> list[str]:
    envelope = {"sessionId": "s1", "cwd": "/w", "version": "2.1.278", "userType": "external", "isSidechain": False}
    lines = [{"type": "system", "subtype": "api_error", "level": "error", "uuid": f"u{n}", "parentUuid": None,
              "timestamp": f"2026-09-18T16:00:0{n}.000Z", "retryInMs": 541, "retryAttempt": n, "maxRetries": 10,
              "error": error, **envelope} for n, error in enumerate(errors, 1)]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return [e.text for e in claude_code.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats())]


def test_a_retry_the_network_dropped_says_the_connections_code(tmp_path):
    connection = {"message": "Connection error.", "formatted": "Connection error.",
                  "connection": {"code": "ECONNRESET", "message": "socket hang up", "isSSLError": False},
                  "isNetworkDown": False, "rateLimits": None, "noResponse": None}
    refused = {**connection, "connection": {**connection["connection"], "code": "ECONNREFUSED"}}
    assert _notes(tmp_path, [connection, refused]) == [
        "API error: Connection error. (ECONNRESET) (retry 1/10)",
        "API error: Connection error. (ECONNREFUSED) (retry 2/10)"]


def test_a_code_the_message_already_names_is_not_said_twice(tmp_path):
    said = {"message": "connect ECONNREFUSED 127.0.0.1:8080", "connection": {"code": "ECONNREFUSED"}}
    assert _notes(tmp_path, [said, {"cause": {"code": "FailedToOpenSocket"}}]) == [
        "API error: connect ECONNREFUSED 127.0.0.1:8080 (retry 1/10)", "API error: FailedToOpenSocket (retry 2/10)"]
