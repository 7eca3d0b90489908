"""Over a real sshd: a step that prints a secret's value bare (`cat` of a file named for a secret,
200 lines, more than the capture limit keeps) left every line
of it in clear in run.json and in the step's spilled artifact, which the ssh transport writes as
the bytes arrive. Now its stdout is masked whole, line by line, in both (the record's truncation
marker kept); stderr is kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.redact import MASK
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_a_bare_secret_read_over_ssh_is_masked(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    shutil.copy(client.key.path, client.home / ".ssh" / "id_ed25519")
    (client.home / ".ssh" / "id_ed25519").chmod(0o600)
    (client.home / ".ssh" / "known_hosts").write_text(sshd.known_hosts_line)
    secret = tmp_path / "private_key.pem"  # a key named for a secret, its lines no PEM
    secret.write_text("".join(f'  "line{i:03d}": "{VALUE}-{i}",\n' for i in range(200)))
    (tmp_path / "pb.yaml").write_text(f"name: k\nsteps:\n  - id: key\n    run: cat {secret}; echo done >&2\n")
    done = run_cli("run", str(tmp_path / "pb.yaml"), "--host", f"127.0.0.1:{sshd.port}", "--batch", "-F", "/dev/null",
                   "--capture-limit", "2000", "--out", str(tmp_path / "runs"), env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    (step,) = json.loads((run_dir / "run.json").read_text())["steps"]
    assert step["truncated"] is True and step["stderr"] == "done\n"
    lines = step["stdout"].split("\n")
    (marker,) = [line for line in lines if "bytes truncated; " in line]
    assert set(lines) - {marker} == {MASK, ""}  # a cut line of the head or tail masked too
    (artifact,) = [a for a in step["artifacts"] if a.endswith("stdout.log")]
    assert (run_dir / artifact).read_text() == f"{MASK}\n" * 200
    assert VALUE not in (run_dir / "run.json").read_text() + (run_dir / "report.md").read_text()
