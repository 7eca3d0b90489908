"""A step that floods its output does not fill the disk with its artifact.

Before: every byte of a stream past --capture-limit was spilled to artifacts/, so a step running
`yes`, `cat /dev/urandom | base64` or `tail -f` of a busy server log under a long timeout wrote
hundreds of MB a second to the run folder (a GPU host's /home, a laptop) until the timeout
fired. Now the artifact keeps the head and the end of the stream up to the artifact limit, says
in itself and in run.json how many bytes were dropped, and expectations still see every byte.
"""

from __future__ import annotations

import json

from tests.conftest import only_run, run_cli

LINE = b"INFO 11-30 14:02:11 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 412.3 tokens/s\n"


def _stream(before: int, needle: bytes, after: int, end: bytes) -> bytes:
    """What `yes LINE | head -c N` around a needle prints, built here to compare byte for byte."""
    repeated = LINE * (max(before, after) // len(LINE) + 1)
    return repeated[:before] + needle + repeated[:after] + end


def test_a_flooding_step_keeps_head_and_end_of_its_artifact_and_says_what_was_dropped(tmp_path, write_playbook):
    line = LINE.decode().rstrip("\n")
    playbook = write_playbook(
        f"""
name: flood
steps:
  - id: server_log
    artifact_limit: 256K
    run: |
      yes '{line}' | head -c 3M
      echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'
      yes '{line}' | head -c 3M
      echo 'Traceback end: RuntimeError: engine core died'
    expect:
      - not_contains: CUDA out of memory
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert "Traceback (most" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    stream = _stream(3 * 1024 * 1024, b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
                     3 * 1024 * 1024, b"Traceback end: RuntimeError: engine core died\n")
    dropped = len(stream) - 256 * 1024

    # The needle fell in the middle that neither the record nor the artifact keeps: still found.
    assert step["status"] == "failed", step
    assert step["expectations"][0]["observed"] == "found (in the part of the output cut from the record)"

    artifact = run_dir / "artifacts" / "local" / "server_log.stdout.log"
    assert step["artifacts"] == ["artifacts/local/server_log.stdout.log"]
    data = artifact.read_bytes()
    marker = (f"\n... [spec-debug: {dropped} bytes of this stream dropped here; this file keeps its first 131072 "
              f"and last 131072 bytes (artifact limit 262144 bytes per stream)] ...\n").encode()
    assert data == stream[: 128 * 1024] + marker + stream[-128 * 1024 :]
    assert not list(artifact.parent.glob("*.tail-part"))  # the ring file is gone

    # run.json says which artifact was capped, and by how much.
    assert f"artifacts/local/server_log.stdout.log lacks {dropped} bytes from its middle" in step["message"]
    assert step["capped_artifacts"] == {"artifacts/local/server_log.stdout.log": dropped}
    assert f"{dropped} bytes dropped from its middle at the artifact limit" in step["stdout"]
    assert step["stdout"].endswith("Traceback end: RuntimeError: engine core died\n")


def test_yes_until_the_timeout_leaves_an_artifact_no_larger_than_the_limit(tmp_path, write_playbook):
    # `yes` prints until the step's timeout kills it: about a GB a second, spilled whole before.
    playbook = write_playbook(
        """
name: spew
steps:
  - id: spew
    timeout: 1.5
    artifact_limit: 1M
    run: yes 'spec-debug flood'
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback (most" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["status"] == "timeout"
    artifact = run_dir / step["artifacts"][0]
    data = artifact.read_bytes()
    head, _, rest = data.partition(b"\n... [spec-debug: ")
    dropped = int(rest.split(b" ", 1)[0])
    assert dropped > 0 and len(head) == 512 * 1024 and head.startswith(b"spec-debug flood\n")
    assert len(data) < 1024 * 1024 + 300 and data.endswith(b"spec-debug flood\n")
    assert f"lacks {dropped} bytes from its middle" in step["message"]
    assert sum(p.stat().st_size for p in run_dir.rglob("*") if p.is_file()) < 2 * 1024 * 1024


def test_output_under_the_artifact_limit_is_kept_whole(tmp_path, write_playbook):
    playbook = write_playbook(
        """
name: log
steps:
  - id: log
    artifact_limit: 1M
    run: seq 1 100000
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert (run_dir / step["artifacts"][0]).read_bytes() == b"".join(b"%d\n" % i for i in range(1, 100001))
    assert step["message"] is None and "full output in artifacts" in step["stdout"]


def test_a_bad_artifact_limit_is_one_clear_playbook_error(tmp_path, write_playbook):
    playbook = write_playbook("name: bad\nsteps:\n  - id: a\n    artifact_limit: lots\n    run: echo hi\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "'lots' is not a size" in result.stderr, result.stderr


def test_run_json_stays_loadable(tmp_path, write_playbook):
    # The record with a capped step is read back by `spec-debug report`.
    playbook = write_playbook("name: r\nsteps:\n  - id: a\n    artifact_limit: 64K\n    run: seq 1 200000\n")
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    run_dir, record = only_run(out)
    assert json.loads((run_dir / "run.json").read_text())["steps"][0]["artifacts"]
    report = run_cli("report", str(run_dir))
    assert report.code == 0 and "Traceback" not in report.stderr


def test_a_polling_step_keeps_only_its_last_attempts_artifact(tmp_path, write_playbook):
    # Before: each attempt of a step polling a long log left its own full copy in artifacts/,
    # none but the last listed in run.json (whose stdout is the last attempt's too).
    playbook = write_playbook(
        """
name: poll
steps:
  - id: wait_ready
    run: seq 1 100000
    retries: 3
    until: "'The server is fired up' in stdout"
"""
    )
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--capture-limit", "4096")
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["attempts"] == 4 and step["status"] == "failed"
    on_disk = sorted(str(p.relative_to(run_dir)) for p in (run_dir / "artifacts").rglob("*") if p.is_file())
    assert on_disk == step["artifacts"] == ["artifacts/local/wait_ready.attempt4.stdout.log"]


def test_the_capped_artifact_is_the_streams_head_and_end_whatever_the_chunk_sizes(tmp_path):
    # Pipes deliver a flood in chunks of any size, larger or smaller than the ring: the artifact
    # must be exactly the first and the last bytes, whichever way the writes fell.
    import random

    from spec_debug.runner.spill import CappedSpill, dropped_line

    rng = random.Random(12)
    for limit in (1, 2, 7, 64, 1000, 4097):
        for total in (0, limit // 2, limit, limit + 1, 3 * limit + 5, 50 * limit):
            stream = bytes(rng.randrange(256) for _ in range(total))
            spill = CappedSpill(tmp_path / f"{limit}-{total}.log", limit)
            at = 0
            while at < total:
                size = rng.choice((1, 3, limit // 2 + 1, limit, 2 * limit + 1))
                spill.write(stream[at : at + size])
                at += size
            spill.close()
            head, tail = limit - limit // 2, limit // 2
            dropped = max(0, total - limit)
            expected = stream if not dropped else (
                stream[:head] + dropped_line(dropped, head, tail, limit) + stream[total - tail :])
            written = (tmp_path / f"{limit}-{total}.log").read_bytes() if total else b""
            assert spill.dropped == dropped and written == expected, (limit, total)
    assert not list(tmp_path.glob("*.tail-part"))
