"""Transcript shapes the readers met in hardening round 46 (real layouts, built in tmp_path).

A failed tool call's output written as the whole FunctionCallOutputPayload, ``{"content": ...,
"success": false}``, is the TypeScript CLI's shape for a failure (openai/codex
``codex-rs/core/src/models.rs`` of mid-2025: "failure -> output is an object { content,
success:false }"), which forks of the Rust CLI write whole."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path


def _rollout(tmp_path: Path, items: list[tuple[str, dict]]) -> Path:
    path = tmp_path / "rollout-2025-07-01T10-00-00-0197aaaa-0000-7000-8000-000000000001.jsonl"
    meta = ("session_meta", {"id": "0197aaaa-0000-7000-8000-000000000001", "timestamp": "2025-07-01T10:00:00Z",
                             "cwd": "/work/eagle", "originator": "codex_cli_rs", "cli_version": "0.2.0"})
    lines = [json.dumps({"timestamp": f"2025-07-01T10:00:{i:02d}.000Z", "type": kind, "payload": payload})
             for i, (kind, payload) in enumerate([meta, *items])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _call(call_id: str, command: str) -> tuple[str, dict]:
    return ("response_item", {"type": "function_call", "name": "shell", "call_id": call_id,
                              "arguments": json.dumps({"command": ["bash", "-lc", command]})})


def _output(call_id: str, output) -> tuple[str, dict]:
    return ("response_item", {"type": "function_call_output", "call_id": call_id, "output": output})


def test_an_output_the_tool_marked_unsuccessful_is_a_failed_call(tmp_path):
    path = _rollout(tmp_path, [
        ("response_item", {"type": "message", "role": "user",
                           "content": [{"type": "input_text", "text": "is the draft model there?"}]}),
        _call("c1", "ls /models/eagle3"),
        _output("c1", {"content": "ls: cannot access '/models/eagle3': No such file or directory",
                       "success": False}),
        _call("c2", "ls /models"),
        _output("c2", {"content": "llama3-8b", "success": True}),
    ])
    doc = analyze_path(path).to_json()
    assert [(c["seq"], c["command"], c["is_error"]) for c in doc["commands"]] == [
        (2, "ls /models/eagle3", True), (4, "ls /models", False)]
    assert [(e["seq"], e["kind"], e["command_seq"]) for e in doc["errors"]] == [(3, "tool_error", 2)]
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)


_CHAT = [
    {"role": "user", "content": "accept len is low on gpu01"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ssh gpu01 nvidia-smi"}'}}]},
    {"role": "tool", "tool_call_id": "call_a", "content": "ssh: connect to host gpu01 port 22: Connection refused"},
    {"role": "assistant", "content": "gpu01 is unreachable."},
]


def test_chat_messages_behind_a_null_element_are_still_read_and_the_null_counted(tmp_path):
    # json.dump of a list that kept an empty slot (None) or a bare string before the messages:
    # was read as a one-line text log, every message and command lost, nothing counted skipped
    for name, elements, indent in (("null.json", [None, *_CHAT], None), ("pretty.json", [None, *_CHAT], 2),
                                   ("string.json", ["system prompt", *_CHAT[:2], None, *_CHAT[2:]], None)):
        path = tmp_path / name
        path.write_text(json.dumps(elements, indent=indent), encoding="utf-8")
        doc = analyze_path(path).to_json()
        assert doc["format"] == "openai"
        assert [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]] == [
            ("ssh gpu01 nvidia-smi", "gpu01", True)]
        stray = len(elements) - len(_CHAT)
        assert (doc["stats"]["events"], doc["stats"]["lines_skipped"], doc["stats"]["non_object"]) == (4, stray, stray)


def test_a_one_line_chat_array_with_one_element_of_its_own_is_still_read(tmp_path):
    # json.dumps(messages) writes one line; one element the reader does not know made the whole
    # file a one-line text log (its indented twin was read as messages)
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([*_CHAT[:2], {"marker": "checkpoint", "step": 3}, *_CHAT[2:]]), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert doc["format"] == "openai"
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi", True)]
    assert [e["kind"] for e in doc["errors"]] == ["connection"]
    assert (doc["stats"]["lines_skipped"], doc["stats"]["unknown_types"]) == (0, 1)


def test_a_one_line_json_array_of_other_records_is_not_read_as_a_chat(tmp_path):
    path = tmp_path / "gpus.json"
    path.write_text(json.dumps([{"role": "user", "content": "hi"}, {"gpu": 0, "util": 99}, {"gpu": 1, "util": 3}]),
                    encoding="utf-8")
    assert analyze_path(path).to_json()["format"] != "openai"


def test_a_response_item_of_a_type_the_reader_does_not_know_is_counted_unknown(tmp_path):
    # Codex adds ResponseItem variants release by release; one the reader does not know was kept
    # as `other` and counted nowhere, so a run whose tool calls were all of a new kind said
    # "unknown line types kept: 0". The snapshot /undo restores and an encrypted compaction hold
    # nothing to read and stay quiet.
    path = _rollout(tmp_path, [
        _call("c1", "nvidia-smi"),
        _output("c1", "Process exited with code 0\nOutput:\nGPU 0: H100"),
        ("response_item", {"type": "ghost_snapshot", "ghost_commit": {"id": "abc", "parent": None}}),
        ("response_item", {"type": "compaction", "encrypted_content": "gAAAA"}),
        ("response_item", {"type": "shell_session_call", "call_id": "s1", "session": {"cmd": "ls /models"}}),
    ])
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
    assert (doc["stats"]["events"], doc["stats"]["unknown_types"], doc["stats"]["lines_skipped"]) == (6, 1, 0)


def _responses_log(tmp_path: Path, server_fields: bool) -> Path:
    """A log of a stateless Responses API loop: each request resends the whole ``input``, each
    response's ``output`` items come back in the next request (openai/openai-python
    ``types/responses/response.py``); a proxy logging Codex's requests writes this."""
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "accept len is low"}]}
    call = {"type": "function_call", "call_id": "call_1", "name": "shell",
            "arguments": json.dumps({"command": "ssh gpu01 'tail -n 1 /var/log/sglang.log'"})}
    done = {"type": "function_call_output", "call_id": "call_1",
            "output": "Decode batch, #running-req: 1, accept len: 1.20, gen throughput (token/s): 80.5"}
    reply = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Low."}]}
    sent = (lambda item: {**item, "id": "item_" + item["type"], "status": "completed"}) if server_fields \
        else (lambda item: item)
    records = [{"model": "gpt-5", "input": [user]}, {"object": "response", "id": "r1", "output": [sent(call)]},
               {"model": "gpt-5", "input": [user, call, done]}, {"object": "response", "id": "r2", "output": [sent(reply)]}]
    path = tmp_path / "responses.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_a_log_of_responses_requests_reads_each_resent_item_once(tmp_path):
    # The response's output came back in the next request's input, which was read whole again:
    # one command read as run twice (three times in three turns, a loop of it)
    for server_fields in (False, True):
        doc = analyze_path(_responses_log(tmp_path, server_fields)).to_json()
        assert [(c["seq"], c["command"], c["host"]) for c in doc["commands"]] == [
            (1, "ssh gpu01 'tail -n 1 /var/log/sglang.log'", "gpu01")]
        assert (doc["stats"]["events"], doc["stats"]["tool_calls"]) == (4, 1)
        assert [(m["name"], m["value"]) for m in doc["metrics"]] == [("throughput", 80.5), ("accept_length", 1.2)]


