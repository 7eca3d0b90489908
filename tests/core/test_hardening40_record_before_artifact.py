"""run.json goes before a step's artifact when the controller's disk fills.

A step printing a checkpoint save's log (1.3 MB) on a small disk spills its output to an
artifact. When the run loop wrote run.json just as that artifact filled the disk, the write
failed: the run was stopped as out of space (exit 3, a record cut to its ends) and the step was
killed halfway through its log, though giving the unfinished artifact up freed all the space
the record needed. CI met it one run in many (test_hardening12_marker_words). Here the order
is made certain: host a fills the disk and holds its artifact open; host b's step then ends,
and its record write meets the full disk.
"""

from __future__ import annotations

import sys

from spec_debug.runner.output import StreamCapture
from tests.conftest import only_run
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

# The host's side of the test: once both hosts' first steps are in run.json (200 KB each, under
# the 256 KiB capture limit: no artifact) and no write of it is under way (the free space reads
# the same three times), print enough to leave 64 KiB free: a record write needs 400 KB.
FILL = """
import os, sys, time
disk = os.statvfs(sys.argv[1])
def free():
    return os.statvfs(sys.argv[1]).f_bavail * disk.f_frsize
readings = []
while len(readings) < 3 or len(set(readings[-3:])) > 1 or readings[-1] > disk.f_blocks * disk.f_frsize - 400_000:
    time.sleep(0.05)
    readings.append(free())
line = b"[rank0] saving shard of model.safetensors to /data/ckpt ... ok\\n"
sys.stdout.buffer.write(line * ((readings[-1] - 64 * 1024) // len(line)))
sys.stdout.flush()
"""


def _playbook(disk, flag, fill) -> str:
    return f"""
name: ckpt_save
steps:
  - id: earlier
    run: head -c 200000 /dev/zero | tr '\\0' 'y'
  - id: save_log
    timeout: 30
    run: |
      if [ "{{{{ host }}}}" = a ]; then
        {sys.executable} {fill} {disk}
        touch {flag}
        sleep 2
      else
        while [ ! -e {flag} ]; do sleep 0.05; done
      fi
    expect:
      - not_contains: "No space left on device"
"""


@needs_tmpfs
def test_a_record_write_on_a_disk_an_artifact_filled_takes_the_artifacts_space(tmp_path):
    disk, saved, flag = tmp_path / "disk", tmp_path / "saved", tmp_path / "filled"
    playbook = tmp_path / "p.yaml"
    fill = tmp_path / "fill.py"
    fill.write_text(FILL, encoding="utf-8")
    playbook.write_text(_playbook(disk, flag, fill), encoding="utf-8")
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\na ansible_connection=local\nb ansible_connection=local\n", encoding="utf-8")
    cli = f"{sys.executable} -m spec_debug run {playbook} -i {inventory} --out {disk}/runs"
    proc = _in_private_tmpfs(disk, "size=2m", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 0, proc.stderr[-2000:]
    run_dir, record = only_run(saved)
    assert record["status"] == "passed"
    assert [(s["host"], s["id"], s["status"]) for s in record["steps"]] == [
        ("a", "earlier", "passed"), ("a", "save_log", "passed"), ("b", "earlier", "passed"), ("b", "save_log", "passed"),
    ]
    filled = record["steps"][1]
    # The artifact was given up, and the record says so; the step ran to its end (2 s of sleep).
    assert "the full output could not be saved: No space left on device" in filled["stdout"]
    assert filled["artifacts"] == []
    assert filled["duration_s"] >= 2
    assert not list((run_dir / "artifacts").rglob("*.log"))
    assert "cut to" not in proc.stderr


def test_a_spill_that_met_the_full_disk_itself_still_lets_the_record_write_again(tmp_path):
    # The other order of the same race (CI, again): the step's thread wrote its artifact into the
    # last free bytes, failed and removed it just before the record write asked for the space.
    # The space is free; the record write must be tried again, not the run stopped.
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    capture = StreamCapture("stdout", limit_bytes=64, spill_path=run_dir / "artifacts" / "s.stdout.log",
                            spill_root=run_dir)
    capture.write(b"x" * 100)
    assert capture.yield_spill("No space left on device") is True  # held a spill: given up now
    assert not (run_dir / "artifacts" / "s.stdout.log").exists()

    gone = tmp_path / "gone"  # the spill gives up on its own at its first write
    on_its_own = StreamCapture("stdout", limit_bytes=64, spill_path=gone / "s.stdout.log", spill_root=gone)
    on_its_own.write(b"x" * 100)
    assert on_its_own.spill_error is not None
    assert on_its_own.yield_spill("No space left on device") is True
    assert on_its_own.spill_error != "No space left on device"  # its own reason is kept

    quiet = StreamCapture("stderr", limit_bytes=64, spill_path=run_dir / "artifacts" / "s.stderr.log", spill_root=run_dir)
    assert quiet.yield_spill("No space left on device") is False  # printed nothing: nothing to free
