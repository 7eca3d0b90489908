"""The check a "not killed ... may still be running" step gives finds the step's shell, and only it.

d37a342 recorded, for a step whose pid line never came, `ps -eo pid,etime,args | grep -F -e
'FIRST LINE'`. Pasted on a host it listed the grep itself (its own command line holds the text:
a process that looked like the step's), and found nothing for a first line with a quote: what
the stuck shell shows in ps is the exec request, where the step is shlex-quoted
(`'"'"'llama 8b'"'"'`). A tab in the line is "?" in ps, and an exported COLUMNS cut ps's lines
before the step, some 150 characters into the exec request.

The processes are real: bash run with the exec request sshd runs (wrap_command), held in a
BASH_ENV file as a site's rc file holds it, and ps and grep as the reader runs them."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from spec_debug.runner.ssh import left_running_check, wrap_command

_TAG = f"{os.getpid()}"

FIRST_LINES = {
    "quoted": f"python3 -m sglang.launch_server --port 3{_TAG} --served-model-name 'llama 8b'",
    "regex characters": f"torchrun --nproc-per-node=8 bench.py --data 'sharegpt/*.jsonl' --tag [r{_TAG}] $HOME\\x ^.",
    "a tab": f"vllm serve /models/Llama-3.1-8B --port 3{_TAG}\t--speculative-config eagle3.json",
    "over 80 characters": f"python3 -m sglang.launch_server --model-path /models/meta-llama/Llama-3.1-8B-Instruct-{_TAG} --tp 8",
}


@pytest.mark.parametrize("case", FIRST_LINES)
def test_the_check_lists_the_shell_held_in_its_rc_files_and_not_itself(case: str, tmp_path: Path) -> None:
    command = FIRST_LINES[case] + "\necho next\n"
    rc = tmp_path / "rc.sh"
    # the site's rc file, on a hung NFS module path (killed below; 10 s could end before ps ran
    # on a loaded machine, and the shell go on past its rc file)
    rc.write_text("sleep 600\n")
    shell = subprocess.Popen(
        ["bash", "-c", wrap_command(command)], env={**os.environ, "BASH_ENV": str(rc)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        _wait_for_rc_sleep(shell.pid)
        check = left_running_check(command, in_args=True)
        listed = _run_as_pasted(check)
    finally:
        os.killpg(shell.pid, 9)
        shell.wait()
    assert [int(line.split()[0]) for line in listed] == [shell.pid], (check, listed)


def _wait_for_rc_sleep(shell_pid: int, is_it=lambda cmdline: cmdline.startswith(b"sleep\0")) -> None:
    """Until the rc file's `sleep` (a child whose command line ``is_it``) is exec'd: forked and not
    yet exec'd, it is a copy of the shell, its command line too, and ps lists it beside the shell
    (seen on a busy machine)."""
    deadline = time.monotonic() + 60  # a bash start on a loaded machine; never reached unless broken
    while time.monotonic() < deadline:
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(") ", 1)[1].split()
                if int(fields[1]) == shell_pid and is_it((stat.parent / "cmdline").read_bytes()):
                    return
            except (OSError, IndexError, ValueError):
                continue
        time.sleep(0.01)
    raise AssertionError("the rc file's sleep never started")


def test_a_script_sent_on_stdin_is_found_by_its_running_command(tmp_path: Path) -> None:
    """Past 64 KiB (or through `exec /bin/sh -s`) the exec request holds no step: the check
    looks for the line as written, which a program it starts shows in ps."""
    sleeper = subprocess.Popen(["sleep", f"6000{_TAG}"], start_new_session=True)
    try:
        check = left_running_check(f"  sleep 6000{_TAG}\nrest of a long script", in_args=False)
        listed = _run_as_pasted(check)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert [int(line.split()[0]) for line in listed] == [sleeper.pid], (check, listed)


def test_a_bash_started_with_the_step_as_its_argument_is_found_too() -> None:
    """Under a login shell that is not bash, the wrapper runs `bash -c "$__spec_debug_cmd"`:
    that bash shows the first line as written, its quotes unescaped."""
    command = f"sleep 6000{_TAG} 'no such file' || sleep 6000{_TAG}\necho next"
    shell = subprocess.Popen(["bash", "-c", command], start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        # the second sleep, exec'd: the shell forks nothing more (a fork not yet exec'd is a
        # copy of the shell, listed beside it: seen once on a busy machine)
        _wait_for_rc_sleep(shell.pid, lambda cmdline: cmdline == f"sleep\0006000{_TAG}\0".encode())
        check = left_running_check(command, in_args=True)
        listed = _run_as_pasted(check)
    finally:
        os.killpg(shell.pid, 9)
        shell.wait()
    assert [int(line.split()[0]) for line in listed] == [shell.pid], (check, listed)


def _run_as_pasted(check: str) -> list[str]:
    """The check's lines, run by bash as a reader whose shell exports COLUMNS=80 runs it
    (Popen has returned once the process is exec'd: it is in ps)."""
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run(["bash", "-c", check], capture_output=True, text=True, env=env, timeout=60).stdout.splitlines()
