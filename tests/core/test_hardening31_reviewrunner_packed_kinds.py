"""A run.json gzipped under its own name (a CI artifact served gzip-encoded and saved as
run.json, `gzip -c run.json > x && mv x run.json`) was told 'gunzip -k run.json', which gunzip
refuses ("unknown suffix -- ignored"); and an xz, bzip2 or zstd record said only "not UTF-8
text" or "not valid JSON". Each is now named, with a command that unpacks it."""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.store import load_record
from tests.core.test_hardening31_runner_latest_run import _saved_run  # a run folder as `spec-debug run` makes it


def _error(path: Path) -> UsageError:
    with pytest.raises(UsageError) as caught:
        load_record(path)
    return caught.value


def test_a_record_gzipped_under_its_own_name_gets_a_command_gunzip_runs(tmp_path):
    run_dir = _saved_run(tmp_path / "my runs")
    record = run_dir / "run.json"
    record.write_bytes(gzip.compress(record.read_bytes()))
    error = _error(run_dir)
    assert error.message == f"{record}: run.json is gzip-compressed"
    command = error.hint.split(": ", 1)[1]
    assert command == f"mv '{record}' '{record}.gz' && gunzip '{record}.gz'"
    if shutil.which("gunzip"):
        subprocess.run(["sh", "-c", command], check=True, capture_output=True, timeout=60)
        assert load_record(run_dir).status == "passed"


@pytest.mark.parametrize(("pack", "kind", "tool"), [(lzma.compress, "xz", "unxz"), (bz2.compress, "bzip2", "bunzip2")])
def test_xz_and_bzip2_records_are_named(tmp_path, pack, kind, tool):
    record = _saved_run(tmp_path / "runs") / "run.json"
    suffix = {"xz": ".xz", "bzip2": ".bz2"}[kind]
    packed = tmp_path / f"run.json{suffix}"
    packed.write_bytes(pack(record.read_bytes()))
    error = _error(packed)
    assert error.message == f"{packed}: run.json is {kind}-compressed"
    assert error.hint == f"unpack it and pass the result: {tool} -k {packed}"


def test_a_zstd_frame_is_named(tmp_path):
    packed = tmp_path / "run.json.zst"
    # A whole zstd frame of "{}" (RFC 8878 3.1.1: magic, single-segment header, one raw last block).
    packed.write_bytes(b"\x28\xb5\x2f\xfd\x20\x02\x11\x00\x00{}")
    assert _error(packed).message == f"{packed}: run.json is zstd-compressed"


def test_a_run_folder_whose_record_was_gzipped_in_place_names_the_gz(tmp_path):
    """`gzip runs/*/run.json` leaves run.json.gz: `report runs/<id>` said only 'no run record'."""
    run_dir = _saved_run(tmp_path / "runs")
    record = run_dir / "run.json"
    (run_dir / "run.json.gz").write_bytes(gzip.compress(record.read_bytes()))
    record.unlink()
    error = _error(run_dir)
    assert error.message == f"no run record at {record}"
    assert error.hint == f"run.json.gz is there, compressed: unpack it and pass the folder again: gunzip -k {record}.gz"
