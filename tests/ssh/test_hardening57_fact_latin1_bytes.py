"""A fact captured from output that holds a byte that is no UTF-8 (a log named by a latin-1
tool, `ls` printing `caf\\xe9.log`) was decoded with U+FFFD, so a later step that used it
(`cat {{ facts.log }}`, a fetch of it) named a file the host does not have: "No such file".
Captures now read the stream with such bytes kept (surrogateescape, PEP 383); the command and
the copy send them back as the bytes they were, and run.json shows them as \\xe9.

The hosts are real: the fixture's sshd and this machine (ansible_connection=local)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = r"""
name: latin1_fact
vars:
  logs: /nowhere
steps:
  - id: newest
    run: ls {{ logs }}
    capture:
      - regex: '(?P<log>caf\S*\.log)'
  - id: read
    run: cat {{ logs }}/{{ facts.log }}
  - id: copy
    fetch:
      src: "{{ logs }}/{{ facts.log }}"
      dest: logs
"""


def test_a_fact_with_a_latin1_byte_names_the_file_it_was_read_from(cli: Callable[..., Any], client: ClientSetup,
                                                                    sshd: SshServer, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    with open(os.fsencode(logs) + b"/caf\xe9.log", "wb") as handle:
        handle.write(b"rank 0 ready\n")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(
        "[gpus]\nbox ansible_connection=local\n"
        f"gpu01 ansible_host=127.0.0.1 ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path}\n"
    )
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("target", sshd)
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(tmp_path / "pb.yaml"), "-i", str(inventory), "-F", str(client.config), "--batch",
                 "--out", str(out), "--var", f"logs={logs}")
    assert result.code == 0, result.stderr
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    for host in ("box", "gpu01"):
        assert record["facts"][host] == {"log": "caf\\xe9.log"}
        steps = {s["id"]: s for s in record["steps"] if s["host"] == host}
        assert (steps["read"]["status"], steps["read"]["stdout"]) == ("passed", "rank 0 ready\n")
        assert steps["copy"]["status"] == "passed", steps["copy"]["message"]
        [artifact] = steps["copy"]["artifacts"]
        assert (run_dir / artifact).read_bytes() == b"rank 0 ready\n"
