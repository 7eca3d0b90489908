"""Hidden-state dumps as speculators' datagen (vLLM hs_<i>.safetensors) and SpecForge
(data_<i>.ckpt) write them, with the faults real captures have, through `drafter eval` and
`drafter layout`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h29_dumps", seed=3)


def _invoke(*args: str):
    return runner.invoke(drafter_app, [str(a) for a in args])


def _hs(world: Path, i: int) -> tuple:
    from safetensors.torch import load_file

    tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
    return tensors["token_ids"], tensors["hidden_states"]


def _specforge(world: Path, name: str, change=None) -> Path:
    """world's samples as SpecForge's prepare_hidden_states.py saves them (data_<i>.ckpt:
    input_ids [T], loss_mask [T], aux_hidden_state [1, T, 3H], hidden_state [1, T, H]);
    `change(i, aux [T, 3, H])` edits the aux states in place first."""
    out = world / name
    out.mkdir()
    for i in range(3):
        ids, states = _hs(world, i)
        aux = states[:, :-1].clone()
        if change is not None:
            change(i, aux)
        torch.save({"input_ids": ids, "loss_mask": torch.ones_like(ids),
                    "aux_hidden_state": aux.reshape(1, ids.shape[0], -1),
                    "hidden_state": states[:, -1][None].clone()}, out / f"data_{i}.ckpt")
    return out


def test_a_repeated_slot_in_a_specforge_file_names_its_own_key(world):
    """The refusal of two equal aux slots said "of the hidden_states", a key SpecForge files
    do not have: theirs is aux_hidden_state, where the user looks."""
    def doubled(i, aux):
        aux[:, 1] = aux[:, 0]  # one layer's output captured twice

    data = _specforge(world, "data_specforge_repeat", doubled)
    result = _invoke("eval", "--model", world / "draft", "--data", data,
                     "--target", world / "target")
    assert result.exit_code == 2, result.output
    assert "slots 0 and 1 of the aux_hidden_state are equal" in result.output, result.output
    assert "hidden_states" not in result.output.replace("aux_hidden_state", ""), result.output


def _permuted(world: Path, name: str, order: list[int]) -> Path:
    """world's hs samples with their slots in `order` (no layer_ids metadata, as hs_connectors
    writes them)."""
    from safetensors.torch import save_file

    out = world / name
    if not out.exists():
        out.mkdir()
        for i in range(3):
            ids, states = _hs(world, i)
            save_file({"token_ids": ids, "hidden_states": states[:, order].contiguous()},
                      str(out / f"hs_{i}.safetensors"))
    return out


def test_eval_of_a_permuted_unnamed_dump_names_the_order_and_drafter_layout(world):
    """The aux slots written in another order (the incident: the training fed
    cat([embed, layer3, layer31]), the engine [layer3, layer31, layer59]) read like a weak
    draft, and eval said nothing: now a low score on a dump that does not name its slots tries
    the other orders of its aux slots and names the one the weights fit, and the command that
    ranks every layout."""
    data = _permuted(world, "data_permuted", [2, 1, 0, 3])
    result = _invoke("eval", "--model", world / "draft", "--data", data, "--target",
                     world / "target", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["full_accuracy"][0] < 0.4, out["full_accuracy"]
    hints = [n for n in out["notes"] if "in another order than it was trained on" in n]
    assert len(hints) == 1, out["notes"]
    assert hints[0].startswith("aux slots [2, 1, 0] score ") and "--layout 2,1,0" in hints[0]
    assert f"spec-debug drafter layout --model {world / 'draft'} --data {data}" in hints[0]
    # the order it names is the draft's: evaluated with it, the score is the dump's as trained
    fixed = _invoke("eval", "--model", world / "draft", "--data", data, "--target",
                    world / "target", "--layout", "2,1,0", "--json")
    plain = _invoke("eval", "--model", world / "draft", "--data", world / "data", "--target",
                    world / "target", "--json")
    assert json.loads(fixed.output)["full_accuracy"] == json.loads(plain.output)["full_accuracy"]
    assert not any("another order" in n for n in json.loads(plain.output)["notes"])
    assert not any("another order" in n for n in json.loads(fixed.output)["notes"])
    # and `drafter layout` on it names that order, with no "too few rows" counts beside it
    layout = json.loads(_invoke("layout", "--model", world / "draft", "--data", data,
                                "--target", world / "target", "--json").output)
    assert layout["best"] == [2, 1, 0] and "different layout" in layout["verdict"]
    assert layout["unconfirmed_rows"] is None, layout["unconfirmed_rows"]


def _short(world: Path, name: str, length: int) -> Path:
    """world's hs samples cut to their first `length` positions (short chat turns)."""
    from safetensors.torch import save_file

    out = world / name
    if not out.exists():
        out.mkdir()
        for i in range(3):
            ids, states = _hs(world, i)
            save_file({"token_ids": ids[:length].contiguous(),
                       "hidden_states": states[:length].contiguous()},
                      str(out / f"hs_{i}.safetensors"))
    return out


