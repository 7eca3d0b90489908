"""cmd.exe's prompt (``$P$G``) is the folder and ``>``, the command typed right after it:
``C:\\Users\\me>ssh gpu01 nvidia-smi -L``. A console log copied from cmd.exe (an engineer on a
Windows laptop reaching the GPU hosts over ssh) was read as one block of output: no command,
no host, and the refused connection belonged to nothing."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = (
    "Microsoft Windows [Version 10.0.22631.4460]\r\n"
    "(c) Microsoft Corporation. All rights reserved.\r\n"
    "\r\n"
    "C:\\Users\\me>ssh gpu01 nvidia-smi -L\r\n"
    "ssh: connect to host gpu01 port 22: Connection timed out\r\n"
    "\r\n"
    "C:\\Users\\me>cd C:\\Program Files\\bench\r\n"
    "\r\n"
    "C:\\Program Files\\bench>ssh ubuntu@gpu02 \"python3 -m sglang.bench_serving --backend sglang --num-prompts 20\"\r\n"
    "C:\\Program Files\\bench\\warn.py:3: UserWarning: batch > 8 is slow\r\n"
    "Output token throughput (tok/s):         91.2\r\n"
    "\r\n"
    "C:\\Program Files\\bench>\r\n"
)


def test_a_cmd_exe_console_log_gives_its_commands_and_hosts(tmp_path: Path) -> None:
    path = tmp_path / "console.log"
    path.write_bytes(LOG.encode())
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ("ssh gpu01 nvidia-smi -L", "gpu01"),
        ("cd C:\\Program Files\\bench", None),
        ('ssh ubuntu@gpu02 "python3 -m sglang.bench_serving --backend sglang --num-prompts 20"', "gpu02"),
    ]
    ssh = a.commands[0]
    assert [(e.kind, e.host) for e in a.errors if e.command_seq == ssh.seq] == [("connection", "gpu01")]
    assert [(m.name, m.value, m.host) for m in a.metrics] == [("throughput", 91.2, "gpu02")]
