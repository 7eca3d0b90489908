"""A dump whose three aux slots hold one layer (a dumper bug: every hook stores the same
tensor). `drafter eval` refuses such samples, but `drafter layout` reads every slot to rank
them and said only that the dump "does not confirm the draft's layout" (step-0 0.262 for
every order), never why. Now its verdict names the repeated slots."""

from __future__ import annotations

from pathlib import Path

from tests.eagle3._world import drafter_json, informative_world, torch  # noqa: F401

from spec_debug.eagle3.data import write_hs_sample

world = informative_world("h46_repeated_slots", seed=3)


def _repeated(world: Path) -> Path:
    """world's hs samples with aux slots 1 and 2 overwritten by slot 0's states."""
    from safetensors.torch import load_file

    out = world / "repeated"
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        states = tensors["hidden_states"].clone()
        states[:, 1] = states[:, 0]
        states[:, 2] = states[:, 0]
        write_hs_sample(out / f"hs_{i}.safetensors", tensors["token_ids"], states)
    return out


def test_layout_names_one_layer_captured_in_every_aux_slot(world):
    out = drafter_json(world, _repeated(world), "layout")
    assert "slots 0 and 1 of the dump, both read by the configured layout, are equal at " \
           "every position of the 3 probed sample(s): one layer captured twice" in out["verdict"]
    assert "matches this dump" not in out["verdict"]


def test_a_healthy_dump_has_no_repeated_slot_clause(world):
    out = drafter_json(world, world / "data", "layout")
    assert "captured twice" not in out["verdict"], out["verdict"]


def test_the_diagnose_layout_step_says_the_ranking_was_not_judged(world):
    """The hidden_layout probe and the layout step on the same dump: no finding came, so the
    step passed; now an SD004 line says the layout was not judged, and why."""
    from spec_debug.diagnose.steps import layout_step
    from spec_debug.probes import hidden_layout
    from tests.diagnose.test_steps import context

    data = world / "repeated" if (world / "repeated").exists() else _repeated(world)
    out = hidden_layout.run({"draft_model": str(world / "draft"),
                             "target_model": str(world / "target"),
                             "hidden_states": str(data), "engine": "vllm"})
    found = layout_step.check(context(layout_step.parse(out)))
    [line] = [f for f in found if "layout not judged" in f.evidence[0]]
    assert line.code == "SD004"
    assert line.evidence[0].startswith("layout not judged: slots 0 and 1 of the dump, both read "
                                       "by the configured layout, are equal"), line.evidence[0]
