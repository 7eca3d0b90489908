"""speculators' hs_<i>.safetensors samples are read with safetensors' safe_open, whose tensors
and slices are views of the memory-mapped file (safetensors 0.8). A sample kept those views
(its token ids, its final state, its loss mask, and every slot when all were read) for as long
as it was scored, so a file truncated meanwhile (the data generation run again over the dump,
save_file or a copy onto it in place) killed the process with SIGBUS: no message, every
result lost. A read sample now owns its memory. The samples are vLLM-style captures of a
verifier saved by transformers (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.data import read_sample  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(),
                                reason="reads the process's mappings from /proc")


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("hs_saved_over"), seed=1)
    data = root / "data"
    # a padded sample too: its rows are cut to the attention_mask's (a slice of the views)
    tensors = load_file(str(data / "hs_0.safetensors"))
    T = tensors["token_ids"].shape[0]
    save_file({**tensors, "attention_mask": (torch.arange(T) < T - 3).long()},
              str(data / "hs_9.safetensors"))
    return data


def _mapped(path: Path) -> bool:
    return str(path) in Path("/proc/self/maps").read_text()


@pytest.mark.parametrize("name", ["hs_0.safetensors", "hs_9.safetensors"])
@pytest.mark.parametrize("slots", [None, (0, 1, 2)])
def test_a_read_sample_keeps_nothing_of_its_file_mapped(dump, name, slots, tmp_path):
    path = tmp_path / name
    shutil.copy(dump / name, path)
    sample = read_sample(path, slots=slots)
    assert not _mapped(path)
    expected = load_file(str(dump / name))
    T = sample.length
    assert torch.equal(sample.token_ids, expected["token_ids"][:T])
    assert torch.equal(sample.final, expected["hidden_states"][:T, -1])
    assert torch.equal(sample.slots, expected["hidden_states"][:T, list(slots or range(4))])


def test_scoring_survives_the_file_being_saved_over(dump, tmp_path):
    path = tmp_path / "hs_0.safetensors"
    shutil.copy(dump / path.name, path)
    script = ("import sys; from pathlib import Path; "
              "from spec_debug.eagle3.data import read_sample; "
              "s = read_sample(Path(sys.argv[1])); "
              "open(sys.argv[1], 'wb').close(); "  # save_file truncates the file it writes
              "print(float(s.final.float().sum() + s.slots.float().sum() + s.token_ids.sum() "
              "+ s.loss_mask.sum()))")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert float(done.stdout)
