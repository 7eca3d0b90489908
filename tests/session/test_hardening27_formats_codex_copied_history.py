"""A 2026 Codex sub-agent rollout starts with its own session_meta, then the parent's session_meta
and a copy of the parent's conversation; its own lines start at ``subagent_history_start_ordinal``
(rollout readers skip ``ordinal < start`` as inherited). Named alone, the copy was read as the
sub-agent's work: the parent's failed ssh was its command and its error."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

PARENT = "019b0000-0000-7000-8000-000000000001"
CHILD = "019b0000-0000-7000-8000-000000000002"
SSH = "ssh gpu-node-3 nvidia-smi"


def _rollout(records: list[tuple[str, dict]]) -> str:
    return "".join(json.dumps({"timestamp": f"2026-10-04T10:00:{n:02d}.000Z", "ordinal": n, "type": kind,
                               "payload": payload}) + "\n" for n, (kind, payload) in enumerate(records))


def _call(call_id: str, cmd: str) -> tuple[str, dict]:
    return "response_item", {"type": "function_call", "name": "exec_command", "call_id": call_id,
                             "arguments": json.dumps({"cmd": cmd})}


def _output(call_id: str, code: int, text: str) -> tuple[str, dict]:
    return "response_item", {"type": "function_call_output", "call_id": call_id,
                             "output": f"Process exited with code {code}\nOutput:\n{text}"}


PARENT_META = ("session_meta", {"id": PARENT, "cwd": "/w", "cli_version": "0.150.0", "source": "cli"})
PARENT_WORK = [_call("p1", SSH), _output("p1", 255, "ssh: connect to host gpu-node-3 port 22: Connection refused")]
CHILD_META = ("session_meta", {"id": CHILD, "cwd": "/w", "cli_version": "0.150.0", "subagent_history_start_ordinal": 4,
                               "source": {"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1,
                                                                        "agent_nickname": "explorer"}}}})
CHILD_OWN = [("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "look"}]}),
             _call("c1", "nvidia-smi"), _output("c1", 0, "NVIDIA-SMI 550.54")]


def _write(folder, thread: str, records) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"rollout-2026-10-04T10-00-00-{thread}.jsonl").write_text(_rollout(records))


def test_a_sub_agent_named_alone_is_read_from_its_own_lines(tmp_path):
    _write(tmp_path, CHILD, [CHILD_META, PARENT_META, *PARENT_WORK, *CHILD_OWN])
    doc = analyze_path(next(tmp_path.iterdir())).to_json()
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
    assert doc["errors"] == []


def test_with_its_parent_each_command_is_read_once(tmp_path):
    day = tmp_path / "2026" / "10" / "04"
    _write(day, PARENT, [PARENT_META, *PARENT_WORK])
    _write(day, CHILD, [CHILD_META, PARENT_META, *PARENT_WORK, *CHILD_OWN])
    doc = analyze_path(tmp_path).to_json()
    assert sorted((c["command"], c["agent"]) for c in doc["commands"]) == [("nvidia-smi", CHILD), (SSH, "main")]
