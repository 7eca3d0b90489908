"""`all` in a Match line, walked word by word as ssh(1) walks it, side by side with the real client.

Round 28 let `all` end a line after one other criterion by counting words (three words, or two
after canonical/final), not by reading them: `Match canonical host all` (a host pattern "all",
no `all` criterion) lost its pattern and stopped every run ("Missing parameter to Match
'host' keyword"), and `Match all all` / `Match !all all`, which ssh(1) refuses (readconf.c,
match_cfg_line: the first `all` meets a word after it), were read as `Match all`. A quoted
`"all"` (argv_split unquotes it) was left for paramiko to refuse."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")

READ = ["Match canonical host all", "Match final user all", 'Match "all"', 'Match host gpu01 "all"', 'Match canonical "!all"']
REFUSED = ["Match all all", "Match !all all", "Match all !all", "Match all ALL"]
BODY = "Host *\n  User base\n{line}\n  HostName matched.example\n  Port 2201\n"


def _ssh_g(config: Path, host: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SSH, "-G", "-F", str(config), host], capture_output=True, text=True,  # type: ignore[list-item]
                          stdin=subprocess.DEVNULL, timeout=30)


@pytest.mark.parametrize("line", READ)
def test_read_as_ssh_reads_it(line: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(BODY.format(line=line))
    seen = dict(row.partition(" ")[::2] for row in _ssh_g(config, "gpu01").stdout.splitlines())
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.hostname, str(target.port), target.user) == (seen["hostname"], seen["port"], seen["user"]), line


@pytest.mark.parametrize("line", REFUSED)
def test_refused_as_ssh_refuses_it(line: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(BODY.format(line=line))
    refused = _ssh_g(config, "gpu01")
    assert refused.returncode != 0 and "cannot be combined" in refused.stderr, refused.stderr
    with pytest.raises(UsageError, match="line 3: 'all' cannot be combined"):
        load_ssh_config(config)
