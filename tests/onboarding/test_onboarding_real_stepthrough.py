"""`run --step` with the inputs people really give it: Ctrl-C at the prompt, answers piped in
(a CI job, `yes r | ...`), a closed stdin, a `run: |` block of several lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.onboarding.test_stepthrough import PtySession

REPO = Path(__file__).resolve().parents[2]

PLAYBOOK = """
name: walk
steps:
  - id: first
    title: First look
    why: Shows the engine version.
    run: |
      echo first-ran
      echo second-line-of-first
  - id: second
    title: Second look
    run: echo second-ran
"""


def _env() -> dict[str, str]:
    # The subprocess must import this checkout, whatever the editable install points at.
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120"}


def _args(playbook: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--step", "--out", str(out)]


@pytest.mark.parametrize(("signum", "reason"), [(signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM")])
def test_ctrl_c_at_the_prompt_stops_the_run(tmp_path, monkeypatch, signum, reason):
    # Before: the prompt waited in a host thread in readline(); Ctrl-C reached the main
    # thread, which then waited for that host forever: the run hung until Enter was pressed.
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    session = PtySession(_args(playbook, out), tmp_path)
    try:
        session.expect("quit (q)?")
        # As a person would: a moment after the prompt. (At once, under load, the signal can
        # land while the main thread is still submitting the hosts, before Run.execute's try.)
        time.sleep(0.5)
        session.proc.send_signal(signum)
        code = session.wait()  # 60 s: a run stopped at the prompt ends at once; the fault hung forever
    finally:
        if session.proc.poll() is None:
            session.proc.kill()
    assert code == 3
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "aborted"
    assert reason in record["abort_reason"]
    assert record["steps"] == []


def test_piped_answers_and_end_of_input(tmp_path):
    playbook = tmp_path / "walk.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    # An unknown answer, then "r", all in one write; then stdin closes at the second prompt.
    proc = subprocess.run(_args(playbook, out), input="maybe\nr\n", capture_output=True, text=True, timeout=60, check=False,
                          cwd=tmp_path, env=_env())
    assert proc.returncode == 3, proc.stderr
    screen = proc.stdout + proc.stderr  # the conversation is on stderr
    assert "please answer r, s or q (got 'maybe')" in screen
    # Every line of a `run: |` block is shown indented under the header, not only the first.
    assert "  echo first-ran" in screen and "  echo second-line-of-first" in screen
    # Before: the run ended ABORTED with no word on why.
    assert "end of input (stdin closed)" in screen
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    assert {s["id"]: s["status"] for s in record["steps"]} == {"first": "passed"}
    assert record["steps"][0]["stdout"] == "first-ran\nsecond-line-of-first\n"


def test_long_command_and_wrapped_why_read_as_blocks(tmp_path):
    # A probe's command (python3 ~/.cache/spec-debug/bundle-....pyz spec_debug.probes.x '{...}')
    # is longer than a terminal: its wrapped tail started at column 0, like a second command.
    # A `why: |` hard-wrapped for the YAML file gave ragged lines in the panel.
    long_cmd = "echo " + " ".join(f"--speculative-flag-{i}=value" for i in range(8))
    playbook = tmp_path / "long.yaml"
    playbook.write_text(
        "name: long\nsteps:\n  - id: a\n    why: |\n      Every later diagnostic depends on which engine (SGLang or vLLM), which\n"
        f"      version, and which Python the server really uses.\n    run: {long_cmd}\n"
    )
    proc = subprocess.run(_args(playbook, tmp_path / "runs"), input="s\n", capture_output=True, text=True, timeout=60,
                          check=False, cwd=tmp_path, env={**_env(), "COLUMNS": "70"})
    screen = proc.stdout + proc.stderr
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "Command on local:" in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    command_lines = lines[start + 1:end]
    assert len(command_lines) >= 2  # it did wrap
    assert all(line.startswith("│   ") for line in command_lines), command_lines
    assert "".join(line.strip("│ ") + " " for line in command_lines).split() == long_cmd.split()
    why = [line for line in lines[:start] if line.startswith("│")]
    why_words = " ".join(line.strip("│ ") for line in why).split()
    assert why_words[:4] == ["Why:", "Every", "later", "diagnostic"] and "Python" in why_words
    # Reflowed: no line of the why ends short because of the YAML's own line break.
    assert not any(line.rstrip("│ ").endswith("which") for line in why)


def test_a_failed_step_says_what_failed(tmp_path):
    # Before: "a failed: an expectation did not hold. exit code 3" for a step with no expect:
    # there was no expectation; the exit code alone decides.
    playbook = tmp_path / "f.yaml"
    playbook.write_text("name: f\nsteps:\n  - id: a\n    run: 'exit 3'\n  - id: b\n    run: echo hi\n"
                        "    expect:\n      - contains: nope\n")
    proc = subprocess.run(_args(playbook, tmp_path / "runs"), input="r\nr\n", capture_output=True, text=True, timeout=60,
                          check=False, cwd=tmp_path, env=_env())
    screen = proc.stdout + proc.stderr
    assert "→ a failed: exit code 3 (a step with no expect: passes when its command exits 0)" in screen
    assert "→ b failed: expected output contains 'nope'" in screen
    assert "an expectation did not hold" not in screen
    assert "a:  " not in screen  # an untitled step's panel is titled by its id alone
