"""An ssh config saved as "UTF-8 with BOM" (Notepad, PowerShell 5's `Out-File -Encoding utf8`).

ssh(1) refuses it ("Bad configuration option: \\357\\273\\277host"). spec-debug said
"Unparsable line Host gpu01": the mark is invisible, so the line looked right and the message
gave nothing to fix.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config

BOM = "\ufeff"


def test_a_config_with_a_byte_order_mark_is_named_as_such(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(f"{BOM}Host gpu01\n  User alice\n", encoding="utf-8")
    if shutil.which("ssh"):
        assert subprocess.run(["ssh", "-F", str(config), "-G", "gpu01"], capture_output=True, check=False,
                              stdin=subprocess.DEVNULL).returncode != 0  # ssh(1) refuses it too
    with pytest.raises(UsageError) as refused:
        load_ssh_config(config)
    assert f"{config} starts with a byte-order mark" in refused.value.message, refused.value.message
    assert "save the file as plain UTF-8" in refused.value.message


def test_an_included_file_with_one_is_the_file_named(tmp_path: Path) -> None:
    included = tmp_path / "config.d" / "work.conf"
    included.parent.mkdir()
    included.write_text(f"{BOM}Host gpu*\n  ProxyJump bastion\n", encoding="utf-8")
    config = tmp_path / "config"
    config.write_text(f"Include {included.parent}/*.conf\n")
    with pytest.raises(UsageError) as refused:
        load_ssh_config(config)
    assert f"{included} starts with a byte-order mark" in refused.value.message, refused.value.message
