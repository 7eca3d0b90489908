"""LiteLLM's payload of a call that failed (``status: "failure"``, ``response`` empty, ``error_str``)
has no answer whose ``created`` says when: its agent error had no time, so a rate limit in the
middle of a run could not be placed on the timeline. The payload's ``endTime`` (epoch seconds,
BerriAI/litellm ``litellm/types/utils.py`` StandardLoggingPayload) is when the error came back.
The GCS logger keeps such a call as ``<YYYY-MM-DD>/failure-<hex>`` (``litellm/integrations/gcs_bucket/
gcs_bucket.py``, ``_generate_failure_object_name``)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening68_call_folder_order import CALLS, STARTS, _payload

_LIMIT = "litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached for gpt-4.1"


def _failed(messages: list, start: float) -> dict:
    payload = _payload("c3", messages, {}, start)
    payload.update(status="failure", response={}, error_str=_LIMIT,
                   error_information={"error_code": "429", "error_class": "RateLimitError",
                                      "llm_provider": "openai", "error_message": _LIMIT})
    return payload


def test_a_failed_call_in_a_gcs_day_folder_is_dated_by_its_end(tmp_path: Path) -> None:
    day = tmp_path / "2025-12-05"
    day.mkdir()
    for (messages, answer), start in zip(CALLS[:2], STARTS):
        payload = _payload(f"c{int(start)}", messages, answer, start)
        (day / payload["response"]["id"]).write_text(json.dumps(payload))
    (day / "failure-3f2a9c1b7e4d4a0b9c8d7e6f5a4b3c2d").write_text(json.dumps(_failed(CALLS[2][0], STARTS[2])))
    doc = analyze_path(day).to_json()
    assert [(e["kind"], e["message"], e["timestamp"], Path(e["source_file"]).name) for e in doc["errors"]
            if e["kind"] == "agent_error"] == [
        ("agent_error", _LIMIT, "2025-12-05T10:21:34.300Z", "failure-3f2a9c1b7e4d4a0b9c8d7e6f5a4b3c2d")]


def test_a_failed_call_in_a_jsonl_log_is_dated_by_its_end(tmp_path: Path) -> None:
    path = tmp_path / "litellm.jsonl"
    path.write_text(json.dumps(_failed(CALLS[0][0], 1764930080.1)) + "\n")
    doc = analyze_path(path).to_json()
    assert [(e["message"], e["timestamp"]) for e in doc["errors"]] == [(_LIMIT, "2025-12-05T10:21:22.600Z")]
