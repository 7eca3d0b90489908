"""`all` after one other Match criterion, as ssh(1) reads it, side by side with the real client.

OpenSSH counts the criteria before `all` (openssh-portable: readconf.c, match_cfg_line: the
"attributes > 1" test comes before its attributes++), so `Match host gpu01 all` is read as
`Match host gpu01`, `Match user ml all` as `Match user ml`, and `... !all` switches the block
off. spec-debug allowed `all` only after canonical or final and refused the rest: the whole run
stopped on "'all' cannot be combined with other Match attributes", with the hint "ssh(1)
refuses this file too", while `ssh gpu01` worked. Each case asks `ssh -G -F FILE HOST` and
resolve_target; two criteria before `all` stay refused, as ssh(1) refuses them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with")

CASES = {
    "host, matching": "Match host gpu01 all\n  Port 2201\n",
    "host, not matching": "Match host gpu02 all\n  Port 2201\n",
    "negated host": "Match !host gpu02 all\n  Port 2201\n",
    "user": "Match user root all\n  Port 2201\n",
    "exec with a quoted argument": 'Match exec "test 1 = 1" all\n  Port 2201\n',
    "switched off with !all": "Match host gpu01 !all\n  Port 2201\n",
    "with an included file": "Match host gpu01 all\n  Include {dir}/site.conf\nHost *\n  Port 2202\n",
}


def _ssh_g(config: Path, host: str) -> dict[str, str]:
    done = subprocess.run([SSH, "-G", "-F", str(config), host], capture_output=True, text=True, check=True,  # type: ignore[list-item]
                          stdin=subprocess.DEVNULL, timeout=30)
    return dict(line.partition(" ")[::2] for line in done.stdout.splitlines())


@pytest.mark.parametrize("case", CASES)
def test_all_after_one_criterion_resolves_as_ssh_does(case: str, tmp_path: Path) -> None:
    (tmp_path / "site.conf").write_text("Host *\n  User ml\n")
    config = tmp_path / "config"
    config.write_text(CASES[case].format(dir=tmp_path))
    seen = _ssh_g(config, "gpu01")
    target = resolve_target("gpu01", load_ssh_config(config))  # was UsageError: 'all' cannot be combined
    assert (str(target.port), target.user) == (seen["port"], seen["user"]), case


def test_two_criteria_before_all_stay_refused_as_ssh_refuses_them(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("Match host gpu01 user root all\n  Port 2201\n")
    refused = subprocess.run([SSH, "-G", "-F", str(config), "gpu01"], capture_output=True, text=True,  # type: ignore[list-item]
                             stdin=subprocess.DEVNULL, timeout=30)
    assert refused.returncode != 0 and "'all' cannot be combined" in refused.stderr, refused.stderr
    with pytest.raises(UsageError, match="line 1: 'all' cannot be combined with other Match attributes"):
        load_ssh_config(config)
