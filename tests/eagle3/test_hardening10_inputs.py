"""Drafter checkpoints as hand edits and exporters leave them, checked against speculators 0.9.0
itself: the world is saved by the reference library (tests/eagle3/speculators_world.py), its
hidden states captured from the verifier as vLLM captures them, and each test runs the
`spec-debug drafter` command a user would type.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner

from spec_debug.diagnose.checks.draft_config import check_norm_flags
from spec_debug.diagnose.checks.drafter import check_engine_semantics
from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import save_informative_world

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/, draft/ (norm_before_residual false, as speculators' Eagle3SpeculatorConfig
    defaults) and data/ with targets the draft often hits, so a wrong norm shows."""
    return save_informative_world(tmp_path_factory.mktemp("hardening10"), seed=10)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _edit_config(root: Path, **changes) -> dict:
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config.update(changes)
    path.write_text(json.dumps(config, indent=2))
    return config


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _eval(root: Path, *extra: str) -> dict:
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"), "--steps", "2", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _accuracies(report: dict) -> list:
    return report["full_accuracy"] + report["target_acceptance"]


def test_a_hand_edited_false_string_is_false_as_speculators_reads_it(world, tmp_path):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig

    pristine = _eval(world)
    root = _copy(world, tmp_path)
    config = _edit_config(root, norm_before_residual="false")
    # the reference library's own reading: pydantic's lax bool
    assert Eagle3SpeculatorConfig.from_pretrained(str(root / "draft")).norm_before_residual is False
    # before: bool("false") is True, and the reference forward ran the wrong residual
    report = _eval(root)
    assert _accuracies(report) == _accuracies(pristine)
    # vLLM keeps the string on its HF config and tests its truthiness: it runs the flag on
    vllm = _eval(root, "--semantics", "vllm")
    assert vllm["ignored_norm_flags"] == ["norm_before_residual"]
    assert _accuracies(vllm) != _accuracies(pristine)
    assert vllm["string_norm_flags"] == {"norm_before_residual": "false"}
    # the findings name the string as the cause, and the fix is the JSON boolean
    [sd701] = check_norm_flags("vllm", None, config)
    assert sd701.code == "SD701"
    assert "norm_before_residual: checkpoint means False, vllm latest runs True" in sd701.evidence[0]
    assert 'writes "false", a string' in sd701.evidence[0] and "JSON boolean" in sd701.remediation
    [sd403] = check_engine_semantics(report, vllm, "vllm", ignored_flags=vllm["ignored_norm_flags"],
                                     string_flags=vllm["string_norm_flags"])
    assert sd403.code == "SD403" and "JSON boolean" in sd403.remediation
    assert not any("ignores" in line for line in sd403.evidence)
    # SGLang never reads the flag: there it is only ignored, whatever its spelling
    assert check_norm_flags("sglang", "0.5.4", config) == []


def test_a_flag_speculators_refuses_is_one_clear_error(world, tmp_path):
    root = _copy(world, tmp_path)
    _edit_config(root, norm_before_fc="flase")
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 2
    assert "'norm_before_fc' is 'flase', expected true or false" in result.output


def test_json_booleans_are_unchanged(world, tmp_path):
    # the flag true on weights trained with it false: the reference runs what the config says
    pristine = _eval(world)
    root = _copy(world, tmp_path)
    _edit_config(root, norm_before_residual=True)
    assert _accuracies(_eval(root)) != _accuracies(pristine)
    _edit_config(root, norm_before_residual="no")
    assert _accuracies(_eval(root)) == _accuracies(pristine)


# ---------------------------------------------------------------------------------------------
# A speculators config without draft_vocab_size: speculators reads its field default, 32000
# (models/eagle3/config.py), while vLLM sizes lm_head from vocab_size (llama_eagle3.py).
# ---------------------------------------------------------------------------------------------
BIG_V = 33000  # a target vocab above speculators' default draft vocab


