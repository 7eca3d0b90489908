"""An inventory host that cannot be reached is named as the user knows it: `lab01 at 127.0.0.1`,
in run.json's host error, the SD005 finding and the console (was the address alone, which in
a fleet said nothing of which host it was). A host given as `--host alice@ADDRESS` keeps its
plain address. Real CLI runs against a real sshd and a closed port on loopback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: reach
description: one shell step
steps:
  - id: hello
    title: Say hello
    why: proves the host runs commands
    run: echo hello
"""


def run_cli(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    playbook = tmp_path / "reach.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), *args, "--batch", "--out", str(out)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "300"},
    )
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, json.loads((run_dir / "run.json").read_text())


def sd005_evidence(record: dict[str, Any], host: str) -> list[str]:
    return [line for f in record["findings"] if f["code"] == "SD005" and f["host"] == host for line in f["evidence"]]


def test_a_closed_port_names_the_inventory_host_and_its_address(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\nlab01 ansible_host=127.0.0.1 ansible_port={closed_port()}\n")
    done, record = run_cli(tmp_path, "-i", str(inventory))
    assert done.returncode == 3, done.stderr
    (host,) = record["hosts"]
    assert host["status"] == "error"
    assert host["error"].startswith("lab01 at 127.0.0.1: connection refused"), host["error"]
    assert sd005_evidence(record, "lab01") == [host["error"]]
    assert "lab01 at 127.0.0.1: connection refused" in done.stdout + done.stderr


def test_a_refused_login_names_the_inventory_host_and_its_address(
    tmp_path: Path, client: ClientSetup, sshd: SshServer
) -> None:
    # The client's HOME trusts the server's key but holds no key the server takes: the login fails.
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\nlab02 ansible_host={sshd.address} ansible_port={sshd.port}\n")
    done, record = run_cli(tmp_path, "-i", str(inventory))
    assert done.returncode == 3, done.stderr
    (host,) = record["hosts"]
    assert host["error"].startswith(f"lab02 at {sshd.address}: authentication failed"), host["error"]
    assert sd005_evidence(record, "lab02") == [host["error"]]


def test_a_host_given_as_user_at_address_keeps_its_plain_address(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    done, record = run_cli(tmp_path, "--host", f"alice@127.0.0.1:{closed_port()}")
    assert done.returncode == 3, done.stderr
    (host,) = record["hosts"]
    assert host["error"].startswith("127.0.0.1: connection refused"), host["error"]
    assert " at 127.0.0.1:" not in host["error"]


def test_an_inventory_host_named_by_its_address_is_not_named_twice(tmp_path: Path, closed_port: Callable[[], int]) -> None:
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"127.0.0.1 ansible_port={closed_port()}\n")
    done, record = run_cli(tmp_path, "-i", str(inventory))
    (host,) = record["hosts"]
    assert host["error"].startswith("127.0.0.1: connection refused"), host["error"]
