"""A fetch pattern that matches files and folders: the step says which matches it did not copy.

The listing copies regular files only. `src: /data/runs/*` over server.log, config.json and a
folder of per-rank logs copied the two files, recorded "passed" with no message, and said nothing
of the folder: the user read the artifacts believing that was all the pattern matched. scp(1)
says "not a regular file" of each such name. Now the passed step's message (shown on its console
line and in the reports) names each, why, and the pattern to copy what is inside a folder.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer


def test_a_pattern_that_matches_files_and_folders_names_the_folders_it_did_not_copy(
    client: ClientSetup, sshd: SshServer, tmp_path: Path,
) -> None:
    client.trust(sshd)
    client.alias("gpu", sshd)
    host = tmp_path / "host"
    (host / "runs" / "ranks").mkdir(parents=True)
    (host / "runs" / "ranks" / "rank0.log").write_text("rank 0\n")
    (host / "runs" / "server.log").write_text("accept_len 2.1\n")
    (host / "runs" / "zz.log").symlink_to(host / "purged" / "zz.log")
    (host / "flat").mkdir()
    (host / "flat" / "a.log").write_text("a\n")
    playbook = tmp_path / "logs.yaml"
    playbook.write_text(
        f"name: logs\nvars:\n  where: {host}\nsteps:\n"
        f"  - id: mixed\n    fetch:\n      src: {host}/runs/*\n"
        "  - id: rendered\n    fetch:\n      src: \"{{ where }}/runs/*\"\n"
        f"  - id: files\n    fetch:\n      src: {host}/flat/*\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "gpu", "-F", str(client.config), "--batch", "--out", str(out),
                     real_process=True, timeout=60)
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    step = by_id(record, "gpu")
    said = (f"not copied: {host}/runs/ranks (a folder), {host}/runs/zz.log (a symbolic link to no file); fetch copies "
            f"regular files: for those in a folder, write a pattern such as {host}/runs/ranks/*.log")
    assert step["mixed"]["status"] == "passed", step["mixed"]
    assert step["mixed"]["message"] == f"{host}/runs/*: {said}", step["mixed"]
    assert [(run_dir / name).read_text() for name in step["mixed"]["artifacts"]] == ["accept_len 2.1\n"], step["mixed"]
    assert step["rendered"]["message"] == f"{{{{ where }}}}/runs/*: {host}/runs/*: {said}", step["rendered"]
    assert step["files"]["status"] == "passed" and step["files"]["message"] is None, step["files"]
    assert [f for f in record["findings"] if f.get("step") in ("mixed", "rendered", "files")] == [], record["findings"]
    console = " ".join((result.stdout + result.stderr).split())
    assert "passed mixed" in console and f"{host}/runs/ranks (a folder)" in console, result.stderr[-3000:]
    assert result.code == 0, result.stderr[-1500:]
