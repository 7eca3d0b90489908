"""A host whose home takes no probe bundle gets one private /tmp copy, not one more per run.

When the upload to ~/.cache/spec-debug fails (a read-only or full home, ~/.cache not a folder),
the bundle goes to a fresh `mktemp -d` /tmp/spec-debug.XXXXXX folder. A later run could not find
it (a random name) and made another: a host checked every few minutes by a cron'd playbook
gathered a folder and a copy of the bundle per run in /tmp. Now a folder an earlier run made
(owned by this user, not a link, holding a whole copy: size and sha256 checked) is used again.

The host is real: sshd with a ForceCommand that gives the session an empty home and a PATH of
its own (tests/ssh/test_fleet_faults.FreshHost); its ~/.cache is a file. It runs in a private
mount namespace with a /tmp of its own, so no other test's folders are seen or counted.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, FreshHost, assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def test_a_second_run_uses_the_private_tmp_copy_the_first_made(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fresh = FreshHost(tmp_path / "fresh-rohome")
    top = Path("/tmp") / tmp_path.relative_to("/tmp").parts[0] if tmp_path.is_relative_to("/tmp") else None
    keep = f"mkdir -p /tmp/{top.name} && mount --bind /mnt/real/{top.name} /tmp/{top.name}\n" if top else ""
    setup = (  # an empty /tmp of its own, the test's folder (sshd's config, the fresh home) kept
        "mount -t tmpfs -o size=1m tmpfs /mnt && mkdir /mnt/real && mount --bind /tmp /mnt/real\n"
        f"mount -t tmpfs -o size=16m tmpfs /tmp\n{keep}"
    )
    server = namespaced_sshd(
        "rohome", lambda name: sshd_factory(name, extra_config=fresh.sshd_config), tmp_path, monkeypatch, setup
    )
    client.trust(server)
    client.alias("rohome", server)
    for tool in ("wc", "sha256sum"):
        found = shutil.which(tool, path="/usr/bin:/bin")
        assert found is not None, tool
        (fresh.bin / tool).symlink_to(found)
    (fresh.home / ".cache").write_text("not a folder\n")
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK + (
        "  - id: tmp\n    title: The private folders\n    why: the evidence\n    run: ls -d /tmp/spec-debug.*\n"
    ))
    commands, listings = [], []
    for run in ("first", "second"):
        out = tmp_path / f"runs-{run}"
        result = cli("run", str(playbook), "--host", "rohome", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
        assert_clean_cli(result)
        assert result.code == 0, result.stdout + result.stderr
        steps = by_id(load_run(out)[1], "rohome")
        assert steps["host_info"]["status"] == "passed", steps["host_info"]
        commands.append(steps["host_info"]["command"])
        listings.append(steps["tmp"]["stdout"])
    assert "/tmp/spec-debug." in commands[0] and commands[0] == commands[1], commands
    assert len(listings[1].split()) == 1 and listings[0] == listings[1], listings  # was: a second folder
