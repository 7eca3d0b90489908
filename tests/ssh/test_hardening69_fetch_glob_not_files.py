"""A fetch pattern that names only folders or links to no file: the step says what it matched.

The listing copies regular files only. `src: /data/runs/sglang*` where sglang-0412 is a folder
of logs, or `*.log` where every log is a link into a purged scratch disk, failed "no file on the
host matches this pattern" while `ls` on the host lists what it matched, and the user looked
for a typo in the path.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_pattern_that_names_only_folders_and_broken_links_says_so(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    host = tmp_path / "host"
    (host / "sglang-0412").mkdir(parents=True)
    (host / "sglang-0412" / "server.log").write_text("accept_len 2.1\n")
    (host / "logs").mkdir()
    (host / "logs" / "server.log").symlink_to(host / "purged" / "server.log")
    (host / "many").mkdir()
    for index in range(5):
        (host / "many" / f"run{index}.d").mkdir()
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(
        "name: logs\nsteps:\n"
        f"  - id: folder\n    fetch:\n      src: {host}/sglang*\n"
        f"  - id: links\n    fetch:\n      src: {host}/logs/*.log\n"
        f"  - id: many\n    fetch:\n      src: {host}/many/*\n"
        f"  - id: nothing\n    fetch:\n      src: {host}/*.nope\n"
        f"  - id: inside\n    fetch:\n      src: {host}/sglang*/*.log\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out),
                     real_process=True, timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    step = by_id(record, "gpu")
    assert step["folder"]["message"] == (
        f"{host}/sglang*: no file on the host matches this pattern, only what fetch does not copy: {host}/sglang-0412 "
        f"(a folder); fetch copies regular files: for those in a folder, write a pattern such as {host}/sglang-0412/*.log"
    ), step["folder"]
    assert step["links"]["message"] == (
        f"{host}/logs/*.log: no file on the host matches this pattern, only what fetch does not copy: "
        f"{host}/logs/server.log (a symbolic link to no file); fetch copies regular files"
    ), step["links"]
    assert step["many"]["message"] == (
        f"{host}/many/*: no file on the host matches this pattern, only what fetch does not copy: {host}/many/run0.d (a folder), "
        f"{host}/many/run1.d (a folder), {host}/many/run2.d (a folder) and 2 more; fetch copies regular files: for those "
        f"in a folder, write a pattern such as {host}/many/run0.d/*.log"
    ), step["many"]
    # Nothing at all matched: as before.
    assert step["nothing"]["message"] == f"{host}/*.nope: no file on the host matches this pattern", step["nothing"]
    assert step["inside"]["status"] == "passed", step["inside"]
    assert (run_dir / step["inside"]["artifacts"][0]).read_text() == "accept_len 2.1\n"
    assert result.code == 0, result.stderr[-1500:]
