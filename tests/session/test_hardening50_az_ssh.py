"""Azure's ``az ssh vm`` / ``az ssh arc`` (the Azure CLI ssh extension) runs the command after
``--`` on the VM its ``--ip`` or ``--name`` names, as ``--local-user``. The command was read as
run where the session ran: no host, and a launch with one speculative step on the VM was a
launch here."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell import parse_target
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("command, host, user, port, inner", [
    ("az ssh vm -n gpu-vm -g rg -- nvidia-smi", "gpu-vm", None, None, "nvidia-smi"),
    ("az ssh vm --resource-group rg --vm-name gpu-vm -- nvidia-smi", "gpu-vm", None, None, "nvidia-smi"),
    ("az ssh vm --ip 10.0.0.4 --local-user azureuser -- -L 8000:localhost:8000 tail -n 5 /var/log/s.log",
     "10.0.0.4", "azureuser", None, "tail -n 5 /var/log/s.log"),
    ("az ssh arc --resource-group rg --name gpu-arc --local-user root --port 2222 -- nvidia-smi -L",
     "gpu-arc", "root", 2222, "nvidia-smi -L"),
    ("az ssh vm -g rg -n gpu-vm", "gpu-vm", None, None, ""),
    ("az ssh config -g rg -n gpu-vm --file ./cfg", None, None, None, "az ssh config -g rg -n gpu-vm --file ./cfg"),
])
def test_az_ssh_targets(command, host, user, port, inner) -> None:
    t = parse_target(command)
    assert (t.host, t.user, t.port, t.inner) == (host, user, port, inner)


def test_a_launch_through_az_ssh_is_the_vms(tmp_path: Path) -> None:
    w = _Writer("ab560000-0000-4000-8000-000000000056", None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on our Azure VM gpu-vm is slower than without it.")
    launch = ("az ssh vm -g rg -n gpu-vm -- python -m sglang.launch_server --model-path /m --speculative-algorithm "
              "EAGLE3 --speculative-draft-model-path /d --speculative-num-steps 1 --speculative-eagle-topk 1 "
              "--speculative-num-draft-tokens 2")
    w.bash(launch, "")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.category) for c in a.commands] == [("gpu-vm", "launch_server")]
    assert [(f.code, f.host) for f in a.findings] == [("SD101", "gpu-vm")]


def test_commands_typed_after_an_interactive_az_ssh_are_the_vms(tmp_path: Path) -> None:
    path = tmp_path / "azure.log"
    path.write_text("$ az ssh vm -g rg -n gpu-vm\nWelcome to Ubuntu 22.04\n$ nvidia-smi -L\nGPU 0: NVIDIA H100\n"
                    "$ exit\nlogout\nConnection to 10.0.0.4 closed.\n$ az vm list -o table\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host) for c in a.commands] == [
        ("az ssh vm -g rg -n gpu-vm", "gpu-vm"), ("nvidia-smi -L", "gpu-vm"), ("exit", "gpu-vm"),
        ("az vm list -o table", None)]
