"""A timeout the command said it would retry is not its failure when it later said the timeout it
gave up on: the error is that later line, not the first retried one.

The outputs are real (hardening 72, failures6): a bash readiness loop (`curl -sS -m 1` twice
against a loopback port that accepted and never answered, "retrying in 1s" after each, then its
own "TimeoutError: ..." and exit 1), and pip 23.2 downloading from such an index with
`--timeout 1 --retries 2` (urllib3's "WARNING: Retrying (Retry(...)) after connection broken by
'ReadTimeoutError(...Read timed out...)'" twice, then "from versions: none", exit 1).
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

WAIT_READY = (
    "curl: (28) Operation timed out after 1001 milliseconds with 0 bytes received\n"
    "attempt 1/2 failed, retrying in 1s\n"
    "curl: (28) Operation timed out after 1001 milliseconds with 0 bytes received\n"
    "attempt 2/2 failed, retrying in 1s\n"
    "TimeoutError: server at 127.0.0.1:39871 not ready after 2 attempts\n"
)

PIP_RETRIES = (
    "Looking in indexes: http://127.0.0.1:39871/simple\n"
    "Looking in links: /opt/wheels\n"
    "WARNING: Retrying (Retry(total=1, connect=None, read=None, redirect=None, status=None)) after connection "
    "broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='127.0.0.1', port=39871): Read timed out. "
    "(read timeout=1.0)\")': /simple/sglang/\n"
    "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection "
    "broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='127.0.0.1', port=39871): Read timed out. "
    "(read timeout=1.0)\")': /simple/sglang/\n"
    "ERROR: Could not find a version that satisfies the requirement sglang (from versions: none)\n"
    "ERROR: No matching distribution found for sglang\n"
)


def test_the_timeout_given_up_on_is_the_error():
    # before: ("timeout", "curl: (28) Operation timed out after 1001 ..."), the first attempt's
    assert [(e.kind, e.message) for e in extract_errors(WAIT_READY, 1, True)] == [
        ("timeout", "TimeoutError: server at 127.0.0.1:39871 not ready after 2 attempts")]


def test_a_retry_said_on_the_timeouts_own_line():
    # huggingface_hub's http_backoff: the timeout, "Retrying in 1s [Retry 1/5].", then its end
    out = ("'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. "
           "(read timeout=10)\"), '(Request ID: 1f2e)')' thrown while requesting HEAD "
           "https://huggingface.co/yuhuili/EAGLE3-LLaMA3.1-Instruct-8B/resolve/main/config.json\n"
           "Retrying in 1s [Retry 1/5].\n"
           "download timed out: gave up on config.json after 5 retries\n")
    assert [(e.kind, e.message) for e in extract_errors(out, 1, True)] == [
        ("timeout", "download timed out: gave up on config.json after 5 retries")]


def test_only_retried_timeouts_keep_the_first():
    # pip said no timeout of its own after its retries: the retried one is all there is
    (error,) = extract_errors(PIP_RETRIES, 1, True)
    assert (error.kind, error.message) == ("timeout", PIP_RETRIES.splitlines()[2])


def test_exit_124_is_unchanged():
    assert [(e.kind, e.message) for e in extract_errors(WAIT_READY, 124, True)] == [
        ("timeout", "timed out (exit 124): TimeoutError: server at 127.0.0.1:39871 not ready after 2 attempts")]


def test_the_session_error_is_the_last_timeout(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Is the SGLang server up yet?"},
        {"role": "assistant", "content": "Polling it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "bash wait_ready.sh"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": WAIT_READY + "[exit code: 1]"},
    ]
    path = tmp_path / "wait.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    assert [(e.kind, e.message) for e in analyze_path(path).errors] == [
        ("timeout", "TimeoutError: server at 127.0.0.1:39871 not ready after 2 attempts")]
