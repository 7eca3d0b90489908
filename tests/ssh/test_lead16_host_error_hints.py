"""A host that cannot be reached gets the fix its error knows, not only the error's first line.

The transport's errors carry a hint: the exact ``ssh-keygen -R ... -f FILE`` for a changed
host key, "is sshd running" for a refused connection. The run kept only the first line of
the message, so run.json, the report's SD005 and the console said what went wrong and never
how to fix it. Against the real sshd the tests start."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_cli_ssh import load_run
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def test_a_changed_host_key_names_the_ssh_keygen_line_in_the_record_the_finding_and_the_console(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, closed_port: Callable[[], int]
) -> None:
    impostor = keygen(tmp_path / "impostor")
    kind, blob = Path(str(impostor) + ".pub").read_text().split()[:2]
    known_hosts = tmp_path / "changed_known_hosts"
    known_hosts.write_text(f"{sshd.known_hosts_name} {kind} {blob}\n")
    client.alias("changed", sshd, UserKnownHostsFile=str(known_hosts))
    client.alias("refused", sshd, Port=closed_port())  # held closed: the other worker's sshd cannot take it
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text("name: tiny\ndescription: one step\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "changed", "--host", "refused", "-F", str(client.config), "--batch",
                 "--out", str(out))
    assert result.code == 3, result.stderr
    _, record = load_run(out)
    hosts = {h["name"]: h for h in record["hosts"]}
    assert "HOST KEY CHANGED" in hosts["changed"]["error"]
    assert "ssh-keygen -R" in hosts["changed"]["hint"] and str(known_hosts) in hosts["changed"]["hint"]
    sd005 = {f["host"]: f for f in record["findings"] if f["code"] == "SD005"}
    assert sd005["changed"]["remediation"].startswith("If the host was reinstalled")
    assert "remove the old key with `ssh-keygen -R" in sd005["changed"]["remediation"]
    assert "--retry-failed" in sd005["changed"]["remediation"]  # the catalog's generic fix still follows
    assert "sshd running" in hosts["refused"]["hint"]
    console = " ".join(result.stderr.split())
    assert "hint: if the host was reinstalled" in console and "ssh-keygen -R" in console
