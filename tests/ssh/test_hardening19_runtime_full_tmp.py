"""A long `run:` script on a host whose /tmp is full and whose login shell is not bash.

Where the login shell is sh (dash), zsh or fish, a script too long to be one argument (over
64 KiB: a pasted Python helper, a config written with a heredoc) went to a `mktemp` file that a
new bash then ran. GPU hosts fill /tmp (torch/triton compile caches, core dumps, `/tmp/*.pt`
hidden-state dumps): printf then wrote the first KiB of the script, failed, and the new shell ran
that prefix as if it were the whole step, exit code and all. Now the script reaches the new
shell through a pipe and needs no disk.

The host is real: sshd in a private mount namespace where /tmp is a 64 KiB tmpfs filled to the
last block and the account's shell in /etc/passwd is /bin/sh; nothing outside it changes.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def namespaced_sshd(
    name: str, start: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setup: str, *, shell: str | None = None
) -> SshServer:
    """A real sshd, started by `start(name)` (sshd_factory), in a private mount namespace after
    `setup` (sh) ran there: mounts only it and its sessions see. With `shell`, this user's
    login shell there."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    import tests.sshd_fixture as fixture

    if shell is not None:
        user = pwd.getpwuid(os.getuid()).pw_name
        passwd = tmp_path / f"{name}-passwd"
        passwd.write_text("".join(
            ":".join([*line.split(":")[:6], shell]) + "\n" if line.split(":")[0] == user else line + "\n"
            for line in Path("/etc/passwd").read_text().splitlines()
        ))
        setup = f"mount --bind {passwd} /etc/passwd\n{setup}"
    script = tmp_path / f"{name}-setup.sh"
    script.write_text(f"set -e\n{setup}\n")
    wrapper = tmp_path / f"{name}-sshd"
    wrapper.write_text(f"#!/bin/sh\nexec unshare --mount --propagation private /bin/sh -c '. {script} && exec {fixture.SSHD} \"$@\"' sshd \"$@\"\n")
    wrapper.chmod(0o755)
    original = fixture.SSHD
    monkeypatch.setattr(fixture, "SSHD", str(wrapper))
    try:
        return start(name)
    finally:
        monkeypatch.setattr(fixture, "SSHD", original)  # servers started later are plain ones


def full_tmp_setup(tmp_path: Path) -> str:
    """sh that mounts a full 64 KiB tmpfs on /tmp, keeping the test's own folder (sshd's config
    and keys) reachable at its path through a bind mount."""
    top = Path("/tmp") / tmp_path.relative_to("/tmp").parts[0] if tmp_path.is_relative_to("/tmp") else None
    keep = f"mkdir -p /tmp/{top.name} && mount --bind /mnt/real/{top.name} /tmp/{top.name}\n" if top else ""
    return (
        "mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/real && mount --bind /tmp /mnt/real\n"
        "mount -t tmpfs -o size=64k tmpfs /tmp\n"
        f"{keep}"
        "dd if=/dev/zero of=/tmp/core.12345 bs=4k 2>/dev/null || true\n"
    )


def test_a_long_script_runs_whole_where_tmp_is_full_and_the_login_shell_is_sh(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = namespaced_sshd("fulltmp", sshd_factory, tmp_path, monkeypatch, full_tmp_setup(tmp_path), shell="/bin/sh")
    client.trust(server)
    client.alias("gpu07", server)
    # A step that checks each of 6000 shards (100 KiB of script), then says how many it saw.
    checks = "".join(f"n=$((n+1))  # shard {i:05d} of model-00001-of-00006.safetensors\n" for i in range(6000))
    script = "n=0\n" + checks + 'echo "checked $n shards"; df -P /tmp | tail -1 | awk \'{print "tmp free: " $4}\'\n'
    assert len(script) > 100 * 1024
    playbook = tmp_path / "shards.yaml"
    playbook.write_text(
        "name: shards\nsteps:\n  - id: shards\n    run: |\n" + "".join(f"      {line}\n" for line in script.splitlines())
        + "    expect:\n      - contains: checked 6000 shards\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu07", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    _, record = load_run(out)
    (step,) = record["steps"]
    # the host's /tmp is full indeed (the step saw it), and the whole script ran
    assert step["stdout"] == "checked 6000 shards\ntmp free: 0\n", step
    assert step["status"] == "passed" and result.code == 0, step["stderr"]
