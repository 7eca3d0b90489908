"""Token ids stored in an integer type too narrow for the target vocabulary. A dump whose ids
were cast to uint16 (to halve them, as token files of vocabularies under 65536 are kept) holds
Llama 3's 128256-token ids modulo 65536: every wrapped id is another valid id, so the range
check passed the sample and the draft was scored on tokens the sample never held. Now the
sample is refused, saying so; int16 ids, whose wrapped ids turn negative, are named too."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
if not hasattr(torch, "uint16"):
    pytest.skip("torch without uint16", allow_module_level=True)

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.eagle3.data import DataError, SampleSpec, check_sample, read_sample  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
LLAMA3_VOCAB = 128256

world = informative_world("hardening68-narrow-ids", seed=681)


def _sample_file(tmp_path: Path, ids: torch.Tensor, name: str = "hs_0.safetensors") -> Path:
    path = tmp_path / name
    hidden = torch.randn(ids.shape[0], 4, 8, generator=torch.Generator().manual_seed(1))
    save_file({"token_ids": ids, "hidden_states": hidden}, str(path))
    return path


def test_uint16_ids_of_a_larger_vocabulary_are_refused(tmp_path):
    true_ids = torch.tensor([128000, 791, 70000, 65535, 65536, 12])
    stored = (true_ids % 65536).to(torch.uint16)  # what `.to(torch.uint16)` of the ids keeps
    sample = read_sample(_sample_file(tmp_path, stored))
    assert sample.token_ids.tolist() == [62464, 791, 4464, 65535, 0, 12]  # in range, wrong
    with pytest.raises(DataError) as raised:
        check_sample(sample, SampleSpec(vocab_size=LLAMA3_VOCAB))
    assert raised.value.message == (
        "hs_0.safetensors: token ids are stored as uint16, which holds ids up to 65535, and the "
        "target vocabulary has 128256 tokens: any id above 65535 was stored modulo 65536 as "
        "another token id, and which ones cannot be told")
    assert "int64" in raised.value.hint
    # a vocabulary uint16 holds (Llama 2's 32000, or exactly 65536 ids) reads as before
    check_sample(sample, SampleSpec(vocab_size=65536))
    small = read_sample(_sample_file(tmp_path, torch.tensor([1, 2, 31999]).to(torch.uint16), "s.safetensors"))
    check_sample(small, SampleSpec(vocab_size=32000))


def test_int16_ids_are_refused_only_where_one_wrapped(tmp_path):
    wrapped = read_sample(_sample_file(tmp_path, torch.tensor([40000, 5, 7]).to(torch.int16)))
    assert wrapped.token_ids.tolist()[0] < 0
    with pytest.raises(DataError) as raised:
        check_sample(wrapped, SampleSpec(vocab_size=LLAMA3_VOCAB))
    assert raised.value.message == (
        "hs_0.safetensors: token ids are stored as int16, which holds ids up to 32767, and the "
        "target vocabulary has 128256 tokens: its negative ids are ids above 32767 wrapped")
    # no id of this sample reached past int16: nothing wrapped, the sample is scored
    fine = read_sample(_sample_file(tmp_path, torch.tensor([300, 5, 7]).to(torch.int16), "f.safetensors"))
    check_sample(fine, SampleSpec(vocab_size=LLAMA3_VOCAB))


def _eval(root: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def test_eval_of_narrow_ids(world, tmp_path):
    """The world's target has 256 tokens: uint16 ids are read as the int64 ones; int8 ids
    (up to 127) wrap the larger ones negative, and eval's refusal says why."""
    root = tmp_path / "world"
    shutil.copytree(world, root)
    plain = json.loads(_eval(root).output)
    originals = {path: load_file(path) for path in sorted((root / "data").glob("*.safetensors"))}
    for path, tensors in originals.items():
        save_file({**tensors, "token_ids": tensors["token_ids"].to(torch.uint16)}, str(path))
    narrow = _eval(root)
    assert narrow.exit_code == 0, narrow.output
    assert json.loads(narrow.output)["counts"] == plain["counts"]

    for path, tensors in originals.items():
        assert int(tensors["token_ids"].max()) > 127
        save_file({**tensors, "token_ids": tensors["token_ids"].to(torch.int8)}, str(path))
    refused = _eval(root)
    assert refused.exit_code != 0
    assert ("token ids are stored as int8, which holds ids up to 127, and the target vocabulary "
            "has 256 tokens: its negative ids are ids above 127 wrapped") in " ".join(
        refused.output.split())
