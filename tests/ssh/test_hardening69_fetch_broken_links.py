"""A fetch of a symbolic link that leads nowhere: the step says it is a link, and to what.

A server log is often a link (`sglang.log -> /scratch/$USER/run-17/server.log`) into a scratch
disk that a purge emptied or that is not mounted on this node, and `ln -s` slips make links
that point at each other. OpenSSH's sftp-server answers ENOENT and ELOOP alike with
SSH2_FX_NO_SUCH_FILE (openssh-portable: sftp-server.c, errno_to_portable), so the step said
"No such file" of a name `ls -l` lists on the host, and the user went looking for a typo.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_fetched_link_to_nothing_or_in_a_loop_is_said_to_be_one(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    host = tmp_path / "host"
    host.mkdir()
    (host / "sglang.log").symlink_to(host / "purged" / "server.log")
    (host / "via.log").symlink_to("sglang.log")  # relative, then the dangling one
    (host / "loop-a.log").symlink_to(host / "loop-b.log")
    (host / "loop-b.log").symlink_to(host / "loop-a.log")
    (host / "missing.log").unlink(missing_ok=True)
    (host / "kept.log").write_text("accept_len 2.1\n")
    (host / "to-kept.log").symlink_to("kept.log")
    steps = {"dangling": "sglang.log", "chain": "via.log", "loop": "loop-a.log", "missing": "missing.log", "link": "to-kept.log"}
    playbook = tmp_path / "logs.yaml"
    playbook.write_text("name: logs\nsteps:\n" + "".join(
        f"  - id: {step}\n    fetch:\n      src: {host / name}\n      dest: {step}\n" for step, name in steps.items()))
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out),
                     real_process=True, timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    step = by_id(record, "gpu")
    assert step["dangling"]["message"] == (
        f"{host}/sglang.log: [Errno 2] gpu:{host}/sglang.log: No such file: it is a symbolic link to "
        f"{host}/purged/server.log, which does not exist"), step["dangling"]
    assert step["chain"]["message"] == (
        f"{host}/via.log: [Errno 2] gpu:{host}/via.log: No such file: it is a symbolic link to "
        f"{host}/purged/server.log, which does not exist (through sglang.log)"), step["chain"]
    assert step["loop"]["message"] == (
        f"{host}/loop-a.log: [Errno 2] gpu:{host}/loop-a.log: No such file: it is a symbolic link that leads back to "
        f"itself (to {host}/loop-b.log, then {host}/loop-a.log)"), step["loop"]
    # A name that is not there at all, and a link to a file, are as they were.
    assert step["missing"]["message"] == f"{host}/missing.log: [Errno 2] gpu:{host}/missing.log: No such file", step["missing"]
    assert step["link"]["status"] == "passed", step["link"]
    assert (run_dir / step["link"]["artifacts"][0]).read_text() == "accept_len 2.1\n"
    assert [s["status"] for s in record["steps"]] == ["error", "error", "error", "error", "passed"]
    assert os.path.islink(host / "loop-a.log")  # nothing on the host was touched
    assert result.code == 0, result.stderr[-1500:]
