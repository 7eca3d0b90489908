"""On the local host a fetch step's `timeout` bounds the whole fetch, as it bounds a `run` step.

A local copy gave up only after 120 s without a byte: a fetch from a hung FUSE or NFS mount
with `timeout: 1` ran two minutes, and a file that never ends (a log written line by line, a
FIFO) was copied for as long as it was written. Now the copy is given up at the step's
deadline, the step is recorded as timed out (SD002) keeping the files copied before it, and
the run goes on. The hung mount is real (tests/core/hung_mount.py, a FUSE server that never
answers); the endless file is a FIFO fed a line every 0.2 s.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import only_run
from tests.core.test_hardening12_unkillable_step import pytestmark as needs_fuse
from tests.core.test_hardening13_fetch_hung_mount import in_hung_mount
from tests.core.test_hardening19_runner_fetch_flush import wait_buffered


@pytest.fixture
def trickling_log(tmp_path: Path) -> Iterator[Path]:
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)
    end = os.open(fifo, os.O_RDWR)  # opens at once: no reader needed yet
    writer = subprocess.Popen(["sh", "-c", "while :; do echo 'Decode batch. #running-req: 1'; sleep 0.2; done"], stdout=end)
    try:
        # A first line is in the FIFO before the run starts: a writer the load kept from running
        # until the step's 2 s ran out would leave nothing to keep, for no fault.
        wait_buffered(end, 1)
    except BaseException:
        writer.kill()  # it never ends by itself
        writer.wait()
        raise
    finally:
        os.close(end)
    yield fifo
    writer.kill()
    writer.wait()


def _playbook(tmp_path: Path, stuck: Path, timeout_s: int) -> Path:
    config = tmp_path / "config.json"
    config.write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(
        f"""
name: grab
steps:
  - id: grab
    timeout: {timeout_s}
    fetch: {{src: ["{config}", "{stuck}", "{config}"], dest: logs}}
  - id: after
    run: echo next step ran
"""
    )
    return playbook


def _assert_timed_out_keeping_the_first_copy(out: Path, stuck: Path, timeout_s: int) -> None:
    run_dir, record = only_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "timeout", grab["message"]
    assert grab["message"] == (
        f"timed out after {timeout_s} s while copying {stuck}; not reached: {stuck.parent}/config.json; the 1 file copied before is kept"
    )
    assert grab["artifacts"] == ["artifacts/local/logs/config.json"]
    assert sorted(p.name for p in (run_dir / "artifacts/local/logs").iterdir()) == ["config.json"]
    assert [f["code"] for f in record["findings"]] == ["SD002"]
    assert after["status"] == "passed"


def test_a_local_fetch_of_a_file_that_never_ends_stops_at_the_step_timeout(tmp_path: Path, trickling_log: Path) -> None:
    out = tmp_path / "runs"
    # The log never ends: a copy that waited for its end is killed by this timeout and fails.
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(_playbook(tmp_path, trickling_log, 2)), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "timeout" and after["status"] == "passed", grab["message"]
    # The lines the log gave before the deadline are kept, marked where cut (copy_script.py: cat, not head -c).
    assert grab["artifacts"] == ["artifacts/local/logs/config.json", "artifacts/local/logs/server.log"]
    kept = (run_dir / "artifacts/local/logs/server.log").read_text()
    assert kept.startswith("Decode batch. #running-req: 1\n") and "[spec-debug: copy given up here" in kept


@needs_fuse
def test_a_local_fetch_on_a_hung_mount_stops_at_the_step_timeout(tmp_path: Path) -> None:
    mount = tmp_path / "nfs"
    mount.mkdir()
    out = tmp_path / "runs"
    # The playbook's other files sit beside the mount, not in it.
    stuck = mount / "draft.log"
    cli = [sys.executable, "-m", "spec_debug", "run", str(_playbook(tmp_path, stuck, 1)), "--host", "local", "--out", str(out)]
    proc, ended = in_hung_mount(mount, cli, tmp_path)
    assert ended["rc"] is not None, f"the copy waited out the stall limit: {proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "timeout" and after["status"] == "passed", grab["message"]
    assert grab["message"].startswith(f"timed out after 1 s while copying {stuck}; not reached: {tmp_path}/config.json"), grab["message"]
    assert grab["artifacts"] == ["artifacts/local/logs/config.json"]
