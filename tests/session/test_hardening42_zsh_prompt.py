"""zsh's own default prompt, ``%m%# `` (zshparam(1), PS1), shows the host and ``%`` (``#`` as
root): ``gpu01% nvidia-smi``. It is what a zsh with no .zshrc shows, on a fresh GPU host or in a
container. A terminal log of such a shell was read as one block of output: no command, no
host, and the error after ``cat`` belonged to nothing."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
alice@laptop ~ % ssh gpu01
Last login: Fri Dec  4 09:12:44 2026 from 10.0.0.8
gpu01% nvidia-smi --query-gpu=name,utilization.gpu --format=csv
name, utilization.gpu [%]
NVIDIA H100 80GB HBM3, 97 %
gpu01% cat /models/eagle3/config.json
cat: /models/eagle3/config.json: No such file or directory
gpu01% python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000
Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:03<00:00,  1.20it/s]
%Cpu(s):  3.1 us,  0.4 sy,  0.0 ni, 96.5 id
[2026-12-04 09:14:02] The server is fired up and ready to roll!
^C
gpu01:~/sglang% git log --oneline -1
3f2c1a9 fix eagle3 aux layers
gpu01% exit
"""


def test_zsh_default_prompt_starts_a_command_on_its_host(tmp_path: Path) -> None:
    path = tmp_path / "gpu01-zsh.log"
    path.write_text(LOG)
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ("ssh gpu01", "gpu01"),  # the host it logs in to
        ("nvidia-smi --query-gpu=name,utilization.gpu --format=csv", "gpu01"),
        ("cat /models/eagle3/config.json", "gpu01"),
        ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000", "gpu01"),
        ("git log --oneline -1", "gpu01"),
        ("exit", "gpu01"),
    ]
    cat = a.commands[2]
    assert [(e.message, e.host) for e in a.errors if e.command_seq == cat.seq] == [
        ("cat: /models/eagle3/config.json: No such file or directory", "gpu01")]
    assert a.commands[4].cwd == "~/sglang"
