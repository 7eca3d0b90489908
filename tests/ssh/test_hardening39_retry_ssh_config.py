"""`--retry-failed RUN_DIR` of a run made with `-F lab_ssh_config` (the team's config kept in a
repository), given without `-F` again, as README's `spec-debug run perf_regression
--retry-failed runs/<run-id>` shows: the hosts are that config's aliases, which only it turns
into addresses, ports, users and keys. The retry tried `lab` by name alone ("cannot resolve
host name", or a different machine of that name); it now takes the recorded config, as it
takes a recorded inventory (tests/ssh/test_lead12_retry_inventory.py). The hosts are a real
sshd on 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer, write_ssh_config


def _lab_config(client: ClientSetup, sshd: SshServer, tmp_path: Path, *, user_known_hosts: bool = True) -> Path:
    """`lab` known to a config of its own only: the default ~/.ssh/config does not name it."""
    lab = tmp_path / "lab_ssh_config"
    options: dict[str, object] = {"HostName": sshd.address, "Port": sshd.port, "IdentityFile": str(client.key.path),
                                  "IdentitiesOnly": "yes"}
    if user_known_hosts:
        options["UserKnownHostsFile"] = str(client.known_hosts)
    write_ssh_config(lab, {"lab": options})
    return lab


def _playbook(tmp_path: Path, ready: Path) -> Path:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: p\nsteps:\n  - id: ready\n    run: test -e {ready}\n")
    return playbook


def _only(out: Path) -> tuple[Path, dict[str, Any]]:
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return run_dir, json.loads((run_dir / "run.json").read_text())


def test_a_retry_without_F_uses_the_recorded_ssh_config(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                        tmp_path: Path) -> None:
    lab = _lab_config(client, sshd, tmp_path)
    ready = tmp_path / "ready"
    playbook = _playbook(tmp_path, ready)
    first = cli("run", str(playbook), "--host", "lab", "-F", str(lab), "--batch", "--out", str(tmp_path / "first"))
    assert first.code == 1, first.stderr  # the check failed on a host that was reached
    run_dir, record = _only(tmp_path / "first")
    assert record["hosts"][0]["status"] == "failed"
    ready.touch()
    retry = cli("run", str(playbook), "--retry-failed", str(run_dir), "--batch", "--out", str(tmp_path / "again"))
    assert "Traceback" not in retry.stderr
    assert retry.code == 0, retry.stderr
    _, again = _only(tmp_path / "again")
    assert [(h["name"], h["status"]) for h in again["hosts"]] == [("lab", "passed")]


def test_a_recorded_ssh_config_missing_from_here_is_one_clear_error(cli: Callable[..., Any], client: ClientSetup,
                                                                   sshd: SshServer, tmp_path: Path) -> None:
    lab = _lab_config(client, sshd, tmp_path)
    playbook = _playbook(tmp_path, tmp_path / "never")
    first = cli("run", str(playbook), "--host", "lab", f"--ssh-config={lab}", "--batch", "--out", str(tmp_path / "first"))
    assert first.code == 1, first.stderr
    run_dir, _ = _only(tmp_path / "first")
    lab.rename(tmp_path / "moved_config")
    retry = cli("run", str(playbook), "--retry-failed", str(run_dir), "--batch", "--out", str(tmp_path / "again"))
    assert retry.code == 2 and "Traceback" not in retry.stderr, retry.stderr
    said = " ".join(retry.stderr.split())
    assert f"ran with the ssh_config {lab}, which is not found from here" in said, said
    assert "-F PATH/TO/lab_ssh_config" in said, said
    assert not (tmp_path / "again").exists()


def test_a_given_F_wins_over_the_recorded_one(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                              tmp_path: Path) -> None:
    lab = _lab_config(client, sshd, tmp_path)
    ready = tmp_path / "ready"
    playbook = _playbook(tmp_path, ready)
    first = cli("run", str(playbook), "--host", "lab", "-F", str(lab), "--batch", "--out", str(tmp_path / "first"))
    assert first.code == 1, first.stderr
    run_dir, _ = _only(tmp_path / "first")
    moved = lab.rename(tmp_path / "moved_config")
    ready.touch()
    retry = cli("run", str(playbook), "--retry-failed", str(run_dir), "-F", str(moved), "--batch", "--out", str(tmp_path / "again"))
    assert retry.code == 0, retry.stderr


def test_a_retry_without_known_hosts_uses_the_recorded_file(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                            tmp_path: Path) -> None:
    """The lab's host keys in a known_hosts of its own, ~/.ssh/known_hosts without them: the
    retry refused the host as "not in known_hosts" (exit 3) under --batch."""
    lab = _lab_config(client, sshd, tmp_path, user_known_hosts=False)
    client.known_hosts.write_text("")
    lab_known = tmp_path / "lab_known_hosts"
    lab_known.write_text(sshd.known_hosts_line)
    ready = tmp_path / "ready"
    playbook = _playbook(tmp_path, ready)
    first = cli("run", str(playbook), "--host", "lab", "-F", str(lab), "--known-hosts", str(lab_known), "--batch",
                "--out", str(tmp_path / "first"))
    assert first.code == 1, first.stderr
    run_dir, _ = _only(tmp_path / "first")
    ready.touch()
    retry = cli("run", str(playbook), "--retry-failed", str(run_dir), "--batch", "--out", str(tmp_path / "again"))
    assert retry.code == 0, retry.stderr
    _, again = _only(tmp_path / "again")
    assert [(h["name"], h["status"]) for h in again["hosts"]] == [("lab", "passed")]


def test_a_local_retry_needs_no_recorded_ssh_config(cli: Callable[..., Any], tmp_path: Path) -> None:
    """A run on --host local given a -F since deleted: the retry runs on this machine, which no
    ssh_config reaches, so the missing file is no reason to refuse it."""
    config = tmp_path / "scratch_ssh_config"
    config.write_text("Host lab\n  HostName 127.0.0.1\n")
    ready = tmp_path / "ready"
    playbook = _playbook(tmp_path, ready)
    first = cli("run", str(playbook), "--host", "local", "-F", str(config), "--out", str(tmp_path / "first"))
    assert first.code == 1, first.stderr
    run_dir, _ = _only(tmp_path / "first")
    config.unlink()
    ready.touch()
    retry = cli("run", str(playbook), "--retry-failed", str(run_dir), "--out", str(tmp_path / "again"))
    assert retry.code == 0, retry.stderr
