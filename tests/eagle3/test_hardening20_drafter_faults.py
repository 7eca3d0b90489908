"""The drafter on a speculators 0.9.0 world (tests/eagle3/speculators_world.py) damaged the
ways the fault matrix (test_faults.py) does not: a hand-set target_hidden_size, files written
with torch.save under safetensors names (or the hs layout under a .pt name, or a draft saved
as model.pt), a capture slot that was never written, and aux layer ids listed twice or out of
layer order. Each must end in one clear line naming the file or key and the fix, or in a note
beside numbers that equal the good samples' own."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states  # noqa: E402

SAMPLES = 3
runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h20_drafter")
    verifier = save_verifier_and_draft(root, draft_flags={"norm_before_residual": True})
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(20)
    for i in range(SAMPLES):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (14 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


@pytest.fixture
def world(base, tmp_path) -> Path:
    root = tmp_path / "case"
    shutil.copytree(base, root)
    return root


def _run(command: str, root: Path, data: Path | None = None):
    model, target = str(root / "draft"), str(root / "target")
    argv = {"eval": ["eval", "--model", model, "--data", str(data or root / "data"), "--target",
                     target, "--steps", "2", "--json"],
            "layout": ["layout", "--model", model, "--data", str(data or root / "data"),
                       "--target", target, "--json"],
            "vocab": ["vocab", "--model", model, "--target", target, "--json"]}[command]
    return runner.invoke(drafter_app, argv)


def _one_line_error(result) -> tuple[str, str]:
    """(error line, hint line or '') of a refused input: exit 2, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert all(line.startswith(("error: ", "  hint: ")) for line in lines), result.output
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    hints = [line for line in lines if line.startswith("  hint: ")]
    return errors[0], (hints[0] if hints else "")


def _edit_config(root: Path, **values) -> None:
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config.update(values)
    path.write_text(json.dumps(config))


def _tensors(path: Path) -> dict:
    # cloned: the file is written over next, and a mapped tensor would lose its pages (SIGBUS)
    return {name: t.clone() for name, t in load_file(path).items()}


# ------------------------------------------------------------------------------------------
# config vs weights
# ------------------------------------------------------------------------------------------
def test_a_hand_set_target_hidden_size_is_named_not_the_aux_ids(world):
    """target_hidden_size copied from another target (64 for a draft trained on 32-wide
    states). Before: "fc.weight takes 96 inputs, but eagle_aux_hidden_state_layer_ids is
    [2, 4, 5] (3 x 64 = 192)", blaming the aux ids, which are right."""
    _edit_config(world, target_hidden_size=64)
    for command in ("eval", "layout"):
        error, _ = _one_line_error(_run(command, world))
        assert ("fc.weight takes 96 inputs = 3 aux states of 32, but the config's "
                "target_hidden_size is 64 (3 x 64 = 192)") in error, error
        assert "set target_hidden_size to 32" in error, error
        assert "eagle_aux_hidden_state_layer_ids" not in error, error


def test_a_draft_own_width_set_wrong_is_named(world):
    """target_hidden_size 16 on a draft whose fc takes 3 x its own 32: 96 is 6 x 16 as well,
    but fc is num_aux x the draft's own width, so the width is the wrong key."""
    _edit_config(world, target_hidden_size=16)
    error, _ = _one_line_error(_run("eval", world))
    assert "target_hidden_size is 16" in error and "set target_hidden_size to 32 (or null" \
        in error, error


@pytest.mark.parametrize("stated", [None, 32])
def test_aux_ids_fewer_than_fc_still_blame_the_ids(world, stated):
    """The control: a width that fits (written or not) and an aux count that does not still
    names the ids, though 96 is also 2 x 48."""
    _edit_config(world, eagle_aux_hidden_state_layer_ids=[2, 4], target_hidden_size=stated)
    error, _ = _one_line_error(_run("eval", world))
    assert "eagle_aux_hidden_state_layer_ids is [2, 4]" in error, error
    assert "target_hidden_size is" not in error, error


