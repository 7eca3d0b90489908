"""A compressed playbook (`perf_regression.yaml.gz` attached to a ticket, a zip downloaded from
a CI run) is said to be compressed, with the command that unpacks it.

It was "playbook is not UTF-8 text (byte 0x8b at offset 1)" at 1:2, with the hint
"save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)": that conversion turns the gzip
stream into a file of garbage and the playbook is still not there.
"""

from __future__ import annotations

import gzip
import lzma
import zipfile

from tests.conftest import run_cli

PLAYBOOK = b"name: shared\nsteps:\n  - id: a\n    run: echo hi\n"


def _said(result) -> str:
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def test_a_gzipped_playbook_names_its_unpacker(tmp_path):
    packed = tmp_path / "perf_regression.yaml.gz"
    packed.write_bytes(gzip.compress(PLAYBOOK))
    said = _said(run_cli("run", str(packed), "--host", "local", "--out", str(tmp_path / "runs")))
    assert "the playbook is gzip-compressed" in said and f"gunzip -k {packed}" in said, said
    assert "iconv" not in said and "not UTF-8" not in said, said
    assert not (tmp_path / "runs").exists()


def test_a_compressed_playbook_without_the_suffix_is_renamed_first(tmp_path):
    packed = tmp_path / "playbook.yaml"
    packed.write_bytes(lzma.compress(PLAYBOOK))
    said = _said(run_cli("playbooks", "validate", str(packed)))
    assert "xz-compressed" in said and f"mv {packed} {packed}.xz && unxz {packed}.xz" in said, said


def test_a_zipped_playbook_says_unzip(tmp_path):
    packed = tmp_path / "playbooks.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("perf.yaml", PLAYBOOK)
    said = _said(run_cli("playbooks", "validate", str(packed)))
    assert "a zip archive" in said and f"unzip {packed}" in said, said
