"""A 2026 Codex rollout (paginated history: no ``error`` event is kept) whose turn failed at the
provider ends the turn with ``task_complete{error: {message, codex_error_info}}``: that is an error
of the session. Before, a system note with no text: the 404 was lost and the run looked clean.
Lines shaped as real ``codex exec`` 0.149 rollouts quoted in a 2026 research note (ordinal,
world_state, retained_context lines; the last a line type that was counted unknown)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

THREAD = "01a0ae76-2436-7590-9a11-216f21269bb4"
TURN = "01a0ae76-249c-7d50-8741-f6c69ea4ef30"
NOT_FOUND = "unexpected status 404 Not Found: Unknown error, url: https://open.bigmodel.cn/api/coding/paas/v4/responses"


def _lines(*records: tuple[str, dict]) -> str:
    return "".join(json.dumps({"timestamp": f"2026-09-17T08:22:5{n}.411Z", "ordinal": n, "type": kind,
                               "payload": payload}) + "\n" for n, (kind, payload) in enumerate(records))


def _rollout(tmp_path, end: dict, *before: tuple[str, dict]):
    path = tmp_path / f"rollout-2026-09-17T16-22-53-{THREAD}.jsonl"
    path.write_text(_lines(
        ("session_meta", {"session_id": THREAD, "id": THREAD, "cwd": "D:\\compare", "originator": "codex_exec",
                          "cli_version": "0.149.1", "source": "exec", "history_mode": "paginated"}),
        ("event_msg", {"type": "task_started", "turn_id": TURN, "model_context_window": 190000}),
        ("world_state", {"full": True, "state": {}}),
        ("retained_context", {"turn_id": TURN}),
        ("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "reply ok"}]}),
        *before,
        ("event_msg", {"type": "task_complete", "turn_id": TURN, "last_agent_message": None, "duration_ms": 6902,
                       **end}),
    ))
    return analyze_path(path).to_json()


def test_a_turn_that_failed_at_the_provider_is_an_error(tmp_path):
    doc = _rollout(tmp_path, {"error": {"message": NOT_FOUND, "codex_error_info": "other"}})
    assert doc["sessions"][0]["unknown_types"] == 0
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [("agent_error", NOT_FOUND)]


def test_an_error_event_and_the_turn_end_repeating_it_are_one_error(tmp_path):
    doc = _rollout(tmp_path, {"error": {"message": NOT_FOUND}}, ("event_msg", {"type": "error", "message": NOT_FOUND}))
    assert [e["message"] for e in doc["errors"]] == [NOT_FOUND]


def test_a_turn_that_ended_well_is_no_error(tmp_path):
    assert _rollout(tmp_path, {"last_agent_message": "ok"})["errors"] == []
