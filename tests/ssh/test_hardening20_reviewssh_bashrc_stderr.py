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
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_hardening19_runtime_login_dir import start_debian_login  # noqa: F401 - a fixture
from tests.sshd_fixture import ClientSetup, SshServer

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


def run_with_bashrc(
    bashrc: str, cli: Callable[..., Any], client: ClientSetup, start: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, Any]:
    if os.getuid() != 0 or not Path("/root").is_dir():
        pytest.skip("the test gives root's home a private copy")
    home = tmp_path / "remote-home"
    home.mkdir()
    (home / ".bashrc").write_text(bashrc)
    server = namespaced_sshd("rc", start, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu21", server)
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu21", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    assert out.is_dir(), (result.code, result.stdout[-2000:], result.stderr[-2000:])
    _, record = load_run(out)
    return by_id(record, "gpu21")


def test_a_bashrc_that_sends_stderr_to_stdout_leaves_no_marker_in_the_output(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps = run_with_bashrc("export PATH=$PATH:/opt/cuda/bin\nexec 2>&1\n", cli, client, start_debian_login, tmp_path, monkeypatch)
    assert steps["driver"]["stdout"] == "NVRM version: 550.54.15\n", steps["driver"]
    assert steps["xid"]["stdout"] == "Xid 79\n", steps["xid"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    assert "spec-debug" not in steps["driver"]["stdout"] + steps["driver"]["stderr"]


@pytest.mark.parametrize("bashrc", [
    "set -u\nexec 2>/dev/null\n",
    "set -e\nexec 2>&-\n",
    "set -eu\ntrap 'echo bye' EXIT\n",
    "printf '\\037spec-debug-stderr=motd\\n' >&2\n",
], ids=["devnull", "closed_fd2_errexit", "errexit_trap", "marker_bytes"])
def test_steps_run_and_keep_their_stdout_whatever_the_bashrc_does_with_stderr(
    bashrc: str, cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps = run_with_bashrc(bashrc, cli, client, start_debian_login, tmp_path, monkeypatch)
    assert steps["driver"]["stdout"].startswith("NVRM version: 550.54.15\n"), steps["driver"]
    assert steps["host_info"]["status"] == "passed", steps["host_info"]["message"]
    if bashrc.startswith("printf"):  # the login's line, not the wrapper's, is cut from stderr
        assert steps["xid"]["stderr"] == "Xid 79\n", steps["xid"]
