"""A private key whose `.pub` beside it is another key's (a key regenerated with its old .pub
kept, an id_ed25519.pub copied from another machine). ssh(1) takes the public key from the .pub
(openssh-portable: authfile.c, sshkey_load_public tries FILE.pub before the private file), offers
that, and when the host accepts it cannot sign: "private key ... contents do not match public"
(sshconnect2.c, identity_sign), "Permission denied". spec-debug offered the private key itself and
said only "authentication failed (tried: KEY)", though the host holds the .pub the user checked
against authorized_keys. Now the error names the mismatch and how to rebuild the .pub. Where the
private key itself is the host's, spec-debug logs in (the key is right; only ssh(1)'s reading of the
.pub fails): that is kept."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer


def _stale(directory: Path, private: ClientKey, public: ClientKey) -> Path:
    key = directory / "id_stale"
    shutil.copy(private.path, key)
    key.chmod(0o600)
    shutil.copy(f"{public.path}.pub", f"{key}.pub")
    return key


def test_a_stale_pub_beside_the_key_is_named_when_the_login_fails(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    other = ClientKey.create(tmp_path / "other")
    key = _stale(tmp_path, other, client.key)  # the host holds the .pub's key, not the private one
    client.alias("gpu01", sshd, IdentityFile=str(key))
    said = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
    assert said.returncode == 255 and "contents do not match public" in said.stderr, said.stderr
    done, record = run_tiny(cli, tmp_path, "stale", "--host", "gpu01")
    assert done.code == 3, done.stdout + done.stderr
    error = record["hosts"][0]["error"]
    assert f"{key}.pub beside it is another key's public key" in error, error
    assert f"ssh-keygen -y -f {key} > {key}.pub" in done.stderr, done.stderr


def test_a_right_private_key_with_a_stale_pub_still_logs_in(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    other = ClientKey.create(tmp_path / "other")
    key = _stale(tmp_path, client.key, other)
    client.alias("gpu01", sshd, IdentityFile=str(key))
    done, record = run_tiny(cli, tmp_path, "right", "--host", "gpu01")
    assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
