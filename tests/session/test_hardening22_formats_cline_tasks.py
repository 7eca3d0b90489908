"""Cline and Roo Code task histories, ``<globalStorage>/tasks/<taskId>/api_conversation_history.json``
beside ``ui_messages.json`` and ``task_metadata.json``. The shapes are those of a public Cline task
(mike4567/MRA04242026 ``api_conversation_history.json``, April 2026: native ``tool_use`` calls
answered by ``[execute_command for '...'] Result:`` text blocks, ``Command failed with exit code
1.``, an ``<environment_details>`` block in every user turn, ``ts`` in milliseconds), of Cline's
XML tool calls (cline/cline ``src/core/prompts/system.ts``) and of Roo Code's results
(RooCodeInc/Roo-Code ``src/core/tools/ExecuteCommandTool.ts``). Before: read as OpenAI chat with
no exit code and no failure, each tool result and environment block a prompt, Cline's XML calls
no command, no time, and the session named api_conversation_history."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

TASK = "1777073160794"
LAUNCH = "ssh gpu-3 'vllm serve Qwen/Qwen3-8B --speculative-config eagle3.json'"
ENV = ("<environment_details>\n# Visual Studio Code Visible Files\n(No visible files)\n\n# Current Time\n"
       "4/24/2026, 4:25:53 PM (America/Los_Angeles, UTC-7:00)\n\n# Current Mode\nACT MODE\n</environment_details>")


def _task(root: Path, messages: list, task: str = TASK) -> Path:
    folder = root / "tasks" / task
    folder.mkdir(parents=True)
    (folder / "api_conversation_history.json").write_text(json.dumps(messages), encoding="utf-8")
    # the webview's copy of the same talk and the file tracker's state: no sessions of their own
    (folder / "ui_messages.json").write_text(json.dumps([
        {"ts": 1777073160794, "type": "say", "say": "task", "text": "why is the draft never accepted?"},
        {"ts": 1777073170000, "type": "ask", "ask": "command", "text": LAUNCH}]), encoding="utf-8")
    (folder / "task_metadata.json").write_text(json.dumps({"files_in_context": [], "model_usage": []}),
                                               encoding="utf-8")
    return folder


def _native_cline() -> list:
    return [
        {"role": "user", "ts": 1777073160794, "content": [
            {"type": "text", "text": "<task>\nwhy is the eagle3 draft never accepted on gpu-3?\n</task>"},
            {"type": "text", "text": "\n# task_progress RECOMMENDED\n\nWhen starting a new task, it is recommended"},
            {"type": "text", "text": ENV}]},
        {"role": "assistant", "ts": 1777073170000, "content": [
            {"type": "text", "text": "I will start the server."},
            {"type": "tool_use", "id": "tooluse_1", "name": "execute_command", "call_id": "tooluse_1",
             "input": {"command": LAUNCH, "requires_approval": "true"}}],
         "modelInfo": {"modelId": "claude_4_5_opus", "providerId": "openai", "mode": "act"}},
        {"role": "user", "ts": 1777073180000, "content": [
            {"type": "text", "text": f"[execute_command for '{LAUNCH}'] Result:\nCommand failed with exit code 1.\n"
                                     "Output:\nValueError: draft vocab 32000 != target 151936"},
            {"type": "text", "text": ENV}]},
        {"role": "assistant", "ts": 1777073190000, "content": [
            {"type": "tool_use", "id": "tooluse_2", "name": "execute_command", "call_id": "tooluse_2",
             "input": {"command": "nvidia-smi", "requires_approval": "false"}}]},
        {"role": "user", "ts": 1777073200000, "content": [
            {"type": "text", "text": "[execute_command for 'nvidia-smi'] Result:\n"
                                     "Command executed successfully (exit code 0).\nOutput:\nNo devices were found"},
            {"type": "text", "text": "[TASK RESUMPTION] This task was interrupted 3 minutes ago."},
            {"type": "text", "text": ENV}]},
        {"role": "assistant", "ts": 1777073210000, "content": [
            {"type": "tool_use", "id": "tooluse_3", "name": "attempt_completion", "call_id": "tooluse_3",
             "input": {"result": "The draft's vocabulary does not match the target's."}}]},
        {"role": "user", "ts": 1777073220000, "content": [
            {"type": "text", "text": "[attempt_completion] Result: Done"},
            {"type": "text", "text": "[ERROR] You did not use a tool in your previous response! Please retry."}]},
    ]


def test_a_cline_task_gives_exit_codes_failures_and_only_typed_prompts(tmp_path):
    doc = analyze_path(_task(tmp_path, _native_cline())).to_json()
    (session,) = doc["sessions"]
    assert (session["id"], session["unknown_types"]) == (TASK, 0)
    assert session["first_timestamp"] == "2026-04-24T23:26:00.794Z"
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, "gpu-3", 1, True), ("nvidia-smi", None, 0, False)]
    assert [p["text"] for p in doc["prompts"]] == ["<task>\nwhy is the eagle3 draft never accepted on gpu-3?\n</task>"]


def test_cline_xml_tool_calls_are_commands_with_their_results(tmp_path):
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "<task>\nrestart vllm on gpu-3\n</task>"},
                                     {"type": "text", "text": ENV}]},
        {"role": "assistant", "content": [{"type": "text", "text": (
            "<thinking>\nRestart it.\n</thinking>\n\n<execute_command>\n<command>ssh root@gpu-3 systemctl restart "
            "vllm</command>\n<requires_approval>true</requires_approval>\n</execute_command>")}]},
        {"role": "user", "content": [
            {"type": "text", "text": "[execute_command for 'ssh root@gpu-3 systemctl restart vllm'] Result:"},
            {"type": "text", "text": "Command executed.\nOutput:\nJob for vllm.service failed."},
            {"type": "text", "text": ENV}]},
    ]
    doc = analyze_path(_task(tmp_path, messages, "1733000000000")).to_json()
    (command,) = doc["commands"]
    assert (command["command"], command["host"], command["result_seq"]) == (
        "ssh root@gpu-3 systemctl restart vllm", "gpu-3", 2)
    # Cline's first results say no exit status: none is made up; systemctl's own "Job for
    # vllm.service failed." says the restart failed (test_hardening55_systemctl_failed.py)
    assert (command["exit_code"], command["is_error"]) == (None, True)
    assert [p["text"] for p in doc["prompts"]] == ["<task>\nrestart vllm on gpu-3\n</task>"]


def test_a_roo_code_result_gives_its_exit_code(tmp_path):
    messages = [
        {"role": "user", "ts": 1777073160794, "content": [{"type": "text", "text": "<task>\ncheck gpu-3\n</task>"},
                                                          {"type": "text", "text": ENV}]},
        {"role": "assistant", "ts": 1777073170000, "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "execute_command", "input": {"command": LAUNCH}}]},
        {"role": "user", "ts": 1777073180000, "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": (
                "Command executed in terminal within working directory '/home/u/spec'. Command execution was not "
                "successful, inspect the cause and adjust as needed.\nExit code: 137\nOutput:\nKilled\n")},
            {"type": "text", "text": ENV}]},
        {"role": "assistant", "ts": 1777073190000, "content": [
            {"type": "tool_use", "id": "toolu_2", "name": "execute_command", "input": {"command": "sleep 900"}}]},
        {"role": "user", "ts": 1777073200000, "content": [
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": (
                "Command executed in terminal within working directory '/home/u/spec'. Process terminated by "
                "signal SIGKILL\nOutput:\n")}]}]},
    ]
    doc = analyze_path(_task(tmp_path, messages, "5f0c6c1e-0000-4000-8000-000000000001")).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (LAUNCH, 137, True), ("sleep 900", None, True)]
    assert [p["text"] for p in doc["prompts"]] == ["<task>\ncheck gpu-3\n</task>"]
    assert doc["sessions"][0]["id"] == "5f0c6c1e-0000-4000-8000-000000000001"


def test_a_home_scan_finds_the_tasks_in_vs_code_global_storage(tmp_path):
    home = tmp_path / "home"
    storage = home / ".config" / "Code" / "User" / "globalStorage"
    _task(storage / "saoudrizwan.claude-dev", _native_cline())
    (home / ".config" / "Code" / "User" / "settings.json").write_text("{}", encoding="utf-8")
    (home / ".config" / "other-app").mkdir()
    (home / ".config" / "other-app" / "notes.md").write_text("$ ssh gpu-9 reboot\n", encoding="utf-8")
    doc = analyze_path(home).to_json()
    assert [s["id"] for s in doc["sessions"]] == [TASK]
    assert [c["command"] for c in doc["commands"]] == [LAUNCH, "nvidia-smi"]


def test_the_results_of_a_turn_answer_its_calls_in_order(tmp_path):
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "<task>\ncheck both hosts\n</task>"}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "execute_command", "input": {"command": "ssh gpu-3 nvidia-smi"}},
            {"type": "tool_use", "id": "t2", "name": "execute_command", "input": {"command": "ssh gpu-4 nvidia-smi"}}]},
        {"role": "user", "content": [
            {"type": "text", "text": "[execute_command for 'ssh gpu-3 nvidia-smi'] Result:\n"
                                     "Command failed with exit code 255.\nOutput:\nConnection refused"},
            {"type": "text", "text": "[execute_command for 'ssh gpu-4 nvidia-smi'] Result:\n"
                                     "Command executed successfully (exit code 0).\nOutput:\nH100"},
            {"type": "text", "text": ENV}]},
    ]
    doc = analyze_path(_task(tmp_path, messages)).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh gpu-3 nvidia-smi", 255, True), ("ssh gpu-4 nvidia-smi", 0, False)]
