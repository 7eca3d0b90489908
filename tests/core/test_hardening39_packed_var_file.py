"""A compressed --var-file (`vars.yaml.gz` attached to a ticket beside the playbook, a zip of a
CI run's vars) is said to be compressed, with the command that unpacks it, as a compressed
playbook is (tests/core/test_hardening38_packed_playbook.py).

It was "--var-file is not UTF-8 text" at 1:2 with the hint "save the file as UTF-8": no editor
saves a gzip stream as anything else, and the run never started.
"""

from __future__ import annotations

import bz2
import gzip
import zipfile

from tests.conftest import run_cli

PLAYBOOK = "name: shared\nvars:\n  python: python3\nsteps:\n  - id: a\n    run: echo {{ python }}\n"
VARS = b"python: /usr/bin/python3\n"


def _run_with(tmp_path, var_file) -> str:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--var-file", str(var_file), "--out", str(tmp_path / "runs"))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists()  # refused before anything ran
    return " ".join(result.stderr.split())


def test_a_gzipped_var_file_names_its_unpacker(tmp_path):
    packed = tmp_path / "vars.yaml.gz"
    packed.write_bytes(gzip.compress(VARS))
    said = _run_with(tmp_path, packed)
    assert f"{packed}: --var-file is gzip-compressed" in said and f"gunzip -k {packed}" in said, said
    assert "UTF-8" not in said, said


def test_a_compressed_var_file_without_the_suffix_is_renamed_first(tmp_path):
    packed = tmp_path / "vars.yaml"
    packed.write_bytes(bz2.compress(VARS))
    said = _run_with(tmp_path, packed)
    assert "bzip2-compressed" in said and f"mv {packed} {packed}.bz2 && bunzip2 {packed}.bz2" in said, said


def test_a_zipped_var_file_says_unzip(tmp_path):
    packed = tmp_path / "vars.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("vars.yaml", VARS)
    said = _run_with(tmp_path, packed)
    assert "--var-file is a zip archive" in said and f"unpack it and pass the var file in it: unzip {packed}" in said, said


def test_the_unpacked_var_file_runs(tmp_path):
    plain = tmp_path / "vars.yaml"
    plain.write_bytes(VARS)
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--var-file", str(plain), "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr
