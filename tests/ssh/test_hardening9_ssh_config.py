"""`Match host` as ssh(1) evaluates it: host names and patterns compared in lower case (checked
against `ssh -G`), while `Host` lines stay case-sensitive as they are in OpenSSH."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")

# A fleet config as people write it: cluster names in capitals in the docs they copy from.
FLEET = """\
Host x*
  HostName %h.CORP
Host LAB*
  User labuser
Match host *.corp
  Port 2444
Match host !GPU9*,GPU*
  User gpuuser
Match originalhost NODE*
  Port 2333
"""


def ssh_g(config: Path, alias: str) -> dict[str, str]:
    if SSH is None:
        pytest.skip("OpenSSH client not installed")
    done = subprocess.run([SSH, "-G", "-F", str(config), alias], capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL, timeout=30)
    seen: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, value)
    return seen


@pytest.mark.parametrize("alias", ["gpu1", "GPU1", "gpu9", "GPU9", "node1", "NODE1", "x1", "lab1", "LAB1"])
def test_match_host_ignores_case_like_ssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alias: str) -> None:
    monkeypatch.setenv("USER", "root")
    config_path = tmp_path / "config"
    config_path.write_text(FLEET)
    target = resolve_target(alias, load_ssh_config(config_path))
    expected = ssh_g(config_path, alias)
    assert target.port == int(expected["port"])
    if expected["user"] in ("gpuuser", "labuser"):
        assert target.user == expected["user"]
    else:
        assert target.user not in ("gpuuser", "labuser")


def test_uppercase_match_pattern_applies_to_lowercase_alias(tmp_path: Path) -> None:
    """The user story: `Match host GPU*` in the config, `--host gpu01` on the command line."""
    config_path = tmp_path / "config"
    config_path.write_text("Match host GPU*\n  Port 2222\n  User ml\n")
    target = resolve_target("gpu01", load_ssh_config(config_path))
    assert (target.port, target.user) == (2222, "ml")
