"""`that:`, `until:` and `when:` read what the host printed, never spec-debug's truncation marker.

A stream longer than --capture-limit keeps its head and tail in the record, joined by
`... [N bytes truncated; full output in artifacts] ...` (or `...; the full output could not be
saved: No space left on device] ...` when the controller's disk filled). hardening12 took the
marker out of contains/not_contains/matches and captures; Jinja expressions still saw it in
`stdout`: `that: "'No space left' not in stdout"` failed (SD001) because the controller's disk
filled, and a step polling `until: "'truncated' not in stdout"` never held.
"""

from __future__ import annotations

import sys

from tests.conftest import only_run, run_cli
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

# A vLLM-style log long enough to be cut at 4 KiB; it never says "truncated" itself.
LONG_LOG = 'for i in $(seq 1 3000); do echo "INFO request $i: prompt 812 tokens, served"; done'

PLAYBOOK = f"""
name: prompts
steps:
  - id: served
    run: '{LONG_LOG}'
    expect:
      - that: "'truncated' not in stdout"
      - that: "'request 3000:' in stdout and 'request 1:' in stdout"
  - id: polled
    run: '{LONG_LOG}'
    retries: 1
    until: "'truncated' not in stdout and 'artifacts' not in stdout"
  - id: after
    when: "'truncated' not in steps.served.stdout"
    run: echo checked
"""


def test_that_until_and_when_do_not_see_the_truncation_marker(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    # The record still says it cut the output, and where the rest is...
    assert "bytes truncated; full output in artifacts" in steps["served"]["stdout"]
    # ...but the host never printed "truncated": every expression sees the host's lines only.
    assert steps["served"]["status"] == "passed", steps["served"]["expectations"]
    assert steps["polled"]["status"] == "passed" and steps["polled"]["attempts"] == 1, steps["polled"]["message"]
    assert steps["after"]["status"] == "passed", steps["after"]["message"]
    assert result.code == 0 and not record["findings"], record["findings"]


def test_a_that_expectation_still_sees_what_the_host_did_print(tmp_path, write_playbook):
    # The same words printed by the host itself are seen, in the head and in the tail.
    playbook = write_playbook(
        f"""
name: prompts
steps:
  - id: served
    run: 'echo "WARNING prompt truncated to 4096 tokens"; {LONG_LOG}; echo "WARNING prompt truncated again"'
    expect:
      - that: "stdout.count('prompt truncated') == 2"
      - that: "'truncated' not in stdout"
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    assert [e["passed"] for e in step["expectations"]] == [True, False], step["expectations"]


@needs_tmpfs
def test_a_full_controller_disk_is_not_the_hosts_no_space_error_in_that(tmp_path, write_playbook):
    playbook = write_playbook(
        """
name: ckpt_save
steps:
  - id: save_log
    run: |
      for i in $(seq 1 20000); do echo "[rank0] saving shard $i of model.safetensors to /data/ckpt ... ok"; done
    expect:
      - that: "'No space left' not in stdout"
"""
    )
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {disk}/runs"
    # 1.3 MB of log on a 600 KiB disk: the artifact cannot be saved; run.json still fits.
    proc = _in_private_tmpfs(disk, "size=600k", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(saved)
    (step,) = record["steps"]
    assert "the full output could not be saved: No space left on device" in step["stdout"]
    assert step["status"] == "passed", step["expectations"]
    assert proc.returncode == 0 and not record["findings"]
