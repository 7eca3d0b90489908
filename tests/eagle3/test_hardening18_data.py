"""Hidden-state dumps as NVIDIA's tools write them, and folders that mix writers.

- NVIDIA Model-Optimizer (the tool behind nvidia's published EAGLE-3 heads) saves one
  `{conversation_id}.pt` per conversation: input_ids, aux_hidden_states [T, 3H] and
  hidden_states [T, H] (examples/speculative_decoding/collect_hidden_states/
  compute_hidden_states_hf.py: HF output_hidden_states, so the final state is post-norm;
  compute_hidden_states_vllm.py: the same keys from speculators' vLLM capture, pre-norm).
- TensorRT-LLM's SaveState decoding saves `data_<iter>.pt`, a LIST of up to 20 dicts (id,
  input_ids, hidden_state = the final post-norm state, aux_hidden_states)
  (tensorrt_llm/_torch/speculative/save_hidden_state.py).

The world is saved by speculators 0.9.0 and transformers (tests/eagle3/speculators_world.py);
each test runs the `spec-debug drafter` command a user types and compares with the same states
in speculators' own hs format.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world

runner = CliRunner()


world = informative_world("hardening18-data", seed=18)


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _eval(world: Path, data: Path, *extra: str) -> dict:
    result = _run("eval", "--model", str(world / "draft"), "--data", str(data),
                  "--target", str(world / "target"), *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _hs_samples(world: Path) -> list[dict]:
    """The world's samples as speculators wrote them: token_ids, hidden_states [T, 3 + 1, H]."""
    paths = sorted((world / "data").glob("hs_*.safetensors"), key=lambda p: int(p.stem[3:]))
    return [load_file(path) for path in paths]


@functools.cache
def _verifier(world: Path):
    from transformers import LlamaForCausalLM

    return LlamaForCausalLM.from_pretrained(str(world / "target")).eval()


def _post_norm(world: Path, final: torch.Tensor) -> torch.Tensor:
    """The verifier's own final norm applied to a pre-norm state: what HF output_hidden_states
    ends with (Model-Optimizer's HF script, TensorRT-LLM's layer -1)."""
    with torch.no_grad():
        return _verifier(world).model.norm(final.float())


def _aux(hidden: torch.Tensor, order=(0, 1, 2)) -> torch.Tensor:
    """aux states concatenated along hidden, as torch.cat(..., dim=-1) in both writers."""
    return torch.cat([hidden[:, j] for j in order], dim=-1)  # [T, 3H]


