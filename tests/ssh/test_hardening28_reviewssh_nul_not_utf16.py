"""A zero-filled config whose first line is one character is read as ssh(1) reads it, not refused as UTF-16.

Round 28 named a file UTF-16 when its first two characters were one NUL and one not: a file a
crash zero-filled after a first line of "#" or a blank line ("#\\0\\0...", "\\n\\0\\0...") or one
starting with a NUL byte was refused ("saved as UTF-16 ... ssh(1) refuses it too") while
`ssh gpu01` read it (each line ends at its first NUL: readconf.c, read_config_file). UTF-16
without a mark is now two code units of text, NUL and not NUL in turn; a big-endian one, which
ssh(1) reads as empty lines, is still refused, its message no longer saying ssh(1) refuses it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")

READ = {
    "a comment line, then zeros": b"#" + b"\x00" * 512,
    "a blank line, then zeros": b"\n" + b"\x00" * 512,
    "a NUL first": b"\x00Host zz\nHost gpu01\n  Port 2222\n",
}


@pytest.mark.parametrize("case", READ)
def test_read_as_ssh_reads_it(case: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_bytes(READ[case])
    seen = subprocess.run([SSH, "-G", "-F", str(config), "gpu01"], capture_output=True, text=True,  # type: ignore[list-item]
                          stdin=subprocess.DEVNULL, timeout=30, check=True)
    port = dict(line.partition(" ")[::2] for line in seen.stdout.splitlines())["port"]
    assert str(resolve_target("gpu01", load_ssh_config(config)).port) == port, case  # was: saved as UTF-16


def test_big_endian_utf16_is_named_without_claiming_ssh_refuses_it(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_bytes("Host gpu01\n  Port 2222\n".encode("utf-16-be"))
    with pytest.raises(UsageError) as refused:
        load_ssh_config(config)
    assert "is saved as UTF-16" in refused.value.message and "refuses it too" not in refused.value.message
