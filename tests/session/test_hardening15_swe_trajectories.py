"""Real SWE-agent and mini-swe-agent trajectories (tests/session/data_h15/README.md):

- SWE-agent 0.x wrote ``"environment": "swe_main"`` before ``trajectory``; such a ``.traj`` was
  taken for Claude Code, one event and no command;
- a SWE-agent demonstration keeps only ``history`` (its messages); read as Claude Code, one event;
- mini-swe-agent 2.x text models fence the command as ``mswea_bash_command``; no command was
  seen and every observation was the result of nothing;
- the run ends with the submit command, whose output (the patch) comes back as the last message:
  it was a prompt the person typed.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h15"


def test_a_swe_agent_0x_trajectory_with_its_environment_first_is_read_as_swe_agent() -> None:
    path = DATA / "networking_1.traj"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert next(iter(doc)) == "environment"  # the shape this test is about
    a = analyze_path(path)
    assert a.format == "swe-agent"
    actions = [step["action"].strip() for step in doc["trajectory"]]
    assert [c.command for c in a.commands] == actions
    assert a.stats["lines_skipped"] == 0 and a.stats["unknown_types"] == 0
    assert a.commands[0].why  # the step's thought


def test_the_same_trajectory_with_its_environment_last_is_read_alike(tmp_path: Path) -> None:
    doc = json.loads((DATA / "networking_1.traj").read_text(encoding="utf-8"))
    environment = doc.pop("environment")
    doc["environment"] = environment  # SWE-agent 1.x order
    path = tmp_path / "networking_1.traj"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    first = analyze_path(DATA / "networking_1.traj")
    again = analyze_path(path)
    assert again.format == "swe-agent"
    assert [c.command for c in again.commands] == [c.command for c in first.commands]


def _shown_commands(messages: list[dict]) -> list[str]:
    """The commands of the replies, read the way mini-swe-agent's text models parse them."""
    import re
    fence = re.compile(r"```mswea_bash_command\s*\n(.*?)\n```", re.DOTALL)
    return [fence.findall(m["content"])[-1].strip() for m in messages
            if m["role"] == "assistant" and fence.search(m["content"])]


def test_a_mini_swe_agent_2_trajectory_has_the_commands_of_its_fenced_blocks() -> None:
    path = DATA / "github_issue.traj.json"
    messages = json.loads(path.read_text(encoding="utf-8"))
    a = analyze_path(path)
    assert [c.command for c in a.commands] == _shown_commands(messages)
    codes = [int(m["content"].split("</returncode>")[0].split(">")[1]) for m in messages
             if m["role"] == "user" and m["content"].startswith("<returncode>")]
    assert [c.exit_code for c in a.commands[:len(codes)]] == codes
    cat, *_ = a.commands
    assert cat.is_error and cat.exit_code == 1
    assert "ZeroDivisionError" in {e.exception for e in a.errors}


def test_the_submission_is_the_submit_commands_output_not_a_prompt() -> None:
    a = analyze_path(DATA / "github_issue.traj.json")
    assert [p.text[:26] for p in a.prompts] == ["Please solve this issue: G"]
    submit = a.commands[-1]
    assert submit.command.startswith("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    assert (submit.exit_code, submit.is_error) == (None, False)


def test_a_2x_run_that_ends_with_an_exit_message_ran_its_submit_command(tmp_path: Path) -> None:
    messages = [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
        {"role": "user", "content": "Please solve this issue: the draft model on gpu02 accepts nothing."},
        {"role": "assistant", "content": "Done.\n\n<mswea_bash_command>echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
                                         " && git diff</mswea_bash_command>"},
        {"role": "exit", "content": "diff --git a/x b/x\n", "extra": {"exit_status": "Submitted",
                                                                        "submission": "diff --git a/x b/x\n"}},
    ]
    path = tmp_path / "run.traj.json"
    path.write_text(json.dumps({"info": {"exit_status": "Submitted"}, "messages": messages,
                                "trajectory_format": "mini-swe-agent-1.1"}, indent=2), encoding="utf-8")
    a = analyze_path(path)
    (submit,) = a.commands
    assert submit.command == "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff"
    assert submit.result_seq == 3
    assert a.stats["unknown_types"] == 0


def test_a_swe_agent_demonstration_of_messages_only_has_its_commands() -> None:
    path = DATA / "function_calling_simple.traj"
    history = json.loads(path.read_text(encoding="utf-8"))["history"]
    a = analyze_path(path)
    assert a.format == "swe-agent"
    actions = [(seq, m["action"].strip()) for seq, m in enumerate(history) if m["role"] == "assistant"]
    assert [(c.seq, c.command) for c in a.commands] == actions
    assert all(c.result_seq == c.seq + 1 for c in a.commands)  # the observation after each
    assert [p.seq for p in a.prompts] == [1]
    assert a.commands[0].why.startswith("The `SyntaxError` in `missing_colon.py`")


def _v1_trajectory(steps: int) -> dict:
    """SWE-agent 1.x: each step keeps the messages sent for it (sweagent/agent/agents.py)."""
    task = {"role": "user", "content": "EAGLE-3 accept length is 1.0 on gpu02; find out why", "agent": "main",
            "message_type": "observation"}
    sent = [{"role": "system", "content": "SETTING: you are an autonomous programmer", "agent": "main",
             "message_type": "system_prompt"}, task]
    trajectory = []
    for n in range(steps):
        trajectory.append({"action": f"grep -n accept_len server_{n}.log", "observation": "accept len: 1.00\n" * 20,
                           "response": "", "thought": f"step {n}: look at the server log", "execution_time": 0.1,
                           "state": {}, "query": list(sent), "extra_info": {}})
    return {"trajectory": trajectory, "history": sent, "info": {"exit_status": "submitted"},
            "replay_config": "{}", "environment": "main"}


def test_a_trajectory_past_the_longest_record_is_read_step_by_step(tmp_path: Path, monkeypatch) -> None:
    """A long 1.x run's file passes the 32 MB a record may have (each step holds the messages
    sent for it); read whole, it was skipped as too long and the session was empty. The limit is
    lowered here so that the file stays small."""
    from spec_debug.session import reader
    doc = _v1_trajectory(8)
    path = tmp_path / "gpu02__eagle3-7.traj"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    whole = analyze_path(path)
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", len(path.read_bytes()) // 3)
    streamed = analyze_path(path)
    assert streamed.stats["too_long"] == 0 and streamed.stats["lines_skipped"] == 0
    assert [c.command for c in streamed.commands] == [s["action"] for s in doc["trajectory"]]
    assert [c.command for c in streamed.commands] == [c.command for c in whole.commands]
    assert [p.text for p in streamed.prompts] == [p.text for p in whole.prompts] == [doc["history"][1]["content"]]
