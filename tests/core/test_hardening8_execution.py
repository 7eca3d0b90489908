"""Steps as benchmark and server scripts are really written, run on this machine.

A script that keeps its own log (`exec > bench.log 2>&1`, `python -m sglang.launch_server ...
> server.log 2>&1`) closes the runner's pipes at once. The runner then waited for the process
with no deadline: `timeout: 2` was ignored, the step ran for as long as it liked and was
recorded as passed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.conftest import run_cli


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2] != "Z"


def test_a_step_that_logs_to_its_own_file_still_times_out(tmp_path, write_playbook):
    log, pid_file = tmp_path / "bench.log", tmp_path / "bench.pid"
    playbook = write_playbook(f"""\
name: bench_to_log
steps:
  - id: bench
    timeout: 2
    run: |
      exec > {log} 2>&1
      echo $$ > {pid_file}
      echo "warming up"
      sleep 60
  - id: after
    run: echo next
""")
    started = time.monotonic()
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=60)
    elapsed = time.monotonic() - started

    assert "Traceback" not in result.stderr
    record = json.loads(result.stdout)
    bench, after = record["steps"]
    assert bench["status"] == "timeout" and bench["message"] == "timed out after 2 s; process tree killed"
    assert bench["exit_code"] is None and 1.9 < bench["duration_s"] < 6
    assert [f["code"] for f in record["findings"]] == ["SD002"]
    assert after["status"] == "passed" and after["stdout"] == "next\n"
    assert elapsed < 20, f"the run waited for the 60 s sleep ({elapsed:.0f} s)"
    assert not _alive(int(pid_file.read_text())), "the timed-out script is still running"
    assert log.read_text() == "warming up\n"