def test_layout_on_too_few_positions_does_not_say_the_draft_matches(world):
    """Three samples of 3 positions give 6 step-0 rows, where the configured order and its
    swap both scored 1.000: the probe ranked the configured one first by its tie-break and
    said "the draft matches this dump's layout". Now it says the rows are too few to tell."""
    result = _invoke("layout", "--model", world / "draft", "--data", _short(world, "short", 3),
                     "--target", world / "target", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert "matches this dump's layout" not in out["verdict"], out["verdict"]
    assert "too few to tell the layouts apart" in out["verdict"], out["verdict"]
    assert out["unconfirmed_rows"]["rows"] == 6 and out["unconfirmed_rows"]["lead"] < 5
    # all three samples were probed: more --max-samples cannot help, a bigger dump can
    assert out["unconfirmed_rows"]["all_read"] is True
    assert "every sample of the dump was probed" in out["verdict"], out["verdict"]
    fewer = json.loads(_invoke("layout", "--model", world / "draft", "--data", world / "short",
                               "--target", world / "target", "--max-samples", "2",
                               "--json").output)
    assert fewer["unconfirmed_rows"]["all_read"] is False
    assert "probe more samples (--max-samples)" in fewer["verdict"], fewer["verdict"]
    # the full samples (42 rows, 6 more right than the next order) still confirm it
    full = json.loads(_invoke("layout", "--model", world / "draft", "--data", world / "data",
                              "--target", world / "target", "--json").output)
    assert "the draft matches this dump's layout" in full["verdict"], full["verdict"]
    assert full["unconfirmed_rows"] is None


def test_layout_scores_a_long_sample_only_where_the_draft_was_built_for(world):
    """One sample far past the draft's max_position_embeddings (128 here) beside short ones:
    every row weighs alike in the ranking, so its rows past 128, which the draft's config
    says it was not built for, outnumbered the others' and ranked a swapped order first
    ("trained on a different layout") for a draft that fits the configured one. The probe
    now scores such a sample's first max_position_embeddings positions and says so."""
    from safetensors.torch import save_file

    data = world / "data_long"
    data.mkdir()
    for i in range(3):
        ids, states = _hs(world, i)
        if i == 0:  # a long capture: the first sample's states over and over (8400 positions)
            ids, states = ids.repeat(600), states.repeat(600, 1, 1)
        save_file({"token_ids": ids.contiguous(), "hidden_states": states.contiguous()},
                  str(data / f"hs_{i}.safetensors"))
    result = _invoke("layout", "--model", world / "draft", "--data", data,
                     "--target", world / "target", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert "different layout" not in out["verdict"], out["verdict"]
    # [0, 2, 1] gets 2 more of 156 rows right (0.506 vs 0.494): a tie within noise, which read
    # "configured layout slots [0, 1, 2] scores best" (test_hardening62_layout_tie_wording)
    assert out["verdict"].startswith("configured layout slots [0, 1, 2] (step-0 accuracy "), out["verdict"]
    assert "tie within noise" in out["verdict"] and "scores best" not in out["verdict"]
    notes = [n for n in out["notes"] if "longer than the draft's max_position_embeddings 128" in n]
    assert len(notes) == 1 and "the longest has 8400 tokens" in notes[0], out["notes"]
    assert "first 128 positions only" in notes[0]


def test_a_dump_naming_layers_the_target_lacks_is_said_to_come_from_another_model(world):
    """A dump from a deeper model of the same width (layer_ids metadata [3, 14, 25, 28], the
    target has 8 layers) passed every size check: eval said only that the ids differ from the
    config's and scored it as this target's states."""
    from safetensors.torch import save_file

    data = world / "data_deeper"
    data.mkdir()
    for i in range(3):
        ids, states = _hs(world, i)
        save_file({"token_ids": ids, "hidden_states": states}, str(data / f"hs_{i}.safetensors"),
                  metadata={"layer_ids": json.dumps([3, 14, 25, 28])})
    for command in ("eval", "layout"):
        result = _invoke(command, "--model", world / "draft", "--data", data,
                         "--target", world / "target", "--json")
        assert result.exit_code == 0, result.output
        notes = [n for n in json.loads(result.output)["notes"]
                 if "beyond the target's 8 layers" in n]
        assert len(notes) == 1 and notes[0].startswith("the dump names layer(s) [14, 25, 28]"), \
            (command, json.loads(result.output)["notes"])
    # a dump of this target's layers says nothing of the kind
    plain = _invoke("eval", "--model", world / "draft", "--data", world / "data", "--target",
                    world / "target", "--json")
    assert not any("beyond the target" in n for n in json.loads(plain.output)["notes"])


def test_sd401_names_the_slot_order_the_evaluation_found(world):
    """drafter_accuracy's SD401 on a permuted dump said only "far below the claimed accuracy:
    check the export, the data, retrain", while the evaluation's own note had found the cause:
    the dump's aux slots in another order. The finding now carries that note."""
    from spec_debug.diagnose.checks.drafter import check_standalone_accuracy

    data = _permuted(world, "data_permuted", [2, 1, 0, 3])
    out = json.loads(_invoke("eval", "--model", world / "draft", "--data", data, "--target",
                             world / "target", "--json").output)
    [finding] = check_standalone_accuracy(out, 0.69)
    assert finding.code == "SD401"
    assert any(line.startswith("aux slots [2, 1, 0] score 0.690") for line in finding.evidence), \
        finding.evidence
    plain = json.loads(_invoke("eval", "--model", world / "draft", "--data", world / "data",
                               "--target", world / "target", "--json").output)
    assert check_standalone_accuracy(plain, 0.69) == []


def test_engine_semantics_say_use_aux_hidden_state_false_is_not_modelled(world):
    """`eval --semantics sglang` on a draft whose config sets eagle_config.use_aux_hidden_state
    = false reported the reference numbers (0.690 at step 0) as what SGLang gets, with no word,
    while SGLang captures no aux layer and vLLM builds no fc for it (SD204)."""
    import shutil

    draft = world / "draft_no_aux"
    shutil.copytree(world / "draft", draft)
    config = json.loads((draft / "config.json").read_text())
    config["eagle_config"] = {"use_aux_hidden_state": False}
    (draft / "config.json").write_text(json.dumps(config))
    for semantics in ("sglang", "vllm"):
        out = json.loads(_invoke("eval", "--model", draft, "--data", world / "data", "--target",
                                 world / "target", "--semantics", semantics, "--json").output)
        notes = [n for n in out["notes"] if "use_aux_hidden_state = false" in n]
        assert len(notes) == 1 and notes[0].startswith(f"{semantics} reads"), out["notes"]
        assert f"its numbers are not what {semantics} gets" in notes[0]
    reference = json.loads(_invoke("eval", "--model", draft, "--data", world / "data",
                                   "--target", world / "target", "--json").output)
    assert not any("use_aux_hidden_state" in n for n in reference["notes"])
