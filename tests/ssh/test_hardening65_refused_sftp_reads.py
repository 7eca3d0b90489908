"""An SFTP server that refuses every read request (`sftp-server -P read`, as sshd_config's
`Subsystem sftp internal-sftp -P read` does, or an allowlist `-p` without read) on a host whose
login shell may read the files: a fetch failed with a bare "Permission denied" on a file the
user can read, where an upload to the same host went over `cat` (real sshd)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.conftest import ClientSetup
from tests.ssh.test_fleet_faults import StartServer, assert_clean_cli, by_id, fresh_server, load_run, sftp_server_path

PLAYBOOK = """
name: read_refused
steps:
  - id: write
    run: mkdir -p logs && printf 'one\\n' > logs/a.log && printf 'two\\n' > logs/b.log
  - id: grab
    fetch:
      src: logs/*.log
      dest: got
  - id: missing
    fetch:
      src: logs/none.txt
      dest: got
  - id: after
    run: echo after
"""


@pytest.mark.parametrize("policy", ["-P read", "-p open,close,write,stat,lstat,fstat,realpath,opendir,readdir"], ids=["deny", "allow"])
def test_an_sftp_server_refusing_reads_fetches_over_the_shell(
    policy: str, cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "noread", alias={"ConnectTimeout": 5})
    server = sftp_server_path()
    fresh.shim.write_text(fresh.shim.read_text().replace(f"exec {server}", f"exec {server} {policy}"))  # sftp-server(8): -P/-p
    playbook = tmp_path / "read_refused.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "noread", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    assert result.code == 0, result.stdout + result.stderr  # SD003 (the missing file) is a warning
    steps = by_id(record, "noread")
    assert steps["grab"]["status"] == "passed", steps["grab"]
    assert sorted(steps["grab"]["artifacts"]) == ["artifacts/noread/got/a.log", "artifacts/noread/got/b.log"]
    assert (run_dir / "artifacts/noread/got/a.log").read_text() == "one\n"
    assert (run_dir / "artifacts/noread/got/b.log").read_text() == "two\n"
    assert steps["missing"]["status"] == "error"
    assert steps["missing"]["message"] == (
        "logs/none.txt: noread: cannot download logs/none.txt: No such file or directory "
        "(copied with cat over ssh: the SFTP server refused the read (Permission denied))"
    ), steps["missing"]["message"]
    assert [f["step"] for f in record["findings"] if f["code"] == "SD003"] == ["missing"], record["findings"]
    assert steps["after"]["stdout"] == "after\n"
    assert not list((run_dir / "artifacts").rglob("*.part-*"))


def test_a_file_the_login_user_cannot_read_either_says_so_plainly(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # The shell's copy of secret.log is refused as a file of another user's is (GET_SCRIPT's
    # exit code 13, EACCES): the tests run as root, which may read every file.
    unreadable = 'case "$SSH_ORIGINAL_COMMAND" in *secret.log*) echo "cat: secret.log: Permission denied" >&2; exit 13 ;; esac\n'
    fresh = fresh_server(client, sshd_factory, tmp_path, "noread", banner=unreadable, alias={"ConnectTimeout": 5})
    server = sftp_server_path()
    fresh.shim.write_text(fresh.shim.read_text().replace(f"exec {server}", f"exec {server} -P read"))
    (fresh.home / "secret.log").write_text("root only\n")
    (fresh.home / "open.log").write_text("anyone\n")
    playbook = tmp_path / "secret.yaml"
    playbook.write_text(
        "name: secret\nsteps:\n  - id: secret\n    fetch:\n      src: secret.log\n      dest: got\n"
        "  - id: open\n    fetch:\n      src: open.log\n      dest: got\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "noread", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    steps = by_id(record, "noread")
    assert steps["secret"]["message"] == (
        "secret.log: noread: cannot download secret.log: Permission denied "
        "(over SFTP and over `cat` on the login shell: the login user may not read it)"
    ), steps["secret"]["message"]
    assert steps["open"]["status"] == "passed" and (run_dir / "artifacts/noread/got/open.log").read_text() == "anyone\n"
