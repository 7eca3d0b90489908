"""A terminal log kept as a note: ``ssh ubuntu@gpu07``, gpu07's own ``ubuntu@gpu07:~$`` prompts, and
the writer's lowercase remarks between them (``# results on gpu07: accept length stuck near 1``).
The bare-root-prompt rule (a root shell's ``# cmd``: test_hardening72_bare_root_prompt) read those
remarks as commands typed on gpu07 ("results on gpu07: ..."), though that shell prompts with ``$``:
it showed its own prompt, and a login as a user other than root gets ``$`` (bash(1), PROMPTING:
``\\$`` is ``#`` only for uid 0)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

NOTE = """me@laptop:~$ ssh ubuntu@gpu07
Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)
Last login: Mon Dec  7 07:40:12 2026 from 10.0.0.2
ubuntu@gpu07:~$ python3 bench_eagle3.py --model llama3-8b --draft eagle3-llama3-8b
accept length: 1.02
throughput: 41.3 tok/s
# results on gpu07: accept length stuck near 1, draft is not helping
# next: check the d2t mapping of the draft
ubuntu@gpu07:~$ python3 -c "import torch; print(torch.load('d2t.pt')[:5])"
tensor([0, 0, 0, 0, 0])
ubuntu@gpu07:~$ exit
logout
Connection to gpu07 closed.
me@laptop:~$ hostname
laptop
"""


def _commands(tmp_path: Path, text: str) -> list[tuple]:
    path = tmp_path / "session.log"
    path.write_text(text)
    return [(c["command"], c["host"]) for c in analyze_path(path).to_json()["commands"]]


def test_remarks_after_the_shells_own_prompt_are_no_commands(tmp_path: Path) -> None:
    assert _commands(tmp_path, NOTE) == [
        ("ssh ubuntu@gpu07", "gpu07"), ("python3 bench_eagle3.py --model llama3-8b --draft eagle3-llama3-8b", "gpu07"),
        ("python3 -c \"import torch; print(torch.load('d2t.pt')[:5])\"", "gpu07"), ("exit", "gpu07"),
        ("hostname", "laptop")]


def test_the_remark_keeps_the_benchmarks_output_whole(tmp_path: Path) -> None:
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    path = tmp_path / "session.log"
    path.write_text(NOTE)
    (source,) = discover(path)
    events = list(iter_events(source, ReadStats(), AgentTree()))
    assert [e.text for e in events if e.raw_type == "heading"] == [
        "results on gpu07: accept length stuck near 1, draft is not helping", "next: check the d2t mapping of the draft"]


def test_a_remark_right_after_a_login_as_another_user(tmp_path: Path) -> None:
    log = ("me@laptop:~$ ssh ubuntu@gpu07\nWelcome to Ubuntu 22.04.4 LTS\n"
           "# logged in to gpu07, checking the draft\n"
           "$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    assert _commands(tmp_path, log) == [("ssh ubuntu@gpu07", "gpu07"), ("nvidia-smi -L", "gpu07")]


def test_a_root_shell_opened_there_still_reads_its_bare_prompt(tmp_path: Path) -> None:
    log = ("me@laptop:~$ ssh ubuntu@gpu07\nWelcome to Ubuntu 22.04.4 LTS\n"
           "ubuntu@gpu07:~$ sudo -i\n"
           "# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
           "# exit\n"
           "ubuntu@gpu07:~$ exit\nlogout\nConnection to gpu07 closed.\n"
           "me@laptop:~$ hostname\nlaptop\n")
    assert _commands(tmp_path, log) == [
        ("ssh ubuntu@gpu07", "gpu07"), ("sudo -i", "gpu07"), ("nvidia-smi -L", "gpu07"), ("exit", "gpu07"),
        ("exit", "gpu07"), ("hostname", "laptop")]


def test_a_root_login_reads_its_bare_prompt(tmp_path: Path) -> None:
    log = "me@laptop:~$ ssh root@gpu07\n# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n# exit\nme@laptop:~$ ls\n"
    assert _commands(tmp_path, log) == [
        ("ssh root@gpu07", "gpu07"), ("nvidia-smi -L", "gpu07"), ("exit", "gpu07"), ("ls", "laptop")]
