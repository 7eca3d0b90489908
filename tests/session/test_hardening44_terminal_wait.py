"""One rule for "this command ends waiting for someone at a terminal", used two ways.

A terminal log moves the commands typed after ``ssh -t gpu02 CMD`` to gpu02 when CMD ends in a
shell (``formats.shell_logins``); ``distill`` leaves CMD out of a playbook when it waits for keys
(``unattended.interactive``). The two kept separate rules that disagreed: ``sudo bash`` and a
bare ``tmux`` were kept as playbook checks (they hang over a pipe), while ``ssh -t gpu02 'echo ls
| bash'`` (a shell fed by a pipe) and ``tmux new -d`` (a detached session) moved a log's later
commands to gpu02. Each case below says what each caller expects."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.unattended import interactive

# (remote command, does a log's next command run there, why distill leaves it out)
CASES = [
    ("sudo -i", True, "an interactive shell"),
    ("sudo -iu svc", True, "an interactive shell"),
    ("sudo -u svc bash", True, "an interactive shell"),
    ("sudo bash", True, "an interactive shell"),
    ("cd ~/sglang && exec bash -l", True, "an interactive shell"),
    ("python3", False, "an interactive interpreter"),  # lines typed in a REPL are no shell commands
    ("cd ~/eagle3 && python3 -q", False, "an interactive interpreter"),
    ("sudo python3", False, "an interactive interpreter"),
    ("tmux ls", False, None),
    ("tmux", True, "attaching to a terminal session"),
    ("tmux attach -t bench", True, "attaching to a terminal session"),
    ("tmux new -d -s bench 'python bench.py'", False, None),
    ("screen -dmS bench python bench.py", False, None),
    ("byobu ls", False, None),
    ("echo ls | bash", False, None),
    ("python3 < eval.py", False, None),
    ("bash -c 'cd x; bash'", False, None),
    ("nvidia-smi -L", False, None),
]


@pytest.mark.parametrize("inner", ["tmux attach -t bench; echo done", "screen -r; ls"])
def test_distill_leaves_out_a_list_that_attaches_first(inner: str) -> None:
    assert interactive(inner, host="gpu02") == "attaching to a terminal session"


@pytest.mark.parametrize(("inner", "opens_shell", "why"), CASES)
def test_distill_leaves_out_what_waits_for_keys(inner: str, opens_shell: bool, why: str | None) -> None:
    assert interactive(inner, host="gpu02") == why


@pytest.mark.parametrize(("inner", "opens_shell", "why"), CASES)
def test_a_log_moves_to_the_host_only_when_a_shell_stays_open(
        tmp_path: Path, inner: str, opens_shell: bool, why: str | None) -> None:
    quoted = '"' + inner.replace('"', '\\"') + '"'
    log = tmp_path / "laptop.log"
    log.write_text(f"$ ssh -t gpu02 {quoted}\n$ hostname\nlaptop\n")
    commands = analyze_path(log).commands
    assert commands[-1].command == "hostname"
    assert commands[-1].host == ("gpu02" if opens_shell else None)


@pytest.mark.parametrize(("typed", "opens_shell"), [
    ("sudo -i", True), ("sudo -u svc bash", True), ("su - svc", True),
    ("python3", False), ("sudo python3", False), ("bash run.sh", False),
])
def test_a_subshell_typed_on_the_host_keeps_the_next_commands_there(
        tmp_path: Path, typed: str, opens_shell: bool) -> None:
    log = tmp_path / "laptop.log"
    log.write_text(f"$ ssh gpu02\n$ {typed}\n$ exit\n$ hostname\n")
    commands = analyze_path(log).commands
    # `exit` leaves the subshell when one opened, else the ssh login itself
    assert commands[-1].host == ("gpu02" if opens_shell else None)