def test_aux_ids_listed_twice_or_out_of_layer_order_are_noted(world):
    """vLLM and SGLang append a state per layer whose index is in the id set, walking the
    layers in order: [2, 2, 5] is served 2 states, [5, 2, 4] is served [2, 4, 5]. Before:
    both were scored with no word."""
    clean = json.loads(_run("eval", world).output)
    assert clean["notes"] == []
    _edit_config(world, eagle_aux_hidden_state_layer_ids=[2, 2, 5])
    out = json.loads(_run("eval", world).output)
    assert any("[2, 2, 5] names layer(s) [2] more than once" in n and "served 2 states for its 3"
               in n for n in out["notes"]), out["notes"]
    _edit_config(world, eagle_aux_hidden_state_layer_ids=[5, 2, 4])
    out = json.loads(_run("eval", world).output)
    assert any("[5, 2, 4] is not ascending" in n and "feed fc layers [2, 4, 5]" in n
               for n in out["notes"]), out["notes"]
    assert out["full_accuracy"] == clean["full_accuracy"]  # a note, not another forward


# ------------------------------------------------------------------------------------------
# torch.save where safetensors was expected, and the other way round
# ------------------------------------------------------------------------------------------
def test_a_draft_written_with_torch_save_under_the_safetensors_name(world):
    """`torch.save(model.state_dict(), "model.safetensors")`. Before: "not a safetensors
    file, or truncated (header length 578712552184433488, ...)", which sends people to copy
    the file again."""
    path = world / "draft" / "model.safetensors"
    torch.save(_tensors(path), path)
    for command in ("vocab", "eval"):
        error, hint = _one_line_error(_run(command, world))
        assert f"{path}: a torch.save file (zip archive), not safetensors" in error, error
        assert "header length" not in error and "safetensors.torch.save_file" in hint, hint


def test_a_legacy_pickle_under_the_safetensors_name(world):
    path = world / "draft" / "model.safetensors"
    torch.save(_tensors(path), path, _use_new_zipfile_serialization=False)
    error, _ = _one_line_error(_run("vocab", world))
    assert "a torch.save file (pickle), not safetensors" in error, error


def test_one_sample_written_with_torch_save_is_named_and_the_rest_scored(world, tmp_path):
    bad = world / "data" / "hs_1.safetensors"
    torch.save(_tensors(bad), bad)
    out = json.loads(_run("eval", world).output)
    assert out["samples"] == SAMPLES - 1
    assert "hs_1.safetensors: a torch.save file (zip archive)" in out["skipped"][0]["reason"]
    alone = tmp_path / "alone"
    alone.mkdir()
    for i in (0, 2):
        shutil.copy(world / "data" / f"hs_{i}.safetensors", alone)
    assert out["counts"] == json.loads(_run("eval", world, alone).output)["counts"]


def test_hs_samples_saved_as_pt_say_so(world):
    """speculators' hs layout (token_ids, hidden_states [T, slots, H]) passed through
    torch.save to hs_<i>.pt. Before: "missing ['aux_hidden_state', 'input_ids'], found
    ['hidden_states', 'token_ids']", another writer's keys and no fix."""
    for path in sorted((world / "data").iterdir()):
        state = _tensors(path)
        path.unlink()
        torch.save(state, path.with_suffix(".pt"))
    for command in ("eval", "layout"):
        error, hint = _one_line_error(_run(command, world))
        assert "hs_0.pt: speculators' hs sample layout (token_ids, hidden_states) written with " \
               "torch.save" in error, error
        assert "aux_hidden_state" not in error
        assert "save_file" in hint and "hs_<i>.safetensors" in hint, hint


def test_a_draft_saved_as_model_pt_is_named(world):
    """Only `model.pt` in the draft folder. Before: "no model.safetensors, *.safetensors or
    pytorch_model.bin", as if the folder were empty."""
    path = world / "draft" / "model.safetensors"
    state = _tensors(path)
    path.unlink()
    torch.save(state, world / "draft" / "model.pt")
    # hardening 69: vLLM and SGLang serve that model.pt, so it is read, and a note says so
    # (was refused: "only torch.save file(s) under other names: model.pt")
    for command in ("vocab", "eval"):
        result = _run(command, world)
        assert result.exit_code == 0, result.output
        notes = [n for n in json.loads(result.output)["notes"] if "weights were read from" in n]
        assert len(notes) == 1 and "model.pt, the file vLLM and SGLang serve" in notes[0], notes
        assert "save it as model.safetensors" in notes[0], notes


