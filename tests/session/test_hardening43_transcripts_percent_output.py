"""zsh's default prompt is ``host% `` (``%m%#``), so a terminal log's output line of the shape
``word% text`` looked like one: ``df --output=pcent,target``'s header ``Use% Mounted on`` became
a command ``Mounted on`` on a host ``Use``, and the command that printed it lost the rest of its
output. A shell shows a new host only after a command that opened a shell there."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
gpu01% df --output=pcent,target /models
Use% Mounted on
 97% /models
gpu01% python3 bench.py --model llama
Loading weights
progress% complete
gpu01% ssh gpu02
Last login: Fri Dec  4 09:12:44 2026 from 10.0.0.8
gpu02% nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
gpu02% exit
gpu01% grep -c OOM server.log
0
"""


def test_a_percent_line_of_output_is_no_zsh_prompt(tmp_path: Path) -> None:
    path = tmp_path / "gpu01-zsh.log"
    path.write_text(LOG)
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ("df --output=pcent,target /models", "gpu01"),
        ("python3 bench.py --model llama", "gpu01"),
        ("ssh gpu02", "gpu02"),
        ("nvidia-smi -L", "gpu02"),  # a new host after the ssh that opened a shell there
        ("exit", "gpu02"),
        ("grep -c OOM server.log", "gpu01"),  # back at a prompt the log has shown
    ]


def test_a_percent_line_in_a_console_block_is_output(tmp_path: Path) -> None:
    path = tmp_path / "issue.md"
    path.write_text("Disk filled up on the node:\n\n```console\n" + LOG.split("gpu01% python3")[0] + "```\n")
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [("df --output=pcent,target /models", "gpu01")]


def test_the_next_node_of_a_multi_node_launch_keeps_its_prompt(tmp_path: Path) -> None:
    path = tmp_path / "launch.md"
    path.write_text("Launch on both nodes:\n\n```console\n"
                    "node1% python -m sglang.launch_server --model-path /m --nnodes 2 --node-rank 0\n"
                    "[2026-12-04 09:14:02] Init torch distributed begin.\n"
                    "node2% python -m sglang.launch_server --model-path /m --nnodes 2 --node-rank 1\n"
                    "```\n")
    a = analyze_path(path)
    assert [(c.command[-13:], c.host) for c in a.commands] == [("--node-rank 0", "node1"), ("--node-rank 1", "node2")]


def test_a_shell_opened_with_a_command_of_its_own_shows_its_host(tmp_path: Path) -> None:
    path = tmp_path / "zsh.log"
    path.write_text("gpu01% ssh -t gpu02 zsh\nLast login: Fri Dec  4 09:12:44 2026\n"
                    "gpu02% nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
                    "gpu01% srun -w dgx07 --pty zsh\ndgx07% nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    a = analyze_path(path)
    assert [c.command for c in a.commands] == [
        "ssh -t gpu02 zsh", "nvidia-smi -L", "srun -w dgx07 --pty zsh", "nvidia-smi -L"]
    assert [c.host for c in a.commands][1::2] == ["gpu02", "dgx07"]
