"""`~` in a fetch is the host's $HOME, as in the step's shell, even where commands start elsewhere.

On HPC and shared GPU clusters people end ~/.bashrc with `cd $SCRATCH` (or `cd /data/$USER`),
and bash reads ~/.bashrc for the commands sshd runs where it is built with SSH_SOURCE_BASHRC, as
Debian and Fedora build it. spec-debug took the folder its first command started in (`pwd`) for
`~`: a step's `nvidia-smi -q > ~/gpu.txt` wrote $HOME/gpu.txt, and a fetch of `~/gpu.txt` then
looked in the scratch folder and failed ("No such file"), while a fetch of `~/gpu*` found it
(the pattern is expanded by the host's shell). A relative path is still where the commands
start. A $HOME that does not exist (sshd then starts the session in /) is named as itself, not as
a file under /.

The host is real: Debian's bash and sshd, in a private mount namespace where /root, this user's
home there, is a fresh folder holding that ~/.bashrc.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PLAYBOOK = """
name: gpu_state
steps:
  - id: dump
    run: echo 'GPU 00000000:18:00.0 Xid 79' > ~/gpu.txt; echo 'port 30000' > launch.txt; pwd
  - id: gpu_dump
    fetch: {src: ~/gpu.txt, dest: home}
  - id: launch_notes
    fetch: {src: launch.txt, dest: here}
"""


class DebianLoginServer(SshServer):
    """sshd whose sessions' bash reads ~/.bashrc, as on Debian (the fixture turns that off with
    SHLVL=1: bash reads it only when SHLVL is below 2, bash: shell.c, run_startup_files)."""

    def _sshd_config(self) -> str:
        config = super()._sshd_config()
        assert "SetEnv SHLVL=1\n" in config
        return config.replace("SetEnv SHLVL=1\n", "")


@pytest.fixture
def start_debian_login(tmp_path: Path, client_key: ClientKey) -> Iterator[Callable[[str], SshServer]]:
    started: list[SshServer] = []

    def start(name: str) -> SshServer:
        server = DebianLoginServer(tmp_path / f"sshd-{name}", [client_key])
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def test_a_fetch_of_a_tilde_path_finds_the_file_the_step_wrote_when_bashrc_changes_folder(
    cli: Callable[..., Any], client: ClientSetup, start_debian_login: Callable[[str], SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if os.getuid() != 0 or not Path("/root").is_dir():
        pytest.skip("the test gives root's home a private copy")
    home, scratch = tmp_path / "remote-home", tmp_path / "scratch"
    home.mkdir()
    scratch.mkdir()
    (home / ".bashrc").write_text(f"export SCRATCH={scratch}\ncd $SCRATCH\n")
    server = namespaced_sshd("cdrc", start_debian_login, tmp_path, monkeypatch, f"mount --bind {home} /root")
    client.trust(server)
    client.alias("gpu03", server)
    out = tmp_path / "runs"
    playbook = tmp_path / "gpu_state.yaml"
    playbook.write_text(PLAYBOOK)
    result = cli("run", str(playbook), "--host", "gpu03", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    steps = by_id(record, "gpu03")
    assert steps["dump"]["stdout"] == f"{scratch}\n"  # the rc file did move the commands
    assert steps["gpu_dump"]["status"] == "passed", steps["gpu_dump"]["message"]
    assert (run_dir / "artifacts/gpu03/home/gpu.txt").read_text() == "GPU 00000000:18:00.0 Xid 79\n"
    assert steps["launch_notes"]["status"] == "passed", steps["launch_notes"]["message"]
    assert (run_dir / "artifacts/gpu03/here/launch.txt").read_text() == "port 30000\n"
    assert result.code == 0


def test_a_fetch_under_a_home_that_does_not_exist_names_the_home(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # /etc/passwd names a home that is gone (an NFS automount that failed, a user made with
    # useradd without -m): sshd says "Could not chdir to home directory" and starts in /.
    user = [line.split(":") for line in Path("/etc/passwd").read_text().splitlines() if line.split(":")[2] == str(os.getuid())][0][0]
    passwd = tmp_path / "passwd"
    passwd.write_text("".join(
        ":".join([*fields[:5], "/home/gone", fields[6]]) + "\n" if fields[0] == user else ":".join(fields) + "\n"
        for fields in (line.split(":") for line in Path("/etc/passwd").read_text().splitlines())
    ))
    server = namespaced_sshd("nohome", sshd_factory, tmp_path, monkeypatch, f"mount --bind {passwd} /etc/passwd")
    client.trust(server)
    client.alias("gpu04", server)
    playbook = tmp_path / "grab.yaml"
    playbook.write_text("name: grab\nsteps:\n  - id: grab\n    fetch: {src: ~/sglang.log, dest: logs}\n")
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu04", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    (grab,) = record["steps"]
    assert grab["status"] == "error" and "/home/gone/sglang.log" in grab["message"], grab["message"]