# ------------------------------------------------------------------------------------------
# a capture that never wrote
# ------------------------------------------------------------------------------------------
def _zero_slot(path: Path, slot: int) -> None:
    state = _tensors(path)
    state["hidden_states"][:, slot] = 0
    save_file(state, str(path))


def test_a_slot_the_capture_never_wrote_is_named_and_the_rest_scored(world, tmp_path):
    """One file whose second aux slot is zeros everywhere (a hook that never fired). Before:
    scored, pulling the accuracy down with no word."""
    _zero_slot(world / "data" / "hs_2.safetensors", 1)
    out = json.loads(_run("eval", world).output)
    assert out["samples"] == SAMPLES - 1
    assert ("hs_2.safetensors: slot 1 of the hidden_states is all zeros at all 16 positions: "
            "the capture wrote nothing there") in out["skipped"][0]["reason"]
    alone = tmp_path / "alone"
    alone.mkdir()
    for i in (0, 1):
        shutil.copy(world / "data" / f"hs_{i}.safetensors", alone)
    assert out["counts"] == json.loads(_run("eval", world, alone).output)["counts"]


def test_a_dump_of_zeros_is_refused_not_scored_zero(world):
    """Every file all zeros. Before: full accuracy [0.0, 0.0] and no note."""
    for path in sorted((world / "data").iterdir()):
        state = _tensors(path)
        state["hidden_states"] = torch.zeros_like(state["hidden_states"])
        save_file(state, str(path))
    error, _ = _one_line_error(_run("eval", world))
    assert re.search(r"no usable samples .*slot 0 of the hidden_states is all zeros", error), error


def test_a_final_slot_never_written_is_named(world):
    for path in sorted((world / "data").iterdir()):
        _zero_slot(path, 3)
    error, _ = _one_line_error(_run("eval", world))
    assert "the final state is all zeros" in error, error


def test_an_index_that_puts_a_tensor_in_a_shard_lacking_it_is_named(world):
    """Two shards from two saves: the index puts fc.weight in shard 1, whose copy lacks it.
    Before: "missing tensors: fc.weight", with every shard the index names present."""
    path = world / "draft" / "model.safetensors"
    state = _tensors(path)
    path.unlink()
    names = sorted(state)
    first, second = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
    save_file({n: state[n] for n in names[:8] if n != "fc.weight"}, str(world / "draft" / first))
    save_file({n: state[n] for n in names[8:]}, str(world / "draft" / second))
    weight_map = {n: (first if i < 8 else second) for i, n in enumerate(names)}
    assert weight_map["fc.weight"] == first
    (world / "draft" / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))
    error, _ = _one_line_error(_run("eval", world))
    assert ("missing tensors: fc.weight; model.safetensors.index.json puts fc.weight in "
            f"{first}, which is here but does not hold it") in error, error


# ------------------------------------------------------------------------------------------
# --vocab-mapping from the training checkpoint itself
# ------------------------------------------------------------------------------------------
def _export_without_maps(root: Path) -> None:
    path = root / "draft" / "model.safetensors"
    state = _tensors(path)
    state.pop("d2t"), state.pop("t2d")
    save_file(state, str(path))


