"""A drafter checkpoint of another vocabulary fails to load with torch's "size mismatch for
lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from checkpoint, the shape
in current model is torch.Size([128256, 4096])" (torch/nn/modules/module.py
_load_from_state_dict): the tool output gave an error record but no finding, so a session that
hit the fault the vocab playbook reports as SD303 showed none. Now the mismatch of a vocabulary
tensor of a drafter is SD303, in every format; one of another tensor, of a model no drafter, or
of widths is none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

LOAD_ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/root/train/eval_draft.py", line 41, in <module>\n'
    "    model.load_state_dict(sd)\n"
    '  File "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", line 2584, in load_state_dict\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Error(s) in loading state_dict for Eagle3DraftModel:\n"
    "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from "
    "checkpoint, the shape in current model is torch.Size([128256, 4096]).\n")
EVIDENCE = ("size mismatch for lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from "
            "checkpoint, the shape in current model is torch.Size([128256, 4096]).")
COMMAND = "python eval_draft.py --ckpt ./eagle3-ckpt"


def _codex(tmp_path: Path, output: str) -> Path:
    lines = [
        {"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta", "payload": {
            "id": "22222222-1111-4111-8111-111111111111", "timestamp": "2026-01-02T03:04:05.000Z",
            "cwd": "/root/train", "originator": "codex_cli_rs", "cli_version": "0.40.0", "source": "cli"}},
        {"timestamp": "2026-01-02T03:04:07.000Z", "type": "event_msg",
         "payload": {"type": "user_message", "message": "Load the EAGLE-3 drafter and evaluate it."}},
        {"timestamp": "2026-01-02T03:04:09.000Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "exec_command", "arguments": json.dumps({"cmd": COMMAND}),
            "call_id": "c1"}},
        {"timestamp": "2026-01-02T03:04:10.000Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "c1",
            "output": json.dumps({"output": output, "metadata": {"exit_code": 1, "duration_seconds": 3.1}})}},
    ]
    path = tmp_path / "rollout-2026-01-02T03-04-05-22222222-1111-4111-8111-111111111111.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _claude_code(tmp_path: Path, output: str) -> Path:
    session = "aaaa0000-0000-4000-8000-0000000000f5"

    def line(n: int, kind: str, message: dict, **extra) -> str:
        return json.dumps({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
                           "isSidechain": False, "userType": "external", "cwd": "/root/train",
                           "sessionId": session, "version": "2.1.90",
                           "timestamp": f"2026-06-15T10:00:0{n}.000Z", "message": message, **extra})

    path = tmp_path / f"{session}.jsonl"
    path.write_text("\n".join([
        line(0, "user", {"role": "user", "content": "Load the EAGLE-3 drafter and evaluate it."}),
        line(1, "assistant", {"id": "m1", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": COMMAND}}]}),
        line(2, "user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": "Exit code 1\n" + output}]},
             toolUseResult="Error: Exit code 1\n" + output),
    ]) + "\n")
    return path


def _openai(tmp_path: Path, output: str) -> Path:
    chat = [
        {"role": "system", "content": "You are an agent with a shell."},
        {"role": "user", "content": "Load the EAGLE-3 drafter and evaluate it."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "shell", "arguments": json.dumps({"command": COMMAND})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "Exit code 1\n" + output},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(chat, indent=2))
    return path


def _text_log(tmp_path: Path, output: str) -> Path:
    path = tmp_path / "terminal.log"
    path.write_text(f"root@gpu01:~/train# {COMMAND}\n{output}root@gpu01:~/train# \n")
    return path


@pytest.mark.parametrize("write", [_codex, _claude_code, _openai, _text_log])
def test_a_drafter_head_of_another_vocabulary_is_sd303(tmp_path: Path, write) -> None:
    a = analyze_path(write(tmp_path, LOAD_ERROR))
    assert [e.exception for e in a.errors] == ["RuntimeError"]
    assert [(f.code, f.severity, f.evidence) for f in a.findings] == [
        ("SD303", "error", [f"[msg {a.errors[0].seq}] {EVIDENCE}"])]


@pytest.mark.parametrize("output", [
    # a target model loaded with another model's checkpoint: no drafter is named
    LOAD_ERROR.replace("Eagle3DraftModel", "LlamaForCausalLM").replace("eval_draft.py", "eval.py"),
    # rows of a tensor that are not a vocabulary (the intermediate size)
    LOAD_ERROR.replace("lm_head.weight", "layers.0.mlp.gate_up_proj.weight"),
    # the width differs, not the vocabulary (a drafter for another target)
    LOAD_ERROR.replace("[32000, 4096]) from", "[128256, 5120]) from"),
])
def test_other_size_mismatches_are_no_vocab_finding(tmp_path: Path, output: str) -> None:
    a = analyze_path(_codex(tmp_path, output))
    assert [e.exception for e in a.errors] == ["RuntimeError"]
    assert a.findings == []


def test_a_map_of_another_length_under_a_prefix_is_sd303(tmp_path: Path) -> None:
    output = LOAD_ERROR.replace(
        "lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from checkpoint, "
        "the shape in current model is torch.Size([128256, 4096])",
        "draft_model.t2d: copying a param with shape torch.Size([128256]) from checkpoint, "
        "the shape in current model is torch.Size([129280])")
    a = analyze_path(_codex(tmp_path, output))
    assert [(f.code, f.evidence) for f in a.findings] == [("SD303", [
        f"[msg {a.errors[0].seq}] size mismatch for draft_model.t2d: copying a param with shape "
        "torch.Size([128256]) from checkpoint, the shape in current model is torch.Size([129280])."])]


def test_a_d2t_of_another_length_is_sd302_as_the_vocab_playbook_files_it(tmp_path: Path) -> None:
    # d2t's length is the draft vocabulary the map was built for: vocab.py's d2t_length is SD302
    output = LOAD_ERROR.replace(
        "lm_head.weight: copying a param with shape torch.Size([32000, 4096]) from checkpoint, "
        "the shape in current model is torch.Size([128256, 4096])",
        "d2t: copying a param with shape torch.Size([32000]) from checkpoint, "
        "the shape in current model is torch.Size([64000])")
    a = analyze_path(_codex(tmp_path, output))
    assert [f.code for f in a.findings] == ["SD302"]
    assert "size mismatch for d2t" in a.findings[0].evidence[0]
