"""`spec-debug run perf_regression --host <TAB>` offered nothing (bash then completed file names),
where `ssh <TAB>` offers the hosts of the ssh config. It offers `local` and the config's Host
aliases (patterns such as `gpu-*` or `!x` left out), from the file `-F` names when it is typed
before, else ~/.ssh/config; after a comma the next host of a list (`-H gpu01,gp<TAB>`), those
already listed left out. Tested through bash's completion protocol with a HOME of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_MAIN = "import sys; sys.argv[0] = 'spec-debug'; from spec_debug.cli import main; main()"


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    config = home / ".ssh" / "config"
    config.write_text("Host gpu01 gpu02\n  User me\nHost gpu-*\n  User x\nHost bastion\n  HostName 127.0.0.1\n"
                      "Host !nope *.internal\n  Port 2222\n", encoding="utf-8")
    config.chmod(0o600)
    return home


def complete(line: str, home: Path, cwd: Path) -> list[str]:
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {**os.environ, "HOME": str(home), "SPEC_DEBUG_SYSTEM_SSH_CONFIG": str(cwd / "no-system-config"),
           "_SPEC_DEBUG_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    proc = subprocess.run([sys.executable, "-c", _MAIN], env=env, capture_output=True, text=True, timeout=60, cwd=cwd)
    assert proc.stderr == ""
    return proc.stdout.split()


def test_local_and_the_ssh_config_aliases_are_offered(tmp_path: Path) -> None:
    home = _home(tmp_path)
    assert complete("spec-debug run perf_regression --host ", home, tmp_path) == ["local", "bastion", "gpu01", "gpu02"]
    assert complete("spec-debug run perf_regression -H gpu", home, tmp_path) == ["gpu01", "gpu02"]
    assert complete("spec-debug run --host l", home, tmp_path) == ["local"]


def test_the_next_host_of_a_comma_list(tmp_path: Path) -> None:
    home = _home(tmp_path)
    assert complete("spec-debug run host_smoke -H gpu01,gp", home, tmp_path) == ["gpu01,gpu02"]
    assert complete("spec-debug run host_smoke -H gpu01,", home, tmp_path) == ["gpu01,local", "gpu01,bastion", "gpu01,gpu02"]


def test_the_file_dash_F_names_replaces_the_users(tmp_path: Path) -> None:
    home = _home(tmp_path)
    (tmp_path / "cluster.cfg").write_text("Host node7\n  HostName 127.0.0.7\n", encoding="utf-8")
    assert complete("spec-debug run -F cluster.cfg host_smoke --host ", home, tmp_path) == ["local", "node7"]


def test_an_unreadable_config_still_offers_local(tmp_path: Path) -> None:
    home = _home(tmp_path)
    (home / ".ssh" / "config").chmod(0o666)  # ssh(1) refuses a config others can write
    assert complete("spec-debug run host_smoke --host ", home, tmp_path) == ["local"]
    assert complete("spec-debug run -F missing.cfg host_smoke --host ", home, tmp_path) == ["local"]
