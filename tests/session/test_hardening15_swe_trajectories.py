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
