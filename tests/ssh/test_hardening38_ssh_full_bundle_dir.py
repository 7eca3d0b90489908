"""A host whose home and /tmp are both full: the probe bundle has nowhere to go, and every try
left an empty private folder under /tmp.

When the upload to ~/.cache/spec-debug fails, probes.bundle makes a fresh `mktemp -d`
/tmp/spec-debug.XXXXXX folder and uploads there. When that upload failed too (GPU hosts fill
/tmp with compile caches and core dumps) the folder stayed: one more per probe step per run,
on a disk that was already full. Now it is removed, and the step says the host, the path and
the cause in one line.

The host is real: sshd in a private mount namespace where ~/.cache and /tmp are 64 KiB tmpfs
mounts filled to the last block.
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

# Two probe steps (each tries the upload), then a step that lists what the tries left in /tmp.
_PLAYBOOK = PROBE_PLAYBOOK + """\
  - id: host_info_again
    title: The probe again
    why: a second try at the upload
    probe: host_info
  - id: left
    title: What the uploads left
    why: the evidence
    run: ls -d /tmp/spec-debug.* 2>/dev/null; echo done
"""


def test_a_full_home_and_tmp_fail_the_probe_in_one_line_and_leave_no_folders(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = pwd.getpwuid(os.getuid()).pw_dir
    if tmp_path.is_relative_to(home):
        pytest.skip("the test's folder (sshd's config and keys) is under the home it changes")
    setup = full_tmp_setup(tmp_path) + (
        f"mkdir -p {home}/.cache && mount -t tmpfs -o size=64k tmpfs {home}/.cache\n"
        f"dd if=/dev/zero of={home}/.cache/torch_cache bs=4k 2>/dev/null || true\n"
    )
    server = namespaced_sshd("h38full", sshd_factory, tmp_path, monkeypatch, setup)
    client.trust(server)
    client.alias("gpu08", server)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu08", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    _, record = load_run(out)
    steps = by_id(record, "gpu08")
    for probe in ("host_info", "host_info_again"):
        message = steps[probe]["message"]
        assert steps[probe]["status"] == "error" and "\n" not in message, steps[probe]
        assert message.startswith("gpu08: cannot upload to .cache/spec-debug/bundle-") and "is full" in message, message
    assert steps["left"]["status"] == "passed"
    assert steps["left"]["stdout"] == "done\n", steps["left"]["stdout"]  # was two empty spec-debug.* folders
