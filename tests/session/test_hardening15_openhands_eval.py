"""An OpenHands evaluation's ``output.jsonl`` (one benchmark instance a line, its event stream
under ``history``: All-Hands-AI/OpenHands ``evaluation/benchmarks/multi_swe_bench/examples/
output.jsonl``, cut down in tests/session/data_h15/) was refused as "not a session transcript"
(exit 2). Each instance is now a session of its own, its events read as a trajectory's.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h15"
OUTPUT = DATA / "openhands_eval_output.jsonl"


def _instances() -> list[dict]:
    return [json.loads(line) for line in OUTPUT.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_each_instance_of_an_evaluation_output_is_a_session() -> None:
    a = analyze_path(OUTPUT)
    instances = _instances()
    assert a.format == "openhands"
    assert [s["id"] for s in a.sessions] == [o["instance_id"] for o in instances]
    first = instances[0]["history"]
    assert a.sessions[0]["first_timestamp"] == first[0]["timestamp"]
    assert a.sessions[0]["last_timestamp"] == first[-1]["timestamp"]
    assert a.stats["lines_skipped"] == 0 and a.stats["unknown_types"] == 0


def test_the_commands_keep_their_instance_and_exit_code() -> None:
    a = analyze_path(OUTPUT)
    expected = []
    for o in _instances():
        results = {e["cause"]: e for e in o["history"] if e.get("observation") == "run"}
        expected += [(o["instance_id"], e["args"]["command"], results[e["id"]]["extras"]["metadata"]["exit_code"])
                     for e in o["history"] if e.get("action") == "run"]
    assert [(c.session, c.command, c.exit_code) for c in a.commands] == expected
    assert 127 in {c.exit_code for c in a.commands}  # `ponyc: command not found`
    failed = {(e.session, e.command_seq) for e in a.errors}
    not_found = next(c for c in a.commands if c.exit_code == 127)
    assert (not_found.session, not_found.seq) in failed
    assert failed <= {(c.session, c.seq) for c in a.commands if c.exit_code}  # grep's 1 is no error


def test_the_cli_analyzes_it_instead_of_refusing_it() -> None:
    result = CliRunner().invoke(app, ["analyze", str(OUTPUT), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["stats"]["sessions"] == 2


def test_an_older_output_of_action_observation_pairs(tmp_path: Path) -> None:
    """Before the event stream (2024), ``history`` held ``[action, observation]`` pairs with no
    ``id`` or ``cause``."""
    pair = [{"action": "run", "args": {"command": "python3 -m sglang.launch_server --help", "thought": ""},
             "message": "Running command: python3 -m sglang.launch_server --help"},
            {"observation": "run", "content": "No module named sglang", "extras": {"command_id": -1,
             "command": "python3 -m sglang.launch_server --help", "exit_code": 1}, "message": "Command exited"}]
    line = {"instance_id": "gpu02__eagle3-1", "instruction": "start the server", "history": [pair],
            "metrics": {}, "error": None}
    path = tmp_path / "output.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    a = analyze_path(path)
    (command,) = a.commands
    assert (command.session, command.command, command.exit_code, command.is_error) == (
        "gpu02__eagle3-1", "python3 -m sglang.launch_server --help", 1, True)
    assert command.result_seq == 1


def test_a_resolver_output_of_flat_events_is_a_session_per_issue(tmp_path: Path) -> None:
    """The GitHub resolver's ``output.jsonl``: a line per issue, its older events flat (the
    arguments beside ``action``, the result beside ``observation``, no ids), the shape of
    All-Hands-AI/OpenHands ``tests/unit/resolver/mock_output/output.jsonl``."""
    history = [
        {"content": "Please fix the following issue: the EAGLE-3 draft loads on CPU", "images_urls": [],
         "wait_for_response": False, "action": "message", "action_risk": None},
        {"command": "nvidia-smi", "thought": "First check the GPU is visible.", "keep_prompt": True,
         "action": "run", "is_confirmed": "confirmed", "action_risk": None},
        {"content": "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
         "command_id": -1, "command": "nvidia-smi", "exit_code": 9, "observation": "run"},
        {"outputs": {}, "thought": "The driver is not loaded.", "action": "finish"},
    ]
    line = {"issue": {"owner": "gpu-lab", "repo": "eagle3-serve", "number": 12, "title": "draft on CPU",
                      "body": "..."},
            "issue_type": "issue", "instruction": "fix it", "base_commit": "", "git_patch": "",
            "history": history, "metrics": {"accumulated_cost": 0.01}, "success": False, "error": None}
    path = tmp_path / "output.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == ["gpu-lab__eagle3-serve-12"]
    assert [p.text for p in a.prompts] == [history[0]["content"]]
    (command,) = a.commands
    assert (command.command, command.exit_code, command.is_error, command.result_seq) == ("nvidia-smi", 9, True, 2)
    assert command.why == "First check the GPU is visible."
    assert a.stats["unknown_types"] == 0
