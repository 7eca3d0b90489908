"""Hermes Agent's batch runner appends one ShareGPT trajectory a prompt it ran to
``trajectory_samples.jsonl`` (``failed_trajectories.jsonl`` for the failed ones: NousResearch/
hermes-agent ``agent/trajectory.py`` ``save_trajectory``), and published tool-use sets hold one
conversation a line: each line is a run of its own, with its own prompt.

Before: the file was one session: the second run's prompt a second request of the first's, its
``nvidia-smi`` a repeat of the first run's, its failure the first run's, the session's title the
first prompt. Now each line is a session, ``<file>#<line>``, reading its own bytes; a file of one
trajectory is one session as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"


def _trajectory(asked: str, command: str, output: dict) -> dict:
    call = {"name": "terminal", "arguments": {"command": command}}
    response = {"tool_call_id": "call_0", "name": "terminal", "content": output}
    return {"conversations": [
        {"from": "system", "value": "You are a function calling AI model. <tools>[]</tools>"},
        {"from": "human", "value": asked},
        {"from": "gpt", "value": f"<think>\n</think>\n<tool_call>\n{json.dumps(call)}\n</tool_call>"},
        {"from": "tool", "value": f"<tool_response>\n{json.dumps(response)}\n</tool_response>"},
        {"from": "gpt", "value": "Done."}],
        "timestamp": "2026-11-02T08:00:00.123456", "model": "hermes-4", "completed": False}


RUNS = [
    _trajectory("start the EAGLE-3 server", LAUNCH, {"output": "torch.OutOfMemoryError: CUDA out of memory.",
                                                     "exit_code": 1, "error": None}),
    _trajectory("list the GPUs", "nvidia-smi -L", {"output": "GPU 0: NVIDIA H100", "exit_code": 0, "error": None}),
    _trajectory("read the draft's config", "cat /models/draft/config.json",
                {"output": "cat: /models/draft/config.json: Permission denied", "exit_code": 1, "error": None}),
]


def test_each_trajectory_of_a_file_is_a_session(tmp_path: Path) -> None:
    path = tmp_path / "failed_trajectories.jsonl"
    path.write_text(json.dumps(RUNS[0]) + "\n\n" + "".join(json.dumps(run) + "\n" for run in RUNS[1:]))
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == ["failed_trajectories#1", "failed_trajectories#3",
                                             "failed_trajectories#4"]  # was one, "failed_trajectories"
    assert [(p.session, p.text) for p in a.prompts] == [
        ("failed_trajectories#1", "start the EAGLE-3 server"), ("failed_trajectories#3", "list the GPUs"),
        ("failed_trajectories#4", "read the draft's config")]
    assert [(c.session, c.command, c.exit_code, c.line) for c in a.commands] == [
        ("failed_trajectories#1", LAUNCH, 1, 1), ("failed_trajectories#3", "nvidia-smi -L", 0, 3),
        ("failed_trajectories#4", "cat /models/draft/config.json", 1, 4)]


def test_two_files_of_one_name_keep_their_sessions_apart(tmp_path: Path) -> None:
    for host, runs in (("gpu01", RUNS[:2]), ("gpu02", RUNS[1:])):
        (tmp_path / host).mkdir()
        (tmp_path / host / "trajectory_samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    assert sorted(s["id"] for s in analyze_path(tmp_path).sessions) == [
        "gpu01/trajectory_samples#1", "gpu01/trajectory_samples#2",
        "gpu02/trajectory_samples#1", "gpu02/trajectory_samples#2"]


def test_one_trajectory_is_one_session_as_before(tmp_path: Path) -> None:
    path = tmp_path / "failed_trajectories.jsonl"
    path.write_text(json.dumps(RUNS[0]) + "\n")
    assert [s["id"] for s in analyze_path(path).sessions] == ["failed_trajectories"]
