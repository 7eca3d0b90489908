"""A dump copied through macOS to an exFAT/SMB disk carries an AppleDouble `._<name>` beside
every file; an NFS share shows a `.snapshot` folder of earlier copies. Under vLLM's raw
connector names (`{req_id}.safetensors`, read by extension) every `._` file was taken for a
sample and reported "N sample file(s) skipped: not a safetensors file, or truncated", and
the snapshot's copies were scored a second time. Now hidden files and folders under --data
are not samples: the dump scores as the clean one, with no skip note."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.eagle3._world import drafter_json, informative_world

from spec_debug.eagle3.data import list_sample_files

world = informative_world("h44_hidden_files", seed=44)

APPLEDOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        "


def _raw_connector_dump(world: Path, out: Path) -> Path:
    """world's samples under vLLM connector names, each with its AppleDouble file, and an
    NFS snapshot folder holding a copy of the first."""
    out.mkdir()
    for i in range(3):
        shutil.copy(world / "data" / f"hs_{i}.safetensors", out / f"cmpl-{i}-0.safetensors")
        (out / f"._cmpl-{i}-0.safetensors").write_bytes(APPLEDOUBLE)
    (out / ".snapshot" / "hourly.0").mkdir(parents=True)
    shutil.copy(out / "cmpl-0-0.safetensors", out / ".snapshot" / "hourly.0")
    return out


def test_hidden_files_and_folders_are_not_samples(world, tmp_path):
    data = _raw_connector_dump(world, tmp_path / "raw")
    assert [p.name for p in list_sample_files(data)] == [
        "cmpl-0-0.safetensors", "cmpl-1-0.safetensors", "cmpl-2-0.safetensors"]
    dirty, clean = drafter_json(world, data), drafter_json(world, world / "data")
    assert dirty["samples"] == 3 and dirty["skipped_samples"] == 0, dirty["notes"]
    assert not any("skipped" in note for note in dirty["notes"]), dirty["notes"]
    assert dirty["full_accuracy"] == clean["full_accuracy"]


def test_a_hidden_folder_passed_as_data_is_still_read(world, tmp_path):
    data = tmp_path / ".cache" / "hs"
    shutil.copytree(world / "data", data)
    assert len(list_sample_files(data)) == 3
