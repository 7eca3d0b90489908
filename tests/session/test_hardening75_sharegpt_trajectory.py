"""Hermes Agent saves the runs of its batch runner (and of ``save_trajectories``) as ShareGPT
records, one a line: ``{"conversations": [{"from": "system" | "human" | "gpt" | "tool", "value"}],
"timestamp", "model", "completed"}`` in ``trajectory_samples.jsonl`` / ``failed_trajectories.jsonl``.
The model's calls are ``<tool_call>{"name", "arguments"}</tool_call>`` blocks in its ``gpt`` turn,
after a ``<think>`` block; the ``tool`` turn holds one ``<tool_response>{"tool_call_id", "name",
"content"}</tool_response>`` a call, in order (NousResearch/hermes-agent ``run_agent.py``
``_convert_to_trajectory_format``, ``agent/trajectory.py`` ``save_trajectory``).

Before: ``spec-debug analyze failed_trajectories.jsonl`` was refused ("not a session transcript").
Now each turn is read as the chat message it was made from: the calls are commands, each response
their result with its exit status, the CUDA OOM of the failed launch an error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SYSTEM = ("You are a function calling AI model. You are provided with function signatures within <tools> </tools> "
          "XML tags. ...\n<tools>\n[{\"name\": \"terminal\", \"description\": \"Run a command\", \"parameters\": {}, "
          "\"required\": null}]\n</tools>\n")
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
OOM = "Traceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _call(name: str, arguments: dict) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def _response(call_id: str, name: str, content) -> str:
    return f"<tool_response>\n{json.dumps({'tool_call_id': call_id, 'name': name, 'content': content})}\n" \
           "</tool_response>"


def _trajectory(asked: str, first: str, second: str, outputs: list[dict], pad: int = 0) -> dict:
    return {"conversations": [
        {"from": "system", "value": SYSTEM + " " * pad},
        {"from": "human", "value": asked},
        {"from": "gpt", "value": "<think>\nCheck the GPU, then launch.\n</think>\n"
                                 + _call("terminal", {"command": first}) + "\n" + _call("terminal", {"command": second})},
        {"from": "tool", "value": "\n".join(_response(f"call_{i}", "terminal", out) for i, out in enumerate(outputs))},
        {"from": "gpt", "value": "<think>\n</think>\nThe launch ran out of GPU memory."}],
        "timestamp": "2026-11-02T08:00:00.123456", "model": "hermes-4", "completed": False}


def test_a_failed_trajectory_gives_its_commands_results_and_error(tmp_path: Path) -> None:
    path = tmp_path / "failed_trajectories.jsonl"
    path.write_text(json.dumps(_trajectory("start the EAGLE-3 server", "nvidia-smi", LAUNCH, [
        {"output": "GPU 0: NVIDIA H100 80GB HBM3", "exit_code": 0, "error": None},
        {"output": OOM, "exit_code": 1, "error": None}])) + "\n")
    a = analyze_path(path)
    assert a.format == "openai"
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("nvidia-smi", 0, False), (LAUNCH, 1, True)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [
        ("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB", a.commands[1].seq)]
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server"]


def test_two_trajectories_and_a_first_line_past_the_sniff_window(tmp_path: Path) -> None:
    """The batch runner appends a line a prompt; a first line longer than the 256 KiB the format
    is told from (a long tool output) is still told."""
    path = tmp_path / "trajectory_samples.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in (
        _trajectory("start the EAGLE-3 server", "nvidia-smi", LAUNCH, [
            {"output": "GPU 0: NVIDIA H100 80GB HBM3", "exit_code": 0, "error": None},
            {"output": OOM, "exit_code": 1, "error": None}], pad=300_000),
        _trajectory("check the draft model", "ls /models/draft", "cat /models/draft/config.json", [
            {"output": "config.json", "exit_code": 0, "error": None},
            {"output": "cat: /models/draft/config.json: Permission denied", "exit_code": 1, "error": None}]))))
    a = analyze_path(path)
    assert [(c.command, c.exit_code) for c in a.commands] == [
        ("nvidia-smi", 0), (LAUNCH, 1), ("ls /models/draft", 0), ("cat /models/draft/config.json", 1)]
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server", "check the draft model"]


def test_a_dataset_call_written_as_a_python_dict(tmp_path: Path) -> None:
    """Published function-calling sets write the call as a Python dict's repr (single quotes)."""
    path = tmp_path / "sharegpt.json"
    path.write_text(json.dumps([{"conversations": [
        {"from": "human", "value": "what GPUs are there?"},
        {"from": "gpt", "value": "<tool_call>\n{'arguments': {'command': 'nvidia-smi -L'}, 'name': 'terminal'}\n"
                                 "</tool_call>"},
        {"from": "tool", "value": "<tool_response>\n{'name': 'terminal', 'content': 'GPU 0: NVIDIA H100'}\n"
                                  "</tool_response>"},
        {"from": "gpt", "value": "One H100."}]}], indent=1))
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("nvidia-smi -L", None, False)]
    assert [p.text for p in a.prompts] == ["what GPUs are there?"]


def test_a_damaged_turn_is_passed_by(tmp_path: Path) -> None:
    """A turn whose speaker is no string (a record damaged by hand) was a TypeError that ended the
    analysis; the turns around it are read."""
    path = tmp_path / "failed_trajectories.jsonl"
    path.write_text(json.dumps({"conversations": [
        {"from": "human", "value": "check the GPU"}, {"from": ["gpt"], "value": "?"},
        {"from": "gpt", "value": _call("terminal", {"command": "nvidia-smi"})},
        {"from": "tool", "value": _response("c0", "terminal", {"output": "GPU 0", "exit_code": 0, "error": None})}]}) + "\n")
    a = analyze_path(path)
    assert [(c.command, c.exit_code) for c in a.commands] == [("nvidia-smi", 0)]
