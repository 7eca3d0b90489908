"""A probe bundle on the host that is cut short is uploaded again, not run forever.

The bundle's name carries its content hash, and a host that has a file by that name got no new
upload: `test -s` took any non-empty file. A copy cut short (an older spec-debug's upload over
`cat` renamed what it had when the connection dropped; a host that crashed before the data
reached its disk) then failed every probe on that host, run after run, with "printed no JSON
(exit code 1): SyntaxError: source code cannot contain null bytes" (a zip without its directory
is read as a script) until someone deleted it by hand (the hash
names the probe code, which many releases leave unchanged). Now the copy's size and sha256 are
checked on the host, and a whole copy is still used as it is.

The host is real: sshd with a ForceCommand that gives the session an empty home and a PATH of
its own (tests/ssh/test_fleet_faults.FreshHost), with wc and sha256sum as hosts have them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable

from spec_debug.probes.bundle import local_bundle
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, FreshHost, assert_clean_cli, by_id, fresh_server, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def _host_with_a_bundle(client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, name: str, data: bytes) -> tuple[FreshHost, Path]:
    fresh = fresh_server(client, sshd_factory, tmp_path, name)
    for tool in ("wc", "sha256sum"):
        found = shutil.which(tool, path="/usr/bin:/bin")
        assert found is not None, tool
        (fresh.bin / tool).symlink_to(found)
    copy = fresh.home / ".cache" / "spec-debug" / local_bundle().name
    copy.parent.mkdir(parents=True)
    copy.write_bytes(data)
    os.utime(copy, (1_000_000_000, 1_000_000_000))  # 2001: an upload would change it
    return fresh, copy


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, host: str) -> dict[str, Any]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr
    return load_run(out)[1]


def test_a_bundle_cut_short_on_the_host_is_uploaded_again(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    whole = local_bundle().read_bytes()
    _, copy = _host_with_a_bundle(client, sshd_factory, tmp_path, "cutbundle", whole[: len(whole) // 3])
    record = _run(cli, client, tmp_path, "cutbundle")
    step = by_id(record, "cutbundle")["host_info"]
    assert step["status"] == "passed", step  # was: error, "source code cannot contain null bytes"
    assert copy.read_bytes() == whole


def test_a_bundle_of_the_same_length_but_other_bytes_is_uploaded_again(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    whole = local_bundle().read_bytes()
    zeroed = whole[: len(whole) // 2] + bytes(len(whole) - len(whole) // 2)  # a crash's unwritten blocks read as zeros
    _, copy = _host_with_a_bundle(client, sshd_factory, tmp_path, "zerobundle", zeroed)
    record = _run(cli, client, tmp_path, "zerobundle")
    assert by_id(record, "zerobundle")["host_info"]["status"] == "passed"
    assert copy.read_bytes() == whole


def test_a_whole_bundle_on_the_host_is_used_as_it_is(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    _, copy = _host_with_a_bundle(client, sshd_factory, tmp_path, "wholebundle", local_bundle().read_bytes())
    record = _run(cli, client, tmp_path, "wholebundle")
    assert by_id(record, "wholebundle")["host_info"]["status"] == "passed"
    assert copy.stat().st_mtime == 1_000_000_000  # not uploaded again
