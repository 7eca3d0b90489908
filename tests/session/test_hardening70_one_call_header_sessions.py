"""A client that keeps its ``session_id`` request header for a whole conversation (the log shows it:
another value recurs on several calls) and makes a run of one call: since 5740a09f a header value
sent once was dropped (a client may stamp each request afresh), so the one call had no name and, as a
call alone, went on the conversation before it: another run's session got its prompt and command
(``ssh gpu09 ...`` counted in the gpu07 run). Now a value sent once is a conversation of one call
where the log's headers are kept and no other call resends its first prompt; a fresh-stamping
client's run beside it (its calls resend one first prompt) stays one conversation."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening70_request_session_headers import _record, _tool_call


def _other_run(header: str) -> dict:
    """A run of one call, another prompt on another host."""
    record = _record(0, {"session_id": header})
    record["request"]["body"]["messages"][1] = {"role": "user", "content": "list the GPUs on gpu09"}
    record["response"]["body"]["choices"][0]["message"] = _tool_call("call_9", "ssh gpu09 nvidia-smi -L")
    return record


def _folder(tmp_path: Path, records: list[dict]) -> dict:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, record in enumerate(records):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record))
    return analyze_path(logs).to_json()


def test_a_one_call_run_with_its_own_kept_header_is_a_session_of_its_own(tmp_path: Path) -> None:
    run = [_record(n, {"session_id": "run-x"}) for n in range(3)]
    doc = _folder(tmp_path, [run[0], _other_run("run-y"), run[1], run[2]])
    assert sorted((c["session"], c["command"]) for c in doc["commands"]) == [
        ("2025-12-05_10-21-21-000000", "ssh gpu09 nvidia-smi -L"),
        ("logs#run-x", "ssh gpu07 'tail -n 50 sglang.log'"), ("logs#run-x", "ssh gpu07 nvidia-smi")]
    assert sorted((p["session"], p["text"]) for p in doc["prompts"]) == [
        ("2025-12-05_10-21-21-000000", "list the GPUs on gpu09"),
        ("logs#run-x", "why did the EAGLE-3 accept length drop on gpu07?")]


def test_a_fresh_stamping_run_beside_a_kept_header_stays_one_conversation(tmp_path: Path) -> None:
    fresh = [_record(n, {"session_id": f"5f1c9a2e-77b0-4d1e-9c3a-00000000000{n}"}) for n in range(3)]
    doc = _folder(tmp_path, [_other_run("run-y"), _other_run("run-y"), *fresh])
    sessions = {c["session"] for c in doc["commands"] if "gpu07" in c["command"]}
    assert len(sessions) == 1 and len(doc["sessions"]) == 2
    assert [c["command"] for c in doc["commands"] if "gpu07" in c["command"]] == [
        "ssh gpu07 nvidia-smi", "ssh gpu07 'tail -n 50 sglang.log'"]
