"""`--var model=/srv/caf\\xe9` typed in a Latin-1 shell reaches Python as a lone surrogate (PEP
383). A command that short goes in sshd's exec request, which paramiko encodes as strict
UTF-8: the host ended as "internal error: UnicodeEncodeError: 'utf-8' codec can't encode
character '\\udce9'" before its step ran, where docs/reports.md says such a value "reaches the
host byte for byte" (as it did for --host local, and for a long script sent on stdin). It now
goes as the byte it was typed as.

The host is real: the fixture's sshd; the CLI a real process given the byte in its argv."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: latin1
vars:
  folder: /nowhere
steps:
  - id: look
    run: cat {{ folder }}/config.json
"""


def test_a_latin1_var_reaches_the_host_byte_for_byte(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(folder)
    with open(folder + b"/config.json", "wb") as handle:
        handle.write(b'{"ok": true}\n')
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    argv = [os.fsencode(sys.executable), b"-m", b"spec_debug", b"run", os.fsencode(tmp_path / "pb.yaml"), b"--host", b"target",
            b"-F", os.fsencode(client.config), b"--batch", b"--out", os.fsencode(out), b"--var", b"folder=" + folder]
    done = subprocess.run(argv, capture_output=True, timeout=120, env={**os.environ, "LC_ALL": "C.UTF-8", "COLUMNS": "200"})
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stderr
    assert "internal error" not in stderr
    [run_dir] = list(out.iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    [step] = record["steps"]
    assert (step["status"], step["stdout"]) == ("passed", '{"ok": true}\n')
    assert record["vars"]["folder"].endswith("/caf\\xe9")
