"""sshd's MaxAuthTries ending a login: the message counts the keys the host was offered. A key
skipped unoffered, as ssh(1) skips it (a type PubkeyAcceptedAlgorithms leaves out, an RSA key
under RequiredRSASize), was counted as offered, so "ended the login after 3 key(s) offered"
where the host had seen 2, and the reader counted the wrong keys against MaxAuthTries."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer, keygen


def test_keys_skipped_unoffered_are_not_counted_against_max_auth_tries(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    server = sshd_factory("strict", extra_config="MaxAuthTries 2\n")
    client.trust(server)
    rsa = tmp_path / "id_rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(rsa)], check=True,
                   stdin=subprocess.DEVNULL)
    others = [str(keygen(tmp_path / f"id_{n}")) for n in ("a", "b", "c", "d")]
    client.alias("gpu01", server, IdentityFile=[str(rsa), *others], PubkeyAcceptedAlgorithms="-rsa-sha2-512,rsa-sha2-256")
    done, record = run_tiny(cli, tmp_path, "strict", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert "ended the login after" in error, error
    offered = int(error.split("ended the login after ", 1)[1].split(" ", 1)[0])
    assert offered == 2, error
