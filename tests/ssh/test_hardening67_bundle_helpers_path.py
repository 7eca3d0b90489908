"""The probe bundle's helper commands on a host whose login PATH lacks the standard tools.

probes/bundle.py runs its own commands on the host before a probe: the whole-copy check
(`wc -c`, `sha256sum`), the sweep of stale upload parts (`find`), the private /tmp folder
(`mktemp`, `rm`). They ran with the login's PATH, and a login whose rc file clobbered it
(`export PATH=/opt/miniconda3/bin`) skipped the check's size and hash (a copy cut short was
taken and run: "SyntaxError: source code cannot contain null bytes") and left stale parts for
ever. They now look in the standard places after the login's PATH (runner/host_path.py), as
the `cat` copy scripts do.

The host is real: sshd with a ForceCommand giving an empty home and a PATH of a few tools, no
wc, sha256sum, find or rm (tests/ssh/test_fleet_faults.FreshHost).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

from spec_debug.probes.bundle import local_bundle
from tests.ssh.conftest import ClientSetup
from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, StartServer, assert_clean_cli, by_id, fresh_server, load_run


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, name: str) -> dict[str, dict[str, Any]]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", name, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    return by_id(load_run(out)[1], name)


def test_a_cut_copy_of_the_bundle_is_uploaded_again_on_a_host_whose_path_has_no_sha256sum(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "nohash", alias={"ConnectTimeout": 5})
    assert not any((fresh.bin / tool).exists() for tool in ("wc", "sha256sum"))
    whole = local_bundle().read_bytes()
    folder = fresh.home / ".cache" / "spec-debug"
    folder.mkdir(parents=True)
    copy = folder / local_bundle().name
    copy.write_bytes(whole[: len(whole) // 2] + bytes(1000))  # its name, cut short (a crash before the disk had it all)
    steps = _run(cli, client, tmp_path, "nohash")
    assert steps["host_info"]["status"] == "passed", steps["host_info"]  # was: the cut copy run, "null bytes"
    assert copy.read_bytes() == whole


def test_stale_upload_parts_are_swept_on_a_host_whose_path_has_no_find(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "nofind", alias={"ConnectTimeout": 5})
    assert not (fresh.bin / "find").exists()
    folder = fresh.home / ".cache" / "spec-debug"
    folder.mkdir(parents=True)
    stale, fresh_part = folder / "bundle-0123456789abcdef.pyz.part-0a1b2c3d", folder / "bundle-0123456789abcdef.pyz.part-4e5f6a7b"
    for part, age_s in ((stale, 2 * 3600), (fresh_part, 20 * 60)):
        part.write_bytes(b"PK" + bytes(100))
        os.utime(part, (time.time() - age_s, time.time() - age_s))
    steps = _run(cli, client, tmp_path, "nofind")
    assert steps["host_info"]["status"] == "passed", steps["host_info"]
    assert not stale.exists() and fresh_part.exists()  # was: both kept, one more each cut upload
