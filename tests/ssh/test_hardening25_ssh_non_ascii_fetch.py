"""A fetched file whose name is not ASCII (résumé-中.log) under a controller locale that is not
UTF-8 (LC_ALL=C with PYTHONUTF8=0: a cron job, a CI runner's bare environment).

The copy over SFTP worked (paths are UTF-8 on the wire), the local write failed: the step was
SD003 "'ascii' codec can't encode character" and the log was lost. The local name now spells
what the file-system encoding cannot hold as %XX of the UTF-8 bytes (engine.local_name), as
readable() spells a host's undecodable bytes, so the record names a file a reader in the same
locale can open."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.sshd_fixture import ClientSetup, SshServer

NAME = "r\u00e9sum\u00e9-\u4e2d.log"


def test_a_non_ascii_remote_name_is_fetched_under_the_c_locale(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    remote = tmp_path / "host"
    remote.mkdir()
    (remote / NAME).write_text("accept_len 2.1\n", encoding="utf-8")
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(f"name: fetch\nsteps:\n  - id: logs\n    fetch:\n      src: {remote}/*.log\n      dest: logs\n",
                        encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out),
                     env={"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}, real_process=True, timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    (step,) = record["steps"]
    assert step["status"] == "passed", (step["message"], result.stderr[-1500:])
    (artifact,) = step["artifacts"]
    # ASCII, as the controller's file names are in this locale; readable()'s %XX of the UTF-8 bytes
    assert artifact.endswith("logs/r%C3%A9sum%C3%A9-%E4%B8%AD.log"), artifact
    assert (run_dir / artifact).read_bytes() == "accept_len 2.1\n".encode()
    assert result.code == 0, result.stderr[-1500:]
