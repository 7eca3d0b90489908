"""Real zsh, fish and tcsh login shells: each runs the same playbook over a real sshd.

fish and tcsh do not speak POSIX sh (fish: no `$$`, no `&&` before 3.0, no `VAR=x cmd`; tcsh: no
`2>&1`, no `$(...)`), so a step must reach bash or sh without going through their syntax.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]

SHELLS = [s for s in ("/usr/bin/zsh", "/usr/bin/fish", "/usr/bin/tcsh") if shutil.which(s)]

PLAYBOOK = """
name: shells
vars:
  greeting: "it's $HOME & `x` \\"q\\""
steps:
  - id: multi
    run: |
      set -euo pipefail
      arr=(a b c)
      for i in "${arr[@]}"; do echo "item=$i"; done
      x=$(( 6 * 7 )); echo "x=$x"
      echo "pid_ok=$(( $$ > 0 ))"
      echo {{ greeting }}
      echo err >&2
  - id: exits
    run: exit 7
  - id: envs
    run: echo "user=$USER home=${HOME:+set} path=${PATH:+set} set_env=$SPEC_DEBUG_H21"
  - id: slow
    run: sleep 30
    timeout: 1
  - id: write
    run: mkdir -p out && printf 'one\\n' > out/a.txt && printf 'two\\n' > out/b.log
  - id: grab
    fetch:
      src: out/*.txt
      dest: got
  - id: after
    run: echo after
"""


@pytest.mark.parametrize("shell", SHELLS, ids=[Path(s).name for s in SHELLS])
def test_a_playbook_runs_the_same_under_each_login_shell(
    shell: str, cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = sshd_with_accounts("h21" + Path(shell).name, sshd_factory, tmp_path, monkeypatch, shell=shell,
                                extra_config="AcceptEnv SPEC_DEBUG_H21\n")
    client.trust(server)
    client.alias("gpu", server, SetEnv="SPEC_DEBUG_H21=\"two words\"")
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    steps = by_id(record, "gpu")
    print(result.stdout, result.stderr)
    for s in steps.values():
        print(s)
    assert steps["multi"]["exit_code"] == 0
    assert steps["exits"]["exit_code"] == 7
    assert steps["envs"]["stdout"].endswith(" set_env=two words\n"), steps["envs"]["stdout"]
    assert steps["slow"]["status"] == "timeout"
    assert steps["after"]["exit_code"] == 0
