"""Kimi Code's wire records are ``{type: "<domain>.<what>", ...payload, time}`` with ``time`` in
epoch milliseconds and ``<domain>`` one of the manifest's (MoonshotAI/kimi-code
``packages/agent-core-v2/docs/wire-manifest.d.ts``, its index of 64 record types). Other logs of
dotted types with a time are no Kimi Code session: before, detection took any such line and the
file was read as an empty Kimi session (its records dropped as Kimi Code's bookkeeping); now they
are unknown records, as before Kimi Code was read. The CloudEvents lines are the JSON format's
examples (cloudevents/spec ``cloudevents/formats/json-format.md``)."""

from __future__ import annotations

import json

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

CLOUD_EVENTS = [
    {"specversion": "1.0", "type": "com.github.pull_request.opened",
     "source": "https://github.com/cloudevents/spec/pull", "subject": "123", "id": "A234-1234-1234", "time": "2018-04-05T17:31:00Z", "comexampleextension1": "value",
     "comexampleothervalue": 5, "datacontenttype": "text/xml", "data": '<much wow="xml"/>'},
    {"specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext", "id": "A234-1234-1234",
     "time": "2018-04-05T17:31:00Z", "datacontenttype": "application/json", "data": {"appinfoA": "abc"}},
]
APP_LOG = [
    {"type": "http.request", "time": 1789559572000, "method": "POST", "url": "/v1/chat/completions", "status": 200},
    {"type": "http.request", "time": 1789559573000, "method": "GET", "url": "/metrics", "status": 200},
]


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_cloud_events_are_no_kimi_code_session(tmp_path):
    # (round 68: named alone, such a log is no transcript at all, no longer an empty Claude Code
    # session of unknown lines: test_hardening68_hook_logs)
    path = _write(tmp_path / "events.jsonl", CLOUD_EVENTS)
    with pytest.raises(UsageError, match="their types: com.github.pull_request.opened \\(1\\), com.example"):
        discover(path)


def test_an_application_log_of_dotted_types_and_epoch_times_is_no_kimi_code_session(tmp_path):
    path = _write(tmp_path / "server.jsonl", APP_LOG)
    with pytest.raises(UsageError, match="not a session transcript .*their types: http.request \\(2\\)"):
        discover(path)


def test_a_kimi_code_tail_is_still_told_by_its_records(tmp_path):
    rows = [{"type": "turn.prompt", "agentId": "main", "origin": {"kind": "user"}, "time": 1789559572000,
             "input": [{"type": "text", "text": "why is the draft never accepted?"}]},
            {"type": "context.append_message", "agentId": "main",
             "message": {"role": "assistant", "content": [{"type": "text", "text": "Checking."}], "toolCalls": []}}]
    path = _write(tmp_path / "tail.jsonl", rows)
    assert discover(path)[0].format == "kimi"
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == ["why is the draft never accepted?"]
