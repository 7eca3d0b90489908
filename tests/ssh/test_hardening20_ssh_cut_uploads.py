"""An upload over `cat` that the connection drops under leaves no file under the target's name.

Where sshd offers no SFTP, an upload (the probe bundle) is `cat > TARGET.part-ID && mv -f ...`
on an exec channel. When the connection dropped mid-upload (a Wi-Fi blip, a VPN that renews,
sshd killed), or the run was interrupted, the host's `cat` saw its input end as if the file had
ended, and the rename put the first part of the file under the target's name. The probe bundle
is uploaded once per host and found again by name (`test -s`): every later run on that host
then ran a truncated zipapp ("zipimport: bad local file header") until someone deleted it by
hand. Now the script renames only a file of the size that was sent.

The host is real: sshd without an SFTP subsystem whose forced command passes the upload's first
30,000 bytes and then kills the connection's sshd process (as a network drop ends it).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from spec_debug.errors import SpecDebugError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h8_helpers import SftpLineServer
from tests.sshd_fixture import ClientKey, ClientSetup

# The forced command: a copy's upload (its script has `cat > "$p"`) gets 30,000 bytes of its
# input, then the connection's sshd process (the shell's parent) is killed; the rest runs as is.
_DROPPING_SHIM = """#!/bin/sh
case "$SSH_ORIGINAL_COMMAND" in
  *'cat > '*) { dd bs=4096 count=30000 iflag=count_bytes status=none; kill -9 $PPID; } | eval "$SSH_ORIGINAL_COMMAND" ;;
  *) eval "$SSH_ORIGINAL_COMMAND" ;;
esac
"""


@pytest.fixture
def dropping_host(tmp_path: Path, client_key: ClientKey, client: ClientSetup) -> Iterator[str]:
    shim = tmp_path / "drop-upload.sh"
    shim.write_text(_DROPPING_SHIM)
    shim.chmod(0o755)
    server = SftpLineServer(tmp_path / "sshd-drop", [client_key], subsystem="", extra_config=f"ForceCommand {shim}\n").start()
    client.trust(server)
    client.alias("gpu08", server)
    yield "gpu08"
    server.stop()


def test_an_upload_the_connection_drops_under_leaves_no_file_by_the_targets_name(
    client: ClientSetup, dropping_host: str, tmp_path: Path
) -> None:
    bundle = tmp_path / "bundle-0123456789abcdef.pyz"
    bundle.write_bytes(bytes(range(256)) * 1024)  # 256 KiB
    target = tmp_path / "host" / ".cache" / "spec-debug" / bundle.name
    with SSHTransport.connect(dropping_host, client.options()) as transport:
        with pytest.raises(SpecDebugError, match="connection lost while copying"):
            transport.put(bundle, str(target))
    deadline = time.monotonic() + 30.0  # the host's copy script runs on after the drop: wait for its end
    while time.monotonic() < deadline and copying_to(target):
        time.sleep(0.05)
    assert not target.exists(), f"a cut upload took the target's name ({target.stat().st_size} of {bundle.stat().st_size} bytes)"
    assert left_in(target.parent) == []  # nor is its partial file left behind


def copying_to(target: Path) -> bool:
    """Whether a process on the host (this machine) still has `target` in its command line."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(target).encode() in cmdline.read_bytes():
                return True
        except OSError:
            continue  # gone meanwhile
    return False


def left_in(folder: Path) -> list[Path]:
    return list(folder.iterdir()) if folder.is_dir() else []
