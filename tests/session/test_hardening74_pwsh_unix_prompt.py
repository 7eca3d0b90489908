"""PowerShell on Linux or macOS (pwsh) shows its default prompt with a Unix path, ``PS /home/ops>
`` (the built-in ``prompt`` function, ``"PS $($executionContext.SessionState.Path.CurrentLocation)>"``:
PowerShell's about_Prompts). Before: only ``PS C:\\...>`` was read as a prompt, so a pwsh
transcript taken on a GPU host and a macOS laptop's pwsh log had no commands at all: the failed
launch and the ssh to gpu01 were lost. Now each command typed there is read: on the machine a
transcript's header names, through ssh on the host it names."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

STARS = "**********************"
TRANSCRIPT = [
    STARS, "PowerShell transcript start", "Start time: 20261207101502", "Username: ops",
    "RunAs User: ops", "Machine: gpu01 (Unix 5.15.0.91)", "Host Application: /opt/microsoft/powershell/7/pwsh",
    "Process ID: 4121", "PSVersion: 7.4.6", STARS,
    "Transcript started, output file is /home/ops/PowerShell_transcript.gpu01.Qz1x.20261207101502.txt",
    "PS /home/ops> nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000)",
    "PS /home/ops> python3 -m sglang.launch_server --model-path /models/target --speculative-algorithm EAGLE3",
    "Traceback (most recent call last):", "ModuleNotFoundError: No module named 'sgl_kernel'",
    "PS /home/ops> Stop-Transcript", STARS, "PowerShell transcript end", "End time: 20261207101730", STARS,
]


def test_a_pwsh_transcript_on_a_linux_host_keeps_its_commands(tmp_path: Path) -> None:
    path = tmp_path / "PowerShell_transcript.gpu01.Qz1x.20261207101502.txt"
    path.write_text("\n".join(TRANSCRIPT) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.is_error, c.command) for c in a.commands] == [
        ("gpu01", False, "nvidia-smi -L"),
        ("gpu01", True, "python3 -m sglang.launch_server --model-path /models/target --speculative-algorithm EAGLE3"),
        ("gpu01", False, "Stop-Transcript"),
    ]
    assert [(e.exception, e.host) for e in a.errors] == [("ModuleNotFoundError", "gpu01")]


_MACOS = """\
PS /Users/me> ssh gpu01 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
PS /Users/me> ssh gpu01 'tail -n 2 /var/log/sglang.log'
RuntimeError: CUDA error: out of memory
PS /Users/me> Get-Date
Monday, December 7, 2026 10:20:00 AM
"""


def test_a_macos_pwsh_log_reads_the_ssh_commands_on_their_host(tmp_path: Path) -> None:
    path = tmp_path / "pwsh.log"
    path.write_text(_MACOS, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.inner) for c in a.commands] == [
        ("gpu01", "nvidia-smi -L"), ("gpu01", "tail -n 2 /var/log/sglang.log"), (None, "Get-Date")]
    assert [(e.kind, e.host) for e in a.errors] == [("cuda_oom", "gpu01")]
