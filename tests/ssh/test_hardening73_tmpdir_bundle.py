"""A host whose home and /tmp are full, and whose login sets TMPDIR to a scratch disk with room
(as a site's /etc/environment does where /tmp is small): the probe bundle goes there.

Before: the upload to ~/.cache/spec-debug failed, then the one to a fresh /tmp/spec-debug.XXXXXX
folder, and every probe step failed "cannot upload ... is full" while the disk the host's own
tools write their temporary files to had room. Now a private `mktemp -d` folder under $TMPDIR is
tried after /tmp, and a later run finds the copy there again rather than making another.

The host is real: sshd in a private mount namespace where ~/.cache and /tmp are 64 KiB tmpfs
mounts filled to the last block and /srv a 16 MiB tmpfs; sshd's SetEnv gives the sessions
TMPDIR=/srv/scratch.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import full_tmp_setup, namespaced_sshd
from tests.sshd_fixture import ClientSetup, SshServer

# The probe, then a step that shows where its bundle went and what is left in /tmp.
_PLAYBOOK = PROBE_PLAYBOOK + """\
  - id: left
    title: Where the bundle went
    why: the evidence
    run: 'for d in /srv/scratch/spec-debug.*; do ls "$d"; done; ls -d /tmp/spec-debug.* 2>/dev/null | wc -l'
"""


def test_the_probe_bundle_goes_to_tmpdir_where_home_and_tmp_are_full(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = pwd.getpwuid(os.getuid()).pw_dir
    if tmp_path.is_relative_to(home):
        pytest.skip("the test's folder (sshd's config and keys) is under the home it changes")
    setup = full_tmp_setup(tmp_path) + (
        f"mkdir -p {home}/.cache && mount -t tmpfs -o size=64k tmpfs {home}/.cache\n"
        f"dd if=/dev/zero of={home}/.cache/torch_cache bs=4k 2>/dev/null || true\n"
        "mount -t tmpfs -o size=16m tmpfs /srv && mkdir /srv/scratch\n"
    )
    server = namespaced_sshd("h73tmpdir", lambda name: sshd_factory(name, set_env="TMPDIR=/srv/scratch"),
                             tmp_path, monkeypatch, setup)
    client.trust(server)
    client.alias("gpu09", server)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(_PLAYBOOK)
    for run in ("first", "second"):
        out = tmp_path / f"runs-{run}"
        result = cli("run", str(playbook), "--host", "gpu09", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
        assert_clean_cli(result)
        _, record = load_run(out)
        steps = by_id(record, "gpu09")
        assert steps["host_info"]["status"] == "passed", steps["host_info"]
        # one private folder on the scratch disk, holding the bundle, the second run's too; none in /tmp
        left = steps["left"]["stdout"].splitlines()
        assert len(left) == 2 and left[0].startswith("bundle-") and left[0].endswith(".pyz") and left[1] == "0", left
