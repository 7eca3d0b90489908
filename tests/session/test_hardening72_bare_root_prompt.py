"""A root shell's bare prompt, ``# cmd`` (dash's default PS1 as root, the ``sh`` of many images:
``docker exec -it sglang sh``), was read as a Markdown heading: the commands typed there were
lost, and so was the ``exit`` back to the outer prompt, so the later commands of the laptop were
placed in the container. In a shell the log opened, before any Markdown, the line is a command of
that shell; elsewhere (no shell opened, a failed exec, a note with Markdown) still a heading."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

CONTAINER = """me@laptop:~$ docker exec -it sgl sh
# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
# ls /models
Llama-3.1-8B-Instruct
# exit
me@laptop:~$ hostname
laptop
"""


def _commands(tmp_path: Path, text: str, name: str = "session.log") -> list[tuple]:
    path = tmp_path / name
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"], c["container"]) for c in doc["commands"]]


def test_a_container_shells_bare_root_prompt_reads_commands(tmp_path: Path) -> None:
    assert _commands(tmp_path, CONTAINER) == [
        ("docker exec -it sgl sh", "laptop", "docker:sgl"), ("nvidia-smi -L", "laptop", "docker:sgl"),
        ("ls /models", "laptop", "docker:sgl"), ("exit", "laptop", "docker:sgl"), ("hostname", "laptop", None)]


def test_the_commands_keep_their_output(tmp_path: Path) -> None:
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    path = tmp_path / "session.log"
    path.write_text(CONTAINER)
    (source,) = discover(path)
    events = list(iter_events(source, ReadStats(), AgentTree()))
    calls = {e.call_id: e.command for e in events if e.kind == "tool_call"}
    outputs = [(calls[e.call_id], e.text.strip()) for e in events if e.kind == "tool_result" and e.text.strip()]
    assert outputs == [("nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3"), ("ls /models", "Llama-3.1-8B-Instruct"),
                       ("hostname", "laptop")]
    assert not [e for e in events if e.raw_type == "heading"]


def test_a_root_shell_over_ssh(tmp_path: Path) -> None:
    log = "$ ssh root@gpu07\n# python3 -c 'import torch; print(torch.cuda.device_count())'\n8\n# exit\n$ ls\n"
    assert _commands(tmp_path, log) == [
        ("ssh root@gpu07", "gpu07", None),
        ("python3 -c 'import torch; print(torch.cuda.device_count())'", "gpu07", None),
        ("exit", "gpu07", None), ("ls", None, None)]


def test_headings_stay_headings(tmp_path: Path) -> None:
    # no shell opened: a note's heading
    assert _commands(tmp_path, "me@laptop:~$ ls\nx.py\n# notes on the run\nme@laptop:~$ pwd\n") == [
        ("ls", "laptop", None), ("pwd", "laptop", None)]
    # the exec failed: no shell reads the line
    failed = ("me@laptop:~$ docker exec -it nope sh\nError response from daemon: No such container: nope\n"
              "# retry on gpu07\nme@laptop:~$ pwd\n")
    assert [c[0] for c in _commands(tmp_path, failed)] == ["docker exec -it nope sh", "pwd"]
    # a Markdown note (a heading seen first), and a capitalised heading
    note = "# Setup\n$ ssh gpu07\n# check the logs\n$ ls\n"
    assert [c[0] for c in _commands(tmp_path, note, "note.md")] == ["ssh gpu07", "ls"]
    assert [c[0] for c in _commands(tmp_path, "$ ssh gpu07\n# Results\n$ ls\n")] == ["ssh gpu07", "ls"]


RECORDED = b"\n".join([
    b'Script started on 2026-12-07 07:56:52+00:00 [COMMAND="env PS1=\'$ \' bash --norc -i" <not executed on terminal>]',
    b'\x1b[?2004h$ PS1="# " dash -i\r',
    b'\x1b[?2004l\r# echo hi from dash\r',
    b'hi from dash\r',
    b'# ls /tmp/textlogs12-scratch/in.txt\r',
    b'/tmp/textlogs12-scratch/in.txt\r',
    b'# exit\r',
    b'\x1b[?2004h$ echo back\r',
    b'\x1b[?2004l\rback\r',
    b'\x1b[?2004h$ exit\r',
    b'\x1b[?2004l\rexit\r',
    b'',
    b'Script done on 2026-12-07 07:56:55+00:00 [COMMAND_EXIT_CODE="0"]',
    b'',
])
"""bash 5 (``PS1='$ '``) opening dash with ``PS1="# "``, under util-linux ``script -q`` on this machine."""


def test_a_recorded_dash_root_prompt(tmp_path: Path) -> None:
    path = tmp_path / "rec.log"
    path.write_bytes(RECORDED)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == [
        "env PS1='$ ' bash --norc -i", 'PS1="# " dash -i', "echo hi from dash", "ls /tmp/textlogs12-scratch/in.txt",
        "exit", "echo back", "exit"]