def test_model_optimizer_dump_scores_as_the_same_states_in_hs_files(world, tmp_path):
    """Before: "no hs_*.safetensors or data_*.ckpt files ... its torch files are not named
    data_*", and renamed, the final `hidden_states` was read as the only slot ("1 slots per
    position") with aux_hidden_states ignored. Now both of Model-Optimizer's scripts score
    exactly as the hs files, the post-norm final state recognised as such."""
    expected = _eval(world, world / "data")
    for script, post_norm in (("vllm", False), ("hf", True)):
        dump = tmp_path / script
        dump.mkdir()
        for i, sample in enumerate(_hs_samples(world)):
            hidden = sample["hidden_states"]
            final = _post_norm(world, hidden[:, -1]) if post_norm else hidden[:, -1]
            conversation_id = f"sharegpt-{i:05d}-a1b2"
            torch.save({"input_ids": sample["token_ids"], "hidden_states": final,
                        "aux_hidden_states": _aux(hidden), "conversation_id": conversation_id},
                       dump / f"{conversation_id}.pt")
        got = _eval(world, dump)
        assert got["data_format"] == "modelopt"
        assert got["samples"] == expected["samples"] == 3
        assert got["final_state_post_norm"] == (3 if post_norm else 0)
        # no loss mask in these files: every position is scored, and the result says so
        assert got["loss_mask_source"] == "none"
        for key in ("full_accuracy", "target_acceptance"):
            assert got[key] == pytest.approx(expected[key], abs=1e-9), (script, key)

    # the folder above the dumps: not read (any *.pt below would be), but named
    result = _run("eval", "--model", str(world / "draft"), "--data", str(tmp_path),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"hint: pass the folder that holds them ({tmp_path / 'hf'}) as --data" in text, text


def test_tensorrt_llm_list_files_are_one_sample_per_record(world, tmp_path):
    """Before: "expected a dict of tensors ... found a list of 3", the whole dump refused. Now
    each record is a sample, scored as the hs files; one bad record is skipped by its index
    and the others still count."""
    expected = _eval(world, world / "data")
    dump = tmp_path / "trtllm"
    dump.mkdir()
    records = [{"id": i + 1, "input_ids": sample["token_ids"],
                "hidden_state": _post_norm(world, sample["hidden_states"][:, -1]),
                "aux_hidden_states": _aux(sample["hidden_states"])}
               for i, sample in enumerate(_hs_samples(world))]
    torch.save(records, dump / "data_20.pt")
    got = _eval(world, dump)
    assert got["data_format"] == "trtllm"
    assert got["samples"] == 3 and got["skipped_samples"] == 0
    assert got["final_state_post_norm"] == 3
    assert got["full_accuracy"] == pytest.approx(expected["full_accuracy"], abs=1e-9)

    records[1]["aux_hidden_states"] = records[1]["aux_hidden_states"][:-2]  # rows lost
    torch.save(records, dump / "data_20.pt")
    got = _eval(world, dump)
    assert got["samples"] == 2 and got["skipped_samples"] == 1
    assert got["skipped"][0]["file"].endswith("data_20.pt")
    assert "data_20.pt[1]: aux_hidden_states has shape" in got["skipped"][0]["reason"]


def test_aux_states_concatenated_out_of_order_are_found_by_the_layout_probe(world, tmp_path):
    """The incident's fault in a TensorRT-LLM dump: the aux states concatenated in another order
    than the draft was trained on. eval scores lower; layout names the order that fits."""
    dump = tmp_path / "shuffled"
    dump.mkdir()
    records = [{"id": i, "input_ids": sample["token_ids"],
                "hidden_state": sample["hidden_states"][:, -1],
                "aux_hidden_states": _aux(sample["hidden_states"], order=(1, 2, 0))}
               for i, sample in enumerate(_hs_samples(world))]
    torch.save(records, dump / "data_1.pt")
    result = _run("layout", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    # the file holds (1, 2, 0): the draft's (0, 1, 2) sit at slots (2, 0, 1)
    assert report["best"] == [2, 0, 1], report["ranked"][:3]
    assert "trained on a different layout" in report["verdict"]


def test_a_folder_mixing_two_writers_says_each_sequence_counts_twice(world, tmp_path):
    """A SpecForge conversion written beside the speculators dump it came from. Before: both
    scored as one dump (6 samples for 3 sequences), without a word. Now a note says so."""
    mixed = tmp_path / "mixed"
    shutil.copytree(world / "data", mixed)
    for i, sample in enumerate(_hs_samples(world)):
        hidden = sample["hidden_states"]
        torch.save({"input_ids": sample["token_ids"],
                    "loss_mask": torch.ones_like(sample["token_ids"]),
                    "aux_hidden_state": _aux(hidden)[None],
                    "hidden_state": _post_norm(world, hidden[:, -1])[None]},
                   mixed / f"data_{i}.ckpt")
    got = _eval(world, mixed)
    assert got["samples"] == 6
    notes = " ".join(got["notes"])
    assert "mixes the files of 2 hidden-state writers" in notes, notes
    assert "3 hs_*.safetensors (speculators/vLLM)" in notes, notes
    assert "3 *.ckpt (SpecForge, AngelSlim)" in notes, notes
    assert "counts twice" in notes

    alone = _eval(world, world / "data")
    assert not any("mixes the files" in note for note in alone["notes"])


def test_angelslim_dump_written_by_two_ranks_is_one_dump(world, tmp_path):
    """Tencent AngelSlim's generate_hidden_for_draft_model.py under torchrun: each rank writes
    `rank_<r>/rows_0-5000/data_<i>.ckpt`, i counted within the rank, with input_ids [1, T],
    loss_mask [1, T], hidden_states [1, T, 3H] (the aux states) and target_hiddens [1, T, H]
    (HF output_hidden_states[-1]). Before: hidden_states read as one 96-wide state ("the
    hidden states are 96 wide ... this dump comes from another target model") and, had it
    read, "sample file names appear in several folders: 2 dumps". Now: scored as the hs
    files, as one dump."""
    expected = _eval(world, world / "data")
    dump = tmp_path / "outdir0"
    for rank, chunk in enumerate((_hs_samples(world)[:2], _hs_samples(world)[2:])):
        rows = dump / f"rank_{rank}" / "rows_0-5000"
        rows.mkdir(parents=True)
        for i, sample in enumerate(chunk):
            hidden = sample["hidden_states"]
            torch.save({"input_ids": sample["token_ids"][None],
                        "loss_mask": torch.ones_like(sample["token_ids"])[None],
                        "hidden_states": _aux(hidden)[None],
                        "target_hiddens": _post_norm(world, hidden[:, -1])[None]},
                       rows / f"data_{i}.ckpt")
    got = _eval(world, dump)
    assert got["data_format"] == "angelslim"
    assert got["samples"] == 3 and got["final_state_post_norm"] == 3
    assert got["full_accuracy"] == pytest.approx(expected["full_accuracy"], abs=1e-9)
    assert not any("several folders" in note for note in got["notes"]), got["notes"]

    # a real second dump beside it is still named
    shutil.copytree(dump / "rank_0", tmp_path / "outdir0" / "old" / "rank_0")
    got = _eval(world, dump)
    assert any("several folders" in note for note in got["notes"]), got["notes"]


def test_a_specforge_dflash_dump_is_named_as_another_draft_types_capture(world, tmp_path):
    """SpecForge's DFlash capture writes data_<i>.ckpt too, with hidden_states [1, T, K*H] and
    no final state (specforge/algorithms/dflash/providers.py). Before: "the hidden states are
    96 wide, the draft's fc takes 3 x 32 ... this dump comes from another target model". Now
    the error says what the file is and how to capture for EAGLE-3."""
    dump = tmp_path / "dflash" / "rows_0-2000"
    dump.mkdir(parents=True)
    for i, sample in enumerate(_hs_samples(world)):
        torch.save({"input_ids": sample["token_ids"],
                    "loss_mask": torch.ones_like(sample["token_ids"]),
                    "hidden_states": _aux(sample["hidden_states"])[None]},
                   dump / f"data_{i}.ckpt")
    for command in ("eval", "layout"):
        result = _run(command, "--model", str(world / "draft"), "--data",
                      str(tmp_path / "dflash"), "--target", str(world / "target"))
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert "data_0.ckpt: hidden_states is one tensor of shape [1, 14, 96]" in text, text
        assert "DFlash" in text and "not an EAGLE-3 dump" in text, text
        assert "another target model" not in text


def test_a_file_the_connector_is_still_writing_is_not_called_cut(world, tmp_path):
    """vLLM's hidden-states connector writes `{req_id}.safetensors` under a `.lock` that
    speculators' generate_offline_data waits on before moving the file to hs_<i> (speculators
    cli/generate_offline_data.py). Evaluated during the run, the staging folder holds a
    half-written file. Before: "truncated ...; copy or download it again". Now: skipped as
    still being written, the finished files scored."""
    staging = tmp_path / "hidden_states"
    staging.mkdir()
    for i, path in enumerate(sorted((world / "data").glob("hs_*.safetensors"))):
        shutil.copy(path, staging / f"cmpl-9f3c{i}-0.safetensors")
    writing = staging / "cmpl-9f3c2-0.safetensors"
    writing.write_bytes(writing.read_bytes()[:1000])
    (staging / "cmpl-9f3c2-0.safetensors.lock").write_bytes(b"")
    got = _eval(world, staging)
    assert got["samples"] == 2 and got["skipped_samples"] == 1
    reason = got["skipped"][0]["reason"]
    assert "cmpl-9f3c2-0.safetensors: still being written (cmpl-9f3c2-0.safetensors.lock" \
        in reason, reason
    assert "copy" not in reason


def test_eagle2_training_data_is_named_as_such(world, tmp_path):
    """SafeAILab/EAGLE's EAGLE-1/2 data generation (eagle/ge_data/ge_data_all_llama3.py) saves
    `<outdir>/<index>/data_<i>.ckpt` with input_ids, hidden_state (the last layer only) and
    loss_mask. Before: "missing ['aux_hidden_state']", as if a SpecForge file were damaged. Now
    the error names the EAGLE-1/2 format."""
    outdir = tmp_path / "eagle2" / "0"
    outdir.mkdir(parents=True)
    for i, sample in enumerate(_hs_samples(world)):
        torch.save({"input_ids": sample["token_ids"],
                    "hidden_state": _post_norm(world, sample["hidden_states"][:, -1]),
                    "loss_mask": torch.ones_like(sample["token_ids"])}, outdir / f"data_{i}.ckpt")
    result = _run("eval", "--model", str(world / "draft"), "--data", str(tmp_path / "eagle2"),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "data_0.ckpt: an EAGLE-1/EAGLE-2 training sample" in text, text
    assert "hint: generate EAGLE-3 hidden states" in text, text


def test_a_whole_batch_saved_in_one_file_is_refused(world, tmp_path):
    """A hand-written dumper that saves the capture's batch as it comes, input_ids [B, T] and
    aux_hidden_state [B, T, 3H] (SpecForge's keys; SpecForge itself saves row i of the batch,
    scripts/prepare_hidden_states.py). Before: flattened to one sequence of B*T tokens and
    scored (the second row attending to the first), a wrong number without a word. Now one
    clear error."""
    samples = _hs_samples(world)[:2]
    T = min(s["token_ids"].shape[0] for s in samples)
    dump = tmp_path / "batched"
    dump.mkdir()
    torch.save({"input_ids": torch.stack([s["token_ids"][:T] for s in samples]),
                "loss_mask": torch.ones(2, T, dtype=torch.long),
                "aux_hidden_state": torch.stack([_aux(s["hidden_states"][:T]) for s in samples]),
                "hidden_state": torch.stack([s["hidden_states"][:T, -1] for s in samples])},
               dump / "data_0.ckpt")
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"data_0.ckpt: input_ids has shape [2, {T}], a batch of 2 sequences in one file" \
        in text, text


def test_hidden_states_cast_to_integers_are_refused(world, tmp_path):
    """hs files whose states were cast to an integer type (`.to(torch.int8)` to save space, or
    int8 values whose scales were dropped). Before: cast back to float and scored as
    activations (noise, reported as the draft's accuracy). Now each file is refused as such."""
    dump = tmp_path / "int8"
    dump.mkdir()
    from safetensors.torch import save_file

    for i, sample in enumerate(_hs_samples(world)):
        save_file({"token_ids": sample["token_ids"],
                   "hidden_states": sample["hidden_states"].clamp(-127, 127).to(torch.int8)},
                  str(dump / f"hs_{i}.safetensors"))
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "hs_0.safetensors: hidden_states is int8, not floating point" in text, text


def test_layer_ids_given_as_layout_name_the_slots(world, tmp_path):
    """eval prints "layout [0, 1, 2] (layer_ids) = layers [2, 4, 5]"; a user passing the layers
    back as --layout 2,4,5 got "layout slots [4, 5] out of range: the dump has 4 slots". Now
    the error says --layout takes slots and which slots those layers are."""
    from spec_debug.eagle3.data import write_hs_sample
    from tests.eagle3.speculators_world import AUX, NL

    dump = tmp_path / "named"
    dump.mkdir()
    for i, sample in enumerate(_hs_samples(world)):
        write_hs_sample(dump / f"hs_{i}.safetensors", sample["token_ids"],
                        sample["hidden_states"], layer_ids=[*AUX, NL])
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"), "--layout", ",".join(map(str, AUX)))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"--layout takes slot indices, and this dump names its slots layers {[*AUX, NL]}" \
        in text, text
    assert f"hint: layers {AUX} are --layout 0,1,2" in text, text
    assert _eval(world, dump, "--layout", "0,1,2")["layout_layer_ids"] == AUX


def _named_dump(world: Path, folder: Path, layer_ids: list[int]) -> Path:
    """hs files holding the verifier's own states at `layer_ids` (HF output_hidden_states index
    = input-to-layer id; the last id, the final layer, taken before the norm as vLLM does),
    named in the `layer_ids` metadata."""
    from spec_debug.eagle3.data import write_hs_sample
    from tests.eagle3.speculators_world import NL

    folder.mkdir()
    verifier = _verifier(world)
    for i, sample in enumerate(_hs_samples(world)):
        ids = sample["token_ids"]
        final = []
        hook = verifier.model.norm.register_forward_pre_hook(lambda _m, a: final.append(a[0]))
        with torch.no_grad():
            hidden = verifier(ids[None], output_hidden_states=True).hidden_states
        hook.remove()
        states = [final[0][0] if j == NL else hidden[j][0] for j in layer_ids]
        write_hs_sample(folder / f"hs_{i}.safetensors", ids,
                        torch.stack(states, dim=1).to(torch.bfloat16), layer_ids=layer_ids)
    return folder


def test_a_named_dump_short_of_an_aux_layer_is_refused(world, tmp_path):
    """A dump captured for a 2-aux draft, named [2, 4, 8] (aux 2, 4 and the final layer 8).
    Before: "3 slots, as many as the draft's aux states: no final-layer slot", so the final
    layer was fed to fc as the third aux state and the targets taken from the data: a
    number (AL ~1.9) for a dump that cannot feed this draft. Now one clear error."""
    from tests.eagle3.speculators_world import AUX, NL

    dump = _named_dump(world, tmp_path / "two_aux", [AUX[0], AUX[1], NL])
    result = _run("eval", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert (f"names its slots layers {[AUX[0], AUX[1], NL]}: 2 aux state(s) and the final layer "
            f"{NL}; the draft's fc takes 3 (layers {AUX})") in text, text


def test_a_dump_captured_one_layer_off_is_named_by_the_layout_probe(world, tmp_path):
    """The off-by-one capture (vllm-project/vllm#43671): the dump holds layers [3, 5, 6] + the
    final one, the draft was trained on [2, 4, 5]. Before, the layout probe said "configured
    layout slots [0, 1, 2] (layers [3, 5, 6]) scores best: the draft matches this dump's
    layout". Now it says the dump holds other layers, each the draft's +1."""
    from tests.eagle3.speculators_world import AUX, NL

    dump = _named_dump(world, tmp_path / "off_by_one", [a + 1 for a in AUX] + [NL])
    result = _run("layout", "--model", str(world / "draft"), "--data", str(dump),
                  "--target", str(world / "target"))
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)["verdict"]
    assert "matches this dump's layout" not in verdict, verdict
    assert f"the dump holds layers {[a + 1 for a in AUX] + [NL]}, not the draft's {AUX}" \
        in verdict, verdict
    assert f"it holds each of the draft's layers +1 ({[a + 1 for a in AUX]}): a capture off by 1" \
        in verdict, verdict

    # eval says it too, beside its numbers
    notes = " ".join(_eval(world, dump)["notes"])
    assert f"the dump holds each of the draft's layers +1 ({[a + 1 for a in AUX]})" in notes, notes

    # the same capture at the right layers is the configured layout, not another capture (the
    # draft scores 0.000 on these untouched states: too few rows right to confirm it matches)
    right = _named_dump(world, tmp_path / "right", AUX + [NL])
    result = _run("layout", "--model", str(world / "draft"), "--data", str(right),
                  "--target", str(world / "target"))
    verdict = json.loads(result.output)["verdict"]
    assert verdict.startswith(f"configured layout slots [0, 1, 2] (layers {AUX}) scores best"), verdict
    assert "not the draft's" not in verdict and "off by" not in verdict, verdict


def test_a_specforge_dump_with_an_extra_aux_state_names_specforges_loader(world, tmp_path):
    """A SpecForge dump captured with 4 aux layers for this 3-aux draft. Before, the note
    blamed "speculators' loader"; the dump is read by SpecForge's (which would fail the same
    way), and the note now says so."""
    dump = tmp_path / "four" / "rows_0-2000"
    dump.mkdir(parents=True)
    for i, sample in enumerate(_hs_samples(world)):
        hidden = sample["hidden_states"]
        torch.save({"input_ids": sample["token_ids"],
                    "loss_mask": torch.ones_like(sample["token_ids"]),
                    "aux_hidden_state": _aux(hidden, order=(0, 1, 2, 2))[None],
                    "hidden_state": _post_norm(world, hidden[:, -1])[None]},
                   dump / f"data_{i}.ckpt")
    notes = " ".join(_eval(world, tmp_path / "four")["notes"])
    assert "the first 3 were used (SpecForge's loader would feed all 4 and fail)" in notes, notes


def test_probe_counts_given_as_playbook_vars(world):
    """Playbook vars are strings (`--var max_samples=all` on drafter_accuracy.yaml). Before:
    the probe died on int()'s "invalid literal for int() with base 10: 'all'". Now "all" reads
    the whole dump (the layout probe keeps its in-memory bound) and a value that is not a
    count is one error naming the var."""
    from spec_debug.errors import UsageError
    from spec_debug.probes import drafter_eval, hidden_layout

    args = {"draft_model": str(world / "draft"), "target_model": str(world / "target"),
            "hidden_states": str(world / "data")}
    assert drafter_eval.run({**args, "max_samples": "all"})["reference"]["samples"] == 3
    assert drafter_eval.run({**args, "max_samples": "2"})["reference"]["samples"] == 2
    assert hidden_layout.run({**args, "max_samples": "all"})["layout"]["samples"] == 3
    with pytest.raises(UsageError, match=r"max_samples 'sixty': give a whole number"):
        drafter_eval.run({**args, "max_samples": "sixty"})
