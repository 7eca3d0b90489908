"""An ssh config holding NUL bytes: a tail a crash filled with zeros, or a file saved as UTF-16.

ssh(1) reads each line as a C string, which ends at its first NUL (openssh-portable:
readconf.c, read_config_file). A config written just before a power loss, its last block
zero-filled, works with `ssh gpu01`; spec-debug refused the whole file, and every host of the
run, with "cannot read ssh config: Unparsable line \\x00" (the NULs printed raw to the terminal).
A file saved as UTF-16 (Windows PowerShell 5's `>` and Out-File) is refused by ssh(1) too; it was
"Unparsable line H\\x00o\\x00s\\x00t..." or "line 1 is not UTF-8: b'\\xff\\xfeH\\x00o...'", and now
says what the file is saved as and how to fix it. Each case asks `ssh -G -F FILE HOST` too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")

READ_AS_SSH_READS_THEM = {
    "a zero-filled tail": b"Host gpu01\n  Port 2222\n  User ml\n" + b"\x00" * 4096,
    "a NUL inside a line": b"Host gpu01\n  Port 2222\x00 junk\n  User ml\n",
    "a line of NULs between blocks": b"Host gpu01\n  Port 2222\n\x00\x00\x00\nHost *\n  User ml\n",
}


def _ssh_g(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SSH, "-G", "-F", str(config), "gpu01"], capture_output=True, text=True,  # type: ignore[list-item]
                          stdin=subprocess.DEVNULL, timeout=30)


@pytest.mark.parametrize("case", READ_AS_SSH_READS_THEM)
def test_a_config_with_nul_bytes_reads_as_ssh_reads_it(case: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_bytes(READ_AS_SSH_READS_THEM[case])
    seen = dict(line.partition(" ")[::2] for line in _ssh_g(config).stdout.splitlines())
    target = resolve_target("gpu01", load_ssh_config(config))  # was UsageError: Unparsable line \x00
    assert (str(target.port), target.user) == (seen["port"], seen["user"]) == ("2222", "ml"), case


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_config_saved_as_utf16_is_named_as_such(encoding: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_bytes("Host gpu01\r\n  User ml\r\n".encode(encoding))
    assert _ssh_g(config).returncode != 0  # ssh(1) refuses it too
    with pytest.raises(UsageError) as refused:
        load_ssh_config(config)
    message = refused.value.message
    assert f"{config} is saved as UTF-16" in message and "save the file as UTF-8" in message, message
    assert "\x00" not in message, repr(message)