@pytest.fixture(scope="module")
def default_vocab_world(tmp_path_factory) -> Path:
    """A verifier with 33000 tokens and a speculators draft over its 32000 most used ones, saved
    by the reference library, with two samples captured as vLLM captures them."""
    from safetensors.torch import save_file
    from transformers import LlamaConfig, LlamaForCausalLM

    from tests.eagle3.speculators_world import AUX, NL, save_perturbed_draft, vllm_style_states

    root = tmp_path_factory.mktemp("default_vocab")
    kw = {"vocab_size": BIG_V, "hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    torch.manual_seed(0)
    verifier = LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **kw)).eval()
    verifier.save_pretrained(root / "target")
    save_perturbed_draft(root / "draft", root / "target", LlamaConfig(num_hidden_layers=1, **kw),
                         aux=AUX, draft_vocab=32000, vocab=BIG_V, seed_name="default_vocab")
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(10)
    for i in range(2):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, BIG_V, (12,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def test_a_speculators_config_without_draft_vocab_size_runs_as_speculators_reads_it(
        default_vocab_world, tmp_path):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig

    written = _eval(default_vocab_world)
    root = _copy(default_vocab_world, tmp_path)
    config = json.loads((root / "draft" / "config.json").read_text())
    assert config.pop("draft_vocab_size") == 32000
    (root / "draft" / "config.json").write_text(json.dumps(config))
    assert Eagle3SpeculatorConfig.from_pretrained(str(root / "draft")).draft_vocab_size == 32000
    # before: "lm_head.weight has 32000 rows but the config has no draft_vocab_size", exit 2
    report = _eval(root)
    assert _accuracies(report) == _accuracies(written)
    assert report["draft"]["draft_vocab_size"] == 32000
    # vLLM still sizes lm_head from vocab_size: the vocab check says so
    result = _run("vocab", "--model", str(root / "draft"), "--target", str(root / "target"))
    assert result.exit_code == 1, result.output
    [issue] = [i for c in json.loads(result.output)["checks"] for i in c["issues"]]
    assert issue["code"] == "SD303" and "no draft_vocab_size" in issue["message"]
    assert f"vocab size {BIG_V}" in issue["message"] and "32000 rows" in issue["message"]


# ---------------------------------------------------------------------------------------------
# A draft that ships no lm_head and sets "draft_vocab_size": null, so SGLang loads the target's
# head into it (llama_eagle3.py load_lm_head_from_target): nvidia/gpt-oss-120b-Eagle3, whose
# support PR (sgl-project/sglang #9739) says "the draft model doesn't has a lm-head and wants to
# use the lm-head of target model ... the draft_vocab_size is set to null".
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def full_vocab_world(tmp_path_factory) -> Path:
    """A speculators draft over the verifier's whole vocab (its lm_head is the verifier's, as
    load_verifier_weights copies it), and one sample captured as vLLM captures it."""
    from safetensors.torch import load_file, save_file
    from transformers import LlamaConfig, LlamaForCausalLM

    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    from spec_debug.eagle3.data import read_sample
    from tests.eagle3.speculators_world import (
        AUX, NL, V, make_targets_informative, save_perturbed_draft, vllm_style_states,
    )

    root = tmp_path_factory.mktemp("full_vocab")
    kw = {"vocab_size": V, "hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    torch.manual_seed(0)
    verifier = LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **kw)).eval()
    verifier.save_pretrained(root / "target")
    save_perturbed_draft(root / "draft", root / "target", LlamaConfig(num_hidden_layers=1, **kw),
                         aux=AUX, draft_vocab=V, vocab=V, seed_name="full_vocab")
    assert torch.equal(load_file(root / "draft" / "model.safetensors")["lm_head.weight"],
                       verifier.lm_head.weight.detach())
    (root / "data").mkdir()
    path = root / "data" / "hs_0.safetensors"
    ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (16,), generator=torch.Generator().manual_seed(3)))
    save_file({"token_ids": ids, "hidden_states": hidden}, str(path))
    # targets the draft often hits (speculators_world.make_targets_informative), so a wrong head
    # shows as another accuracy
    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    reference = Eagle3DraftModel.from_pretrained(str(root / "draft"), config=config).eval()
    sample = read_sample(path)
    sample.slots = sample.slots.float()
    sample.final = sample.slots[:, -1]
    make_targets_informative(reference, [sample])
    save_file({"token_ids": sample.token_ids, "hidden_states": sample.slots.to(torch.bfloat16).contiguous()},
              str(path))
    return root


