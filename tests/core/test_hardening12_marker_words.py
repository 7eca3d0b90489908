"""Expectations and captures read what the host printed, never spec-debug's truncation marker.

A stream longer than --capture-limit keeps its head and tail in the record, joined by
`... [N bytes truncated; full output in artifacts] ...` (or `...; the full output could not be
saved: No space left on device] ...` when the controller's disk filled as the artifact was
written). Before: expectations and regex captures searched that joined text, marker included:
a checkpoint save's log checked with `not_contains: No space left on device` failed (SD001,
"observed found") because the *controller's* disk filled, sending the on-call to the wrong
disk; and `(?P<copied>\\d+) bytes` captured the count of bytes spec-debug cut.
"""

from __future__ import annotations

import sys

from tests.conftest import only_run, run_cli
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

SAVE_LOG = """
name: ckpt_save
steps:
  - id: save_log
    run: |
      for i in $(seq 1 20000); do echo "[rank0] saving shard $i of model.safetensors to /data/ckpt ... ok"; done
    expect:
      - not_contains: "No space left on device"
"""


@needs_tmpfs
def test_a_full_controller_disk_is_not_read_as_the_hosts_no_space_error(tmp_path, write_playbook):
    playbook = write_playbook(SAVE_LOG)
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {disk}/runs"
    # 1.3 MB of log on a 600 KiB disk: the artifact cannot be saved; run.json still fits.
    proc = _in_private_tmpfs(disk, "size=600k", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(saved)
    (step,) = record["steps"]
    assert "the full output could not be saved: No space left on device" in step["stdout"]  # the marker says it
    assert step["status"] == "passed", step["expectations"]  # ...the host did not
    assert step["expectations"][0]["observed"] == "not found"
    assert proc.returncode == 0 and not record["findings"]


def test_a_loose_capture_does_not_read_the_count_of_bytes_cut(tmp_path, write_playbook):
    # The copy was killed before dd printed its "N bytes (...) copied" summary: no value.
    playbook = write_playbook(
        """
name: copy
steps:
  - id: copy_weights
    run: |
      for i in $(seq 1 5000); do echo "copying shard $i of 5000"; done
      echo 'dd: error writing /dev/shm/model.bin: Input/output error' >&2
    capture:
      - regex: '(?P<copied>\\d+) bytes'
        type: int
      - regex: 'copying (?P<word>[a-z]+ \\d+)'
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    assert "bytes truncated" in step["stdout"]
    assert step["facts"] == {"copied": None, "word": "shard 1"}, step["facts"]


def test_a_needle_in_the_tail_right_after_the_cut_is_still_found(tmp_path, write_playbook):
    # The marker is taken out as a line end: the host's own lines around it are still searched.
    playbook = write_playbook(
        """
name: tail
steps:
  - id: server_log
    run: |
      seq 1 20000
      echo 'RuntimeError: CUDA error: an illegal memory access was encountered'
    expect:
      - matches: '^RuntimeError: CUDA error: (?P<what>.+)$'
      - contains: "bytes truncated"
"""
    )
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    _, record = only_run(out)
    (step,) = record["steps"]
    first, second = step["expectations"]
    assert first["passed"] and "illegal memory access" in first["observed"]
    assert not second["passed"]  # only spec-debug's marker says it; the host never printed it
