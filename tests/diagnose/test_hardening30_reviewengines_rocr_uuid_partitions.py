"""Round 30 review: host_info reads ROCR_VISIBLE_DEVICES UUID entries against amd-smi list -e's
hip_uuid, taken for KFD's unique_id (what ROCr matches), and a UUID naming no GPU, or several,
ended the list (5b78ab8a). hip_uuid is KFD's from rocm-systems#3614 on; an amd-smi before it gave
the ASIC serial there, which a partitioned GPU's partitions share and which is not their KFD
UUID. On such a host (one MI300X in CPX mode, 8 partitions, one hip_uuid) a rocminfo UUID was said
to name no GPU, and the serial itself to name several: visible_gpus [] ('none visible'), where
ROCr tells the partitions apart. Now hip_uuids that are not one a GPU are only stand-ins, as the
serials are: visible_gpus not told."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info

SERIAL = "de8287300da37c72"


def _cpx_host(tmp_path, monkeypatch, hip_uuids: list[str]):
    listing = [{"gpu": i, "bdf": f"0000:05:00.{i}", "uuid": f"deff74a1-0000-1000-8082-87300da37c72",
                "kfd_id": 1000 + i, "node_id": 2 + i, "partition_id": i, "hsa_id": 2 + i, "hip_id": i,
                "hip_uuid": uuid} for i, uuid in enumerate(hip_uuids)]
    static = {"gpu_data": [{"gpu": i, "asic": {"market_name": "AMD Instinct MI300X"}} for i in range(len(hip_uuids))]}
    tool = tmp_path / "amd-smi"
    tool.write_text("#!/bin/sh\ncase \"$*\" in\n"
                    f"'list -e --json') /bin/cat <<'END'\n{json.dumps(listing)}\nEND\n;;\n"
                    f"'static --asic --json') /bin/cat <<'END'\n{json.dumps(static)}\nEND\n;;\nesac\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    for key in ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(key, raising=False)


def test_hip_uuids_shared_by_partitions_tell_nothing(tmp_path, monkeypatch):
    _cpx_host(tmp_path, monkeypatch, [f"GPU-{SERIAL}"] * 8)
    gpus = [{"index": str(i)} for i in range(8)]
    uuids = host_info.rocr_uuids()
    assert uuids[1] is False
    # rocminfo's UUID of partition 3, which amd-smi does not list: was [] (the list ended)
    assert host_info.rocm_visible_gpus("GPU-5A3E0F11C2D40B93", None, gpus, uuids) is None
    # the serial all eight share: was [] (several named)
    assert host_info.rocm_visible_gpus(f"GPU-{SERIAL}", None, gpus, uuids) is None
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", f"GPU-{SERIAL}")
    assert "visible_gpus" not in host_info.run({})


def test_hip_uuids_of_their_own_are_kfds(tmp_path, monkeypatch):
    """amd-smi from #3614: each partition's own KFD UUID; one naming none ends the list."""
    _cpx_host(tmp_path, monkeypatch, [f"GPU-{SERIAL[:-1]}{i}" for i in range(8)])
    gpus = [{"index": str(i)} for i in range(8)]
    uuids = host_info.rocr_uuids()
    assert uuids[1] is True
    assert host_info.rocm_visible_gpus(f"GPU-{SERIAL[:-1]}3,GPU-5A3E0F11C2D40B93,1", None, gpus, uuids) == ["3"]
    assert host_info.rocm_visible_gpus(f"GPU-{SERIAL[:8]},1", None, gpus, uuids) == []  # a start all share
