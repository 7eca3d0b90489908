"""A fetch pattern that names no file, or too many, said only the pattern as written:
`{{ log_dir }}/*.log: no file on the host matches this pattern`. Where log_dir comes from each
host's inventory vars (or a fact), the reader could not tell which folder each host was asked
for. The rendered pattern now follows the written one, as an OSError's own path already did
(`{{ d }}/x.log: [Errno 2] gpu01:/srv/x.log: No such file`); a pattern with no template
is said once.

The hosts are real: two inventory hosts of the fixture's sshd, each with its own log_dir."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: logs
vars:
  log_dir: /var/log/none
steps:
  - id: logs
    fetch:
      src: ["{{ log_dir }}/*.log", "{{ log_dir }}/server.out"]
      dest: logs
"""


def test_a_pattern_that_names_nothing_says_where_it_looked(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                            tmp_path: Path) -> None:
    first, second = tmp_path / "gpu01 logs", tmp_path / "gpu02-logs"
    first.mkdir()
    second.mkdir()
    (second / "server.out").write_text("ready\n")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\n"
        f"gpu01 ansible_host=127.0.0.1 ansible_port={sshd.port} log_dir='{first}'\n"
        f"gpu02 ansible_host=127.0.0.1 ansible_port={sshd.port} log_dir={second}\n"
        f"[gpus:vars]\nansible_ssh_private_key_file={client.key.path}\n"
    )
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("target", sshd)
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(tmp_path / "pb.yaml"), "-i", str(inventory), "-F", str(client.config), "--batch", "--out", str(out))
    assert "Traceback" not in result.stderr
    [run_dir] = list(out.iterdir())
    steps = {s["host"]: s for s in json.loads((run_dir / "run.json").read_text())["steps"]}
    assert steps["gpu01"]["message"] == (
        f"{{{{ log_dir }}}}/*.log: {first}/*.log: no file on the host matches this pattern; "
        f"{{{{ log_dir }}}}/server.out: [Errno 2] gpu01:{first}/server.out: No such file")
    assert steps["gpu02"]["message"] == f"{{{{ log_dir }}}}/*.log: {second}/*.log: no file on the host matches this pattern"
    assert [a.rsplit("/", 1)[-1] for a in steps["gpu02"]["artifacts"]] == ["server.out"]


def test_a_pattern_without_a_template_is_said_once(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer,
                                                    tmp_path: Path) -> None:
    (tmp_path / "pb.yaml").write_text(PLAYBOOK.replace("{{ log_dir }}", str(tmp_path)))
    out = tmp_path / "runs"
    cli("run", str(tmp_path / "pb.yaml"), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out))
    [run_dir] = list(out.iterdir())
    [step] = json.loads((run_dir / "run.json").read_text())["steps"]
    assert step["message"].startswith(f"{tmp_path}/*.log: no file on the host matches this pattern; ")
