"""A run record kept packed (`gzip runs/*/run.json` to save space, a CI artifact downloaded as
run.zip): `spec-debug report run.json.gz` said only "run.json is not UTF-8 text (byte 1)".
Now it says the file is compressed and how to unpack it."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.record import PlaybookRef, RunRecord
from spec_debug.store import RunStore, load_record


def _record_text(out: Path) -> str:
    """run.json as `spec-debug run` writes it (RunStore.save)."""
    store = RunStore.create(out, "p")
    store.save(RunRecord(run_id=store.run_dir.name, playbook=PlaybookRef(name="p", path="p.yaml", sha256="0" * 64),
                         started_at="2026-12-02T07:00:00.000Z", status="passed"))
    return (store.run_dir / "run.json").read_text(encoding="utf-8")


def _error(path: Path) -> UsageError:
    with pytest.raises(UsageError) as caught:
        load_record(path)
    return caught.value


def test_a_gzipped_record_is_said_to_be_compressed(tmp_path):
    packed = tmp_path / "run.json.gz"
    packed.write_bytes(gzip.compress(_record_text(tmp_path / "runs").encode()))
    error = _error(packed)
    assert error.message == f"{packed}: run.json is gzip-compressed"
    assert error.hint == f"unpack it and pass the result: gunzip -k {packed}"


def test_a_zip_archive_is_said_to_be_one(tmp_path):
    packed = tmp_path / "run.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("run.json", _record_text(tmp_path / "runs"))
    error = _error(packed)
    assert error.message == f"{packed}: run.json is a zip archive"
    assert error.hint == f"unpack it and pass the run folder or run.json in it: unzip {packed}"