@pytest.mark.parametrize("given", ["file", "dir", "save_file_named_pt", "wrapped"])
def test_the_training_checkpoint_holding_the_maps_is_a_vocab_mapping(base, world, given):
    """An export that kept only the `*.weight` tensors, scored with the maps of the checkpoint
    it came from (still holding d2t/t2d, as speculators and SpecForge save them). Before: the
    file was read with torch.load ("Weights only load failed ... pickle protocol 0") or the
    directory had "no vocab_mapping.pt"; now its d2t/t2d are read and the scores equal the
    checkpoint's own."""
    _export_without_maps(world)
    maps = load_file(base / "draft" / "model.safetensors")
    training = world / "training"
    training.mkdir()
    if given in ("file", "dir"):
        shutil.copy(base / "draft" / "model.safetensors", training)
        shutil.copy(base / "draft" / "config.json", training)
        path = training / "model.safetensors" if given == "file" else training
    elif given == "save_file_named_pt":
        path = training / "vocab_mapping.pt"
        save_file({"d2t": maps["d2t"], "t2d": maps["t2d"]}, str(path))
    else:
        path = training / "maps.safetensors"
        save_file({"draft_model.d2t": maps["d2t"], "draft_model.t2d": maps["t2d"],
                   "draft_model.fc.weight": maps["fc.weight"]}, str(path))
    result = runner.invoke(drafter_app, _eval_argv(world) + ["--vocab-mapping", str(path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert any("the checkpoint has no d2t: scored with the maps of" in n for n in out["notes"])
    own = json.loads(runner.invoke(drafter_app, _eval_argv(base)).output)
    assert out["full_accuracy"] == own["full_accuracy"]
    assert out["target_acceptance"] == own["target_acceptance"]


def test_a_checkpoint_without_maps_given_as_vocab_mapping_is_refused_clearly(world):
    _export_without_maps(world)
    path = world / "draft" / "model.safetensors"
    error, _ = _one_line_error(runner.invoke(
        drafter_app, _eval_argv(world) + ["--vocab-mapping", str(path)]))
    assert f"{path}: a safetensors file without d2t" in error and "not a vocab mapping" in error


def _eval_argv(root: Path) -> list[str]:
    return ["eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--target",
            str(root / "target"), "--steps", "2", "--json"]


@pytest.mark.parametrize("layer_name", ["layers.0.", "midlayer."])
def test_a_draft_stored_under_sglangs_model_names_says_vllm_will_not_load_it(world, layer_name):
    """`model.fc.weight`, `model.midlayer.*` (SGLang's own parameter names). SGLang loads a
    name as is or with `model.` added; vLLM adds `model.` to all but lm_head and d2t and
    fails. Before: read silently, as if every engine would serve it."""
    path = world / "draft" / "model.safetensors"
    state = _tensors(path)
    save_file({(name if name in ("d2t", "t2d", "lm_head.weight") else
                "model." + name.replace("layers.0.", layer_name)): t for name, t in state.items()},
              str(path))
    out = json.loads(_run("eval", world).output)
    assert any("stored as model.* (model." in n and "vLLM adds 'model.' to each name itself "
               "and fails on model.model.*" in n for n in out["notes"]), out["notes"]
    clean = world.parent / "clean"
    shutil.copytree(world, clean)
    save_file(state, str(clean / "draft" / "model.safetensors"))
    own = json.loads(_run("eval", clean).output)
    assert own["notes"] == [] and own["full_accuracy"] == out["full_accuracy"]


# ------------------------------------------------------------------------------------------
# a config without aux ids over a dump that names other layers
# ------------------------------------------------------------------------------------------
def _named_dump(root: Path, layer_ids: list[int]) -> Path:
    """The hs samples again, holding the verifier's states at `layer_ids` (input-to-layer; the
    last, the final layer, before the norm) and naming them in the `layer_ids` metadata."""
    from transformers import LlamaForCausalLM

    from spec_debug.eagle3.data import write_hs_sample
    from tests.eagle3.speculators_world import NL

    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    folder = root / "named"
    folder.mkdir()
    for path in sorted((root / "data").iterdir()):
        ids = load_file(path)["token_ids"]
        final = []
        hook = verifier.model.norm.register_forward_pre_hook(lambda _m, a: final.append(a[0]))
        with torch.no_grad():
            hidden = verifier(ids[None], output_hidden_states=True).hidden_states
        hook.remove()
        states = [final[0][0] if j == NL else hidden[j][0] for j in layer_ids]
        write_hs_sample(folder / path.name, ids, torch.stack(states, dim=1).to(torch.bfloat16),
                        layer_ids=layer_ids)
    return folder


def test_a_config_without_aux_ids_over_a_dump_of_other_layers_says_to_write_them(world):
    """SpecForge-style ids [1, 3, 4] (input-to numbering here) in the dump's metadata, and a
    draft config that names no eagle_aux_hidden_state_layer_ids, so engines feed their default
    [2, 4, 5]. Before: "do not contain the configured ids [2, 4, 5]" (none are configured) and
    "a capture off by 1", sending people to capture again instead of writing the ids."""
    config = json.loads((world / "draft" / "config.json").read_text())
    config.pop("eagle_aux_hidden_state_layer_ids")
    (world / "draft" / "config.json").write_text(json.dumps(config))
    dump = _named_dump(world, [1, 3, 4, 8])
    out = json.loads(_run("eval", world, dump).output)
    notes = " ".join(out["notes"])
    assert "do not contain the default ids [2, 4, 5] (the draft's config names no " \
           "eagle_aux_hidden_state_layer_ids)" in notes, notes
    assert "engines feed it their default layers [2, 4, 5]; this dump holds [1, 3, 4]" in notes
    assert "off by 1" not in notes and "configured ids" not in notes
    verdict = json.loads(_run("layout", world, dump).output)["verdict"]
    assert verdict.startswith("the dump holds layers [1, 3, 4, 8], not the default layers "
                              "[2, 4, 5] that engines feed a draft whose config names no "
                              "eagle_aux_hidden_state_layer_ids"), verdict
    assert "off by 1" not in verdict


def test_a_config_naming_its_ids_over_a_dump_one_layer_off_is_still_a_capture_off_by_one(world):
    """The control: with the ids written, the same dump is the off-by-one capture."""
    dump = _named_dump(world, [1, 3, 4, 8])
    notes = " ".join(json.loads(_run("eval", world, dump).output)["notes"])
    assert "do not contain the configured ids [2, 4, 5]" in notes and "off by 1" in notes


def test_a_d2t_of_another_length_is_not_called_a_missing_one(world):
    """d2t cut to 100 of the 128 lm_head rows. vLLM's default_weight_loader asserts equal
    sizes, so the draft does not load. Before: the note said "no d2t ... what vLLM does with
    its zero-initialised map", as if vLLM served it."""
    path = world / "draft" / "model.safetensors"
    state = _tensors(path)
    state["d2t"] = state["d2t"][:100].clone()
    save_file(state, str(path))
    out = json.loads(_run("eval", world).output)
    notes = " ".join(out["notes"])
    assert "d2t has shape [100], not [128] (one offset per lm_head row): vLLM refuses to load " \
           "it" in notes, notes
    assert "zero-initialised" not in notes
    assert {i["code"] for i in out["vocab_issues"]} == {"SD302"}


def test_hs_states_concatenated_into_one_vector_say_how_to_save_them(world):
    """hidden_states [T, 3 x H]: the three aux states concatenated, SpecForge-style, into an
    hs file. Before: the error named the shape and no way to write it."""
    for path in sorted((world / "data").iterdir()):
        state = _tensors(path)
        hidden = state["hidden_states"]
        state["hidden_states"] = hidden[:, :3].reshape(hidden.shape[0], -1).contiguous()
        save_file(state, str(path))
    error, hint = _one_line_error(_run("eval", world))
    assert "hidden_states has shape [14, 96] (flattened slots?)" in error, error
    assert "torch.stack([layer states..., final layer state], dim=1)" in hint, hint


def test_a_draft_config_vocab_size_off_its_embedding_is_a_vocab_issue(world):
    """transformer_layer_config.vocab_size 300 over a 256-row embedding that fits the target.
    Before: `drafter vocab` said ok (the embedding was compared with the target only) while
    eval refused the config."""
    path = world / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["vocab_size"] = 300
    path.write_text(json.dumps(config))
    result = _run("vocab", world)
    assert result.exit_code == 1, result.output
    issues = [i for c in json.loads(result.output)["checks"] for i in c["issues"]]
    assert [(i["kind"], i["code"]) for i in issues] == [("embed_rows", "SD303")]
    assert "the draft config's vocab_size is 300 but embed_tokens has 256 rows" in \
        issues[0]["message"] and "set vocab_size to 256" in issues[0]["message"]


def test_an_empty_specforge_sample_is_called_empty_not_truncated(world):
    """A 0-byte data_1.ckpt among SpecForge samples (a dump killed before it wrote). Before:
    "cannot read: truncated (0 bytes)", unlike the "empty file" an hs file gets."""
    for i, path in enumerate(sorted((world / "data").iterdir())):
        state = _tensors(path)
        hidden = state["hidden_states"].float()
        T = hidden.shape[0]
        path.unlink()
        torch.save({"input_ids": state["token_ids"], "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": hidden[:, :3].reshape(1, T, -1).clone(),
                    "hidden_state": hidden[:, 3][None].clone()}, world / "data" / f"data_{i}.ckpt")
    (world / "data" / "data_1.ckpt").write_bytes(b"")
    out = json.loads(_run("eval", world).output)
    assert out["samples"] == SAMPLES - 1
    assert out["skipped"][0]["reason"].endswith("data_1.ckpt: empty file (0 bytes); copy it again")