def _headless_eagle_format(world: Path, out: Path) -> Path:
    """The draft as SpecForge names it (midlayer.*, a flat llama config), without lm_head and
    embed_tokens, and with "draft_vocab_size": null."""
    from safetensors.torch import load_file, save_file

    out.mkdir()
    state = load_file(world / "draft" / "model.safetensors")
    save_file({name.replace("layers.0.", "midlayer."): tensor for name, tensor in state.items()
               if name not in ("lm_head.weight", "embed_tokens.weight")}, str(out / "model.safetensors"))
    speculators = json.loads((world / "draft" / "config.json").read_text())
    flat = dict(speculators["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=None, eagle_config={"eagle_aux_hidden_state_layer_ids": [1, 3, 4]})
    (out / "config.json").write_text(json.dumps(flat))
    return out


def test_a_draft_without_lm_head_and_draft_vocab_size_uses_the_targets_head(full_vocab_world, tmp_path):
    headless = _headless_eagle_format(full_vocab_world, tmp_path / "headless")
    # before: "missing tensors: lm_head.weight", exit 2
    result = _run("eval", "--model", str(headless), "--data", str(full_vocab_world / "data"),
                  "--target", str(full_vocab_world / "target"), "--steps", "2")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert any("the head is the target's lm_head" in note for note in report["notes"])
    # the same numbers as the speculators checkpoint whose head is the verifier's
    assert _accuracies(report) == _accuracies(_eval(full_vocab_world))
    assert report["full_accuracy"][0] > 0.2  # the informative targets are hit
    # without a target there is no head: one clear error that names --target
    result = _run("eval", "--model", str(headless), "--data", str(full_vocab_world / "data"))
    assert result.exit_code == 2
    assert "no lm_head.weight and no draft_vocab_size" in result.output and "--target" in result.output


# ---------------------------------------------------------------------------------------------
# A SpecForge offline dump (scripts/prepare_hidden_states.py: `aux_hidden_state` [1, T, A*H] and
# the final state apart in `hidden_state` [1, T, H]) captured with fewer aux layers than the
# draft's fc takes.
# ---------------------------------------------------------------------------------------------
def _specforge_dump(world: Path, out: Path, aux_slots: slice) -> Path:
    from spec_debug.eagle3.data import read_sample

    out.mkdir()
    for i, path in enumerate(sorted((world / "data").glob("hs_*.safetensors"))):
        sample = read_sample(path)
        T = sample.length
        aux = sample.slots[:, :-1][:, aux_slots]  # [T, A, H]
        torch.save({"input_ids": sample.token_ids, "loss_mask": torch.ones(T, dtype=torch.long),
                    "aux_hidden_state": aux.reshape(1, T, -1), "hidden_state": sample.final.reshape(1, T, -1)},
                   out / f"data_{i}.ckpt")
    return out


def test_a_specforge_dump_with_too_few_aux_states_is_refused(world, tmp_path):
    three = _specforge_dump(world, tmp_path / "three", slice(0, 3))
    result = _run("eval", "--model", str(world / "draft"), "--data", str(three), "--target", str(world / "target"))
    assert result.exit_code == 0, result.output
    two = _specforge_dump(world, tmp_path / "two", slice(1, 3))
    for command in ("eval", "layout"):
        # before: the final state was read as the third aux state, and the targets were the
        # data's next tokens ("no final-layer slot ... a speculators dump always ends with ...")
        result = _run(command, "--model", str(world / "draft"), "--data", str(two), "--target", str(world / "target"))
        assert result.exit_code == 2, result.output
        assert "aux_hidden_state holds 2 state(s) of 32 per token, the draft's fc takes 3" in result.output


def test_a_hidden_state_dump_passed_as_a_checkpoint_is_named_as_one(world, tmp_path):
    specforge = _specforge_dump(world, tmp_path / "specforge", slice(0, 3))
    data, draft, target = str(world / "data"), str(world / "draft"), str(world / "target")
    for args, dump, role in (
            # before: "config.json: not found; the draft's weights (hs_0.safetensors) are there
            # without it, as a training run's save folder leaves them"
            (("eval", "--model", data, "--data", data, "--target", target), "hs_0.safetensors", "--model"),
            (("eval", "--model", str(specforge), "--data", data), "data_0.ckpt", "--model"),
            # before: "config.json: not found"
            (("eval", "--model", draft, "--data", data, "--target", data), "hs_0.safetensors", "--target"),
            (("vocab", "--model", draft, "--target", data), "hs_0.safetensors", "--target")):
        result = _run(*args)
        assert result.exit_code == 2, result.output
        assert f"a hidden-state dump ({dump}), not a checkpoint" in result.output
        assert f"pass this directory as --data and the {'draft' if role == '--model' else 'target'} " \
               f"checkpoint as {role}" in result.output


def test_the_layout_the_layout_command_prints_is_accepted_back(world, tmp_path):
    # a speculators dump with one slot too many in front (4 aux slots + the final one): the
    # layout probe finds slots the draft scores best on and prints them as a list, e.g. [0, 2, 3]
    from safetensors.torch import load_file, save_file

    root = _copy(world, tmp_path)
    for path in (root / "data").glob("hs_*.safetensors"):
        tensors = load_file(path)
        states = tensors["hidden_states"]
        tensors["hidden_states"] = torch.cat([states[:, :1], states], dim=1).contiguous()
        save_file(tensors, str(path))
    result = _run("layout", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 0, result.output
    best = json.loads(result.output)["best"]
    assert f"slots {best} scores" in json.loads(result.output)["verdict"]
    by_commas = _eval(root, "--layout", ",".join(map(str, best)))
    # before: "[0, 2, 3]" was "expected comma-separated slot indices", and "0 2 3" the slot 23
    for written in (str(best), " ".join(map(str, best))):
        report = _eval(root, "--layout", written)
        assert report["layout"] == best and _accuracies(report) == _accuracies(by_commas)


def test_devices_and_dtypes_as_torch_and_the_engines_name_them(world):
    pristine = _eval(world)
    # "half" is torch.half and the engines' --dtype half (before: "unknown dtype 'half'")
    assert _accuracies(_eval(world, "--dtype", "half")) == _accuracies(_eval(world, "--dtype", "fp16"))
    assert _accuracies(_eval(world, "--dtype", "float")) == _accuracies(pristine)
    # a device torch knows by name but this build or machine has not: one line (before: an
    # "unexpected NotImplementedError" from torch's dispatcher, or a meta tensor's .item())
    import torch as _torch

    if _torch.backends.mps.is_available():
        pytest.skip("this machine has an MPS device")
    for device in ("mps", "meta"):
        result = _run("eval", "--model", str(world / "draft"), "--data", str(world / "data"),
                      "--target", str(world / "target"), "--device", device)
        assert result.exit_code == 2, result.output
        assert f"--device {device}: torch" in result.output and "cannot use" in result.output


def test_a_qwen3_decoder_config_over_llama_weights_says_which_is_which(world, tmp_path):
    # speculators' Eagle3SpeculatorConfig defaults transformer_layer_config to a Qwen3Config
    # (models/eagle3/config.py): a config written by hand from it names qwen3 over llama weights
    root = _copy(world, tmp_path)
    config = json.loads((root / "draft" / "config.json").read_text())
    config["transformer_layer_config"]["model_type"] = "qwen3"
    (root / "draft" / "config.json").write_text(json.dumps(config))
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--target", str(root / "target"))
    assert result.exit_code == 2
    assert "missing tensors: layers.0.self_attn.q_norm.weight" in result.output
    # before: no hint; the missing tensors are the ones only a Qwen3 decoder has
    assert "model_type is 'qwen3' but the weights are a Llama decoder's" in result.output
