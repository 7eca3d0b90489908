"""`spec-debug run --artifact-limit`: the run-wide cap on each stream's artifact.

A step's own `artifact_limit` overrides it; a value that is no size is a usage error (exit 2)
that names the flag, before anything runs.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

FLOOD = """
name: flood
steps:
  - id: spew
    run: |
      yes 'Decode batch, #running-req: 1, gen throughput (token/s): 41.07' | head -c 3000000
  - id: own_limit
    artifact_limit: 0
    run: |
      yes 'Decode batch, #running-req: 1, gen throughput (token/s): 41.07' | head -c 3000000
"""


def test_the_flag_caps_every_steps_artifact_unless_the_step_sets_its_own(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(FLOOD)), "--host", "local", "--out", str(out),
                     "--artifact-limit", "1M")
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    spew, own = record["steps"]
    path = "artifacts/local/spew.stdout.log"
    dropped = 3_000_000 - 1024 * 1024
    assert spew["capped_artifacts"] == {path: dropped}
    assert "--artifact-limit" in spew["message"]
    artifact = (run_dir / path).read_bytes()
    assert len(artifact) - 1024 * 1024 < 300  # the head, the end and one line saying what was dropped
    assert f"{dropped} bytes of this stream dropped here".encode() in artifact
    # `artifact_limit: 0` on the step keeps all of it whatever the flag says
    assert own["capped_artifacts"] == {}
    assert (run_dir / "artifacts/local/own_limit.stdout.log").stat().st_size == 3_000_000


def test_a_bad_value_is_a_usage_error_before_anything_runs(tmp_path, write_playbook):
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(FLOOD)), "--host", "local", "--out", str(out),
                     "--artifact-limit", "lots")
    assert result.code == 2
    assert "--artifact-limit lots" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists() or not any(out.iterdir())
