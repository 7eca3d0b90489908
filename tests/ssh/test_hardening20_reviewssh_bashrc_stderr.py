"""What the wrapper prints on stderr to mark where the step's stderr starts must not reach the
step's output, whatever the login's ~/.bashrc did with fd 2.

A ~/.bashrc that ends with `exec 2>&1` (people add it so that a `tee`d or `script`ed session
keeps errors in order with output; tmux and HPC job wrappers do the same) sends the wrapper's
stderr marker, printed right after the pid marker, to stdout: the step's stdout began with a
"\\x1fspec-debug-stderr=" line, which broke JSON probes and `output_regex` captures anchored at
the start, and the step's stderr, which also went to stdout, came there as before. A ~/.bashrc under
`set -e` that closed fd 2 ended the wrapper at the stderr marker's failed printf: no step ran.

The hosts are real: Debian's bash and sshd, in a private mount namespace where /root, this user's
home there, holds the ~/.bashrc.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_hardening19_runtime_login_dir import DebianLoginServer
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PLAYBOOK = """
name: gpu_state
steps:
  - id: driver
    run: |
      echo 'NVRM version: 550.54.15'
  - id: xid
    run: echo 'Xid 79' >&2
  - id: host_info
    probe: host_info
"""


# The five ~/.bashrc files under test, each a host of one fleet run (module-scoped: one CLI
# process and one login per host instead of five runs one after another; the hosts are
# independent sshds in their own mount namespaces, each with its own /root).
SENDS_STDERR_TO_STDOUT = "export PATH=$PATH:/opt/cuda/bin\nexec 2>&1\n"
BASHRCS = {
    "devnull": "set -u\nexec 2>/dev/null\n",
    "closed_fd2_errexit": "set -e\nexec 2>&-\n",
    "errexit_trap": "set -eu\ntrap 'echo bye' EXIT\n",
    "marker_bytes": "printf '\\037spec-debug-stderr=motd\\n' >&2\n",
}


@pytest.fixture(scope="module")
def steps_by_bashrc(tmp_path_factory: pytest.TempPathFactory, client_key: ClientKey) -> dict[str, dict[str, Any]]:
    """{bashrc: that host's steps by id} from one run of PLAYBOOK on a host per ~/.bashrc."""
    if os.getuid() != 0 or not Path("/root").is_dir():
        pytest.skip("the test gives root's home a private copy")
    tmp_path = tmp_path_factory.mktemp("bashrc-stderr")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    client = ClientSetup(home=home, key=client_key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    client.known_hosts.touch()
    started: list[SshServer] = []

    def start(name: str) -> SshServer:
        server = DebianLoginServer(tmp_path / f"sshd-{name}", [client_key])
        started.append(server)
        return server.start()

    names = {}
    with pytest.MonkeyPatch.context() as monkeypatch:
        # What the function-scoped `client` fixture and conftest's autouse fixture do, for the
        # CLI this fixture runs: a private HOME, no agent, no $SSHPASS.
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
        monkeypatch.delenv("SSHPASS", raising=False)
        try:
            for index, bashrc in enumerate([SENDS_STDERR_TO_STDOUT, *BASHRCS.values()]):
                remote_home = tmp_path / f"remote-home-{index}"
                remote_home.mkdir()
                (remote_home / ".bashrc").write_text(bashrc)
                server = namespaced_sshd(f"rc{index}", start, tmp_path, monkeypatch, f"mount --bind {remote_home} /root")
                client.trust(server)
                names[bashrc] = f"gpu21-{index}"
                client.alias(names[bashrc], server)
            playbook = tmp_path / "gpu_state.yaml"
            playbook.write_text(PLAYBOOK)
            out = tmp_path / "runs"
            hosts = [arg for name in names.values() for arg in ("--host", name)]
            result = run_cli("run", str(playbook), *hosts, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
        finally:
            for server in started:
                server.stop()
    assert_clean_cli(result)
    assert out.is_dir(), (result.code, result.stdout[-2000:], result.stderr[-2000:])
    _, record = load_run(out)
    return {bashrc: by_id(record, name) for bashrc, name in names.items()}


def test_a_bashrc_that_sends_stderr_to_stdout_leaves_no_marker_in_the_output(steps_by_bashrc: dict[str, dict[str, Any]]) -> None:
    steps = steps_by_bashrc[SENDS_STDERR_TO_STDOUT]
    assert steps["driver"]["stdout"] == "NVRM version: 550.54.15\n", steps["driver"]
    assert steps["xid"]["stdout"] == "Xid 79\n", steps["xid"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    assert "spec-debug" not in steps["driver"]["stdout"] + steps["driver"]["stderr"]


@pytest.mark.parametrize("bashrc", list(BASHRCS.values()), ids=list(BASHRCS))
def test_steps_run_and_keep_their_stdout_whatever_the_bashrc_does_with_stderr(
    bashrc: str, steps_by_bashrc: dict[str, dict[str, Any]]
) -> None:
    steps = steps_by_bashrc[bashrc]
    assert steps["driver"]["stdout"].startswith("NVRM version: 550.54.15\n"), steps["driver"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    if bashrc.startswith("printf"):  # the login's line, not the wrapper's, is cut from stderr
        assert steps["xid"]["stderr"] == "Xid 79\n", steps["xid"]
