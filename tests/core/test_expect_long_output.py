"""Expectations read the whole output of a step, not only the head and tail run.json keeps.

A serving log is long; the record keeps --capture-limit bytes of each stream and the full
stream goes to the run's artifacts. "not_contains: CUDA out of memory" must still fail when the
OOM line is in the middle, and "contains"/"matches" must still find a line there."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

# 3,000 lines of decode log with the OOM line in the middle: far past a 4 KiB capture limit.
LOG = """\
for i in $(seq 1 1500); do echo "[TP0] Decode batch, #running-req: 1, gen throughput (token/s): 54.8"; done
echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'
for i in $(seq 1 1500); do echo "[TP0] Decode batch, #running-req: 1, gen throughput (token/s): 55.1"; done
"""


def _run(tmp_path, expect: str):
    playbook = tmp_path / "long.yaml"
    playbook.write_text(
        "name: long\nsteps:\n  - id: log\n"
        "    run: |\n" + "".join(f"      {line}\n" for line in LOG.splitlines()) +
        f"    expect:\n{expect}")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    _, record = only_run(out)
    return result, record


def test_not_contains_fails_on_a_line_cut_from_the_record(tmp_path):
    result, record = _run(tmp_path, "      - not_contains: CUDA out of memory\n")
    step = record["steps"][0]
    assert "CUDA out of memory" not in step["stdout"]  # cut from the record: only in the artifact
    assert result.code == 1, result.stderr
    assert step["status"] == "failed"
    evidence = " ".join(e for f in record["findings"] for e in f["evidence"])
    assert "in the part of the output cut from the record" in evidence


def test_contains_and_matches_find_a_line_cut_from_the_record(tmp_path):
    result, record = _run(tmp_path, "      - contains: 'Tried to allocate 2.00 GiB'\n"
                                    "      - matches: '^torch\\.OutOfMemoryError: CUDA'\n")
    step = record["steps"][0]
    assert step["status"] == "passed", (result.stderr, step)
    assert result.code == 0


def test_a_probe_whose_json_was_cut_says_so_not_no_output(tmp_path):
    out = tmp_path / "runs"
    # The artifact cut too (--artifact-limit): with the whole JSON in the artifact the probe
    # reads it from there and passes (hardening73_json_past_capture_limit).
    run_cli("run", "host_smoke", "--host", "local", "--out", str(out), "--capture-limit", "300", "--artifact-limit", "300")
    _, record = only_run(out)
    step = next(s for s in record["steps"] if s["id"] == "host_info")
    assert step["status"] == "error"
    assert step["message"].startswith("probe host_info: output is not JSON: it is longer than the capture limit")
    assert "--capture-limit" in step["message"]
