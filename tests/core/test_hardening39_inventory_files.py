"""An inventory (or a group_vars file beside it) that is not plain UTF-8 text is read as a
playbook or a --var-file is: a compressed one is named with its unpacker, one far too big is
refused before it is read whole, and one saved by Windows PowerShell (UTF-16) is read.

`-i hosts.ini.gz` attached to a ticket said "not UTF-8 text"; `-i /dev/zero` (or a checkpoint
passed by mistake) was read whole, into a MemoryError traceback; PowerShell 5's
`Get-Content ... > hosts.ini` writes UTF-16LE, which was "not UTF-8 text" though every other
file the run reads accepts it. Through the real CLI; the hosts connect with
ansible_connection=local, so no network is needed.
"""

from __future__ import annotations

import gzip
import json
import zipfile

from tests.conftest import only_run, run_cli

INVENTORY = "[gpus]\ngpu01 ansible_connection=local\n"
PLAYBOOK = "name: p\nvars:\n  where: nowhere\nsteps:\n  - id: a\n    run: echo {{ where }}\n"


def _run(tmp_path, inventory) -> tuple[object, str]:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(tmp_path / "runs"))
    assert "Traceback" not in result.stderr, result.stderr
    return result, " ".join(result.stderr.split())


def test_a_gzipped_inventory_names_its_unpacker(tmp_path):
    packed = tmp_path / "hosts.ini.gz"
    packed.write_bytes(gzip.compress(INVENTORY.encode()))
    result, said = _run(tmp_path, packed)
    assert result.code == 2
    assert f"inventory {packed} is gzip-compressed" in said and f"gunzip -k {packed}" in said, said
    assert not (tmp_path / "runs").exists()


def test_a_zipped_inventory_says_unzip(tmp_path):
    packed = tmp_path / "inventory.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("hosts.ini", INVENTORY)
    result, said = _run(tmp_path, packed)
    assert result.code == 2 and f"unpack it and pass the inventory in it: unzip {packed}" in said, said


def test_a_huge_file_is_refused_without_reading_it_whole(tmp_path):
    huge = tmp_path / "model.safetensors"
    with open(huge, "wb") as handle:  # sparse: 64 MiB of NULs that take no disk
        handle.truncate(64 * 2**20)
    result, said = _run(tmp_path, huge)
    assert result.code == 2 and f"cannot read inventory {huge}: over 16 MiB" in said, said


def test_a_compressed_group_vars_file_is_named(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(INVENTORY)
    (tmp_path / "group_vars").mkdir()
    packed = tmp_path / "group_vars" / "gpus"
    packed.write_bytes(gzip.compress(b"where: lab\n"))
    result, said = _run(tmp_path, inventory)
    assert result.code == 2 and f"vars file {packed} is gzip-compressed" in said, said


def test_an_inventory_saved_by_powershell_runs(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_bytes(INVENTORY.encode("utf-16"))  # with its byte order mark, as PowerShell 5's `>`
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "gpus.yml").write_bytes("where: lab\n".encode("utf-16-le"))  # Set-Content -Encoding Unicode: no mark
    result, said = _run(tmp_path, inventory)
    assert result.code == 0, said
    _, record = only_run(tmp_path / "runs")
    assert [h["name"] for h in record["hosts"]] == ["gpu01"]
    assert [s["stdout"] for s in record["steps"]] == ["lab\n"], json.dumps(record["steps"])
