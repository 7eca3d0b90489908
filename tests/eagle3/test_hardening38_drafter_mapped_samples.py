"""Torch-saved hidden-state samples (SpecForge data_<i>.ckpt, speculators' earlier data_<i>.pt)
were read whole with torch.load: a 100k-token sample of a 7168-wide target is gigabytes in
memory before anything is scored, and SpecForge's reader then copied every slot twice more
(a cat of the aux and final states, then the slots asked for): about three times the file at
its peak. Zip-format files are now memory-mapped, the slots asked for copied once, and the
sample keeps none of the mapping: a torch.save over the file while the sample is scored must
not kill the process with SIGBUS."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3.data import read_sample, read_samples  # noqa: E402

T, H = 64, 16
pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(),
                                reason="reads the process's mappings from /proc")


def _specforge_record() -> dict:
    # SpecForge scripts/prepare_hidden_states.py: three aux states, then the final one apart
    gen = torch.Generator().manual_seed(0)
    return {"input_ids": torch.randint(0, 1000, (1, T), generator=gen),
            "loss_mask": torch.ones(1, T, dtype=torch.long),
            "aux_hidden_state": torch.randn(1, T, 3 * H, generator=gen).bfloat16(),
            "hidden_state": torch.randn(1, T, H, generator=gen).bfloat16()}


def _v1_record() -> dict:
    # speculators' earlier data_<i>.pt: one [T, H] state per captured layer, the final last
    gen = torch.Generator().manual_seed(1)
    return {"input_ids": torch.randint(0, 1000, (T,), generator=gen),
            "hidden_states": [torch.randn(T, H, generator=gen) for _ in range(4)]}


def _mapped(path: Path) -> bool:
    return str(path) in Path("/proc/self/maps").read_text()


@pytest.mark.parametrize("record", [_specforge_record, _v1_record])
def test_a_sample_file_is_mapped_while_read_and_let_go_after(tmp_path, record):
    path = tmp_path / "data_0.ckpt"
    torch.save(record(), path)
    records = read_samples(path, slots=[0, 1, 2])
    sample = next(records)
    assert _mapped(path), "the file was read whole instead of memory-mapped"
    records.close()
    # the sample holds copies: the ids, the loss mask and the final state are not views
    assert not _mapped(path)
    assert read_sample(path).final is not None and not _mapped(path)
    assert sample.slots.shape == (T, 3, H)


@pytest.mark.parametrize("record", [_specforge_record, _v1_record])
def test_mapped_legacy_and_gzip_copies_read_the_same(tmp_path, record):
    data = record()
    torch.save(data, tmp_path / "zip.ckpt")
    torch.save(data, tmp_path / "legacy.ckpt", _use_new_zipfile_serialization=False)
    buffer = io.BytesIO()
    torch.save(data, buffer)
    (tmp_path / "gz.ckpt.gz").write_bytes(gzip.compress(buffer.getvalue()))
    for slots in (None, [2, 0], [3, 1]):  # slot 3 is the final state
        read = [read_sample(tmp_path / name, slots=slots)
                for name in ("zip.ckpt", "legacy.ckpt", "gz.ckpt.gz")]
        for other in read[1:]:
            assert torch.equal(read[0].slots, other.slots)
            assert torch.equal(read[0].final, other.final)
            assert torch.equal(read[0].token_ids, other.token_ids)
            assert other.slot_index == read[0].slot_index == (tuple(range(4)) if slots is None
                                                               else tuple(slots))


def test_a_sample_survives_its_file_being_saved_over(tmp_path):
    path = tmp_path / "data_0.ckpt"
    torch.save(_v1_record(), path)
    script = ("import sys; from pathlib import Path; "
              "from spec_debug.eagle3.data import read_sample; "
              "s = read_sample(Path(sys.argv[1])); "
              "open(sys.argv[1], 'wb').close(); "  # torch.save truncates the file it writes
              "print(float(s.final.sum() + s.slots.float().sum() + s.token_ids.sum()))")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout)
