"""The incident's second bug said in words: "training used [embed, layer3, layer31] while the
engine passes [layer3, layer31, layer59]". Only a ``cat([...])`` call was read as a hidden-state
order, so a session that found the mismatch and wrote it as two lists had no SD201; and a
mismatch stated in a text kept no ``read_seqs`` (the check the agent had just read), so
distill had nothing to keep."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.spec_facts import concat_orders
from tests.session.incident_story import _Writer


@pytest.mark.parametrize("text, orders", [
    ("training used [embed, layer3, layer31] while the engine passes [layer3, layer31, layer59]",
     [("embed", "layer3", "layer31"), ("layer3", "layer31", "layer59")]),
    ("trained on (embed, layer 3, layer 31), served as (Layer 3, Layer 31, Layer 59)",
     [("embed", "layer3", "layer31"), ("layer3", "layer31", "layer59")]),
    ("x = torch.cat([embed, layer3, layer31], dim=-1)", [("embed", "layer3", "layer31")]),  # read once
    ("eagle_aux_hidden_state_layer_ids [3, 31, 59]", []),  # numbers: no names of hidden states
    ("cat of [hidden_states, residual]", []),
    ("forward(layer3, layer31)", []),  # a call's arguments
    ("norms [layer_norm1, layer_norm2]", []),
    ("only [layer3]", []),
])
def test_orders_said_as_lists(text: str, orders: list[tuple[str, ...]]) -> None:
    assert concat_orders(text) == orders


def test_the_mismatch_said_in_words_is_sd201_and_distill_keeps_the_check_read(tmp_path: Path) -> None:
    w = _Writer("ab540000-0000-4000-8000-000000000054", None, datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on gpu01 is slower than the 90 tok/s baseline.")
    w.bash("ssh gpu01 'grep -n layers_to_capture /opt/sglang/python/sglang/srt/models/deepseek_v2.py'",
           "2210:        self.model.layers_to_capture = [val + 1 for val in layer_ids]\n",
           text="Which hidden states does SGLang pass to the draft?")
    said = w.say("Root cause: training used [embed, layer3, layer31] while the engine passes "
                 "[layer3, layer31, layer59]; the concatenation order differs.")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    sd201 = [f for f in a.findings if f.code == "SD201"]
    assert [(f.seq, f.evidence, f.read_seqs) for f in sd201] == [
        (said, [f"[msg {said}] cat([embed, layer3, layer31]) vs cat([layer3, layer31, layer59])"], [said - 1])]
    steps = distill_playbook(a)["steps"]
    assert [(s.get("run") or s["probe"], s["provenance"]["seq"]) for s in steps] == [
        ("grep -n layers_to_capture {{ deepseek_v2_py }}", said - 2), ("model_configs", said)]
    assert "SD201" in steps[0]["why"]
