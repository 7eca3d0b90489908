"""The issue names ``--format`` both ways: ``spec-debug analyze PATH [--format md|html|json]``
for the output, and transcript formats "detected automatically (and forced with --format)".
``--format codex`` was a usage error ("'codex' is not one of 'md', 'html', 'json'"): only
``--input-format`` forced one. The names do not overlap, so ``--format`` takes either."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts"
ROLLOUT = next((DATA / "codex").glob("rollout-*.jsonl"))


def test_format_names_a_transcript_format_to_force(tmp_path: Path) -> None:
    # a Codex rollout under a name and folder that say nothing of Codex
    path = tmp_path / "session.log"
    shutil.copy(ROLLOUT, path)
    forced = run_cli("analyze", str(path), "--format", "codex", "--json")
    assert forced.code == 0, forced.stderr
    assert json.loads(forced.stdout)["sessions"][0]["format"] == "codex"
    # the same as --input-format codex, and a Markdown postmortem when no output format is named
    same = run_cli("analyze", str(path), "--input-format", "codex", "--json")
    assert json.loads(same.stdout)["sessions"] == json.loads(forced.stdout)["sessions"]
    md = run_cli("analyze", str(path), "--format", "Codex")
    assert md.code == 0 and md.stdout.startswith("# Postmortem"), md.stderr


def test_a_format_forced_on_a_file_not_of_it_is_refused_as_input_format_refuses_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.log"
    path.write_text("root@gpu01:~# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    refused = run_cli("analyze", str(path), "--format", "codex")
    assert refused.code == 2
    assert "codex does not fit" in refused.stderr and "Traceback" not in refused.stderr


def test_output_formats_keep_their_meaning_and_unknown_or_clashing_names_are_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "notes.log"
    path.write_text("root@gpu01:~# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    as_json = run_cli("analyze", str(path), "--format", "JSON")
    assert as_json.code == 0 and json.loads(as_json.stdout)["sessions"][0]["format"] == "text"
    unknown = run_cli("analyze", str(path), "--format", "pdf")
    assert unknown.code == 2
    assert "choose an output (md, html, json) or a transcript format to force" in unknown.stderr
    clash = run_cli("analyze", str(path), "--format", "text", "--input-format", "codex")
    assert clash.code == 2 and "force different transcript formats" in clash.stderr
    agree = run_cli("analyze", str(path), "--format", "text", "--input-format", "text", "--json")
    assert agree.code == 0, agree.stderr
