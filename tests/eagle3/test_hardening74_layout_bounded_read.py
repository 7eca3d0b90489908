"""`drafter layout` reads every slot of a wide dump (every layer's hidden state) within a
memory budget (2 GB by default). Before: each sample was read whole and cut after, and the
cut kept a view of the whole: one sample of a long sequence of a large target (81 slots x
8192 x 2 bytes a token for a 70B one, tens of GB for a long trace) was held in full, and the
next sample was read in full before the budget stopped the reading (a 20 MB budget over two
205 MB files grew the process by 637 MB). A killed probe says nothing. Now only the rows that
fit are read from the file, and a cut sample holds its own rows. Saved by speculators 0.9.0
(tests/eagle3/speculators_world.py), the dump as transformers' output_hidden_states gives
every layer."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3 import layout  # noqa: E402
from spec_debug.eagle3.api import probe_layout  # noqa: E402
from spec_debug.eagle3.data import iter_samples  # noqa: E402
from tests.eagle3.speculators_world import H, NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402

ROW = (NL + 2) * H * 2  # 9 hidden states + the final slot, bf16: bytes a position


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from transformers import LlamaForCausalLM

    root = save_informative_world(tmp_path_factory.mktemp("hardening74_bounded"), seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, root / "wide", range(0, NL + 1))


def test_the_reader_reads_only_the_rows_that_fit(world):
    _, wide = world
    samples = list(iter_samples(wide, bytes_left=lambda: 5 * ROW))
    assert [s.length for s in samples] == [5, 5, 5]  # of 14, 15 and 16 positions
    for sample in samples:
        assert sample.slots.untyped_storage().nbytes() == 5 * ROW
        assert sample.loss_mask.shape == (5,) and sample.final.shape == (5, H)
    whole = next(iter_samples(wide))
    assert torch.equal(samples[0].slots, whole.slots[:5])
    assert torch.equal(samples[0].token_ids, whole.token_ids[:5])


def test_the_layout_probe_holds_no_more_than_its_budget(world, monkeypatch):
    root, wide = world
    probed = []
    real = layout.probe

    def probe(loaded, samples, **kwargs):
        probed.extend(samples)
        return real(loaded, samples, **kwargs)

    monkeypatch.setattr(layout, "probe", probe)
    report = probe_layout(root / "draft", wide, root / "target", max_bytes=20 * ROW)
    assert [s.length for s in probed] == [14, 6]  # the second cut to what is left
    # each holds its own rows (the cut one held all 15 of its rows before)
    assert [s.slots.untyped_storage().nbytes() for s in probed] == [14 * ROW, 6 * ROW]
    assert report["samples"] == 2
