"""Runs on --host local that met a full disk, a long inline script, or JSON cut by the capture
limit: each used to end the host with "internal error" or a misleading message."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from spec_debug.runner.capture import CaptureError, apply_captures
from spec_debug.playbook.models import Capture
from spec_debug.runner.output import StreamCapture
from tests.conftest import only_run, run_cli


def _limit_file_size(limit: int):
    def apply() -> None:
        # Past RLIMIT_FSIZE a write fails with EFBIG, as on a full disk; Python ignores SIGXFSZ.
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_step_whose_full_output_cannot_be_saved_still_records_the_step_and_runs_the_next(tmp_path):
    # The full stream spills to artifacts/; on a full disk that spill used to raise out of the
    # transport and end the host as "internal error: OSError: [Errno 27] File too large", with
    # no record of the step and every later step lost.
    playbook = tmp_path / "flood.yaml"
    playbook.write_text(
        "name: flood\nsteps:\n"
        "  - id: flood\n    run: head -c 3000000 /dev/zero | tr '\\0' x; echo; echo END\n"
        "  - id: after\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=60, preexec_fn=_limit_file_size(1_000_000),
        env={**os.environ, "COLUMNS": "300"},
    )
    assert "internal error" not in proc.stderr + proc.stdout, proc.stderr[-2000:]
    assert proc.returncode == 0, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    flood, after = record["steps"]
    assert flood["status"] == "passed" and flood["truncated"] is True
    assert flood["stdout"].rstrip().endswith("END")  # head and tail are still kept in the record
    assert "could not be saved" in flood["stdout"] and "File too large" in flood["stdout"]
    assert flood["artifacts"] == []  # no half-written file passed off as the full output
    assert not list((run_dir / "artifacts").rglob("*.log"))
    assert after["status"] == "passed" and after["stdout"] == "after\n"


def test_an_inline_script_longer_than_the_kernel_argument_limit_runs(tmp_path):
    # Linux caps one execve argument at 128 KiB (MAX_ARG_STRLEN): `bash -c <script>` with a
    # pasted 160 KB script failed with "internal error: OSError: Argument list too long".
    lines = [f"      # step {i:05d}: {'pad ' * 18}" for i in range(2000)]
    playbook = tmp_path / "long.yaml"
    playbook.write_text(
        "name: long\nvars:\n  greeting: hello world\nsteps:\n  - id: long\n    run: |\n"
        + "\n".join(lines) + "\n      echo {{ greeting }} \"$#\"\n      exit 3\n"
        "    expect:\n      - exit_code: 3\n"
        "  - id: after\n    run: echo after\n"
    )
    assert playbook.stat().st_size > 140_000
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), timeout=60)
    assert "internal error" not in result.stderr + result.stdout, result.stderr
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    long, after = record["steps"]
    assert long["status"] == "passed" and long["stdout"] == "hello world 0\n" and long["exit_code"] == 3
    assert after["status"] == "passed"
    leftovers = [p for p in Path(tempfile.gettempdir()).glob("spec-debug-step-*.sh") if "step 00000" in p.read_text(errors="replace")]
    assert leftovers == [], "the long script's temp file stayed behind"


def test_json_cut_by_the_capture_limit_says_so():
    # `curl /get_server_info` or a probe printing more than --capture-limit: the record keeps
    # head and tail, and the JSON capture said only "output is not JSON".
    document = json.dumps({"layers": [{"id": i, "norm": 1.0 + i} for i in range(4000)], "ok": True})
    stdout = StreamCapture("stdout", limit_bytes=16 * 1024)
    stdout.write(document.encode())
    stdout.close()
    capture = Capture.model_validate({"json": "ok", "name": "ok"})
    try:
        apply_captures([capture], stdout.text(), "")
    except CaptureError as exc:
        message = str(exc)
    else:
        raise AssertionError("a cut JSON document parsed")
    assert "capture limit" in message and "--capture-limit" in message, message
    # Whole JSON still parses as before.
    assert apply_captures([capture], document, "") == {"ok": True}


def test_a_line_cut_from_the_record_is_still_found_in_the_whole_stream(tmp_path):
    # A server log with the OOM between the kept head and tail: the record's text does not
    # hold it, the spilled artifact does. (attempt.py's contains/not_contains/matches should
    # ask search_whole, not the kept text: see the hardening report.)
    import re

    log = subprocess.run(
        ["bash", "-c", "seq 1 100000; echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'; seq 1 100000"],
        capture_output=True, check=True,
    ).stdout
    stdout = StreamCapture("stdout", limit_bytes=64 * 1024, spill_path=tmp_path / "a" / "log.stdout.log")
    for start in range(0, len(log), 65536):
        stdout.write(log[start : start + 65536])
    stdout.close()
    assert stdout.truncated and "CUDA out of memory" not in stdout.text()
    found = stdout.search_whole(re.compile(r"Tried to allocate (\S+ GiB)"))
    assert found is not None and found.group(1) == "2.00 GiB"
    assert stdout.search_whole(re.compile("99999\n")) is not None  # the kept tail is searched too
    assert stdout.search_whole(re.compile("no such line")) is None
    assert stdout.whole_stream_searchable


def test_a_local_fetch_cut_short_by_a_full_disk_leaves_no_half_file(tmp_path):
    # SSH fetches copy to a temp name and rename; the local copy wrote the artifact in place,
    # so a full disk left a truncated file in artifacts/ that looked like the real one.
    big = tmp_path / "server.log"
    big.write_bytes(b"INFO decode batch\n" * 200_000)  # 3.6 MB
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(f"name: fetch\nsteps:\n  - id: grab\n    fetch:\n      src: {big}\n  - id: after\n    run: echo after\n")
    out = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=60, preexec_fn=_limit_file_size(1_000_000),
        env={**os.environ, "COLUMNS": "300"},
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    grab, after = record["steps"]
    assert grab["status"] == "error" and "File too large" in grab["message"], grab
    assert grab["artifacts"] == []
    assert [p.name for p in (run_dir / "artifacts").rglob("*") if p.is_file()] == []
    assert after["status"] == "passed"


def test_a_capture_that_matched_nothing_is_named_when_an_expression_trips_on_it(tmp_path):
    # The log line was not there, so the capture gave None; `when: facts.num_steps > 1` used to
    # fail with "TypeError: '>' not supported between instances of 'NoneType' and 'int'".
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: when\nsteps:\n  - id: read\n    run: echo no flags here\n    capture:\n"
        "      - regex: '--speculative-num-steps (?P<num_steps>\\d+)'\n        type: int\n"
        "  - id: check\n    when: facts.num_steps > 1\n    run: echo big\n"
    )
    out = tmp_path / "runs"
    run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    _, record = only_run(out)
    check = record["steps"][1]
    assert "facts.num_steps is None" in check["message"], check["message"]
    assert "matched nothing" in check["message"] and "is not none" in check["message"], check["message"]
    assert "NoneType" not in check["message"]


def test_json_capture_reaches_keys_that_hold_dots(tmp_path):
    # model.safetensors.index.json names tensors with dots; `weight_map["lm_head.weight"]` was
    # split at the dots and silently gave the default (None): "the draft has no lm_head".
    index = {"metadata": {"total_size": 123}, "weight_map": {"lm_head.weight": "model-00002.safetensors",
                                                           "model.layers.0.mlp.up_proj.weight": "model-00001.safetensors"}}
    captures = [
        Capture.model_validate({"json": 'weight_map["lm_head.weight"]', "name": "lm_head_file"}),
        Capture.model_validate({"json": "$.weight_map['model.layers.0.mlp.up_proj.weight']", "name": "up_file"}),
        Capture.model_validate({"json": "metadata.total_size", "name": "size"}),
        Capture.model_validate({"json": 'weight_map["no.such.tensor"]', "name": "missing", "default": "absent"}),
    ]
    facts = apply_captures(captures, json.dumps(index), "")
    assert facts == {"lm_head_file": "model-00002.safetensors", "up_file": "model-00001.safetensors",
                     "size": 123, "missing": "absent"}
