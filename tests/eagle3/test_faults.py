"""The drafter on real checkpoints and hidden states with real faults.

speculators 0.9.0 itself saves a tiny Eagle3 draft (norm_before_residual and norm_before_fc
on, as its training recipe sets them; vLLM-style bf16 hidden-state files taken from a real HF
Llama verifier), once per module. Each case copies that world and damages it the way real ones
get damaged: a cut download, a hand-edited config, a lost shard, absolute ids in d2t, one bad
file among good samples. For every case each command must end in one of three ways:

- a clear one-line error, exit 2, no traceback (the input cannot be used);
- the right coded issue (SD3xx vocab maps, SD7xx norm flags) with the evaluation still run;
- the evaluation of the good samples, with the bad files counted and named.

The same holds for the probe entry point (`python -m spec_debug.eagle3`, one JSON document)
and the host probes the playbooks run (spec_debug/probes) feeding the diagnose checks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.__main__ import main as probe_main  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import DV, H, V, save_verifier_and_draft, vllm_style_states  # noqa: E402

SAMPLES = 4
runner = CliRunner()


# ------------------------------------------------------------------------------------------
# The world speculators saves
# ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("faults")
    verifier = save_verifier_and_draft(root, draft_flags={"norm_before_residual": True, "norm_before_fc": True})
    # hs_{i}.safetensors as vLLM extraction writes them: token_ids [T], hidden_states
    # [T, aux + 1, H] in bf16, the last slot the final layer's output before the final norm
    (root / "data").mkdir()
    for i in range(SAMPLES):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (16 + i,)))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    assert (root / "draft" / "model.safetensors").exists()
    assert "input_norm.weight" in load_file(root / "draft" / "model.safetensors")
    return root


# ------------------------------------------------------------------------------------------
# Ways to damage it
# ------------------------------------------------------------------------------------------
def edit_tensors(path: Path, change: Callable[[dict], None]) -> None:
    state = load_file(path)
    change(state)
    save_file(state, str(path), metadata={"format": "pt"})


def draft_tensors(change):
    return lambda root: edit_tensors(root / "draft" / "model.safetensors", change)


def drop(*names):
    return draft_tensors(lambda s: [s.pop(n) for n in names])


def edit_json(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def draft_config(change):
    return lambda root: edit_json(root / "draft" / "config.json", change)


def decoder_config(**values):
    return draft_config(lambda c: c["transformer_layer_config"].update(values))


def every_sample(change):
    def apply(root):
        for i in range(SAMPLES):
            edit_tensors(root / "data" / f"hs_{i}.safetensors", change)
    return apply


def one_sample(i, change):
    return lambda root: edit_tensors(root / "data" / f"hs_{i}.safetensors", change)


def cut(path_in_root: str, keep: float = 0.5):
    def apply(root):
        path = root / path_in_root
        path.write_bytes(path.read_bytes()[:int(path.stat().st_size * keep)])
    return apply


def write(path_in_root: str, content: bytes):
    return lambda root: (root / path_in_root).write_bytes(content)


def sharded_with_missing_shard(root):
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    path.unlink()
    names = sorted(state)
    first, second = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
    save_file({n: state[n] for n in names[:8]}, str(root / "draft" / first))
    weight_map = {n: (first if i < 8 else second) for i, n in enumerate(names)}
    (root / "draft" / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))


def set_item(key, value):
    def change(state):
        state[key] = value(state) if callable(value) else value
    return change


def poison(name, value):
    def change(state):
        state[name] = state[name].clone()
        state[name].view(-1)[3] = value
    return change


def target_without_embedding(root):
    drop("embed_tokens.weight")(root)  # the draft relies on the target's embedding
    edit_tensors(root / "target" / "model.safetensors",
                 lambda s: s.pop("model.embed_tokens.weight"))


def target_of_another_width(root):
    drop("embed_tokens.weight")(root)
    edit_tensors(root / "target" / "model.safetensors",
                 set_item("model.embed_tokens.weight", torch.randn(V, 48)))


def target_config_only(root):
    (root / "target" / "model.safetensors").unlink()


def target_shards(keep_head: bool, keep_embedding: bool):
    """The target resharded as HF does (index + shards), with some shards not copied."""
    def apply(root):
        path = root / "target" / "model.safetensors"
        state = load_file(path)
        path.unlink()
        groups = {"embed": ["model.embed_tokens.weight"],
                  "head": ["model.norm.weight", "lm_head.weight"]}
        groups["layers"] = [n for n in state if not any(n in g for g in groups.values())]
        weight_map = {}
        for i, (group, names) in enumerate(groups.items()):
            shard = f"model-0000{i + 1}-of-00003.safetensors"
            weight_map.update({n: shard for n in names})
            if group == "layers" or (group == "head" and not keep_head) or (
                    group == "embed" and not keep_embedding):
                continue  # named in the index, never copied
            save_file({n: state[n] for n in names}, str(root / "target" / shard))
        (root / "target" / "model.safetensors.index.json").write_text(
            json.dumps({"metadata": {}, "weight_map": weight_map}))
        if not keep_embedding:
            drop("embed_tokens.weight")(root)
    return apply


def specforge_file(content):
    def apply(root):
        shutil.rmtree(root / "data")
        (root / "data").mkdir()
        torch.save(content, root / "data" / "data_0.ckpt")
    return apply


# ------------------------------------------------------------------------------------------
# What each command must do
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fault:
    damage: Callable[[Path], None]
    error: str | None = None  # regex of the one-line error (exit 2) for eval and layout
    vocab_error: str | None = None  # same for vocab (default: vocab is unaffected)
    codes: frozenset[str] = frozenset()  # vocab issue codes (vocab exits 1 when any)
    skipped: int = 0  # sample files counted and left out (eval and layout still run)
    note: str | None = None  # regex one eval note must match
    extra: dict = field(default_factory=dict)
    # vLLM and SGLang load no weight from the damaged draft (safe_open refuses the file): the
    # host probes hand the drafter's one-line error to their steps as SD710 (no_engine_weights)
    # instead of raising it as a probe that could not run (SD003)
    engines_refuse: bool = False


FAULTS: dict[str, Fault] = {
    # vocab maps
    "d2t_t2d_missing": Fault(drop("d2t", "t2d"), codes=frozenset({"SD301"}), note="SD301"),
    "d2t_absolute_ids": Fault(draft_tensors(set_item("d2t", lambda s: s["d2t"] + torch.arange(DV))),
                              codes=frozenset({"SD302"}), note="SD302: d2t holds absolute"),
    "d2t_absolute_no_t2d": Fault(draft_tensors(lambda s: (s.update(d2t=s["d2t"] + torch.arange(DV)),
                                                          s.pop("t2d"))),
                                 codes=frozenset({"SD302"}), note="SD302"),
    # d2t is intact (what engines serve): only t2d's lines (SD303), not an SD302 "differs at 0 ids"
    "t2d_shorter_than_vocab": Fault(draft_tensors(set_item("t2d", lambda s: s["t2d"][:200].clone())),
                                    codes=frozenset({"SD303"}), note="t2d has shape"),
    "draft_vocab_size_absent": Fault(draft_config(lambda c: c.pop("draft_vocab_size")),
                                     error="lm_head.weight has 128 rows but the config has no "
                                           "draft_vocab_size",
                                     codes=frozenset({"SD303"})),
    "draft_vocab_config_vs_lm_head": Fault(draft_config(lambda c: c.update(draft_vocab_size=100)),
                                           error="draft_vocab_size is 100",
                                           codes=frozenset({"SD303"})),
    # config vs tensors
    "aux_ids_fewer_than_fc": Fault(draft_config(
        lambda c: c.update(eagle_aux_hidden_state_layer_ids=[2, 4])),
        error=r"fc.weight takes 96 inputs = 3 aux states .* is \[2, 4\]"),
    "aux_ids_more_than_fc": Fault(draft_config(
        lambda c: c.update(eagle_aux_hidden_state_layer_ids=[1, 2, 4, 5])),
        error=r"fc.weight takes 96 inputs"),
    "aux_ids_not_a_list": Fault(draft_config(
        lambda c: c.update(eagle_aux_hidden_state_layer_ids="2,4,5")),
        error="expected a list of layer indices", vocab_error="expected a list of layer"),
    "norm_flag_without_weight": Fault(drop("input_norm.weight"),
                                      error="norm_before_fc is set but .* no input_norm.weight"),
    "heads_not_matching_weights": Fault(decoder_config(num_attention_heads=2, head_dim=None),
                                        error=r"k_proj.weight has 16 rows, the config's num_key_value_heads 2 x head_dim 16"),
    "kv_heads_not_dividing": Fault(decoder_config(num_key_value_heads=3),
                                   error="not a multiple of num_key_value_heads",
                                   vocab_error="not a multiple"),
    "hidden_size_a_string": Fault(decoder_config(hidden_size="4096"),
                                  error="'hidden_size' is '4096', expected an integer",
                                  vocab_error="expected an integer"),
    "config_missing": Fault(lambda r: (r / "draft" / "config.json").unlink(),
                            error="config.json: not found", vocab_error="not found"),
    "config_not_json": Fault(write("draft/config.json", b"{'hidden_size': 32,"),
                             error="not valid JSON", vocab_error="not valid JSON"),
    "config_a_list": Fault(write("draft/config.json", b"[1, 2]"),
                           error="expected a JSON object", vocab_error="expected a JSON object"),
    "config_without_decoder": Fault(draft_config(lambda c: c.pop("transformer_layer_config")),
                                    error="needs transformer_layer_config",
                                    vocab_error="transformer_layer_config"),
    "config_without_hidden_size": Fault(draft_config(
        lambda c: c["transformer_layer_config"].pop("hidden_size")),
        error="no 'hidden_size'", vocab_error="no 'hidden_size'"),
    "rope_kind_unsupported": Fault(decoder_config(rope_parameters={
        "rope_type": "proportional", "rope_theta": 10000.0}),
        error="rope_type 'proportional' is not supported"),
    "rope_linear_without_factor": Fault(decoder_config(rope_parameters={
        "rope_type": "linear", "rope_theta": 10000.0}), error="'linear' needs factor"),
    "activation_unsupported": Fault(decoder_config(hidden_act="quick_gelu"),
                                    error="hidden_act 'quick_gelu' is not supported"),
    "sliding_window_a_string": Fault(decoder_config(sliding_window="2k",
                                                    layer_types=["sliding_attention"]),
                                     error="'sliding_window' is '2k'", vocab_error="sliding_window"),
    # weights
    "weights_bf16": Fault(draft_tensors(lambda s: s.update(
        {k: v.to(torch.bfloat16) for k, v in s.items() if v.is_floating_point()}))),
    "weights_fp16": Fault(draft_tensors(lambda s: s.update(
        {k: v.to(torch.float16) for k, v in s.items() if v.is_floating_point()}))),
    "nan_in_fc": Fault(draft_tensors(poison("fc.weight", float("nan"))),
                       error=r"NaN or Inf in fc.weight \(1 of 3072\)"),
    "inf_in_attention": Fault(draft_tensors(poison("layers.0.self_attn.q_proj.weight",
                                                   float("inf"))),
                              error="NaN or Inf in layers.0.self_attn.q_proj.weight"),
    "nan_lm_head_before_verifier_weights": Fault(draft_tensors(
        set_item("lm_head.weight", torch.full((DV, H), float("nan")))),
        error="NaN or Inf in lm_head.weight", codes=frozenset({"SD303"})),  # its sampled rows
    "safetensors_truncated": Fault(cut("draft/model.safetensors"), error="truncated",
                                   vocab_error="truncated", engines_refuse=True),
    "safetensors_zero_bytes": Fault(write("draft/model.safetensors", b""), error="empty file",
                                    vocab_error="empty file"),
    "safetensors_lfs_pointer": Fault(write("draft/model.safetensors",
                                           b"version https://git-lfs.github.com/spec/v1\n"
                                           b"oid sha256:4d7a\nsize 109712\n"),
                                     error="git-lfs pointer", vocab_error="git-lfs pointer"),
    "shard_missing": Fault(sharded_with_missing_shard,
                           error="names shard.* missing: model-00002-of-00002",
                           vocab_error="missing: model-00002"),
    "shard_index_not_json": Fault(write("draft/model.safetensors.index.json", b"{oops"),
                                  error="index.json: not valid JSON", vocab_error="not valid"),
    # target
    "target_without_embedding": Fault(target_without_embedding,
                                      error="the target .* has no embedding tensor either"),
    "target_embedding_other_width": Fault(target_of_another_width,
                                          error=r"target embedding \(256, 48\) does not fit"),
    "target_config_only": Fault(target_config_only, note="target has no final norm"),
    "target_only_head_and_embedding_shards": Fault(target_shards(True, True)),
    "target_embedding_shard_not_copied": Fault(target_shards(True, False),
                                               error="has no embedding tensor either .*shards "
                                                     "named in the index but not present"),
    "target_head_shard_not_copied": Fault(target_shards(False, True),
                                          note="target has no final norm / lm_head .*not present"),
    "target_hidden_size_differs": Fault(lambda r: edit_json(r / "target" / "config.json",
                                                            lambda c: c.update(hidden_size=48)),
                                        error="target hidden_size 48"),
    "target_vocab_larger": Fault(lambda r: edit_json(r / "target" / "config.json",
                                                     lambda c: c.update(vocab_size=300)),
                                 codes=frozenset({"SD303"}), note="SD303: t2d has 256 entries"),
    # hidden-state data: every file bad
    "data_hidden_size_differs": Fault(every_sample(
        lambda s: s.update(hidden_states=torch.randn(s["hidden_states"].shape[0], 4, 48))),
        error=r"hidden states are 48 wide, the draft's fc takes 3 x 32"),
    "data_fewer_slots_than_aux": Fault(every_sample(
        lambda s: s.update(hidden_states=s["hidden_states"][:, :2].contiguous())),
        error="the dump has 2 slots per position, the draft needs 3"),
    "data_without_final_slot": Fault(every_sample(
        lambda s: s.update(hidden_states=s["hidden_states"][:, :3].contiguous())),
        note="no final-layer slot"),
    "data_flattened_slots": Fault(every_sample(lambda s: s.update(
        hidden_states=s["hidden_states"].flatten(1).contiguous())), error="flattened slots"),
    "data_without_token_ids": Fault(every_sample(lambda s: s.pop("token_ids")),
                                    error=r"expected token_ids and hidden_states.*found \['hidden_states'\]"),
    "data_input_ids_key": Fault(every_sample(lambda s: s.update(input_ids=s.pop("token_ids")))),
    "data_batch_dim": Fault(every_sample(lambda s: s.update(
        token_ids=s["token_ids"][None].contiguous(),
        hidden_states=s["hidden_states"][None].contiguous()))),
    "data_lengths_differ": Fault(every_sample(lambda s: s.update(token_ids=s["token_ids"][:-3].clone())),
                                 error=r"no usable samples \(4 sample file\(s\) skipped.*token_ids has"),
    "data_empty_samples": Fault(every_sample(lambda s: s.update(
        token_ids=s["token_ids"][:0].clone(), hidden_states=s["hidden_states"][:0].clone())),
        error="no usable samples .* too short"),
    "data_loss_mask_length": Fault(every_sample(lambda s: s.update(loss_mask=torch.ones(5, dtype=torch.bool))),
                                   error="loss_mask has 5 entries"),
    "data_dir_without_samples": Fault(lambda r: [p.unlink() for p in (r / "data").iterdir()],
                                      error="no hs_.*safetensors or data_.*ckpt files"),
    "specforge_without_aux": Fault(specforge_file({"input_ids": torch.arange(10)}),
                                   error=r"missing \['aux_hidden_state'\]"),
    "specforge_length_mismatch": Fault(specforge_file({
        "input_ids": torch.arange(12), "aux_hidden_state": torch.randn(1, 10, 96),
        "hidden_state": torch.randn(1, 10, 32)}), error="expected \\[1, 12, aux x hidden\\]"),
    "specforge_not_a_dict": Fault(specforge_file(torch.arange(3)), error="expected a dict of tensors"),
    # hidden-state data: one bad file among good ones
    "one_sample_truncated": Fault(cut("data/hs_2.safetensors"), skipped=1,
                                  note=r"hs_2.safetensors: truncated"),
    "first_sample_zero_bytes": Fault(write("data/hs_0.safetensors", b""), skipped=1,
                                     note="hs_0.safetensors: empty file"),
    "one_sample_lengths_differ": Fault(one_sample(1, lambda s: s.update(
        token_ids=s["token_ids"][:-3].clone())), skipped=1, note="token_ids has 14 entries"),
    "one_sample_without_states": Fault(one_sample(3, lambda s: s.pop("hidden_states")),
                                       skipped=1, note="hs_3.safetensors: expected token_ids"),
    "one_sample_other_hidden": Fault(one_sample(1, lambda s: s.update(
        hidden_states=torch.randn(17, 4, 48))), skipped=1, note="hidden size 48"),
    "one_sample_other_slots": Fault(one_sample(2, lambda s: s.update(
        hidden_states=s["hidden_states"][:, :3].contiguous())), skipped=1, note="3 slots"),
    "first_sample_other_slots": Fault(one_sample(0, lambda s: s.update(
        hidden_states=s["hidden_states"][:, :3].contiguous())), skipped=1,
        note="hs_0.safetensors: 3 slots per position, the dump's other files have 4"),
    "one_sample_empty": Fault(one_sample(0, lambda s: s.update(
        token_ids=s["token_ids"][:0].clone(), hidden_states=s["hidden_states"][:0].clone())),
        skipped=1, note="0 token"),
    "one_sample_nan": Fault(one_sample(1, lambda s: s["hidden_states"].view(-1).__setitem__(
        5, float("nan"))), skipped=1, note="NaN or Inf in the hidden_states"),
    "one_sample_token_out_of_vocab": Fault(one_sample(2, lambda s: s["token_ids"].__setitem__(
        4, 1000)), skipped=1, note=r"token ids span \[\d+, 1000\]"),
}


def _commands(root: Path) -> dict[str, list[str]]:
    model, data, target = str(root / "draft"), str(root / "data"), str(root / "target")
    return {
        "eval": ["eval", "--model", model, "--data", data, "--target", target, "--steps", "2",
                 "--json"],
        "layout": ["layout", "--model", model, "--data", data, "--target", target, "--json"],
        "vocab": ["vocab", "--model", model, "--target", target, "--json"],
    }


def _damaged(base: Path, tmp_path: Path, fault: Fault) -> Path:
    root = tmp_path / "case"
    shutil.copytree(base, root)
    fault.damage(root)
    return root


def _assert_one_line_error(result, pattern: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and re.search(pattern, errors[0]), result.output
    assert all(line.startswith(("error: ", "  hint: ")) for line in lines), result.output


@pytest.mark.parametrize("name", list(FAULTS))
def test_fault_matrix(name, base, tmp_path):
    fault = FAULTS[name]
    root = _damaged(base, tmp_path, fault)
    commands = _commands(root)

    vocab = runner.invoke(drafter_app, commands["vocab"])
    if fault.vocab_error:
        _assert_one_line_error(vocab, fault.vocab_error)
    else:
        assert "Traceback" not in vocab.output
        report = json.loads(vocab.output)
        codes = {i["code"] for c in report["checks"] for i in c["issues"]}
        assert codes == set(fault.codes), (codes, vocab.output)
        assert vocab.exit_code == (1 if fault.codes else 0)

    for command in ("eval", "layout"):
        result = runner.invoke(drafter_app, commands[command])
        if fault.error:
            _assert_one_line_error(result, fault.error)
            continue
        assert result.exit_code == 0, (command, result.output)
        out = json.loads(result.output)
        assert out["skipped_samples"] == fault.skipped
        assert len(out["skipped"]) == fault.skipped
        if command == "eval":
            assert out["samples"] == SAMPLES - fault.skipped
            assert out["tokens"] > 0 and len(out["full_accuracy"]) == 2
            assert {i["code"] for i in out["vocab_issues"]} == set(fault.codes)
            if fault.note:
                assert any(re.search(fault.note, n) for n in out["notes"]), out["notes"]
            elif not fault.skipped:
                assert out["notes"] == [] and out["reference"] == "target_argmax"
        else:
            assert out["samples"] == SAMPLES - fault.skipped and out["ranked"]


def test_untouched_world_is_clean(base):
    """The control: the same commands on the undamaged world find nothing."""
    commands = _commands(base)
    vocab = runner.invoke(drafter_app, commands["vocab"])
    assert vocab.exit_code == 0 and json.loads(vocab.output)["ok"]
    out = json.loads(runner.invoke(drafter_app, commands["eval"]).output)
    assert (out["samples"], out["skipped_samples"], out["notes"]) == (SAMPLES, 0, [])
    assert out["draft"]["norm_before_fc"] and out["draft"]["norm_before_residual"]


def test_bad_sample_files_are_named_and_the_rest_scored_the_same(base, tmp_path):
    """Skipping a bad file must give exactly the numbers of the good files alone."""
    root = _damaged(base, tmp_path, FAULTS["one_sample_truncated"])
    alone = tmp_path / "alone"
    alone.mkdir()
    for i in (0, 1, 3):
        shutil.copy(base / "data" / f"hs_{i}.safetensors", alone)
    with_bad = json.loads(runner.invoke(drafter_app, _commands(root)["eval"]).output)
    only_good = json.loads(runner.invoke(
        drafter_app, _commands(root)["eval"][:4] + [str(alone)] + _commands(root)["eval"][5:]).output)
    assert with_bad["counts"] == only_good["counts"]
    assert with_bad["skipped"][0]["file"].endswith("hs_2.safetensors")


def test_norm_flags_the_engine_ignores_are_coded(base):
    """speculators' recipe flags on, served as SGLang 0.5.4 runs them: the evaluation names the
    ignored flags and the diagnose check codes them SD701."""
    from spec_debug.diagnose.checks.draft_config import check_norm_flags

    commands = _commands(base)
    result = runner.invoke(drafter_app, commands["eval"] + ["--semantics", "sglang",
                                                            "--engine-version", "0.5.4"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert {"norm_before_residual", "norm_before_fc"} <= set(out["ignored_norm_flags"])
    assert out["norm_flags"]["norm_before_fc"] is False  # run as the engine runs it
    raw = json.loads((base / "draft" / "config.json").read_text())
    findings = check_norm_flags("sglang", "0.5.4", raw)
    assert [f.code for f in findings] == ["SD701"]


@pytest.mark.parametrize("name", ["d2t_absolute_ids", "d2t_t2d_missing", "t2d_shorter_than_vocab",
                                  "draft_vocab_config_vs_lm_head", "safetensors_truncated",
                                  "one_sample_truncated", "data_hidden_size_differs"])
def test_host_probes_feed_coded_findings(name, base, tmp_path):
    """The playbook path: the host probes (spec_debug/probes) run the drafter, the diagnose
    checks turn vocab issues into SD3xx findings, and a fault is an error the probe reports
    as data (hostmain prints it as JSON), never a silent pass."""
    from spec_debug.diagnose.checks.vocab_maps import check_vocab_report
    from spec_debug.errors import SpecDebugError
    from spec_debug.probes import drafter_eval, vocab_maps

    fault = FAULTS[name]
    root = _damaged(base, tmp_path, fault)
    args = {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
            "hidden_states": str(root / "data"), "steps": "2"}
    if fault.engines_refuse:
        # the configs step's SD710, said by each probe with the drafter's own error
        for probe, said in ((vocab_maps, fault.vocab_error), (drafter_eval, fault.error)):
            out = probe.run(args)
            assert "report" not in out and "reference" not in out
            assert re.search(said, out["no_engine_weights"]["message"])
            assert out["no_engine_weights"]["unreadable_weight_files"] == ["model.safetensors"]
        return
    if fault.vocab_error:
        with pytest.raises(SpecDebugError, match=fault.vocab_error):
            vocab_maps.run(args)
    else:
        findings = check_vocab_report(vocab_maps.run(args)["report"])
        assert {f.code for f in findings} == set(fault.codes)
    if fault.error and fault.codes & {"SD204", "SD303", "SD704"}:
        # a config that does not describe the weights (the vocab step's SD303 here) is data:
        # the eval step says it did not run because of that finding (steps/common.py
        # draft_misfit_line), or fails as SD003 where no step raised it
        assert re.search(fault.error, drafter_eval.run(args)["draft_misfit"])
    elif fault.error:
        with pytest.raises(SpecDebugError, match=fault.error):
            drafter_eval.run(args)
    else:
        reference = drafter_eval.run(args)["reference"]
        assert reference["samples"] == SAMPLES - fault.skipped
        assert reference["skipped_samples"] == fault.skipped


@pytest.mark.parametrize("name", ["safetensors_truncated", "aux_ids_fewer_than_fc", "nan_in_fc",
                                  "config_a_list", "data_lengths_differ", "one_sample_nan",
                                  "d2t_absolute_ids"])
def test_probe_entry_point_prints_one_json_document(name, base, tmp_path, capsys):
    fault = FAULTS[name]
    root = _damaged(base, tmp_path, fault)
    model, data = str(root / "draft"), str(root / "data")
    for argv, pattern in ((["eval", "--model", model, "--data", data, "--steps", "1"],
                           fault.error), (["vocab", "--model", model], fault.vocab_error)):
        code = probe_main(argv)
        captured = capsys.readouterr()
        assert "Traceback" not in captured.out + captured.err
        out = json.loads(captured.out)
        if pattern:
            assert code == 2 and re.search(pattern, out["error"]), out
        else:
            assert code == 0 and "error" not in out, out


@pytest.mark.parametrize("argv, pattern", [
    (["eval", "--data", "x"], "required: --model"),
    (["eval", "--model", "m", "--data", "d", "--steps", "two"], "invalid int value: 'two'"),
    (["layout", "--model", "m", "--data", "d", "--max-samples", "-1"], "--max-samples: -1: give at least 1 sample"),
])
def test_probe_entry_point_usage_errors_are_json(argv, pattern, capsys):
    try:
        code = probe_main(argv)
    except SystemExit as exit_:  # argparse exits; the probe's own errors return
        code = exit_.code
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    assert code == 2 and re.search(pattern, json.loads(captured.out)["error"])


def test_probe_steps_below_one(base, capsys):
    code = probe_main(["eval", "--model", str(base / "draft"), "--data", str(base / "data"),
                       "--steps", "-1"])
    assert code == 2 and "--steps -1" in json.loads(capsys.readouterr().out)["error"]


def test_probe_as_a_subprocess_has_no_traceback(base, tmp_path):
    """As a GPU host runs it: `python -m spec_debug.eagle3` on a cut download."""
    root = _damaged(base, tmp_path, FAULTS["safetensors_truncated"])
    proc = subprocess.run([sys.executable, "-m", "spec_debug.eagle3", "eval", "--model",
                           str(root / "draft"), "--data", str(root / "data")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "truncated" in json.loads(proc.stdout)["error"]


@pytest.mark.parametrize("options, pattern", [
    (["--device", "tpu"], "--device 'tpu': use cpu, cuda"),
    (["--engine-version", "banana", "--semantics", "sglang"], "cannot read engine version 'banana'"),
    (["--layout", "0,1,1"], r"layout \[0, 1, 1\] uses a slot twice"),
    (["--layout", "0,1,7"], r"layout slots \[7\] out of range"),
    (["--semantics", "trtllm"], "--semantics 'trtllm'"),
    (["--dtype", "int8"], "unknown dtype 'int8'"),
])
def test_bad_options_are_one_line_errors(options, pattern, base):
    result = runner.invoke(drafter_app, _commands(base)["eval"] + options)
    _assert_one_line_error(result, pattern)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a torch without CUDA")
def test_cuda_on_a_cpu_only_torch(base):
    _assert_one_line_error(runner.invoke(drafter_app, _commands(base)["layout"] + ["--device", "cuda"]),
                           "sees no CUDA device")


def test_more_steps_than_tokens(base):
    """--steps beyond a sample's length: the steps with no row left score nothing."""
    out = json.loads(runner.invoke(drafter_app, _commands(base)["eval"] + ["--steps", "40"]).output)
    assert len(out["full_accuracy"]) == 40 and out["samples"] == SAMPLES
    assert out["counts"]["full_total"][39] == 0 and out["counts"]["full_total"][0] > 0
