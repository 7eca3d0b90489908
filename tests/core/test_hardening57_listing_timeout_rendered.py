"""A fetch pattern's listing that timed out named only the pattern as written.

`fetch: {src: "{{ log_dir }}/*.log"}` over a hung mount said "while listing {{ log_dir }}/*.log:
listing the files this pattern names took over 1 s": not the folder the host was asked for,
which may come from a --var, the inventory or a fact: the reader could not tell which mount
hung. The rendered pattern now follows, as it does for a pattern that named no file
(test_hardening57_fetch_pattern_rendered.py). The hang is real: a FUSE mount whose server never
answers (tests/core/hung_mount.py).
"""

from __future__ import annotations

import sys

from tests.conftest import only_run
from tests.core.test_hardening12_unkillable_step import pytestmark  # noqa: F401 - needs unshare and /dev/fuse
from tests.core.test_hardening13_fetch_hung_mount import in_hung_mount


def test_a_listing_that_timed_out_names_the_rendered_pattern(tmp_path, write_playbook):
    mount = tmp_path / "nfs"
    mount.mkdir()
    playbook = write_playbook(
        """
name: grab_logs
vars:
  log_dir: /nowhere
steps:
  - id: logs
    timeout: 1
    fetch: {src: "{{ log_dir }}/*.log"}
"""
    )
    out = tmp_path / "runs"
    cli = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
           "--var", f"log_dir={mount}"]
    proc, ended = in_hung_mount(mount, cli, tmp_path)
    assert ended["rc"] is not None, f"the run hung with the mount: {proc.stderr[-2000:]}"
    [logs] = only_run(out)[1]["steps"]
    assert logs["status"] == "timeout"
    assert "listing the files this pattern names took over 1 s" in logs["message"], logs["message"]
    assert f"{mount}/*.log" in logs["message"], logs["message"]