def _claude_two_same_prompt_agents(tmp_path: Path, sidecar_bytes) -> Path:
    """A Claude Code 2.1 session: the trunk sends the same prompt to two Agent calls; the
    results name no agent, so only each sub-agent's meta.json ``toolUseId`` says which call
    started it (daaain/claude-code-log PR #218)."""
    sid = "88880000-0000-4000-8000-000000000001"
    subagents = tmp_path / sid / "subagents"
    subagents.mkdir(parents=True)

    def line(kind, agent, n, message):
        rec = {"type": kind, "uuid": f"{agent}-{n}", "parentUuid": None, "isSidechain": agent != "main",
               "cwd": "/w", "sessionId": sid, "version": "2.1.180", "timestamp": f"2026-07-01T10:00:{n:02d}.000Z",
               "message": message}
        if agent != "main":
            rec["agentId"] = agent
        return json.dumps(rec)

    spawn = [{"type": "tool_use", "id": call, "name": "Agent",
              "input": {"prompt": "Check the GPUs", "subagent_type": "general-purpose", "description": "gpus"}}
             for call in ("toolu_A", "toolu_B")]
    trunk = [line("user", "main", 0, {"role": "user", "content": "go"}),
             line("assistant", "main", 1, {"id": "m1", "role": "assistant", "content": spawn}),
             *(line("user", "main", 2 + i, {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": call, "content": "done"}]}) for i, call in enumerate(("toolu_A", "toolu_B")))]
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(trunk) + "\n", encoding="utf-8")
    for agent, call, host in (("aaa", "toolu_A", "gpu01"), ("bbb", "toolu_B", "gpu02")):
        lines = [line("user", agent, 4, {"role": "user", "content": "Check the GPUs"}),
                 line("assistant", agent, 5, {"id": f"m{agent}", "role": "assistant", "content": [
                     {"type": "tool_use", "id": f"b{agent}", "name": "Bash", "input": {"command": f"ssh {host} nvidia-smi"}}]}),
                 line("user", agent, 6, {"role": "user", "content": [
                     {"type": "tool_result", "tool_use_id": f"b{agent}", "content": "Exit code 9\nNVIDIA-SMI has failed",
                      "is_error": True}]})]
        (subagents / f"agent-{agent}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        sidecar = json.dumps({"agentType": "general-purpose", "description": "gpus", "toolUseId": call})
        (subagents / f"agent-{agent}.meta.json").write_bytes(sidecar_bytes(sidecar))
    return path


def test_a_sidecar_saved_with_a_byte_order_mark_still_links_its_agent(tmp_path):
    # json.loads refuses a str that starts with a BOM: the sidecar read as damaged, and with the
    # same prompt sent twice nothing else could link the agents, which hung under no one
    for encode in (lambda text: b"\xef\xbb\xbf" + text.encode(), lambda text: text.encode("utf-16")):
        folder = tmp_path / str(id(encode))
        doc = analyze_path(_claude_two_same_prompt_agents(folder, encode)).to_json()
        assert [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
            ("main", None, None, "completed"), ("aaa", "main", "toolu_A", "failed"), ("bbb", "main", "toolu_B", "failed")]
