"""An SFTP server that refuses every write request (`sftp-server -P write`, as sshd_config's
`Subsystem sftp internal-sftp -P write` does) on a host whose login shell may write the home:
paramiko's pipelined put drops the writes' answers, so the empty upload read as a full disk
(real sshd)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.conftest import ClientSetup
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, FreshHost, StartServer, assert_clean_cli, by_id, fresh_server, load_run, sftp_server_path


def _refusing_writes(fresh: FreshHost) -> None:
    server = sftp_server_path()
    fresh.shim.write_text(fresh.shim.read_text().replace(f"exec {server}", f"exec {server} -P write"))  # sftp-server(8): -P denied requests


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, name: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", name, "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    return result, load_run(out)[1]


def test_an_sftp_server_refusing_writes_uploads_the_bundle_over_the_shell(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "nowrite", alias={"ConnectTimeout": 5})
    _refusing_writes(fresh)
    result, record = _run(cli, client, tmp_path, "nowrite")
    assert result.code == 0, result.stdout + result.stderr
    steps = by_id(record, "nowrite")
    assert steps["host_info"]["status"] == "passed", steps["host_info"]
    assert not [f for f in record["findings"] if f["code"] == "SD003"], record["findings"]
    folder = fresh.home / ".cache" / "spec-debug"
    bundles = list(folder.glob("bundle-*.pyz"))
    assert len(bundles) == 1 and not list(folder.glob("*.part-*")), sorted(folder.iterdir())
    assert steps["host_info"]["command"].split()[1] == f".cache/spec-debug/{bundles[0].name}"
    assert [steps[s]["status"] for s in ("shell", "fetch_note", "after")] == ["passed"] * 3


def test_an_sftp_server_refusing_writes_is_said_as_a_refusal_not_a_full_disk(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # The login shell's copy fails too (its quota): the error says both, and no full disk. No
    # /tmp either (commands about /tmp/spec-debug.* fail): a bundle another run left there on
    # this machine would be taken instead.
    quota = ("case \"$SSH_ORIGINAL_COMMAND\" in *'.part-$2'*) echo 'cat: write error: Disk quota exceeded' >&2; exit 1 ;;\n"
             "  *spec-debug.*) echo 'no /tmp here' >&2; exit 1 ;; esac\n")
    fresh = fresh_server(client, sshd_factory, tmp_path, "nowritequota", banner=quota, alias={"ConnectTimeout": 5})
    _refusing_writes(fresh)
    result, record = _run(cli, client, tmp_path, "nowritequota")
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    steps = by_id(record, "nowritequota")
    message = steps["host_info"]["message"]
    assert steps["host_info"]["status"] == "error" and "\n" not in message, steps["host_info"]
    assert "cannot upload to .cache/spec-debug/bundle-" in message, message
    assert ("cat: write error: Disk quota exceeded (copied with cat over ssh: the SFTP server refused the write "
            "(Permission denied): is it read-only (sftp-server -R or -P write)?)") in message, message
    assert "is full" not in message and "bytes could be written" not in message, message
    assert any(f["code"] == "SD003" and f["step"] == "host_info" for f in record["findings"])
    assert not list((fresh.home / ".cache" / "spec-debug").glob("*.part-*"))
    assert steps["shell"]["status"] == "passed" and steps["after"]["status"] == "passed"
