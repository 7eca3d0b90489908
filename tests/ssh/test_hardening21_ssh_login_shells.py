"""Real zsh, fish and tcsh login shells: each runs the same playbook over a real sshd.

fish and tcsh do not speak POSIX sh (fish: no `$$`, no `&&` before 3.0, no `VAR=x cmd`; tcsh: no
`2>&1`, no `$(...)`), so a step must reach bash or sh without going through their syntax.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.ssh.h6_helpers import sshd_with_accounts
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

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


@pytest.fixture(scope="module")
def steps_by_shell(tmp_path_factory: pytest.TempPathFactory, client_key: ClientKey) -> dict[str, dict[str, Any]]:
    """{shell: that host's steps by id} from one run of PLAYBOOK on a host per login shell
    (module-scoped: one CLI process for the three hosts, not a run per shell one after another;
    each host is its own sshd, in a mount namespace where this user's shell is that one)."""
    tmp_path = tmp_path_factory.mktemp("login-shells")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    client = ClientSetup(home=home, key=client_key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    client.known_hosts.touch()
    started: list[SshServer] = []

    def start(name: str, **kwargs: Any) -> SshServer:
        server = SshServer(tmp_path / f"sshd-{name}", [client_key], **kwargs)
        started.append(server)
        return server.start()

    names = {shell: f"gpu-{Path(shell).name}" for shell in SHELLS}
    with pytest.MonkeyPatch.context() as monkeypatch:
        # What the function-scoped `client` fixture and conftest's autouse fixture do, for the
        # CLI this fixture runs: a private HOME, no agent, no $SSHPASS.
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
        monkeypatch.delenv("SSHPASS", raising=False)
        try:
            for shell, name in names.items():
                server = sshd_with_accounts("h21" + Path(shell).name, start, tmp_path, monkeypatch, shell=shell,
                                            extra_config="AcceptEnv SPEC_DEBUG_H21\n")
                client.trust(server)
                client.alias(name, server, SetEnv="SPEC_DEBUG_H21=\"two words\"")
            playbook = tmp_path / "p.yaml"
            playbook.write_text(PLAYBOOK)
            out = tmp_path / "runs"
            hosts = [arg for name in names.values() for arg in ("--host", name)]
            result = run_cli("run", str(playbook), *hosts, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
        finally:
            for server in started:
                server.stop()
    print(result.stdout, result.stderr)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    return {shell: by_id(record, name) for shell, name in names.items()}


@pytest.mark.parametrize("shell", SHELLS, ids=[Path(s).name for s in SHELLS])
def test_a_playbook_runs_the_same_under_each_login_shell(shell: str, steps_by_shell: dict[str, dict[str, Any]]) -> None:
    steps = steps_by_shell[shell]
    for s in steps.values():
        print(s)
    assert steps["multi"]["exit_code"] == 0
    assert steps["exits"]["exit_code"] == 7
    assert steps["envs"]["stdout"].endswith(" set_env=two words\n"), steps["envs"]["stdout"]
    assert steps["slow"]["status"] == "timeout"
    assert steps["after"]["exit_code"] == 0
