"""The user of an `ssh://` destination, read as ssh(1) reads it (openssh-portable: misc.c,
parse_uri and urldecode, after draft-ietf-secsh-scp-sftp-ssh-uri-04): connection parameters after
`;` dropped, `%XX` decoded, `+` a space; recorded with OpenSSH_9.2p1 `ssh -G`
(`ssh -G ssh://jdoe%40corp.example.com@gpu01:2222` says `user jdoe@corp.example.com`).

Before: `--host ssh://jdoe%40corp.example.com@gpu01` (a domain account, its `@` written as the
URI form asks) logged in as `jdoe%40corp.example.com` and was refused "authentication failed",
where `ssh` logs in; `ssh://ops;fingerprint=SHA256:...@gpu01` was refused as "a password in the
host"; a bad `%` escape, which ssh(1) refuses, was used as typed. Now the user is decoded (also in
a ProxyJump hop, which ssh(1) parses the same way) and a bad escape is refused with the host's
text. Real sshd: the run logs in as the encoded user.
"""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_target import Destination, parse_destination, parse_proxy_jump
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: who\n    title: who\n    why: who\n    run: id -un\n"


def _ssh_g_user(destination: str) -> str | None:
    if not shutil.which("ssh"):
        return None
    done = subprocess.run(["ssh", "-G", "-F", "/dev/null", destination], capture_output=True, text=True)
    return next((line[5:] for line in done.stdout.splitlines() if line.startswith("user ")), "")


@pytest.mark.parametrize("text, user, host, port", [
    ("ssh://jdoe%40corp.example.com@gpu01:2222", "jdoe@corp.example.com", "gpu01", 2222),
    ("ssh://ops;fingerprint=SHA256:abc@gpu01", "ops", "gpu01", None),
    ("ssh://%6Aane@gpu01/", "jane", "gpu01", None),
    ("ssh://a+b@gpu01", "a b", "gpu01", None),
    ("ssh://bob@h:22", "bob", "h", 22),
    ("ops%40x@gpu01", "ops%40x", "gpu01", None),  # not a URI: taken as written
])
def test_the_uri_user_is_decoded_as_ssh_decodes_it(text: str, user: str, host: str, port: int | None) -> None:
    assert parse_destination(text) == Destination(host, user=user, port=port)
    seen = _ssh_g_user(text)
    assert seen is None or seen == user


@pytest.mark.parametrize("text, said", [
    ("ssh://j%zzdoe@gpu01", "cannot parse host 'ssh://j%zzdoe@gpu01': '%zz' is no %XX escape in the URI's user"),
    ("ssh://jdoe%4@gpu01", "cannot parse host 'ssh://jdoe%4@gpu01': '%4' is no %XX escape in the URI's user"),
    ("ssh://;x@gpu01", "cannot parse host 'ssh://;x@gpu01': the URI's user is empty"),
])
def test_a_user_ssh_cannot_decode_is_refused(text: str, said: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_destination(text)
    assert refused.value.message == said
    if shutil.which("ssh"):
        assert subprocess.run(["ssh", "-G", "-F", "/dev/null", text], capture_output=True, text=True).returncode != 0


def test_a_jump_hop_uri_is_decoded_too() -> None:
    (hop,) = parse_proxy_jump("ssh://jdoe%40corp@bastion:2200")
    assert (hop.destination.user, hop.destination.host, hop.destination.port) == ("jdoe@corp", "bastion", 2200)


def test_a_run_logs_in_as_the_encoded_user(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    shutil.copy(client.key.path, client.home / ".ssh" / "id_ed25519")
    (client.home / ".ssh" / "id_ed25519").chmod(0o600)
    me = getpass.getuser()
    encoded = "".join(f"%{ord(char):02X}" for char in me)  # root: %72%6F%6F%74
    (client.home / ".ssh" / "known_hosts").write_text(sshd.known_hosts_line)
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli("run", str(tmp_path / "pb.yaml"), "--host", f"ssh://{encoded};x-param=1@127.0.0.1:{sshd.port}",
                   "--batch", "-F", "/dev/null", "--out", str(tmp_path / "runs"), env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert [step["stdout"] for step in record["steps"]] == [f"{me}\n"]
