"""`drafter eval` looks for the target's final layer in another slot (layout.final_slot_check)
when step-0 accuracy is under 0.25, which reads every slot of a few samples. It read them
before knowing whether the check could run (a dump whose slots are named by layer_ids
metadata, a draft with freshly initialised modules) and without the byte bound `drafter layout` reads all slots under: a
wide dump of a large model (tens of layers per token) was read whole for nothing. Now those
cases read nothing more, and the check's samples are bounded like layout's. Real library:
speculators 0.9.0's draft over a transformers Llama verifier, states as vLLM captures them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

import spec_debug.eagle3.api as api  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import (AUX, V, save_verifier_and_draft,  # noqa: E402
                                            vllm_style_states)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """draft/ as speculators saves it (untrained: norms at 1), data/ unnamed slots,
    named/ the same states with layer_ids metadata."""
    root = tmp_path_factory.mktemp("h22_review_final_reads")
    verifier = save_verifier_and_draft(root)
    for name in ("data", "named"):
        (root / name).mkdir()
    generator = torch.Generator().manual_seed(7)
    for i in range(3):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (14,), generator=generator))
        tensors = {"token_ids": ids, "hidden_states": hidden}
        save_file(tensors, str(root / "data" / f"hs_{i}.safetensors"))
        save_file(tensors, str(root / "named" / f"hs_{i}.safetensors"),
                  metadata={"layer_ids": json.dumps([*AUX, 8])})
    return root


def _all_slot_reads(world: Path, data: str, monkeypatch) -> int:
    reads = []
    real = api.iter_samples

    def spy(*args, **kwargs):
        if kwargs.get("slots") is None and kwargs.get("final"):
            reads.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "iter_samples", spy)
    result = CliRunner().invoke(drafter_app, [
        "eval", "--model", str(world / "draft"), "--data", str(world / data),
        "--target", str(world / "target"), "--steps", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["full_accuracy"][0] < 0.25  # the check is considered
    return len(reads)


def test_a_dump_with_named_slots_reads_no_slot_more(world, monkeypatch):
    assert _all_slot_reads(world, "named", monkeypatch) == 0


def test_unnamed_slots_are_read_bounded_in_bytes_as_layout_reads_them(world, monkeypatch):
    """A fresh draft (~0 accuracy) on a dump with unnamed slots: the check runs, on samples
    from _bounded_samples, the byte-bounded reader of `drafter layout`."""
    calls = []
    real = api._bounded_samples

    def bounded(data, max_samples, max_bytes, **kwargs):
        calls.append((max_samples, max_bytes, kwargs["final"]))
        return real(data, max_samples, max_bytes, **kwargs)

    monkeypatch.setattr(api, "_bounded_samples", bounded)
    assert _all_slot_reads(world, "data", monkeypatch) == 1
    assert calls == [(api._FLAG_CHECK_SAMPLES, api._CHECK_MAX_BYTES, True)]


def test_only_a_dump_the_check_can_use_is_read():
    from types import SimpleNamespace

    # a draft with its d2t (one without scores ~0 against any slot: not checked either)
    mapped = SimpleNamespace(d2t=object(), cfg=SimpleNamespace(draft_vocab_size=8, vocab_size=16))
    fresh, unnamed = SimpleNamespace(notes=[], model=mapped), SimpleNamespace(layer_ids=None, num_slots=4)
    assert api._final_slot_checkable(fresh, unnamed, (0, 1, 2))
    assert not api._final_slot_checkable(fresh, unnamed, (1, 2, 3))  # aux slots not first
    assert not api._final_slot_checkable(fresh, SimpleNamespace(layer_ids=None, num_slots=3),
                                         (0, 1, 2))  # no final slot
    partly = SimpleNamespace(notes=["RMSNorm weights at their initial value (every entry "
                                    "exactly 1.0): layers.0.input_layernorm.weight, ..."],
                             model=mapped)
    assert not api._final_slot_checkable(partly, unnamed, (0, 1, 2))
    unmapped = SimpleNamespace(notes=[], model=SimpleNamespace(d2t=None, cfg=mapped.cfg))
    assert not api._final_slot_checkable(unmapped, unnamed, (0, 1, 2))
