"""What `spec-debug analyze` says about input it cannot read as asked (a docs audit's findings).

- A plain-text log forced as a JSON format (`analyze notes.log --input-format claude-code`)
  exited 0 with the postmortem of an empty session, every line counted as broken JSON, where
  the same format forced on a Codex rollout is the usage error "does not fit" (exit 2).
- The hint for a folder with no transcript listed *.jsonl, *.json, *.txt, *.md and *.log,
  but a folder scan also reads *.cast, *.traj and all of them gzip/bzip2/xz/zstd-compressed.
- `analyze <(ssh gpu01 cat session.jsonl)` is refused (a pipe cannot be read twice); the hint
  only said to save it to a file, not that `cmd | spec-debug analyze -` reads it.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from tests.session.test_hardening10_formats import SHARED, _cast, _traj

# An engineer's notes, as `script` or a copy from the terminal leaves them (no JSON in it), with
# SGLang's scheduler line (sgl-project/sglang scheduler_metrics_mixin.py, log_decode_stats):
# its "[date time]" prefix opens a line as a JSON array would.
NOTES = """\
[2026-02-01 10:01:58] Decode batch, #running-req: 4, #token: 812, token usage: 0.01, accept len: 1.00, \
accept rate: 0.25, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0
2026-02-01 10:02 gpu01: EAGLE-3 slower than baseline, 54.8 tok/s vs 90
root@gpu01:~# nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5a1c)
root@gpu01:~# ps -eo args | grep [l]aunch_server
python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3
"""


def _analyze(*args: str):
    return CliRunner().invoke(app, ["analyze", *args])


@pytest.mark.parametrize("forced", ["claude-code", "codex", "openai", "openhands", "swe-agent"])
def test_a_text_log_forced_as_a_json_format_is_a_usage_error(tmp_path: Path, forced: str) -> None:
    notes = tmp_path / "notes.log"
    notes.write_text(NOTES, encoding="utf-8")
    result = _analyze(str(notes), "--input-format", forced, "-o", str(tmp_path / "pm.md"))
    assert result.exit_code == 2, result.output
    assert f"--input-format {forced} does not fit: it is plain text" in result.output
    assert "--input-format text" in result.output
    assert not (tmp_path / "pm.md").exists()
    # read as what it is, it is the session it was
    assert [c.host for c in analyze_path(notes, "text").commands] == ["gpu01", "gpu01"]


def test_a_damaged_jsonl_forced_as_its_format_is_still_read(tmp_path: Path) -> None:
    # Lines that open a record but were cut (a copy stopped half-way): the person knows the
    # format, and what is broken is counted, as before.
    cut = tmp_path / "session.jsonl"
    cut.write_text('{"type": "user", "message": {"role": "us\n{"type": "assistant", "mess\n', encoding="utf-8")
    a = analyze_path(cut, "claude-code")
    assert a.stats["broken_json"] == 2


def _session_file(folder: Path, suffix: str) -> Path:
    """A small session of each kind a folder scan reads, named with ``suffix``."""
    folder.mkdir()
    path = folder / f"s{suffix}"
    if suffix in (".jsonl", ".ndjson"):  # JSON Lines under either name
        shutil.copy(SHARED / "claude-code" / "representative_messages.jsonl", path)
    elif suffix == ".json":  # an OpenAI chat log (TRANSCRIPTS.md section 1e)
        path.write_text(json.dumps([
            {"role": "user", "content": "check the GPUs"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                "name": "bash", "arguments": json.dumps({"command": "nvidia-smi -L"})}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: NVIDIA H100 80GB HBM3"}]))
    elif suffix == ".cast":
        _cast(path)
    elif suffix == ".traj":
        _traj(path)
    else:
        path.write_text(NOTES, encoding="utf-8")
    return path


def _compress(path: Path, suffix: str) -> None:
    data = path.read_bytes()
    if suffix == ".zst":
        subprocess.run(["zstd", "-q", "--rm", str(path)], check=True)  # the real zstd tool
        return
    packed = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}[suffix](data)
    path.with_name(path.name + suffix).write_bytes(packed)
    path.unlink()


def test_the_empty_folder_hint_names_what_a_folder_scan_reads(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = _analyze(str(empty))
    assert result.exit_code == 2 and "no transcript files found" in result.output
    hint = " ".join(result.output.split())
    names = re.findall(r"\*(\.\w+)", hint)
    packed = re.findall(r"(\.\w+)[,)]", hint.split("also compressed", 1)[1])
    assert {".cast", ".traj", ".log", ".jsonl"} <= set(names) and set(packed) == {".gz", ".bz2", ".xz", ".zst"}
    # every name it gives is one a folder scan finds, plain and compressed
    for suffix in names:
        assert len(analyze_path(_session_file(tmp_path / f"plain{suffix}", suffix).parent).sessions) == 1, suffix
    for suffix in packed:
        if suffix == ".zst" and shutil.which("zstd") is None:
            continue
        folder = tmp_path / f"packed{suffix}"
        _compress(_session_file(folder, ".log"), suffix)
        assert len(analyze_path(folder).sessions) == 1, suffix


def test_a_process_substitution_is_refused_with_the_pipe_that_works(tmp_path: Path) -> None:
    fifo = tmp_path / "63"  # what bash passes for <(cmd): /dev/fd/63, a pipe
    os.mkfifo(fifo)
    result = _analyze(str(fifo))
    assert result.exit_code == 2
    assert "not a regular file or a directory" in result.output
    assert "cmd | spec-debug analyze -" in result.output
    with pytest.raises(UsageError, match="a pipe cannot be read twice"):
        analyze_path(fifo)


def test_a_piped_text_log_forced_as_claude_code_names_standard_input(tmp_path: Path) -> None:
    # `ssh gpu01 cat notes.log | spec-debug analyze - --input-format claude-code`: the error
    # named the temporary copy of standard input, removed when the command ended.
    result = CliRunner().invoke(app, ["analyze", "-", "--input-format", "claude-code"], input=NOTES)
    assert result.exit_code == 2
    assert "standard input: --input-format claude-code does not fit: it is plain text" in result.output
    assert "spec-debug-stdin-" not in result.output
