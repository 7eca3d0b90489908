"""A host key accepted although it changed (`StrictHostKeyChecking no`) is in the run record.

ssh(1) connects to such a host with key logins only, after its "HOST KEY CHANGED" warning on
stderr (openssh-portable: sshconnect.c, check_host_key), and so do we (test_hardening7_ssh).
The warning went to the terminal only: run.json and the reports said the host passed, so the
team lead reading them after the incident never learned that the run's numbers came from a
host that may not be the one in known_hosts (reinstalled, or a man-in-the-middle). A jump
host's changed key was lost the same way. Real sshd servers, the real CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.ssh.test_hardening7_ssh import reinstall
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]

PLAYBOOK = "name: keys\ndescription: one step\nsteps:\n  - id: hello\n    title: hello\n    why: runs\n    run: echo hello\n"


def test_a_changed_host_key_let_through_is_written_to_run_json_and_the_reports(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    reinstalled = sshd_factory("h31changed")
    client.trust(reinstalled)
    reinstall(reinstalled, client)
    client.alias("reinstalled", reinstalled, StrictHostKeyChecking="no")
    bastion = sshd_factory("h31bastion")
    client.trust(bastion)
    reinstall(bastion, client)
    client.alias("bastion", bastion, StrictHostKeyChecking="no")
    client.alias("behind", sshd, ProxyJump="bastion")  # the target's own key is the known one
    client.alias("behind2", sshd, ProxyJump="bastion")
    playbook = tmp_path / "keys.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "reinstalled", "--host", "behind", "--host", "behind2", "--host", "target",
                 "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 0, result.stdout + result.stderr
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    hosts = {h["name"]: h for h in record["hosts"]}
    assert all(h["status"] == "passed" for h in hosts.values())
    [warned] = hosts["reinstalled"]["warnings"]
    assert "HOST KEY CHANGED" in warned and reinstalled.host_key_fingerprint in warned and "StrictHostKeyChecking no" in warned
    [hop] = hosts["behind"]["warnings"]  # the jump host's key changed, not the target's
    assert "HOST KEY CHANGED" in hop and bastion.host_key_fingerprint in hop
    assert hosts["behind2"]["warnings"] == [hop]
    assert hosts["target"]["warnings"] == []
    for report in ("report.md", "report.html"):
        text = (run_dir / report).read_text()
        assert reinstalled.host_key_fingerprint in text and bastion.host_key_fingerprint in text, report
        assert text.count(bastion.host_key_fingerprint) == 1, report  # the bastion's, once for the hosts behind it
