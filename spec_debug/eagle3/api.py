"""Library entry points that return plain dicts (also run as probes on GPU hosts).

    evaluate_drafter(model, data, target=None, steps=None, semantics="reference", ...)
    probe_layout(model, data, target=None, ...)
    check_drafter_vocab(model, target=None)

Without `target`, each uses the verifier the draft's config names when it is on this host
(`find_verifier=False`: never); `target_source` in the result says which was used.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Sequence, Any, Callable, Mapping, NamedTuple

from spec_debug.eagle3 import engines
from spec_debug.eagle3.checkpoint import (
    CheckpointError, TargetCheckpoint, load_verifier_config, open_draft, open_target,
    resolve_checkpoint_dir,
)
from spec_debug.eagle3.config import TargetMisfitError, read_json
from spec_debug.eagle3.data import (
    DataError, DataInfo, SampleSpec, SkippedFiles, describe_data, find_dataset_masks,
    every_position_mask, iter_samples, mixed_sample_formats, repeated_sample_names,
)
from spec_debug.eagle3.slots import (
    ResolvedLayout, check_layout, configured_layout, parse_layout, slots_for_layer_ids,
)
from spec_debug.errors import UsageError

SEMANTICS = ("reference", "sglang", "vllm")
DEFAULT_STEPS = 3
# The deepest chain evaluated: every step is one more draft forward over each sample and one
# more entry in every per-step count, and no drafted token is accepted that deep (even at 0.95
# per step a chain reaches depth 64 in 4% of rounds). Was: --steps 1000000000 allocated per-step
# counts until the host ran out of memory (24 GB and climbing).
MOST_EVAL_STEPS = 64


# Where `target` came from, in the result's `target_source`.
TARGET_GIVEN = "--target"
TARGET_FROM_CONFIG = "speculators_config.verifier"


@dataclass(frozen=True)
class ResolvedTarget:
    checkpoint: TargetCheckpoint | None
    source: str | None  # TARGET_GIVEN | TARGET_FROM_CONFIG | None (no target)
    notes: tuple[str, ...] = ()
    refused: str | None = None  # why the verifier the config names, found here, is not used

    @property
    def path(self) -> str | None:
        return str(self.checkpoint.path) if self.checkpoint is not None else None


# what eval does without the verifier it cannot find; `drafter vocab` says its own (api.py)
_NO_VERIFIER_SCORING = ("scored against the data's next tokens; pass --target DIR to score "
                        "against the verifier's argmax")


def _config_verifier(cfg, use: bool, without: str = _NO_VERIFIER_SCORING
                     ) -> tuple[Path | None, list[str]]:
    """The verifier directory the draft's own config names, when it is here.

    speculators writes `speculators_config.verifier.name_or_path` (a Hub id or the local path
    training used, EAGLE3.md section 1) and `vllm serve <draft>` takes the verifier from it
    (speculators README), so it is the target this draft is meant for. Nothing is downloaded:
    a local directory, or a snapshot in the local Hugging Face cache."""
    if not use or not cfg.verifier:
        return None, []
    # a relative path is read from the current directory, as vLLM reads it where the server
    # starts (not from the draft's folder): said, with the directory, in either outcome, and
    # the path found made absolute (the report said "target: target")
    relative = not Path(str(cfg.verifier)).expanduser().is_absolute()
    try:
        found = resolve_checkpoint_dir(cfg.verifier, "--target", "verifier")
    except CheckpointError:
        from spec_debug.eagle3.checkpoint import looks_like_hub_id

        cwd = f" (a relative path is read from the current directory, {Path.cwd()})" \
            if relative and not looks_like_hub_id(str(cfg.verifier)) else ""
        return None, [f"the draft's config names its verifier {cfg.verifier!r} "
                      "(speculators_config.verifier.name_or_path), which is neither a local "
                      f"directory{cwd} nor in the Hugging Face cache: {without}"]
    return (found.absolute() if relative else found), []


def resolve_target(target: str | Path | None, cfg, *, find_verifier: bool = True
                   ) -> ResolvedTarget:
    """`--target` when given; else the verifier named by the draft's config when it is here
    and fits the draft (a path reused for another model must not silently score it); else
    none, with a note saying why."""
    if target:
        given = open_target(target)
        return ResolvedTarget(given, TARGET_GIVEN, tuple(
            _other_verifier_note(cfg, given) or _named_verifier_differs(cfg, given, find_verifier)))
    path, notes = _config_verifier(cfg, find_verifier)
    if path is None and find_verifier and not cfg.verifier:
        # an EAGLE/SpecForge draft, or a speculators config stripped of speculators_config:
        # the table's "(data_tokens)" alone read as a draft scoring 0.03 where it scores 0.69
        # against its target (the reference it was trained on)
        notes = [f"no target: the draft's config names no verifier (speculators_config.verifier), so "
                 f"the samples were {_NO_VERIFIER_SCORING}"]
    if path is None:
        return ResolvedTarget(None, None, tuple(notes))
    try:
        found = open_target(path)
    except CheckpointError as exc:
        reason = (f"the verifier the draft's config names ({cfg.verifier}) could not be read "
                  f"({exc.message})")
        return ResolvedTarget(None, None, (reason + ": scored without it; pass --target DIR",),
                              refused=reason + ": pass --target DIR")
    if found.config.hidden_size != cfg.target_hidden_size:
        reason = (f"the verifier the draft's config names ({cfg.verifier}, found at {path}) has "
                  f"hidden_size {found.config.hidden_size}, the draft takes "
                  f"{cfg.target_hidden_size}-wide states")
        return ResolvedTarget(None, None, (reason + ": not used; pass --target DIR",),
                              refused=reason + ": not used; pass --target DIR with the model "
                                               "the draft was trained for")
    named = "" if str(path) == str(cfg.verifier) else f" {cfg.verifier!r}"
    return ResolvedTarget(found, TARGET_FROM_CONFIG, (
        f"target: {path}, the verifier{named} the draft's config names "
        "(speculators_config.verifier); pass --target to use another",))


# the task head a transformers class name ends with: "Llama4ForConditionalGeneration" (the
# multimodal checkpoint) and "Llama4ForCausalLM" (its text part saved alone) are one model
_TASK_SUFFIX = re.compile(r"For[A-Z]\w*$")


def _architectures(mapping: Any) -> set[str]:
    """The model families a config's `architectures` name, without the task head: engines
    map both classes of a family to one implementation (vLLM's registry, SGLang's
    model_config), and a local copy of a multimodal verifier is often its text model."""
    names = mapping.get("architectures") if isinstance(mapping, Mapping) else None
    return {_TASK_SUFFIX.sub("", str(a)) or str(a) for a in names} \
        if isinstance(names, list) else set()


def _other_verifier_note(cfg, given) -> list[str]:
    """A note when --target is another kind of model than the verifier the draft's config
    names (speculators_config.verifier.architectures, which speculators writes from the
    verifier's config, src/speculators/config.py VerifierConfig.from_config): the draft was
    trained on that model's hidden states, and scored against another one's head the
    accuracies say nothing of the weights (or the config's verifier is stale). Architectures,
    not names: a local copy of the verifier rarely carries its Hub name."""
    spec = cfg.raw.get("speculators_config") if isinstance(cfg.raw, Mapping) else None
    verifier = spec.get("verifier") if isinstance(spec, Mapping) else None
    families = _architectures(verifier), _architectures(given.config.raw)
    if not all(families) or families[0] & families[1]:
        return []
    named, found = verifier["architectures"], given.config.raw["architectures"]
    return [f"--target {given.path} is a {', '.join(sorted(map(str, found)))}, but the draft's "
            f"config names the verifier {cfg.verifier or '(no name)'} "
            f"({', '.join(sorted(map(str, named)))}, "
            "speculators_config.verifier): a draft is only accurate on the hidden states of "
            "the model it was trained on; if that is the named one, pass it as --target and "
            "serve the draft with it; if it is this one, the config's verifier is stale"]


def _named_verifier_differs(cfg, given, use: bool) -> list[str]:
    """A note when the verifier the draft's config names is here, of the same kind as
    --target (_other_verifier_note is silent), yet another model: a base and an instruct
    model share architecture and sizes. Their final norms (one [H] tensor each) tell them
    apart; a copy of the same model has the same norm."""
    path, _ = _config_verifier(cfg, use)
    if path is None or Path(path).resolve() == Path(given.path).resolve():
        return []
    try:
        named = open_target(path)
        norms = [t.tensors.get(t.norm_name) if t.norm_name else None for t in (named, given)]
    except CheckpointError:
        return []  # unreadable: nothing to compare (using it is resolve_target's business)
    if any(n is None for n in norms) or _same_values(*norms):
        return []
    return [f"--target {given.path} is not the verifier the draft's config names "
            f"({cfg.verifier}, found at {path}): their final norms differ, so they are "
            "different models of one kind (a base and an instruct model); a draft is only "
            "accurate on the hidden states of the model it was trained on: pass that one as "
            "--target (or leave --target out), or if the draft was trained on this one, the "
            "config's verifier is stale"]


def _same_values(a, b) -> bool:
    """Equal tensors, compared in the coarser of their float types: a bfloat16 copy of a
    float32 checkpoint holds its values rounded, and is the same model. Copies in two
    half types (bfloat16 and float16, each rounded from float32) may differ by one step of
    the coarser type where rounding twice lands on a tie, so those are equal within it."""
    import torch

    if a.shape != b.shape:
        return False
    if a.dtype != b.dtype and a.is_floating_point() and b.is_floating_point():
        coarse = max((a.dtype, b.dtype), key=lambda dtype: torch.finfo(dtype).eps)
        if bool((a.to(coarse) == b.to(coarse)).all()):
            return True
        if max(torch.finfo(a.dtype).bits, torch.finfo(b.dtype).bits) > 16:
            return False
        # one step of the coarser type at each value: its eps scaled to the value's binade
        step = torch.finfo(coarse).eps * torch.exp2(torch.floor(torch.log2(
            torch.maximum(a.float().abs(), b.float().abs()).clamp_min(torch.finfo(coarse).tiny))))
        return bool(((a.float() - b.float()).abs() <= step).all())
    return bool((a == b).all())


def _num_target_layers(target, info: DataInfo) -> int | None:
    if target is not None:
        return target.config.num_layers
    if info.layer_ids:
        return max(info.layer_ids)  # the final slot is named N (input-to convention)
    return None


# dump formats whose files keep the aux states under their own key, apart from the final one
_AUX_APART = {"specforge": "aux_hidden_state", "modelopt": "aux_hidden_states",
              "trtllm": "aux_hidden_states", "angelslim": "hidden_states"}


# the key each of those writers saves the final state under (data.py _AUX_KEYS)
_FINAL_KEY = {"specforge": "hidden_state", "modelopt": "hidden_states",
              "trtllm": "hidden_state", "angelslim": "target_hiddens"}


# whose training loader reads each dump format (all feed every aux state to fc)
_LOADER = {"speculators": "speculators'", "speculators_v1": "speculators'",
           "specforge": "SpecForge's", "angelslim": "AngelSlim's", "modelopt": "Model-Optimizer's"}


def _check_inputs(cfg, info: DataInfo, target, data) -> tuple[SampleSpec, bool, list[str]]:
    """Sizes that must agree before anything runs; returns the per-sample spec, whether the
    dump's last slot is the final layer, and notes."""
    Ht = cfg.target_hidden_size
    # speculators and the engines size fc from target_hidden_size, or from the draft's own
    # hidden_size when it is unset or null (config.parse_draft_config): say which it was
    said = (f"target_hidden_size {Ht}" if cfg.raw.get("target_hidden_size") is not None else
            f"target_hidden_size unset: the draft's hidden_size {Ht}")
    if (info.format in _FINAL_KEY and info.has_final and info.hidden_size != Ht
            and (info.num_slots - 1) * info.hidden_size == cfg.num_aux * Ht):
        # the aux key holds exactly the num_aux x Ht the draft's fc takes, and only the final
        # state (read first for the width: data.py _read_record) is another width: a dumper
        # that saved the aux concatenation, or a slice, under the final key. Blamed on the
        # dump's width, it sent the user after another target model.
        final_key, aux_key = _FINAL_KEY[info.format], _AUX_APART[info.format]
        raise DataError(f"{data}: `{final_key}` is {info.hidden_size} wide, but `{aux_key}` "
                        f"holds {cfg.num_aux} x {Ht} as the draft's fc takes ({said}): the "
                        f"final state was saved wrong, not the target's last hidden state "
                        f"({Ht} wide)",
                        hint=f"save `{final_key}` as the target's last hidden state, [1, T, "
                             f"{Ht}], beside `{aux_key}` [1, T, {cfg.num_aux * Ht}]")
    if info.hidden_size != Ht and target is not None and target.config.hidden_size == info.hidden_size:
        # the dump and the target agree: the draft is the odd one (a draft saved for another
        # target; speculators' from_pretrained refuses it too, when load_verifier_weights copies
        # the verifier's embeddings: "size mismatch for weight", checked with speculators 0.9.0)
        raise TargetMisfitError(f"the draft's fc takes {cfg.num_aux} x {Ht}-wide states ({said}), "
                              f"but the target {target.path} and the hidden states in {data} "
                              f"are {info.hidden_size} wide: the draft was made for another "
                              f"target (one of hidden size {Ht})",
                              hint="evaluate a draft trained for this target, or give the "
                                   "draft's own target and a dump of it")
    if info.hidden_size != Ht and info.num_slots == 1 and info.hidden_size % Ht == 0 \
            and info.hidden_size // Ht in (cfg.num_aux, cfg.num_aux + 1):
        # one state per token, the draft's aux count (with or without the final state) times the
        # target's width: the layer states concatenated (a
        # v1 data_*.pt holding torch.cat of them, as SpecForge's aux_hidden_state does), which
        # _state_dims calls "flattened slots?" in an hs file; no target of the draft's width has it
        raise DataError(f"{data}: the hidden states are {info.hidden_size} wide, the draft's fc "
                        f"takes {cfg.num_aux} x {Ht} ({said}); {info.hidden_size} is "
                        f"{info.hidden_size // Ht} x {Ht}: the layer states concatenated into one",
                        hint="save the states stacked, not concatenated: torch.stack([layer states..., "
                             "final layer state], dim=1) gives [tokens, slots, hidden]")
    if info.hidden_size != Ht:
        raise DataError(f"{data}: the hidden states are {info.hidden_size} wide, the draft's fc "
                        f"takes {cfg.num_aux} x {Ht} ({said})",
                        hint="this dump comes from another target model, or the draft config's "
                             "target_hidden_size is wrong")
    if target is not None and target.config.hidden_size != Ht:
        raise TargetMisfitError(f"{target.path}: target hidden_size {target.config.hidden_size}, "
                              f"the draft was trained on {Ht}-wide target states",
                              hint="--target must be the model the draft was trained for")
    notes: list[str] = []
    if info.format in _AUX_APART and info.has_final and info.num_slots - 1 < cfg.num_aux:
        # SpecForge keeps the final state apart (`hidden_state`, prepare_hidden_states.py), as
        # Model-Optimizer, TensorRT-LLM and AngelSlim do (data.py _AUX_KEYS): the aux key holds
        # all the aux states there are. Read as one more slot, the final state would be fed to
        # fc as an aux state and the targets lost.
        raise DataError(f"{data}: {_AUX_APART[info.format]} holds {info.num_slots - 1} "
                        f"state(s) of {Ht} per token, the draft's fc takes {cfg.num_aux} "
                        f"({cfg.num_aux} x {Ht})",
                        hint="this dump was captured for another draft: capture it again with the "
                             "draft's aux layer ids (eagle_config.eagle_aux_hidden_state_layer_ids)")
    N = target.config.num_layers if target is not None else None
    if info.layer_ids and N is not None and info.layer_ids[-1] == N \
            and info.num_slots - 1 < cfg.num_aux:
        # the dump names its last slot layer N, the final one (speculators' datagen appends
        # N, scripts/launch_vllm.py --include-last-layer; input-to-layer N = the final output):
        # it holds fewer aux states than fc takes. Read as aux + no final, the final layer
        # would be fed to fc and the targets taken from the data.
        trained = cfg.trained_layer_ids(N, target.config.architecture)
        raise DataError(f"{data}: the dump names its slots layers {list(info.layer_ids)}: "
                        f"{info.num_slots - 1} aux state(s) and the final layer {N}; the "
                        f"draft's fc takes {cfg.num_aux} (layers {trained})",
                        hint="this dump was captured for another draft: capture it again with "
                             "the draft's aux layer ids (eagle_aux_hidden_state_layer_ids)")
    beyond = [i for i in info.layer_ids or () if N is not None and i > N]
    if beyond:
        # no target has a layer past its last (input-to-layer N is the final output): a dump of
        # another, deeper model of the same width (Qwen3-30B-A3B's 48 layers vs Qwen3-1.7B's
        # 28, both 2048 wide) passes every size check and is scored as this target's states
        notes.append(f"the dump names layer(s) {beyond} beyond the target's {N} layers "
                     f"({target.path}): it was captured from another, deeper model of the "
                     "same width, so its states and targets are not this target's; dump "
                     "again from the target the draft serves with, or pass that model as "
                     "--target" + (
                         # the last slot named N + 1 alone: as likely metadata that numbers
                         # each layer's output, one higher than the input-to numbering the
                         # engines capture in (its final output N named N + 1)
                         f"; or the dump's layer_ids number each slot one layer higher than "
                         f"the layer it holds (a dumper numbering each layer's output: its "
                         f"last slot, named {N + 1}, the final output {N})"
                         if beyond == [N + 1] and info.layer_ids[-1] == N + 1 else ""))
    # speculators' dump = aux slots + the final layer (train/data.py strips the last slot);
    # a dump with exactly the aux slots has no final layer to take targets from
    has_final = info.num_slots > cfg.num_aux
    if not has_final:
        notes.append(f"the dump has {info.num_slots} slots per position, as many as the draft's "
                     "aux states: no final-layer slot, so targets are the data's next tokens"
                     # these writers save the final state under its own key (data.py _AUX_KEYS):
                     # a file without that key lost it; its aux key is not one slot short
                     + (f" (the files have no `{_FINAL_KEY[info.format]}`, the final state "
                        f"{_LOADER.get(info.format, 'its')} writer saves beside "
                        f"`{_AUX_APART[info.format]}`: it was dropped)"
                        if info.format in _FINAL_KEY else "" if info.layer_ids else
                        f" (a speculators dump always ends with the final layer: if this is "
                        f"one, it holds {info.num_slots - 1} aux states and was made for "
                        "another draft)"))
    spec = SampleSpec(hidden_size=Ht, num_slots=info.num_slots, vocab_size=cfg.vocab_size,
                      layer_ids=info.layer_ids,
                      attention_chunk_size=_text_int(target, "attention_chunk_size"),
                      bos_token_id=_text_int(target, "bos_token_id"))
    return spec, has_final, notes


def _text_int(target_ckpt, key: str) -> int | None:
    """A whole-number key of the target's language-model config (Llama 4: text_config), which
    tells its own chunked attention mask from packed documents in a saved attention_mask:
    attention_chunk_size (the chunk length), bos_token_id (what opens each document)."""
    value = _text_value(target_ckpt, key)
    return value if _whole_id(value) else None


def _text_value(target_ckpt, key: str):
    """A key of the target's language-model config (text_config where nested), else of its
    top level; None without a target."""
    if target_ckpt is None:
        return None
    from spec_debug.eagle3.config import text_config

    raw = target_ckpt.config.raw
    return text_config(raw, str(target_ckpt.path)).get(key, raw.get(key))


def _whole_id(value) -> bool:
    """A non-negative int that is not a bool (JSON true reads as 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _pad_token_ids(target_ckpt) -> frozenset[int]:
    """The target's pad_token_id and eos_token_id(s) (an int or a list), from config.json and
    from generation_config.json beside it, and the id of tokenizer_config.json's pad_token:
    the ids a tokenizer pads a batch with (pad_token set to eos_token where the model has
    none). config.json alone missed Qwen2.5/Qwen3 Instruct, whose tokenizer pads with
    <|endoftext|> 151643: config.json has eos_token_id 151645 and no pad_token_id, and only
    generation_config.json (pad_token_id 151643, eos_token_id [151645, 151643]) and the
    tokenizer's pad_token name it."""
    if target_ckpt is None:
        return frozenset()
    generation = _json_beside(target_ckpt.path, "generation_config.json")
    found: set[int] = set()
    for key in ("pad_token_id", "eos_token_id"):
        for source in (_text_value(target_ckpt, key), generation.get(key)):
            for one in source if isinstance(source, list) else [source]:
                if _whole_id(one):
                    found.add(one)
    tokenizer = _json_beside(target_ckpt.path, "tokenizer_config.json")
    pad = tokenizer.get("pad_token")
    pad = pad.get("content") if isinstance(pad, dict) else pad
    added = tokenizer.get("added_tokens_decoder")
    if isinstance(pad, str) and isinstance(added, dict):
        found.update(int(key) for key, token in added.items()
                     if isinstance(token, dict) and token.get("content") == pad
                     and str(key).isdigit())
    return frozenset(found)


def _json_beside(path, name: str) -> dict:
    """A JSON object file of the target's directory, {} when absent or unreadable (these
    files only add pad ids to a note)."""
    try:
        return read_json(Path(path) / name)
    except (CheckpointError, ValueError):  # ValueError: an integer past Python's digit limit
        return {}


class LeftPadding:
    """Samples that open with two or more of one pad/eos token id: a batch the dumper padded on
    the left (tokenizer padding_side="left", as for generation) and saved row by row without
    its attention_mask, which data._unpadded_rows would have cut off. No sequence opens with
    repeated end-of-sequence tokens; scored, every later row attends to the pad rows (3 pad
    rows before each of 3 samples: step-0 accuracy 0.690 -> 0.275, with no word).
    speculators' loader reads token_ids and hidden_states only (0.9.0 train/data.py
    ArrowDataset._get_raw_data), and takes a file only when its token_ids equal its dataset's
    input_ids: it drops these ("don't match input ids"), or trains on the pads as tokens where
    its dataset was padded the same way."""

    def __init__(self, pad_ids: frozenset[int]) -> None:
        self.pad_ids = pad_ids
        self.samples = 0
        self.rows = 0
        self.ids: set[int] = set()

    def scan(self, samples):
        pad_ids = self.pad_ids
        for sample in samples:
            ids = sample.token_ids
            if (pad_ids and sample.length > 2 and int(ids[0]) in pad_ids
                    and int(ids[1]) == int(ids[0])):
                other = (ids != ids[0]).nonzero()
                self.samples += 1
                self.rows += int(other[0]) if other.numel() else sample.length
                self.ids.add(int(ids[0]))
            yield sample

    def note(self, samples: int) -> list[str]:
        if not self.samples:
            return []
        ids = ", ".join(map(str, sorted(self.ids)))
        return [f"{self.samples} of {samples} samples open with a run of the target's pad/eos "
                f"token id {ids} ({self.rows} position(s) in all): a left-padded batch saved "
                "without its attention_mask? They were scored as tokens, and every later row "
                "attends to them; speculators' loader ignores attention_mask and takes a file "
                "only when its token_ids equal its dataset's input_ids, so it drops such a "
                "file ('don't match input ids', train/data.py) or trains on the pads: save "
                "the attention_mask beside padded samples (eval then scores them without the "
                "padding), or one unpadded sample per sequence"]


def _data_notes(info: DataInfo, data) -> tuple[Any, list[str]]:
    """The dataset masks (see _dataset_masks) and notes on what the dump directory holds."""
    masks, mask_note = _dataset_masks(info, data)
    repeated = repeated_sample_names(data)
    mixed = mixed_sample_formats(data)
    return masks, [note for note in (mask_note, repeated, mixed) if note]


def _dataset_masks(info: DataInfo, data):
    """speculators' loss masks, kept in its prepared dataset beside an hs dump whose files
    carry none (data.find_dataset_masks)."""
    if info.format != "speculators" or info.has_loss_mask:
        return None, None
    return find_dataset_masks(data)


def _finish_skipped(out: dict[str, Any], skipped: SkippedFiles, scored: int, data) -> None:
    if scored == 0:
        raise DataError(f"{data}: no usable samples ({skipped.summary()})" if skipped.count
                        else f"{data}: no samples", hint=skipped.first_hint)
    out["skipped_samples"] = skipped.count
    out["skipped"] = skipped.examples
    if skipped.count:
        out["notes"] = list(out.get("notes") or []) + [skipped.summary()]


def _vocab_issues(checkpoint, target, mapping=None) -> tuple[list[dict[str, Any]], list[str]]:
    """The vocab checks' issues, and their notes (what serves as it is: t2d_missing_note)."""
    from spec_debug.eagle3.vocab import check_checkpoint_vocab

    vocab = target.config.vocab_size if target is not None else None
    report = check_checkpoint_vocab(checkpoint, vocab)
    issues = list(report.issues) + _mapping_issues(checkpoint, mapping)
    # the draft's stale safetensors index, SD710 as `drafter vocab` fails it: eval and layout
    # said it only as a note, with no code, while their vocab_issues named SD301-SD303
    files = _stale_index_check(checkpoint.tensors)
    if files is not None:
        issues += list(files.issues)
    # a float d2t's facts say whether its offsets were rounded: exact ones are SGLang's fault
    # alone, which the steps say as info on a vLLM host (checks/vocab_maps.py _sglang_only)
    return [{"code": i.code, "kind": i.kind, "message": i.message,
             **({"facts": dict(i.facts)} if i.kind == "d2t_float" else {})} for i in issues], \
        list(report.notes)


def _head_map_issues(loaded) -> list[dict[str, Any]]:
    """The map that sends the draft's ids to other tokens than its lm_head rows were copied
    from (loading.py _head_map_note) is SD302's "a regenerated map misaligns lm_head rows":
    reported with the other vocab issues, not as a bare note."""
    from spec_debug.eagle3.head_map import HEAD_MAP_NOTE

    return [{"code": "SD302", "kind": "d2t_misaligns_lm_head", "message": note}
            for note in loaded.notes if note.startswith(HEAD_MAP_NOTE)]


def _read_mapping(path: str | Path | None, checkpoint, target_vocab_size: int | None):
    """--vocab-mapping, read and checked against the draft's lm_head rows and the target vocab
    (vocab_mapping.py); None without the option."""
    if not path:
        return None
    from spec_debug.eagle3.vocab_mapping import read_vocab_mapping

    cfg = checkpoint.config
    rows = checkpoint.shape("lm_head.weight")
    return read_vocab_mapping(path, draft_vocab_size=rows[0] if rows else cfg.draft_vocab_size,
                              vocab_size=target_vocab_size or cfg.vocab_size)


def _activation_note(cfg: Any, semantics: str) -> list[str]:
    """A decoder activation other than silu: the forward here runs it (model.py ACTIVATIONS,
    as speculators and SpecForge train it with transformers' ACT2FN), but vLLM and SGLang
    build the draft's MLP from their LlamaMLP, which raises "Unsupported activation: ...
    Only silu is supported for now." (vllm model_executor/models/llama.py, sglang
    srt/models/llama.py): without a word, the numbers read as what the engine serves, and
    --semantics vllm|sglang as that engine's run of a draft it never loads."""
    act = cfg.hidden_act
    if act == "silu":
        return []
    key = ("transformer_layer_config.hidden_act"
           if isinstance(cfg.raw.get("transformer_layer_config"), Mapping) else "hidden_act")
    fix = (f"set {key} to \"silu\" if the draft was trained with SiLU, else train it again with silu")
    if semantics == "reference":
        return [f"the draft's {key} is {act!r}: evaluated with {act}, as speculators and SpecForge "
                "train it; vLLM and SGLang build only silu and refuse to load this draft "
                f"(\"Unsupported activation\", SD706): {fix}"]
    return [f"{semantics} does not run this draft: its LlamaMLP builds only silu and refuses "
            f"{key} = {act!r} (\"Unsupported activation\", SD706); these numbers are the forward "
            f"with {act} as trained, not what {semantics} serves: {fix}"]


def _absent_flag_notes(raw: Mapping[str, Any], flag_values: Mapping[str, bool],
                       semantics: str) -> list[str]:
    """A note per norm flag a speculators-format config leaves out whose default differs
    between speculators and vLLM: speculators' Eagle3SpeculatorConfig defaults
    norm_before_residual to false, vLLM's speculators loader to true (config_dict.get(
    'norm_before_residual', True), vllm transformers_utils/configs/speculators/algos.py
    update_eagle3, 0.10.1 .. 0.33.0; the configs step says so as SD701). Which one training
    used the config no longer says, and the eval ran one of them without a word. An
    EAGLE-format config is read with false by every engine (getattr(config, flag, False))."""
    if not engines.is_speculators_format(raw):
        return []
    misspelled = engines.misspelled_norm_flags(raw)  # noted above, with the value written
    defaults = {"speculators": engines.convention("speculators", "flag_defaults"),
                "vLLM": engines.convention("vllm", "flag_defaults")}
    notes = []
    for flag in engines.NORM_FLAGS:
        assumed = {engine: bool(values.get(flag, False)) for engine, values in defaults.items()}
        if flag in raw or flag in misspelled or len(set(assumed.values())) == 1:
            continue
        used = ("speculators' default" if semantics == "reference" else f"as {semantics} runs it")
        notes.append(f"config.json has no {flag}: run here with {flag} = "
                     f"{json.dumps(flag_values[flag])} ({used}); speculators assumes "
                     f"{json.dumps(assumed['speculators'])} when the key is absent, vLLM "
                     f"{json.dumps(assumed['vLLM'])}, so the draft served by vLLM may run "
                     f"another network than this: write \"{flag}\": true or false, as the "
                     "draft was trained")
    return notes


def _map_file_hint(checkpoint, data) -> list[str]:
    """A note naming a training map file found beside the draft or the dump, for a checkpoint
    without d2t (its export dropped the buffers)."""
    from spec_debug.eagle3.vocab_mapping import find_beside

    root = Path(data) if Path(data).is_dir() else Path(data).parent
    found = find_beside((checkpoint.path, root, root.parent), checkpoint.config.draft_vocab_size)
    if found is None:
        return []
    return [f"{found} looks like the training's vocab map: pass --vocab-mapping {found} to "
            "score the draft with it, and save its d2t and t2d into the checkpoint"]


def _mapping_issues(checkpoint, mapping) -> list:
    if mapping is None:
        return []
    from spec_debug.eagle3.vocab import VocabIssue, check_vocab_maps
    from spec_debug.eagle3.vocab_mapping import mapping_issue

    issue = mapping_issue(checkpoint.vocab_maps()[0], mapping)
    # the file's own maps, checked as a checkpoint's are: a map of absolute ids
    # (verl-project/verl-SpeCo#67) is as wrong there as in model.safetensors, and so is a d2t
    # saved in a type too narrow for its offsets (d2t.npy as uint16: read as int64, its
    # wrapped offsets were scored without a word of the cause)
    vocab = mapping.t2d.numel() if mapping.t2d is not None else checkpoint.config.vocab_size
    own = check_vocab_maps(d2t=mapping.d2t, t2d=mapping.t2d, target_vocab_size=vocab,
                           draft_vocab_size=mapping.d2t.numel(),
                           d2t_dtype=mapping.d2t_dtype).issues
    # a float map file whose offsets are exact was read as int64 exactly: what SGLang makes
    # of a float d2t is the checkpoint's concern, not the file's
    own = [i for i in own if not (i.kind == "d2t_float" and not i.facts.get("rounded"))]
    return ([issue] if issue is not None else []) + [
        VocabIssue(i.kind, f"{mapping.source}: {i.message}", i.facts) for i in own]


def _check_user_layout(slots: tuple[int, ...], num_aux: int, info: DataInfo) -> None:
    """check_layout, and when the numbers given are the layer ids the dump names rather than
    slot indices (eval prints both, "layout [0, 1, 2] (layer_ids) = layers [2, 30, 58]"), say
    which slots those layers are."""
    try:
        check_layout(slots, num_aux, info.num_slots)
    except UsageError as exc:
        as_slots = slots_for_layer_ids(slots, info.layer_ids)
        if as_slots is None or as_slots == slots:
            raise
        raise UsageError(f"{exc.message}; --layout takes slot indices, and this dump names its "
                         f"slots layers {list(info.layer_ids or ())}",
                         hint=f"layers {list(slots)} are --layout "
                              f"{','.join(map(str, as_slots))}") from None


def _aux_order_note(ids: list[int]) -> str | None:
    """vLLM and SGLang capture aux states while walking the target's layers, appending a state
    when the layer's index is in the set of ids (vllm model_executor/models/llama.py
    LlamaModel.forward `idx in self.aux_hidden_state_layers`; sglang srt/models/llama.py
    `i in self.layers_to_capture`): fc gets one state per distinct id, in layer order. A
    repeated id leaves fc short: both pass the concatenated states to it as they come (vllm
    model_executor/models/llama_eagle3.py combine_hidden_states, `self.model.fc(hidden_states)`),
    a shape error. A dump captured with the config's list holds the layer twice, as the draft
    was trained: the config, not that dump, is at fault (data._refuse_repeated_slots)."""
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        return (f"eagle_aux_hidden_state_layer_ids {ids} names layer(s) {repeated} more than "
                f"once: vLLM and SGLang capture each layer once, so fc would be served "
                f"{len(set(ids))} states for its {len(ids)} (a shape error in fc: the draft "
                f"cannot be served as configured); list {len(ids)} distinct layers, and "
                "capture and train again on them")
    if ids != sorted(ids):
        return (f"eagle_aux_hidden_state_layer_ids {ids} is not ascending: vLLM and SGLang "
                f"capture in layer order and feed fc layers {sorted(ids)}; if the draft was "
                f"trained on states concatenated as listed, the engines serve them permuted: "
                f"list the ids ascending and train on the states in that order")
    return None


def _nested_aux_ids_note(cfg, engines_feed: Sequence[int] | None) -> str | None:
    """A speculators config whose eagle_aux_hidden_state_layer_ids sit inside
    transformer_layer_config, not at the top level: vLLM reads the top-level key only
    (vllm transformers_utils/configs/speculators/algos.py update_eagle3) and speculators'
    Eagle3SpeculatorConfig has it as a top-level field, so the engines feed their default
    layers, silently, whatever the draft was trained on."""
    if cfg.format != "speculators" or cfg.aux_layer_ids:
        return None
    decoder = cfg.raw.get("transformer_layer_config") if isinstance(cfg.raw, Mapping) else None
    nested = decoder.get("eagle_aux_hidden_state_layer_ids") if isinstance(decoder, Mapping) \
        else None
    if not isinstance(nested, list) or not nested \
            or (engines_feed and nested == list(engines_feed)):
        # none, the default layers anyway (nothing served differs), or not a list of ids:
        # a key nobody reads is not parsed here either, a bad value must not stop the run
        return None
    served = f" {list(engines_feed)}" if engines_feed else ""
    return (f"config.json has eagle_aux_hidden_state_layer_ids {nested} inside "
            "transformer_layer_config, where neither vLLM nor speculators reads it: the "
            f"engines feed the draft their default layers{served}; move the key to the top "
            "level of config.json")


def _resolve_layout(cfg, info: DataInfo, num_target_layers: int | None, layout: str | None,
                    semantics: str, engine_version: str | None,
                    target_architecture: str | None = None) -> tuple[ResolvedLayout, list[str]]:
    notes: list[str] = []
    # the target's class reads a plain draft's nested [0, ...] (the layer check's SGLang fix)
    trained = cfg.trained_layer_ids(num_target_layers, target_architecture) if num_target_layers else (
        _trained_without_depth(cfg))
    assumed = not cfg.names_layer_ids and trained is not None
    resolved = configured_layout(cfg.num_aux, trained, info.layer_ids, info.num_slots,
                                 assumed=assumed)
    if resolved.note:
        notes.append(resolved.note)
    if trained and target_architecture is None and (num_target_layers or not assumed):
        reading = _assumed_reading_note(cfg, num_target_layers or None, trained)
        if reading:
            notes.append(reading)
    from spec_debug.eagle3.layout import shifted_capture

    shifted = shifted_capture(trained, info.layer_ids) if trained and info.layer_ids else None
    if shifted and not layout and assumed:
        # no ids in the config: the engines serve their default [2, N//2, N-3] (EAGLE3.md
        # section 3), so a dump of other layers says what to write, not that it is off
        aux = list(info.layer_ids[:cfg.num_aux])
        notes.append(f"the draft's config names no eagle_aux_hidden_state_layer_ids, so "
                     f"engines feed it their default layers {trained}; this dump holds "
                     f"{aux} (input-to-layer numbering): if the draft was trained on it, "
                     "write its layers into the draft's config.json (`spec-debug drafter "
                     "layout` ranks the dump's slots)")
    elif shifted and not layout:
        notes.append(f"the dump {shifted}; `spec-debug drafter layout` ranks its slots")
    beyond = [i for i in trained or () if num_target_layers and i > num_target_layers]
    if beyond:
        # ids copied with a config from a deeper target of the same width (Qwen3-30B-A3B's 48
        # layers vs Qwen3-1.7B's 28, both 2048 wide): no engine captures a layer the target
        # lacks (engines.serve_plan `unreachable`), so fc is served fewer states than it takes
        notes.append(f"the draft's aux layer ids {trained} name layer(s) {beyond} beyond the "
                     f"target's {num_target_layers}: a config written for a deeper target; "
                     "engines capture nothing there, so the draft cannot be served as "
                     "configured; set eagle_aux_hidden_state_layer_ids to the layers the "
                     "dump was made from")
    order = _aux_order_note(list(cfg.aux_layer_ids or ()))
    if order:
        notes.append(order)
    misplaced = _nested_aux_ids_note(cfg, trained)
    if misplaced:
        notes.append(misplaced)
    aux_slots = info.num_slots - 1  # the last slot is the final layer (see _check_inputs)
    if not layout and info.layer_ids is None and aux_slots > cfg.num_aux:
        # speculators' dumps do not name their slots (hs_connectors writes no layer ids) and
        # its loader feeds every slot but the last to fc (src/speculators/train/data.py):
        # this dump was made for a draft with another aux count, and which slots this draft
        # takes is a guess
        notes.append(f"the dump has {aux_slots} aux slots per position before the final one "
                     f"and does not name their layers; the draft's fc takes {cfg.num_aux}: "
                     f"the first {cfg.num_aux} were used ({_LOADER.get(info.format, 'its')} "
                     f"loader would feed all {aux_slots} and fail); run `spec-debug drafter "
                     "layout` to find the "
                     "slots the draft was trained on, then pass them as --layout"
                     + _every_layer_hint(trained, info, cfg.num_aux))
    if layout:
        slots = parse_layout(layout)
        _check_user_layout(slots, cfg.num_aux, info)
        named = tuple(info.layer_ids[s] for s in slots) if info.layer_ids else None
        return ResolvedLayout(slots, named, "user"), notes
    if semantics != "reference" and not cfg.use_aux_hidden_state and cfg.num_aux >= 2:
        # SGLang captures no aux layer and vLLM builds no fc for such a config (config.py
        # use_aux_hidden_state): the engine runs this draft on the target's last state alone,
        # which the forward here does not model, so its numbers are not the engine's. A head
        # trained on the last state alone sets the key on purpose (diagnose/checks/layers.py
        # _aux_off): only an fc of several states is at odds with it
        notes.append(f"{semantics} reads eagle_config.use_aux_hidden_state = false from the "
                     "draft's config: it captures no aux layers and builds no fc, and feeds "
                     f"the draft the target's last hidden state alone, while fc.weight takes "
                     f"{cfg.num_aux} states; this evaluation fed the aux states as trained, so "
                     f"its numbers are not what {semantics} gets (expect acceptance near zero; "
                     "SD204): remove use_aux_hidden_state from eagle_config")
    if semantics != "reference" and num_target_layers is not None:
        plan = engines.serve_plan(semantics, engine_version, cfg.raw, num_target_layers, target_architecture)
        mapped = slots_for_layer_ids(plan.layer_ids, info.layer_ids)
        failure = (engines.capture_failure(semantics, target_architecture)
                   or engines.eagle3_release_failure(semantics, engine_version)
                   or engines.capture_failure(semantics, target_architecture, engine_version))
        if failure:
            # no aux state at all (SGLang on a Qwen3.5 target), not an fc sized for other states
            notes.append(f"{semantics} {engine_version or 'latest'}: {failure}; evaluated with the "
                         "configured layout")
        elif plan.fan_in_mismatch:
            notes.append(f"{semantics} {engine_version or 'latest'} captures {plan.layer_ids} "
                         f"but builds fc for {plan.fc_fan_in or cfg.num_aux} states: it would "
                         "fail to run this draft")
        elif mapped is not None and len(mapped) == cfg.num_aux:
            return ResolvedLayout(mapped, tuple(plan.layer_ids), "engine"), notes
        elif list(plan.layer_ids) != list(resolved.layer_ids or trained or []):
            notes.append(f"{semantics} would feed layers {plan.layer_ids}, which this dump does "
                         "not hold; evaluated with the configured layout")
    return resolved, notes


def _trained_without_depth(cfg) -> list[int] | None:
    """The config's ids as trained layer-inputs when neither a target nor the dump's layer_ids
    give the target's depth; None when it names none (the default needs the depth). Read as
    engines.trained_layer_ids reads them on no named target, not as written: SpecForge's
    eagle_config [1, 3, 5] are layer outputs, layer-inputs [2, 4, 6] (sgl-project/sglang#25454),
    an AngelSlim key is output-of too. The depth only sizes that default, so 0 stands for it."""
    if not cfg.names_layer_ids:  # AngelSlim's key too, as the configs step reads it
        return None
    return engines.trained_layer_ids(cfg.raw, 0)


def _assumed_reading_note(cfg, num_target_layers: int | None, trained: list[int]) -> str | None:
    """One line when the target's architecture is unknown and it decides what the config's ids
    mean: a plain draft's eagle_config list starting at 0 is layer-inputs from the embedding on
    a DeepSeek-family target (deepseek_v2.py, sgl-project/sglang#25454), each one higher on the
    Llama path, where models/llama.py adds 1 (engines.trained_layer_ids). The reading taken is
    said, not presented as the trained layers. Without the depth (no target, a dump that names
    no layers) the readings that do not hang on it."""
    readings = engines.readings_by_target(cfg.raw, num_target_layers)
    if len(readings) < 2:
        return None
    written = engines.configured_layer_ids(cfg.raw, (engines.NESTED_KEY,))
    labels = readings.get(tuple(trained), [])
    others = "; ".join(f"on {' or '.join(where)} SGLang reads them as layer-inputs {list(ids)}"
                       for ids, where in readings.items() if list(ids) != list(trained))
    return (f"the target's architecture is unknown, so the draft's eagle_config ids {written} "
            f"were read as layer-inputs {trained}"
            + (f", as the newest SGLang reads them on {' or '.join(labels)}" if labels else "")
            + f"; {others}: give the target (--target) to read them by its architecture")


def _unservable_plan(cfg, semantics: str, engine_version: str | None, n_layers: int | None,
                     arch: str | None) -> dict[str, Any] | None:
    """The engine's capture for this draft when it cannot serve it: aux ids it never captures
    (a layer past the target's depth, a config written for a deeper target), so its fc is fed
    fewer states than it takes. The evaluation still runs the weights on the configured
    layout (its numbers are the weights', not the engine's) and said so in a note only, so the
    drafter_accuracy playbook PASSED over a draft the engine fails to run (eval_step raises
    SD201 from this)."""
    if (semantics == "reference" or not n_layers or not cfg.use_aux_hidden_state
            or engines.capture_failure(semantics, arch, engine_version) is not None
            or engines.eagle3_release_failure(semantics, engine_version) is not None):
        return None  # no aux capture at all (SGLang on Qwen3.5) is said as its own note
    plan = engines.serve_plan(semantics, engine_version, cfg.raw, n_layers, arch)
    if not plan.unreachable:
        return None  # an fc fan-in alone is the configs step's SD204
    return {"engine": semantics, "version": engine_version, "requested": list(plan.requested),
            "layer_ids": list(plan.layer_ids), "unreachable": list(plan.unreachable),
            "fc_fan_in": plan.fc_fan_in, "num_aux": cfg.num_aux,
            "num_target_layers": n_layers, "config_key": plan.config_key}


class _Inputs(NamedTuple):
    checkpoint: Any
    target: ResolvedTarget
    mapping: Any
    info: DataInfo
    spec: SampleSpec
    has_final: bool
    masks: Any
    notes: list[str]  # the target's, the inputs' and the data's, in that order
    n_layers: int | None


def _open_inputs(model, data, target, find_verifier: bool, vocab_mapping) -> _Inputs:
    """What evaluate_drafter and probe_layout both read first: the draft (its weights checked
    against its config before the data: a wrong config is its own fault), the target, the
    --vocab-mapping file, the dump and its checks."""
    from spec_debug.eagle3.loading import check_weights_fit_config

    checkpoint = open_draft(model)
    cfg = checkpoint.config
    check_weights_fit_config(checkpoint)
    resolved_target = resolve_target(target, cfg, find_verifier=find_verifier)
    target_ckpt = resolved_target.checkpoint
    mapping = _read_mapping(vocab_mapping, checkpoint,
                            target_ckpt.config.vocab_size if target_ckpt is not None else None)
    info = describe_data(data)
    spec, has_final, input_notes = _check_inputs(cfg, info, target_ckpt, data)
    masks, data_notes = _data_notes(info, data)
    n_layers = _num_target_layers(target_ckpt, info)
    return _Inputs(checkpoint, resolved_target, mapping, info, spec, has_final, masks,
                   list(resolved_target.notes) + input_notes + data_notes, n_layers)


def evaluate_drafter(model: str | Path, data: str | Path, target: str | Path | None = None, *,
                     steps: int | None = None, semantics: str = "reference",
                     engine_version: str | None = None, layout: str | None = None,
                     device: str = "cpu", dtype: str = "float32",
                     max_samples: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     find_verifier: bool = True,
                     vocab_mapping: str | Path | None = None) -> dict[str, Any]:
    """Evaluate a draft on a hidden-state dump; the metrics contract of `drafter eval`.

    Without `target`, the verifier the draft's config names is used when it is here
    (`find_verifier=False`: never; the reference is then the data's next tokens).
    `vocab_mapping`: the training's d2t/t2d file, scored instead of the checkpoint's maps."""
    from spec_debug.eagle3.evaluate import evaluate
    from spec_debug.eagle3.head_map import HEAD_MAP_NOTE
    from spec_debug.eagle3.loading import build_draft
    from spec_debug.eagle3.model import NormFlags

    if semantics not in SEMANTICS:
        raise UsageError(f"--semantics {semantics!r}: use one of {', '.join(SEMANTICS)}")
    if steps is not None and steps < 1:
        raise UsageError(f"--steps {steps}: give a draft depth of at least 1")
    if steps is not None and steps > MOST_EVAL_STEPS:
        raise UsageError(f"--steps {steps}: deeper than any chain is accepted (at most {MOST_EVAL_STEPS} here)",
                         hint="pass the depth the draft is served with (3 to 8 for most EAGLE-3 drafts)")
    try:
        engines.parse_version(engine_version)
    except ValueError as exc:
        raise UsageError(f"--engine-version: {exc}") from None
    checkpoint, resolved_target, mapping, info, spec, has_final, masks, input_notes, n_layers = \
        _open_inputs(model, data, target, find_verifier, vocab_mapping)
    cfg = checkpoint.config
    target_ckpt = resolved_target.checkpoint
    arch = target_ckpt.config.architecture if target_ckpt is not None else None
    resolved, notes = _resolve_layout(cfg, info, n_layers, layout, semantics, engine_version, arch)
    unservable = _unservable_plan(cfg, semantics, engine_version, n_layers, arch)
    if semantics == "reference":
        flag_values = cfg.norm_flags
        ignored: list[str] = []
    else:
        flag_values = engines.effective_norm_flags(semantics, engine_version, cfg.raw)
        ignored = engines.ignored_norm_flags(semantics, engine_version, cfg.raw)
    # SGLang always swaps in the target's embedding (eagle_worker.py set_embed)
    use_target_embed = semantics == "sglang" and target_ckpt is not None
    loaded = build_draft(checkpoint, target=target_ckpt, device=device, dtype=dtype,
                         use_target_embedding=use_target_embed, vocab_mapping=mapping,
                         no_target_reason=resolved_target.refused)
    vocab_issues, vocab_notes = _vocab_issues(checkpoint, target_ckpt, mapping)
    vocab_issues += _head_map_issues(loaded)
    input_notes += vocab_notes
    # a flag under a misspelled key (a hand edit): the reference runs it as training meant it
    input_notes += [f"config.json writes {key} = {json.dumps(value)}, a misspelling of {flag}, which "
                    f"speculators and the engines ignore (run here with {flag} = {flag_values[flag]}, "
                    f"{'as training meant it' if semantics == 'reference' else 'as ' + semantics + ' runs it'}): "
                    f"rename it to {flag}"
                    for flag, (key, value) in engines.misspelled_norm_flags(cfg.raw).items()]
    input_notes += _absent_flag_notes(cfg.raw, flag_values, semantics)
    input_notes += _activation_note(cfg, semantics)
    if engine_version and semantics == "reference":
        # the version picks an engine's conventions (engines.py), which only --semantics
        # sglang|vllm runs; the result's engine_version alone read as a run "as SGLang 0.5.0"
        input_notes.append(f"--engine-version {engine_version} is read only with --semantics "
                           "sglang or vllm: this evaluation ran the reference forward")
    if mapping is None and any(i["kind"] == "d2t_missing" for i in vocab_issues):
        input_notes += _map_file_hint(checkpoint, data)
    if steps is None and cfg.speculative_tokens and cfg.speculative_tokens > MOST_EVAL_STEPS:
        input_notes.append(f"the draft config's speculative_tokens is {cfg.speculative_tokens}, far past any use: "
                           f"evaluated at {DEFAULT_STEPS} steps; write the depth the draft was trained for "
                           "(speculators_config.proposal_methods[].speculative_tokens), or pass --steps")
        steps = DEFAULT_STEPS
    steps = steps or cfg.speculative_tokens or DEFAULT_STEPS

    # the slots read next are the ones fc takes: data.py refuses two of them holding one layer
    # (it cannot tell from the count alone: a dump of aux states only feeds fc every slot)
    fc_spec = replace(spec, fc_read=True, fc_layer_ids=tuple(cfg.aux_layer_ids or ()) or None)

    pad_ids = _pad_token_ids(target_ckpt)

    first: list = []  # the first sample evaluated, kept for the embedding-slot check

    def keep_first(samples):
        for sample in samples:
            if not first:
                first.append(sample)
            yield sample

    def run(use_loss_mask: bool):
        skipped = SkippedFiles()
        left_padded = LeftPadding(pad_ids)  # one per run: the rerun reads the files again
        samples = keep_first(iter_samples(data, slots=resolved.slots, final=has_final,
                                          max_samples=max_samples, spec=fc_spec,
                                          skipped=skipped, masks=masks))
        return skipped, left_padded, evaluate(loaded, left_padded.scan(samples), steps=steps,
                                              flags=NormFlags.of(flag_values), device=device,
                                              progress=progress, use_loss_mask=use_loss_mask)

    skipped, left_padded, result = run(use_loss_mask=True)
    every_position = False
    if result.samples and not any(result.counts["full_total"]):
        # Every mask is empty: every accuracy would read 0/0 = 0, a draft that looks broken.
        # speculators' data preparation drops such rows ("no supervised tokens",
        # src/speculators/data_generation/preprocessing.py _append_row), so the masks, not
        # the draft, are at fault: score every position and say so.
        skipped, left_padded, result = run(use_loss_mask=False)
        every_position = True
        input_notes.append(
            f"the loss_mask selects no position to score in any of the {result.samples} "
            "samples (all zero, or only the first token): every position was scored instead; "
            "a chat template whose assistant turns were not found writes such masks")
    from spec_debug.eagle3.layout import FINAL_SLOT_CHECK_BELOW

    causes_named = len(input_notes)
    flag_check = None
    unjudged_notes: list[str] = []  # said after the checks below, as they name no cause
    if semantics == "reference" and result.samples:
        # a draft that scores well reads the few samples it always read: the wider read is
        # for one that scores badly, where a wrong flag is a likely cause
        checked = (_FLAG_CHECK_SAMPLES if result.full_accuracy[0] < FINAL_SLOT_CHECK_BELOW
                   else _FEW_CHECK_SAMPLES)
        flag_notes, flag_check, unjudged_notes = _norm_before_residual_note(
            loaded, _enough_rows(iter_samples(data, slots=resolved.slots, final=has_final,
                                              max_samples=min(checked, max_samples or checked),
                                              spec=fc_spec, skipped=SkippedFiles(), masks=masks),
                                 every_position), device)
        input_notes += flag_notes

    every_slot: list[list] = []
    order_found: dict[str, Any] = {}  # _slot_order_note's best order, when it gave one

    def every_slot_samples() -> list:
        """Every slot of a few samples, bounded in bytes as `drafter layout` reads them (a
        wide dump holds tens of layers per token), read once for the checks below."""
        if not every_slot:
            # NaN/Inf in a slot the draft does not read (a wide dump's layer past float16's
            # range) is recorded in Sample.non_finite, as `drafter layout` reads them, and
            # the checks leave that slot out: the sample was skipped, and with every sample
            # skipped the checks below said nothing (the named-layers note on a dump named
            # one layer off was lost to a NaN in slot 7)
            every_slot.append(_bounded_samples(
                data, min(_FLAG_CHECK_SAMPLES, max_samples or _FLAG_CHECK_SAMPLES),
                _CHECK_MAX_BYTES, spec=replace(spec, finite_slots=tuple(resolved.slots)),
                final=has_final, skipped=SkippedFiles(),
                masks=masks, every_position=every_position))
        return every_slot[0]

    if result.samples and has_final and result.full_accuracy[0] < FINAL_SLOT_CHECK_BELOW \
            and _final_slot_checkable(loaded, info, resolved.slots):
        input_notes += _final_slot_note(
            loaded, every_slot_samples(), resolved.slots, NormFlags.of(flag_values), device,
            trained=cfg.trained_layer_ids(n_layers, arch) if n_layers else None, n_layers=n_layers)
    if semantics == "reference" and len(input_notes) == causes_named \
            and _slot_order_checkable(loaded, info, resolved, result, said=notes):
        # neither check above named a cause: the aux slots in another order
        command = f"spec-debug drafter layout --model {model} --data {data}" + (
            f" --target {target}" if target is not None else "")
        # a dump that names its slots is checked on the slots its metadata names for the
        # draft's layers, read as the evaluation read them (no wider read)
        order_notes = _slot_order_note(
            loaded, resolved,
            list(_enough_rows(iter_samples(data, slots=resolved.slots, final=has_final,
                                           max_samples=min(_FLAG_CHECK_SAMPLES,
                                                           max_samples or _FLAG_CHECK_SAMPLES),
                                           spec=fc_spec, skipped=SkippedFiles(), masks=masks),
                              every_position))
            if resolved.how == "layer_ids" else every_slot_samples(),
            NormFlags.of(flag_values), device, command, target_ckpt, found=order_found)
        input_notes += order_notes
    # a named dump's other order of its slots may gain a few rows where the neighbouring
    # layers gain many: a dump named one layer off was told "aux slots [1, 4, 3] score 0.405
    # vs 0.360 ... in another order than it was trained on" (5 of 111 rows), and the check
    # of its neighbours (slots [2, 4, 5]: 0.694) never ran; the clearly larger gain is the
    # cause (tests/eagle3/test_hardening77_named_off_over_order.py)
    order_named = bool(order_found) and resolved.how == "layer_ids"
    if semantics == "reference" and (len(input_notes) == causes_named or order_named) \
            and _named_layers_checkable(loaded, resolved, result):
        # no cause named, the slots' order included: are the slots the metadata names the
        # draft's layers at all?
        shift_found: dict[str, Any] = {}
        named_notes = _named_layers_note(
            loaded, info, resolved, result.full_accuracy[0], every_slot_samples,
            NormFlags.of(flag_values), device,
            f"spec-debug drafter layout --model {model} --data {data}" + (
                f" --target {target}" if target is not None else ""), found=shift_found)
        if not order_named:
            input_notes += named_notes
        elif shift_found and _clearly_more(shift_found, order_found):
            input_notes = [n for n in input_notes if n not in order_notes] + named_notes
    if result.samples and not any(_EXACT_EMBEDDING in n for n in input_notes):
        input_notes += _fed_embedding_note(
            loaded, info, resolved, cfg.trained_layer_ids(n_layers, arch) if n_layers else None,
            first, f"spec-debug drafter layout --model {model} --data {data}" + (
                f" --target {target}" if target is not None else ""), target_ckpt)
    input_notes += unjudged_notes + left_padded.note(result.samples)
    result.semantics = semantics
    result.engine_version = engine_version
    result.layout = list(resolved.slots)
    result.layout_layer_ids = list(resolved.layer_ids) if resolved.layer_ids else None
    result.notes = (input_notes + notes
                    + [note for note in result.notes if not note.startswith(HEAD_MAP_NOTE)]
                    + [f"{i['code']}: {i['message']}" for i in vocab_issues])
    out = result.to_dict()
    out.update({
        "model": str(model), "data": str(data), "target": resolved_target.path,
        "target_source": resolved_target.source, "layout_source": resolved.how,
        # where the scored positions come from: the files, speculators' dataset beside them,
        # or nowhere (every position scored)
        "loss_mask_source": ("file" if info.has_loss_mask else
                             "dataset" if masks is not None else "none"),
        "ignored_norm_flags": ignored,
        # ignored flags written as JSON strings ("false"), which the engine ran as true: the cause
        "string_norm_flags": {flag: value for flag, value in engines.string_norm_flags(cfg.raw).items()
                              if flag in ignored and flag_values.get(flag) and not cfg.norm_flags[flag]},
        "num_target_layers": n_layers, "data_format": info.format,
        "draft": cfg.summary(), "vocab_issues": vocab_issues,
        "vocab_mapping": str(mapping.source) if mapping is not None else None,
        # the other norm_before_residual fits the weights clearly better (None: it does not,
        # or was not checked); the layout report's field of the same name
        "norm_before_residual_check": flag_check,
        # --semantics sglang|vllm: the capture the engine cannot serve (None: it can, or unknown)
        "unservable_capture": unservable,
    })
    _finish_skipped(out, skipped, result.samples, data)
    return out


# step-0 accuracy under which eval on a dump that does not name its slots tries the other
# orders of its aux slots: trained EAGLE-3 drafts score 0.6-0.8 at step 0 (the incident's
# 74.7% validation accuracy; 0.622 in vllm-project/vllm#42764), an undertrained one about 0.5
# (AL ~1.9, sgl-project/SpecForge#128), while aux slots fed in another order than trained read
# like a weak draft (the informative test world: 0.690 as dumped, 0.31-0.33 permuted)
UNNAMED_LAYOUT_CHECK_BELOW = 0.4


def _slot_order_checkable(loaded, info: DataInfo, resolved: ResolvedLayout, result, *,
                          said: Sequence[str] = ()) -> bool:
    """Whether _slot_order_note is worth its read of every slot: a low step-0 score, a dump
    that does not name its slots and holds as many aux slots as fc takes (a wide one gets the
    note that names `drafter layout`, in `said`) or one whose layer_ids name the draft's
    layers (their slots were fed: the metadata is checked), a draft past its initial norms with a d2t
    for its smaller vocabulary (each order scores near zero without one)."""
    from spec_debug.eagle3.layout import unmapped_draft, untrained_draft

    aux_slots = info.num_slots - 1 if info.num_slots > len(resolved.slots) else info.num_slots
    # a dump that names its slots (layer_ids metadata) is fed the slots of the draft's layers:
    # the metadata is what is checked then, by the other orders of those slots (a dumper that
    # wrote [2, 30, 58] over states stacked in another order scored like weak weights, with
    # no word, where the same states unnamed got this note)
    shape_fits = (resolved.how == "layer_ids" if info.layer_ids is not None
                  else aux_slots == len(resolved.slots))
    return (bool(result.samples) and shape_fits and len(resolved.slots) >= 2
            and result.full_accuracy[0] < UNNAMED_LAYOUT_CHECK_BELOW
            and not untrained_draft(loaded) and not unmapped_draft(loaded)
            and not any("drafter layout" in n for n in said))


def _slot_order_note(loaded, resolved: ResolvedLayout, samples, flags, device: str,
                     command: str, target_ckpt=None,
                     found: dict[str, Any] | None = None) -> list[str]:
    """A note when a draft scores low on a dump that does not name its slots, or names them
    in its layer_ids metadata (_slot_order_checkable), and another order of its aux slots
    fits the weights clearly better (layout.unclear_rows' margins): eval feeds fc the slots it assumes (the first A, or
    --layout), and a dump written in another order (the incident's cat([embed, layer3,
    layer31]) against [layer3, layer31, layer59]) scored like weak weights with no word.
    Every order of the aux slots at step 0, on the few samples the other checks read (A!
    passes: 6 for 3 aux); a draft that scores low on every order (weak or random weights)
    gets no note. `found`, when given, gets the best order's step-0 score and rows."""
    import itertools

    from spec_debug.eagle3.evaluate import PrecisionError, TargetCache, evaluate
    from spec_debug.eagle3.layout import CLEAR_MARGIN, LAYOUT_MIN_GAIN

    fed = tuple(resolved.slots)
    # a dump that names its slots: `samples` hold the fed slots alone, in fed order (the
    # main evaluation's read, not every slot of a wide dump), scored by their positions
    named = resolved.how == "layer_ids"
    samples = list(samples)
    if not samples:
        return []
    targets = TargetCache()
    scores: dict[tuple[int, ...], float] = {}
    rows = 0
    as_read = tuple(range(len(fed))) if named else fed
    try:
        # the aux slots are the first A of a dump that does not name its slots
        # (_slot_order_checkable; a --layout may name others)
        for order in dict.fromkeys([as_read, *itertools.permutations(range(len(fed)))]):
            scored = evaluate(loaded, samples, steps=1, flags=flags, layout_positions=order,
                              device=device, targets=targets)
            scores[order], rows = scored.full_accuracy[0], scored.counts["full_total"][0]
    except PrecisionError:
        return []  # the evaluation itself says so
    best_read = max(scores, key=lambda order: (scores[order], order == as_read))
    gap = scores[best_read] - scores[as_read]
    if best_read == as_read or gap < CLEAR_MARGIN or round(gap * rows) < LAYOUT_MIN_GAIN:
        return []
    best = tuple(fed[i] for i in best_read) if named else best_read  # the file's slots
    best_score, fed_score = scores[best_read], scores[as_read]
    how = ("given as --layout" if resolved.how == "user"
           else f"named layers {list(resolved.layer_ids or ())} by the dump's layer_ids metadata"
           if named else f"the first {len(fed)}")
    # the one-layer-off clauses read the unnamed dump's every slot (the embedding output,
    # the final slot); a named dump's metadata says which layers it holds
    shifted = "" if named else _embedding_rotated(loaded, samples, best, fed, target_ckpt)
    if not shifted and not named:
        def score(order: tuple[int, ...]) -> float:
            return evaluate(loaded, samples, steps=1, flags=flags, layout_positions=order,
                            device=device, targets=targets).full_accuracy[0]
        shifted = _later_capture(samples, best, fed, best_score, rows, score)
    whose = ("by its layer_ids metadata, the dump" if named
             else "this dump, which does not name its slots,")
    # the weights fit another order of the slots the metadata names: the metadata is wrong,
    # or the draft was trained on the layers in another order than its config lists them
    # (then the engines, which feed them in layer order, serve it permuted too)
    fix = ("; either its layer_ids metadata does not match its tensors (a dumper that wrote "
           "layer_ids in another order than it stacked the states: fix the one or the other "
           "and dump again), or the draft was trained on these layers in that order, not the "
           "order its eagle_aux_hidden_state_layer_ids lists and the engines feed"
           if named else "")
    if found is not None:
        found.update(score=best_score, rows=rows)
    # SD401 quotes this note by its words (diagnose/checks/drafter.py SLOT_ORDER)
    return [f"aux slots {list(best)} score {best_score:.3f} at step 0 vs {fed_score:.3f} "
            f"for slots {list(fed)} fed to fc ({how}; step 0 on the first {len(samples)} "
            f"sample(s)): {whose} holds the draft's aux "
            "layers in another order than it was trained on (a wrong layout, not weak "
            f"weights){shifted}{fix}; `{command}` ranks "
            f"every layout of the dump, and --layout {','.join(map(str, best))} evaluates "
            "with that order"]


# The step-0 accuracy under which the slots a dump's layer_ids metadata names are checked
# against their neighbouring layers: a dump one layer off scored 0.52 where the layers
# themselves score 0.69 (tests/eagle3/test_hardening53_named_layers_off_by_one.py), above
# the 0.4 the slot-order check reads every order under.
NAMED_LAYERS_CHECK_BELOW = 0.6
# How far off its tensors a dump's layer_ids metadata is looked for, nearest first: one layer
# (each layer's output numbered where the engines number its input, EAGLE3.md section 3), and
# two (that, plus a dumper counting from 1 or the embedding output as a layer of its own),
# which scored as weak weights with no word when only one-layer shifts were tried.
NAMED_LAYER_SHIFTS = (-1, 1, -2, 2)


def _clearly_more(found: dict[str, Any], than: dict[str, Any]) -> bool:
    """A reading's step-0 score (`found`: score, rows) clearly above another's: by
    CLEAR_MARGIN and LAYOUT_MIN_GAIN rows, the margins the checks name a layout with."""
    from spec_debug.eagle3.layout import CLEAR_MARGIN, LAYOUT_MIN_GAIN

    gap = found["score"] - than["score"]
    return gap >= CLEAR_MARGIN and round(gap * found["rows"]) >= LAYOUT_MIN_GAIN


def _layers_apart(shift: int) -> str:
    return "one layer" if abs(shift) == 1 else f"{abs(shift)} layers"


def _named_layers_checkable(loaded, resolved: ResolvedLayout, result) -> bool:
    from spec_debug.eagle3.layout import unmapped_draft, untrained_draft

    return (resolved.how == "layer_ids" and bool(result.samples)
            and result.full_accuracy[0] < NAMED_LAYERS_CHECK_BELOW
            and not untrained_draft(loaded) and not unmapped_draft(loaded))


def _named_layers_note(loaded, info: DataInfo, resolved: ResolvedLayout, fed_score: float,
                       read_every_slot: Callable[[], list], flags, device: str,
                       command: str, found: dict[str, Any] | None = None) -> list[str]:
    """A note when a dump's layer_ids metadata names the draft's layers in the right order
    but the draft scores low on them and no other order fits better (_slot_order_note said
    nothing), or one does by less than a neighbouring reading (evaluate_drafter keeps the
    clearly larger gain): a metadata one layer off its tensors (a dumper numbering each layer's output,
    transformers' output_hidden_states[i + 1], where the engines capture each layer's input,
    EAGLE3.md section 3) scored like weak weights with no word. When the metadata also names
    the layers one or two below or above the draft's, those slots are scored at step 0 (a read of
    every slot of a few samples, bounded as `drafter layout` reads them); when it does not,
    the note says the metadata could not be checked. `found`, when given, gets the named
    shift's step-0 score and rows."""
    from spec_debug.eagle3.evaluate import PrecisionError, TargetCache, evaluate
    from spec_debug.eagle3.layout import CLEAR_MARGIN, LAYOUT_MIN_GAIN

    wanted = tuple(resolved.layer_ids or ())
    if not wanted or info.layer_ids is None:
        return []
    shifts = {shift: slots for shift, slots in _shifted_slots(wanted, info.layer_ids).items()
              if min(wanted) + shift >= 0}
    named = f"the slots {list(resolved.slots)} the dump's layer_ids metadata names as the " \
            f"draft's aux layers {list(wanted)}"
    if not shifts:
        return [f"the draft scores {fed_score:.3f} at step 0 on {named}; the dump does not "
                "hold the layers one or two below or above them (its layer_ids "
                f"{list(info.layer_ids)}), so that those slots hold those layers was not "
                "checked: a dumper whose layer_ids are one layer off its tensors (each "
                "layer's output, transformers' output_hidden_states[i + 1], where the engines "
                "capture each layer's input) lowers the score with no other sign. Dump every "
                f"layer once (with its layer_ids) and run `{command}` to rank them"]
    samples = read_every_slot()
    if not samples:
        return []
    # NaN/Inf there (Sample.non_finite): a reading of those slots scores on the samples
    # finite in them, with the fed slots scored on the same ones, when those are more than
    # half (a NaN at one position of one sample of three dropped the reading, and the note
    # that the metadata is one layer off with it); else it is not scored
    def clean(slots: Sequence[int]) -> tuple[int, ...]:
        return tuple(i for i, sample in enumerate(samples)
                     if not set(sample.non_finite).intersection(slots))

    kept = {shift: clean(slots) for shift, slots in shifts.items()}
    kept = {shift: chosen for shift, chosen in kept.items() if 2 * len(chosen) > len(samples)}
    bad = {slot for sample in samples for slot in sample.non_finite}
    unread = _non_finite_neighbours(samples, info, wanted, resolved.slots, fed_score, bad,
                                    [slots for shift, slots in shifts.items()
                                     if shift not in kept], command)
    shifts = {shift: slots for shift, slots in shifts.items() if shift in kept}
    if not shifts:
        return unread
    where = {slot: j for j, slot in enumerate(samples[0].slot_index)}
    if not all(s in where for s in resolved.slots) or not all(
            s in where for slots in shifts.values() for s in slots):
        return []
    targets = TargetCache()
    try:
        def score(slots: Sequence[int], chosen: tuple[int, ...]) -> tuple[float, int]:
            scored = evaluate(loaded, [samples[i] for i in chosen], steps=1, flags=flags,
                              device=device, targets=targets,
                              layout_positions=tuple(where[s] for s in slots))
            return scored.full_accuracy[0], scored.counts["full_total"][0]
        fed_on: dict[tuple[int, ...], tuple[float, int]] = {}
        for chosen in set(kept[shift] for shift in shifts):
            fed_on[chosen] = score(resolved.slots, chosen)
        scores = {shift: score(slots, kept[shift])[0] for shift, slots in shifts.items()}
    except PrecisionError:
        return []
    # the best shift against the fed slots on the same samples; on a tie the nearest
    # (NAMED_LAYER_SHIFTS is nearest first)
    shift = max(scores, key=lambda k: scores[k] - fed_on[kept[k]][0])
    fed, rows = fed_on[kept[shift]]
    gap = scores[shift] - fed
    if gap < CLEAR_MARGIN or round(gap * rows) < LAYOUT_MIN_GAIN:
        return unread
    slots = shifts[shift]
    named_as = [i + shift for i in wanted]
    left_out = len(samples) - len(kept[shift])
    if found is not None:
        found.update(score=scores[shift], rows=rows)
    on = (f"step 0 on the first {len(samples)} sample(s)" if not left_out else
          f"step 0 on {len(kept[shift])} of the first {len(samples)} sample(s), leaving out "
          f"{left_out} with NaN or Inf in slot(s) {sorted(bad.intersection(slots))}")
    return [f"the slots {list(slots)} the dump's layer_ids metadata names as layers "
            f"{named_as} score {scores[shift]:.3f} at step 0 vs {fed:.3f} for {named}, fed "
            f"to fc ({on}): "
            f"{_metadata_off(shift, named_as)}; --layout "
            f"{','.join(map(str, slots))} evaluates with those slots, `{command}` ranks every "
            "layout of the dump"]


def _metadata_off(shift: int, named_as: Sequence[int]) -> str:
    """The two causes of a best reading the slots a dump's layer_ids metadata names as the
    draft's layers moved by `shift` (eval's _named_layers_note, the layout verdict)."""
    return (f"the metadata numbers each slot {_layers_apart(shift)} "
            f"{'higher' if shift > 0 else 'lower'} than the layer it holds (a dumper numbering "
            "each layer's output, transformers' output_hidden_states[i + 1], where the engines "
            "capture each layer's input: fix its layer_ids and dump again), or the draft was "
            f"trained on layers {list(named_as)}, not the ones its config names")


def _non_finite_neighbours(samples, info: DataInfo, wanted: Sequence[int],
                           fed_slots: Sequence[int], fed_score: float, bad: set[int],
                           unscored: list[tuple[int, ...]], command: str) -> list[str]:
    """The note for neighbouring slots _named_layers_note could not score: they hold NaN/Inf
    (Sample.non_finite) in some sample it read. Said only when no finite neighbour showed the
    metadata off (the caller returns it then): a dump one layer off whose layer above holds
    NaN (an fp16 dump's late layer past float16's range) scored like weak weights with no word,
    where the clean dump got "the metadata numbers each slot one layer higher"."""
    held = sorted({slot for slots in unscored for slot in slots} & bad)
    if not held:
        return []
    seen: dict[int, list[tuple[str, str]]] = {}
    for sample in samples:
        for slot, at in sample.non_finite.items():
            if slot in held:
                seen.setdefault(slot, []).append((sample.name, at))
    ids = info.layer_ids or ()
    where = "; ".join(
        f"slot {slot}" + (f" (named layer {ids[slot]})" if slot < len(ids) else "")
        + f" in {len(seen[slot])} of {len(samples)} samples, first {seen[slot][0][0]} at "
        f"{seen[slot][0][1]}" for slot in held)
    return [f"the draft scores {fed_score:.3f} at step 0 on the slots {list(fed_slots)} the "
            f"dump's layer_ids metadata names as the draft's aux layers {list(wanted)}; "
            "whether the metadata is one or two layers off its tensors was not checked on "
            f"the neighbouring slots that hold NaN or Inf: {where}. A dumper whose layer_ids "
            "are one layer off its tensors (each layer's output, transformers' "
            "output_hidden_states[i + 1], where the engines capture each layer's input) "
            "lowers the score with no other sign: dump again with finite states (bfloat16, "
            f"not float16) and run `{command}` to rank every layout"]


_EXACT_EMBEDDING = "is exactly the embedding output"
_EMBEDDING_ROWS = 256  # rows of the first sample compared with embed_tokens[ids]: exact on all


def _fed_embedding_note(loaded, info: DataInfo, resolved: ResolvedLayout,
                        trained: Sequence[int] | None, samples, command: str,
                        target_ckpt=None) -> list[str]:
    """A note when a slot fed to fc holds exactly the embedding output (embed_tokens[ids], the
    draft's copy of the target's table) where the draft's aux ids name a later layer (id 0 is
    the embedding output in the input-to numbering the engines capture in, EAGLE3.md section
    3): the incident's cat([embed, layer3, layer31]) against [layer3, layer31, layer59]. A
    dump that does not name its slots was fed its first slots with no word of what they hold
    (a wide one got "run `spec-debug drafter layout`", which names the embedding slot only
    there, and an unnamed dump of as many aux slots as fc takes nothing above its score).
    The first sample's fed slots only, as the evaluation read them (no read of its own);
    exact on its first _EMBEDDING_ROWS rows, as layout.embedding_slot_checks compares."""
    from spec_debug.eagle3.layout import embedding_slot_checks

    if info.layer_ids is not None or not trained or len(trained) != len(resolved.slots):
        return []  # a dump that names its slots says which is layer 0; no ids to set against
    first = next(iter(samples), None)
    if first is None or first.length < 2:
        return []
    first = _first_rows(first, min(first.length, _EMBEDDING_ROWS))
    looked_up = _dump_embedding(loaded, target_ckpt, [first])
    if looked_up is None or not bool(looked_up[0].any()):
        return []
    checks = embedding_slot_checks(looked_up[1], looked_up[0], None)
    fed = [(resolved.slots[j], trained[j]) for j, check in enumerate(checks)
           if j < len(resolved.slots) and check.is_embedding and trained[j] != 0]
    if not fed:
        return []
    slots = ", ".join(f"slot {slot} (fed to fc as layer {layer})" for slot, layer in fed)
    how = {"user": "given as --layout", "first_slots": "the first slots of a dump that does "
           "not name its slots"}.get(resolved.how, resolved.how)
    aux_slots = info.num_slots - 1
    if resolved.how == "first_slots" and fed[0][0] == 0 and aux_slots > len(resolved.slots):
        # a wide dump that starts at the embedding output: one of every layer, as
        # transformers' output_hidden_states gives them, more likely than one layer off
        every = (f"; if it holds every layer, the draft's layers are --layout "
                 f"{','.join(map(str, trained))}" if max(trained) < aux_slots else "")
        cause = ("the dump starts at the embedding output, slot i the input to layer i as "
                 f"transformers' output_hidden_states gives them, so its first slots are not "
                 f"the draft's layers{every}")
    else:
        cause = ("the dump starts at the embedding output (transformers' "
                 "output_hidden_states[0]) and is one layer off the draft's, or the draft was "
                 "trained on cat([embed, ...]) while its config names other layers")
    return [f"{slots} {_EXACT_EMBEDDING} (embed_tokens[token_ids]; fed slots {list(resolved.slots)}, "
            f"{how}), while the draft's aux layers are {list(trained)} (id 0 would be the "
            f"embedding output): {cause}; `{command}` ranks every layout of the dump"]


def _later_capture(samples, best: tuple[int, ...], fed: tuple[int, ...], best_score: float,
                   rows: int, score: Callable[[tuple[int, ...]], float]) -> str:
    """The clause for a best order that is the fed one rotated right by one (the incident's
    direction: a draft trained on (embed, 3, 31) fed the engine's (3, 31, 59)) whose first
    position reads its slot no better than the dump's final slot (fewer than LAYOUT_MIN_GAIN
    rows apart, one more step-0 pass): the draft's first layer is in no slot, a capture one
    layer off rather than a reorder (layout._rotated_capture says the same in drafter
    layout's verdict); a true rotation by the dumper needs that slot there."""
    from spec_debug.eagle3.evaluate import PrecisionError
    from spec_debug.eagle3.layout import LAYOUT_MIN_GAIN

    final = samples[0].slots.shape[1] - 1
    if len(fed) < 2 or best != fed[-1:] + fed[:-1] or final in best or not rows:
        return ""
    try:
        filled = score((final,) + best[1:])
    except PrecisionError:
        return ""
    if round((best_score - filled) * rows) >= LAYOUT_MIN_GAIN:
        return ""
    return (f", or rather a capture one layer off: the best order reads slots "
            f"{list(fed[:-1])} at the draft's last {len(fed) - 1} positions and its first "
            f"reads slot {fed[-1]} no better than the final slot {final} "
            f"({filled:.3f} vs {best_score:.3f}) - the dump lacks the draft's first aux layer "
            "(a draft trained on an earlier layer, such as the embedding output, than the "
            "engine or dumper captures); capture the layers the draft was trained on and "
            "dump again, or retrain on the served layers")


def _dump_embedding(loaded, target_ckpt, samples) -> tuple[Any, list] | None:
    """(table, samples) to compare a dump's slots with embed_tokens[token_ids]: the target's
    rows for the samples' ids when the target was read, the samples' ids renumbered into them
    (a dump holds the target's embedding output; a draft trained with its own embedding,
    speculators `embed_requires_grad`, or exported with another, never matched its own
    table, which `drafter layout` never used either: it reads the target's). The rows alone
    are read, not a [V, H] table of GBs. Else the draft's table (its copy of the target's)."""
    import torch

    name = target_ckpt.embed_name if target_ckpt is not None else None
    info = target_ckpt.tensors.infos.get(name) if name is not None else None
    if info is not None and str(info.dtype) in _FLOAT_TABLE_DTYPES and len(info.shape) == 2:
        ids = torch.cat([s.token_ids.reshape(-1) for s in samples]).unique()  # sorted
        if ids.numel() and 0 <= int(ids[0]) and int(ids[-1]) < info.shape[0]:
            try:
                rows = target_ckpt.tensors.rows(name, ids.tolist())
            except (CheckpointError, OSError, RuntimeError):
                rows = None
            if rows is not None:
                return rows, [replace(s, token_ids=torch.searchsorted(ids, s.token_ids))
                              for s in samples]
    embed = getattr(getattr(loaded.model, "embed_tokens", None), "weight", None)
    return None if embed is None else (embed.detach().cpu(), list(samples))


# unquantized tables (an fp8 one's raw values are off by their scales: never exact)
_FLOAT_TABLE_DTYPES = frozenset({"F16", "BF16", "F32", "F64"})


def _embedding_rotated(loaded, samples, best: tuple[int, ...], fed: tuple[int, ...],
                       target_ckpt=None) -> str:
    """The clause for a best order that is the fed one rotated left by one around a slot
    holding exactly the embedding output (embed_tokens[ids], the draft's copy of the target's
    table): a dump of (embed, a, b) for a draft trained on (a, b, c) scores best as (a, b,
    embed), which is a capture one layer off, not a reorder (layout._rotated_capture says the
    same in drafter layout's verdict). SD401 quotes the note by its opening words, kept."""
    from spec_debug.eagle3.layout import embedding_slot_checks

    if len(fed) < 2 or best != fed[1:] + fed[:1]:
        return ""
    looked_up = _dump_embedding(loaded, target_ckpt, samples)
    if looked_up is None:
        return ""
    check = embedding_slot_checks(looked_up[1], looked_up[0], None)
    if fed[0] >= len(check) or not check[fed[0]].is_embedding:
        return ""
    return (f", or rather a capture one layer off: slot {fed[0]} is exactly the embedding "
            f"output (embed_tokens[ids]) and the best order reads it last, after slots "
            f"{list(fed[1:])} at the draft's first positions - the dump starts at the "
            "embedding output and lacks the draft's last aux layer; capture the layers in "
            "the draft's eagle_aux_hidden_state_layer_ids and dump again")


# The step-0 checks eval runs when a draft scores badly (the other norm_before_residual, the
# final layer in another slot) read samples until they hold _CHECK_ROWS scored rows, at most
# as many as `drafter layout` probes (probe_layout's max_samples). On 4 samples (before) a
# weak draft over short first samples made too few hits to pass the checks' significance
# margins (layout.FLAG_MIN_GAIN), and eval said nothing where layout named the fault.
_FLAG_CHECK_SAMPLES = 16
_CHECK_ROWS = 1024
_FEW_CHECK_SAMPLES = 4  # the norm_before_residual check of a draft that scores well


def _every_position(sample, every_position: bool):
    """The sample as the evaluation scored it: with no loss mask selecting any position it
    scored every one (but its padding tail), and so must the checks, or they compare 0 rows
    with 0 rows."""
    if not every_position:
        return sample
    return replace(sample, loss_mask=every_position_mask(sample))


def _enough_rows(samples, every_position: bool):
    """Samples (as evaluated) until they hold _CHECK_ROWS scored rows."""
    rows = 0
    for sample in samples:
        sample = _every_position(sample, every_position)
        yield sample
        rows += int(sample.loss_mask[1:].sum())  # rows a step-0 check scores (row t predicts token t + 1)
        if rows >= _CHECK_ROWS:
            return


def _norm_before_residual_note(loaded, samples, device: str
                               ) -> tuple[list[str], dict[str, Any] | None, list[str]]:
    """A note when the weights fit the other norm_before_residual clearly better than
    config.json's (layout.norm_before_residual_check: converted drafts often carry the wrong
    one), on a few samples at step 0: otherwise the evaluation reads as a broken draft. With
    it the check itself, which the eval step turns into SD704 as the layout step does (a note
    alone left the drafter_accuracy playbook PASSED over a draft scoring 0.05 as configured).

    The third list is a note that names no cause: the other value scored clearly better but no
    better than always predicting the samples' most frequent target token (layout.skill_check).
    Such a draft predicts nothing with either value, so its gain is noise (a draft that
    collapses onto one frequent token with one value), not config.json's fault: the layout
    probe already holds that reading back (its no-skill verdict; the layout step raises no
    SD704 then), while eval returned the check and the eval step raised SD704, an error that
    sent the user to edit config.json of a draft that predicts nothing either way."""
    from spec_debug.eagle3.evaluate import TargetCache
    from spec_debug.eagle3.layout import (flag_mismatch, norm_before_residual_check, skill_check,
                                          untrained_draft)

    samples = list(samples)
    if not samples or untrained_draft(loaded):
        return [], None, []
    targets = TargetCache()
    check = norm_before_residual_check(loaded, samples, None, device, targets=targets)
    if check["ranked_with"] == check["config"]:
        return [], None, []
    rows = check.get("rows")
    no_skill = (skill_check(loaded, check["flipped_accuracy0"], targets.most_frequent_target(samples), rows)
                if isinstance(rows, int) and rows > 0 else None)
    if no_skill is not None:
        ours, other = str(check["config"]).lower(), str(not check["config"]).lower()
        return [], None, [
            f"norm_before_residual={other} scored better than config.json's {ours} "
            f"({check['flipped_accuracy0']:.3f} vs {check['accuracy0']:.3f} at step 0 on the first "
            f"{len(samples)} sample(s)), but its {no_skill['best_rows']} of {no_skill['rows']} rows "
            f"right are no more than always predicting the most frequent target token (target id "
            f"{no_skill['target_id']}) gets ({no_skill['constant_rows']}): the draft predicts nothing "
            "with either value, so config.json's norm_before_residual is not judged from it"]
    return [flag_mismatch(check) + f" (step 0 on the first {len(samples)} sample(s))"], check, []


def _final_slot_checkable(loaded, info: DataInfo, configured: Sequence[int]) -> bool:
    """Whether layout.final_slot_check can run, known before reading every slot of the
    samples: a draft past its initial norms (an untrained one scores ~0 against any slot),
    with a d2t for its smaller vocabulary (one without scores ~0 against any slot too),
    unnamed slots (named ones say where the final layer is), more slots than aux states, the
    aux ones first. Its other refusals need the samples."""
    from spec_debug.eagle3.layout import unmapped_draft, untrained_draft

    return (not untrained_draft(loaded) and not unmapped_draft(loaded)
            and info.layer_ids is None and info.num_slots > len(configured)
            and tuple(configured) == tuple(range(len(configured))))


def _final_slot_note(loaded, samples, configured, flags, device: str, *,
                     trained: Sequence[int] | None = None,
                     n_layers: int | None = None) -> list[str]:
    """A note when another slot than the last holds the target's final layer
    (layout.final_slot_check, on a few samples at step 0): a dump written with the final layer
    first scores ~0 with no other word. `samples` are as the evaluation scored them
    (_bounded_samples' every_position)."""
    from spec_debug.eagle3.layout import final_slot_check, final_slot_mismatch

    samples = list(samples)
    if not samples:
        return []
    copied = _final_copies_aux(samples, configured, trained, n_layers)
    if copied:
        return [copied]
    check = final_slot_check(loaded, samples, tuple(configured), device, flags=flags)
    if check is None:
        return []
    return [final_slot_mismatch(check) + f" (step 0 on the first {len(samples)} sample(s))"]


def _final_copies_aux(samples, configured, trained, n_layers) -> str | None:
    """The last slot equal at every position of every sample to an aux slot whose layer is not
    the target's last: the dump's "final" slot is not the final layer (a datagen off-by-one
    that stores layer N-1's capture again, or the aux list with its last entry doubled in
    place of the final state; https://github.com/vllm-project/speculators/issues/705).
    speculators' loader takes the last slot as the final state unconditionally
    (src/speculators/train/data.py `hs[:, -1]`), so the draft is scored, and was trained,
    against the wrong layer's targets. An aux id on the last layer may equal the final slot
    legitimately (data._refuse_repeated_slots), hence the layer test."""
    if not trained or not n_layers or len(trained) != len(configured):
        return None
    import torch

    for k, slot in enumerate(configured):
        # both numberings of the last layer (output-of N-1, input-to N) may equal the final
        if trained[k] >= n_layers - 1:
            continue
        if all(s.final is not None and s.final.shape == s.slots[:, slot].shape
               and torch.equal(s.final, s.slots[:, slot]) for s in samples):
            return (f"the dump's last slot (read as the target's final layer) equals aux slot "
                    f"{slot} (layer {trained[k]} of {n_layers}) at every position of the first "
                    f"{len(samples)} sample(s): it is not the final layer, so every target "
                    "the draft is scored on is wrong; the datagen stored an aux capture in "
                    "place of the final state (an off-by-one in the captured layer ids, see "
                    "https://github.com/vllm-project/speculators/issues/705): dump again with "
                    "the final layer last")
    return None


# How the layout verdict's clause for two configured aux slots holding one layer says it
# (_repeated_aux_slots); the diagnose layout step reads it to say the ranking was not judged
REPEATED_SLOTS = "one layer captured twice"


def _repeated_aux_slots(samples, configured, dump_layer_ids, trained) -> str | None:
    """Two configured aux slots equal at every position of every probed sample: one layer
    captured twice (data._refuse_repeated_slots, which refuses such a sample for eval but not
    for the probe, which ranks every slot). Every layout that reads both scores near chance,
    so the probe ranks noise; the verdict must say why. A dump whose layer_ids metadata, or
    a config, names one layer twice says so itself and is left alone."""
    import torch

    from spec_debug.eagle3.data import _named_twice

    for a, b in itertools.combinations(range(len(configured)), 2):
        first, second = configured[a], configured[b]
        if _named_twice(dump_layer_ids, first, second) or _named_twice(trained, a, b):
            continue
        if samples and all(s.slots.shape[1] > max(first, second)
                           and torch.equal(s.slots[:, first], s.slots[:, second]) for s in samples):
            return (f"slots {first} and {second} of the dump, both read by the configured "
                    f"layout, are equal at every position of the {len(samples)} probed "
                    f"sample(s): {REPEATED_SLOTS} (a hook that stores under the wrong "
                    "layer id, or a layer listed twice), so every layout that reads them ranks "
                    "noise; fix the capture so each aux slot holds its own layer and dump again")
    return None


_CHECK_MAX_BYTES = 2 << 30  # states of every slot read at once by a check (see _bounded_samples)


def _bounded_samples(data, max_samples: int, max_bytes: int, *, spec: SampleSpec,
                     final: bool, skipped: SkippedFiles, masks=None,
                     every_position: bool | None = None) -> list:
    """Up to `max_samples` samples with all slots, cut so their states fit in `max_bytes` (a
    wide dump of a large model holds tens of layers per token). With `every_position` given
    (a step-0 check of eval's), only until they hold _CHECK_ROWS scored rows, as
    the evaluation scored them (see _enough_rows)."""
    kept, used = [], [0]
    # the reader reads only the rows that fit what is left (a wide dump's one sample of a
    # long sequence is tens of GB), and a cut sample keeps a copy of its rows, not the whole
    samples = iter_samples(data, max_samples=max_samples, final=final, spec=spec,
                           skipped=skipped, masks=masks, bytes_left=lambda: max_bytes - used[0])
    if every_position is not None:
        samples = _enough_rows(samples, every_position)
    for sample in samples:
        per_row = sample.slots[0].numel() * sample.slots.element_size()
        rows = min(sample.length, (max_bytes - used[0]) // max(per_row, 1))
        if rows < 2:
            break
        if rows < sample.length:
            sample = _first_rows(sample, rows)
            sample = replace(sample, slots=sample.slots.clone(),
                             final=None if sample.final is None else sample.final.clone())
        kept.append(sample)
        used[0] += rows * per_row
    return kept


def _first_rows(sample, rows: int):
    """The sample's first `rows` positions."""
    return replace(sample, token_ids=sample.token_ids[:rows], slots=sample.slots[:rows],
                   loss_mask=sample.loss_mask[:rows],
                   final=None if sample.final is None else sample.final[:rows])


def _within_max_positions(samples: list, max_positions: int) -> tuple[list, list[str]]:
    """Samples cut to the draft's max_position_embeddings, with a note when some were longer.
    The ranking weighs every row alike, so one long sample (a reasoning trace among short
    chat turns) outnumbers the others with rows the draft's config says it was not built for
    (evaluate._past_max_positions_note; vLLM caps the draft's context there): one sample of
    8400 tokens beside two of 14-15, max_position_embeddings 128, ranked a swapped order
    first ("trained on a different layout", 0.500 vs 0.430) for a draft that fits the
    configured one (0.690 on the short ones)."""
    if max_positions < 2:
        return samples, []
    long = [s.length for s in samples if s.length > max_positions]
    if not long:
        return samples, []
    return ([_first_rows(s, max_positions) if s.length > max_positions else s for s in samples],
            [f"{len(long)} of {len(samples)} samples are longer than the draft's "
             f"max_position_embeddings {max_positions} (the longest has {max(long)} tokens): "
             f"the ranking scores their first {max_positions} positions only, which the "
             "draft's config says it was built for (their later rows would outnumber the "
             "other samples' and decide the ranking)"])


def probe_layout(model: str | Path, data: str | Path, target: str | Path | None = None, *,
                 device: str = "cpu", dtype: str = "float32", max_samples: int = 16,
                 max_bytes: int = _CHECK_MAX_BYTES,
                 served_layer_ids: Sequence[int] | None = None,
                 find_verifier: bool = True,
                 vocab_mapping: str | Path | None = None) -> dict[str, Any]:
    """Rank candidate layouts; the contract of `drafter layout`.

    `served_layer_ids` (the target layers an engine feeds) is always among the candidates when
    the dump holds those layers, and is reported as `served` / `served_accuracy0`."""
    from spec_debug.eagle3.layout import CLEAR_MARGIN, probe
    from spec_debug.eagle3.loading import build_draft

    checkpoint, resolved_target, mapping, info, spec, has_final, masks, input_notes, n_layers = \
        _open_inputs(model, data, target, find_verifier, vocab_mapping)
    cfg = checkpoint.config
    target_ckpt = resolved_target.checkpoint
    # the target's class reads a plain draft's nested [0, ...] as eval and the configs step do
    arch = target_ckpt.config.architecture if target_ckpt is not None else None
    resolved, notes = _resolve_layout(cfg, info, n_layers, None, "reference", None, arch)
    loaded = build_draft(checkpoint, target=target_ckpt, device=device, dtype=dtype,
                         vocab_mapping=mapping, no_target_reason=resolved_target.refused)
    # The maps' faults with their codes, as eval says them (SD301-SD303): a target of another
    # vocabulary scores every layout near zero (SD303), or the verdict blames the dump alone; a
    # d2t cut short (SD302) was a bare shape note here while `drafter eval` named its code.
    from spec_debug.eagle3.head_map import HEAD_MAP_NOTE

    vocab_issues = _vocab_issues(checkpoint, target_ckpt, mapping)[0] + _head_map_issues(loaded)
    notes = input_notes + notes + [f"{i['code']}: {i['message']}" for i in vocab_issues]
    trained = cfg.trained_layer_ids(n_layers, arch) if n_layers else _trained_without_depth(cfg)
    numbered = _every_layer_layouts(trained, info, cfg.num_aux)
    # every slot is a candidate, the final one included: a dump written with the final layer
    # elsewhere holds an aux layer there (layout.final_slot_check ranks [1, 2, 3] on
    # [final, l2, l4, l5]), and a normal dump of A+1 slots gives (A+1)! orders (test_world pins
    # 24 for 4 slots); the final state is also read on its own, as the targets. A
    # slot holding NaN/Inf is refused only where the draft is configured to read it: another
    # (a layer of a wide dump the draft does not use) is left out of the candidates
    skipped = SkippedFiles()
    spec = replace(spec, finite_slots=tuple(sorted(
        set(resolved.slots).union(*map(set, numbered)))))
    samples = _bounded_samples(data, max_samples, max_bytes, spec=spec, final=has_final,
                               skipped=skipped, masks=masks)
    if not samples:
        raise DataError(f"{data}: no usable samples ({skipped.summary()})" if skipped.count
                        else f"{data}: no samples", hint=skipped.first_hint)
    read = len(samples)  # before _non_finite_slots leaves some out: "all read" counts them
    samples, excluded, non_finite_notes = _non_finite_slots(samples, info.layer_ids)
    notes += non_finite_notes
    samples, long_notes = _within_max_positions(samples, loaded.model.cfg.max_position_embeddings)
    notes += long_notes
    # as evaluate says it: in-scale states beside their FP8 scales, scaled twice in training
    from spec_debug.eagle3.evaluate import _scales_kept_note

    kept = [s.name for s in samples if s.scales_kept]
    notes += _scales_kept_note(len(kept), len(samples), kept[:3])
    if not any(bool(s.loss_mask[1:].any()) for s in samples):
        # as in evaluate_drafter: empty masks would score every layout 0 and rank nothing
        samples = [_every_position(s, True) for s in samples]
        notes.append(f"the loss_mask selects no position to score in any of the "
                     f"{len(samples)} samples: every position was scored instead")
    else:
        # as evaluate says it: a sample whose mask selects nothing adds no row to any
        # layout's accuracy, yet counts in `samples` (a SpecForge dump with a few such masks
        # was ranked on fewer samples than it said, with no word why)
        from spec_debug.eagle3.evaluate import _unsupervised_note

        unsupervised = [s.name for s in samples if not bool(s.loss_mask[1:].any())]
        notes += _unsupervised_note(len(unsupervised), len(samples), unsupervised)
    embed = target_ckpt.embed() if target_ckpt is not None else None
    served_slots, served_notes = _served_slots(served_layer_ids, info, cfg.num_aux)
    if served_slots is not None and not excluded.isdisjoint(served_slots):
        served_notes.append(f"served layers {list(served_layer_ids or [])} not scored: slot(s) "
                            f"{sorted(excluded.intersection(served_slots))} hold NaN or Inf "
                            "(see the note above)")
        served_slots = None
    notes += served_notes
    notes = notes + [n for n in loaded.notes if not n.startswith(HEAD_MAP_NOTE)] + (
        [] if embed is not None else ["no --target: embedding-slot check skipped" if
                                      target_ckpt is None else "the target has no embedding "
                                      "tensor: embedding-slot check skipped"])
    report = probe(loaded, samples, configured=resolved.slots, dump_layer_ids=info.layer_ids,
                   embed=embed, device=device,
                   extra_layouts=([served_slots] if served_slots else []) + list(numbered)
                   + _named_neighbour_layouts(trained, info, cfg.num_aux),
                   trained_layer_ids=trained,
                   trained_ids_assumed=not cfg.names_layer_ids and trained is not None,
                   all_read=read < max_samples and read + skipped.count >= info.files,
                   noted=bool(notes) or skipped.count > 0,  # _finish_skipped notes skips
                   excluded_slots=excluded)
    best = tuple(report.best)
    scored = {tuple(r["layout"]): r["full_accuracy0"] for r in report.ranked}
    in_dump = [slots for slots in numbered if slots in scored]
    if in_dump:
        report.config_slots = list(max(in_dump, key=lambda slots: scored[slots]))
    flag = report.norm_before_residual_check
    # the verdict is the ranking's own (not "matches", "unclear" or a draft no layout can judge)
    plain = report.final_slot_check is None and (flag is None
                                                 or flag["ranked_with"] == flag["config"])
    blind = (report.untrained_draft or report.unmapped_draft or report.zeroed_norms
             or bool(report.no_skill))
    if best in numbered and best != tuple(resolved.slots) and not blind:
        # not "trained on another layout": the configured slots were only eval's guess
        found = (f"slots {list(best)} score {report.ranked[0]['full_accuracy0']:.3f} vs "
                 f"{report.configured_accuracy0:.3f} for the first {cfg.num_aux} "
                 f"{list(resolved.slots)}, which eval reads from a dump that does not name its "
                 f"slots: they are the config's layer ids {list(trained)} in a dump of every "
                 f"layer {numbered[best]}, so the draft fits its config; pass --layout "
                 f"{','.join(map(str, best))}")
        report.verdict = found if plain else report.verdict + "; " + found
    elif (best != tuple(resolved.slots) and not blind and report.unclear_rows is None
          and report.unconfirmed_rows is None
          and report.ranked[0]["full_accuracy0"] - report.configured_accuracy0 >= CLEAR_MARGIN):
        if numbered:
            near = _out_of_layer_order(best, numbered, scored, resolved.slots, trained,
                                       report.ranked[0]["full_accuracy0"],
                                       report.configured_accuracy0)
            if near:
                report.verdict = near if plain else report.verdict + "; " + near
        elif info.layer_ids is not None and trained:
            report.verdict += _named_shift_clause(best, trained, info.layer_ids,
                                                  report.slot_checks)
    copied = _final_copies_aux(samples, resolved.slots, trained, n_layers) if has_final else None
    if copied:
        # every layout is scored against that aux layer's targets: "matches" would mislead
        report.verdict += "; but " + copied
    repeated = _repeated_aux_slots(samples, resolved.slots, info.layer_ids, trained)
    if repeated:
        # eval refuses such a sample (data._refuse_repeated_slots); the probe reads every
        # slot to rank them, so without this its verdict was only "does not confirm"
        report.verdict += "; but " + repeated
    if report.ids_misaligned:
        # every layout was scored with each row fed the wrong token: no ranking names the layers
        from spec_debug.eagle3.alignment import MISALIGNED

        by = ("two positions" if report.ids_misaligned.startswith(MISALIGNED + "two")
              else "one position")
        report.verdict += (f"; but the dump's token ids sit {by} off against its states "
                           "(see the notes), so every layout was scored on the wrong tokens")
        notes = notes + [report.ids_misaligned]
    report.notes = notes
    out = report.to_dict()
    out.update({"model": str(model), "data": str(data), "target": resolved_target.path,
                "target_source": resolved_target.source, "num_target_layers": n_layers,
                "num_slots": info.num_slots, "draft": cfg.summary(),
                "vocab_mapping": str(mapping.source) if mapping is not None else None})
    _finish_skipped(out, skipped, len(samples), data)
    if served_slots is not None:
        served_score = next(r["full_accuracy0"] for r in out["ranked"] if r["layout"] == served_slots)
        out.update({"served": served_slots, "served_layer_ids": list(served_layer_ids or []),
                    "served_accuracy0": served_score})
        best_score = out["ranked"][0]["full_accuracy0"]
        if (served_slots != out["best"] and best_score - served_score >= CLEAR_MARGIN
                and not out.get("untrained_draft") and not out.get("unmapped_draft")
                and not out.get("zeroed_norms") and not out.get("no_skill")):
            out["verdict"] += (f"; the served layers {list(served_layer_ids or [])} score {served_score:.3f} "
                               f"vs {best_score:.3f}: the engine feeds layers the draft was not trained on")
    return out


def _non_finite_slots(samples: list, layer_ids: Sequence[int] | None
                      ) -> tuple[list, frozenset[int], list[str]]:
    """The samples to rank on, the slots no candidate layout may read, and a note per slot
    some sample holds NaN/Inf in (Sample.non_finite, a probe's read): which, in how many
    samples, where first. A wide dump's layer the draft does not read (an fp16 dump's last
    layers, past float16's range) made every sample "skipped: NaN or Inf", and `drafter
    layout` ended in "no usable samples" without ranking the others.

    A slot bad in fewer than half of the samples keeps its place among the candidates and
    those samples are left out instead (every layout must be scored on the same rows): one
    NaN in one of 3 samples of the slot holding layer 6 of a dump named one layer off took
    that slot from every layout, and the probe, unable to score the true [2, 4, 5] (0.690),
    said "no layout is clearly the draft's". Slots bad in fewer samples are kept first."""
    where: dict[int, list[tuple[str, str]]] = {}
    holding: dict[int, set[int]] = {}
    for i, sample in enumerate(samples):
        for slot, at in sample.non_finite.items():
            where.setdefault(slot, []).append((sample.name, at))
            holding.setdefault(slot, set()).add(i)
    dropped: set[int] = set()
    kept_slots: set[int] = set()
    for slot in sorted(where, key=lambda s: (len(holding[s]), s)):
        if 2 * len(dropped | holding[slot]) < len(samples):
            dropped |= holding[slot]
            kept_slots.add(slot)
    notes = []
    for slot in sorted(where):
        name, at = where[slot][0]
        layer = f" (layer {layer_ids[slot]})" if layer_ids and slot < len(layer_ids) else ""
        said = (f"slot {slot}{layer} holds NaN or Inf in {len(where[slot])} of "
                f"{len(samples)} samples (first {name}: {at}): ")
        if slot in kept_slots:
            notes.append(said + f"{SAMPLES_LEFT_OUT} (every layout is scored on the other "
                         f"{len(samples) - len(dropped)}, which are finite in every slot "
                         "ranked)")
        else:
            notes.append(said + "left out of the candidate layouts; the slots the draft is "
                         "configured to read are finite")
    kept = [sample for i, sample in enumerate(samples) if i not in dropped]
    return kept, frozenset(where) - kept_slots, notes


# How _non_finite_slots says samples were left out of the ranking for a slot kept among the
# candidates (diagnose/steps/layout_step.py reads it: a ranking of part of the dump)
SAMPLES_LEFT_OUT = "those samples are left out of the ranking"


def _served_slots(served_layer_ids: Sequence[int] | None, info: DataInfo,
                  num_aux: int) -> tuple[list[int] | None, list[str]]:
    """The dump slots holding the served layer ids, or None with a note saying why they are
    not scored: the probe ranks only layouts of num_aux distinct slots (layout.probe), so
    `--served 2,4` (or a layer named twice) was left out of the ranking and looking its score
    up ended in "unexpected StopIteration"; and ids the dump does not hold were dropped with no
    word, though `--served` is documented as always scored. A dump that names no slots gets no
    note here (the hidden_layout probe passes the engine's ids for every dump; `drafter
    layout --served` says it)."""
    if not served_layer_ids:
        return None, []
    ids = [int(i) for i in served_layer_ids]
    why = None
    if len(ids) != num_aux:
        why = f"{len(ids)} layer id(s), the draft's fc takes {num_aux}"
    elif len(set(ids)) != len(ids):
        why = "a layer named twice (an engine captures each layer once)"
    elif not info.layer_ids:
        return None, []
    elif any(i not in info.layer_ids for i in ids):
        why = (f"the dump holds no layer {[i for i in ids if i not in info.layer_ids]} (its "
               f"layer_ids metadata names {list(info.layer_ids)})")
    if why:
        return None, [f"served layers {ids} not scored: {why}"]
    return [list(info.layer_ids).index(i) for i in ids], []


def _every_layer_layouts(trained: Sequence[int] | None, info: DataInfo,
                         num_aux: int) -> dict[tuple[int, ...], str]:
    """The configured layer ids as slot numbers of a dump that does not name its slots and
    holds more aux slots than the draft takes (every layer; speculators' hs_connectors names
    none), in the two ways such a dump is numbered -> how. probe_layout scores them always:
    its pruned search (layout.candidate_layouts) starts from the first slots, and on a dump
    of all 9 hidden states of an 8-layer target it missed the configured [2, 4, 5] (0.690)
    and named [3, 5, 4] (0.452), "a different layout than the one configured"."""
    if info.layer_ids is not None or not trained or info.num_slots - 1 <= num_aux:
        return {}
    out: dict[tuple[int, ...], str] = {}
    # slot i the input to layer i: transformers' output_hidden_states, the embedding output
    # first; or slot i the output of layer i, the embedding output left out (slot i is the
    # input to layer i + 1, the ids off by one: the incident's fault)
    for shift, how in ((0, "with the embedding output first (slot i is the input to layer i, "
                           "as transformers' output_hidden_states returns them)"),
                       (1, "without the embedding output (slot i is the output of layer i, "
                           "the input to layer i + 1)")):
        slots = tuple(i - shift for i in trained)
        if len(set(slots)) == num_aux == len(slots) and all(0 <= s < info.num_slots - 1
                                                             for s in slots):
            out.setdefault(slots, how)
    return out


def _out_of_layer_order(best: tuple[int, ...], numbered: dict[tuple[int, ...], str],
                        scored: dict, guessed: Sequence[int], trained: Sequence[int],
                        best_score: float, guessed_score: float) -> str | None:
    """The verdict for an every-layer dump that does not name its slots when the best layout is
    the config's layers read as such a dump (_every_layer_layouts) with one slot changed, or
    those slots in another order: "the draft was trained on a different layout than the one
    configured (check the aux layer ids and the engine's capture convention)" compared it with
    eval's guess (the first slots) and blamed the draft or the engine, when the dump's own slot
    order is as likely the cause (a dumper that wrote two captures swapped: slot 6 holding
    layer 4). None when the best layout is further from those readings."""
    def near(slots: tuple[int, ...]) -> tuple[int, int, float]:
        return (sum(a == b for a, b in zip(slots, best)), len(set(slots) & set(best)),
                scored.get(slots, -1.0))

    reading = max((slots for slots in numbered if slots in scored), key=near, default=None)
    if reading is None:
        return None
    same_set = sorted(reading) == sorted(best)
    changed = [i for i, (a, b) in enumerate(zip(reading, best)) if a != b]
    if not same_set and len(changed) > 1:
        return None
    if same_set:
        swaps = ", ".join(f"slot {best[i]} where it has slot {reading[i]} (layer {trained[i]})"
                          for i in changed)
        what = f"it reads those slots in another order ({swaps})"
    else:
        i = changed[0]
        what = (f"it reads slot {best[i]} where that reading has slot {reading[i]} (the "
                f"config's layer {trained[i]})")
    return (f"slots {list(best)} scores {best_score:.3f} vs {guessed_score:.3f} for the first "
            f"{len(guessed)} {list(guessed)}, which eval reads from a dump that does not name "
            f"its slots, and {scored[reading]:.3f} for slots {list(reading)}, the config's "
            f"layer ids {list(trained)} in a dump of every layer {numbered[reading]}: {what}. "
            "The dump names no layers, so its own slot order is as likely the cause as the "
            "draft: either the dumper did not write the layers in layer order (two captures "
            "swapped, or stacked in the order they were registered: check the order it "
            "concatenated them in, and dump again in layer order), or the draft was trained "
            "on other layers than its eagle_aux_hidden_state_layer_ids name; pass --layout "
            f"{','.join(map(str, best))} to evaluate on this dump")


def _named_shift_clause(best: tuple[int, ...], trained: Sequence[int], layer_ids,
                        slot_checks: Sequence[dict]) -> str:
    """The clause for a best layout that is the slots a dump's layer_ids metadata names as the
    draft's layers one or two off (_shifted_slots): `drafter layout` ranked them first (0.690
    vs 0.524 for the slots named as the draft's) and said only "trained on a different layout
    (check the aux layer ids and the engine's capture convention)", where `drafter eval` on the
    same dump says the metadata is one layer off. A slot the metadata names layer `shift`
    that is exactly the embedding output (layer 0's input) says the same, and is named."""
    shift = next((k for k, slots in _shifted_slots(trained, layer_ids).items()
                  if slots == best), None)
    if shift is None:
        return ""
    named_as = [i + shift for i in trained]
    embedding = next((c["slot"] for c in slot_checks
                      if c.get("is_embedding") and c.get("layer_id") == shift), None)
    seen = (f" (slot {embedding}, which it names layer {shift}, is exactly the embedding "
            "output, the input to layer 0)" if embedding is not None and shift > 0 else "")
    return (f"; slots {list(best)} are the ones the dump's layer_ids metadata names as layers "
            f"{named_as}, the draft's {list(trained)} moved by {shift:+d}: "
            f"{_metadata_off(shift, named_as)}{seen}")


def _named_neighbour_layouts(trained: Sequence[int] | None, info: DataInfo,
                             num_aux: int) -> list[tuple[int, ...]]:
    """The slots a dump's layer_ids metadata names as the configured ids one layer below and
    one above (a dumper that numbers each layer's output where the engines number its input):
    probe_layout scores them always. Its pruned search starts from the configured slots, and
    on an every-layer dump whose metadata was one layer off it missed the draft's layers
    (0.690) and named [2, 6, 7] (0.643) as the layout to use."""
    if info.layer_ids is None or not trained:
        return []
    final = info.num_slots - 1 if info.num_slots > num_aux else None
    return [slots for slots in _shifted_slots(trained, info.layer_ids).values()
            if len(set(slots)) == num_aux == len(slots) and final not in slots]


def _shifted_slots(ids: Sequence[int], layer_ids) -> dict[int, tuple[int, ...]]:
    """For each of :data:`NAMED_LAYER_SHIFTS` (nearest first), the slots a dump's layer_ids
    metadata names as ``ids`` moved by it, where it names them all."""
    shifted = {shift: slots_for_layer_ids([i + shift for i in ids], layer_ids) for shift in NAMED_LAYER_SHIFTS}
    return {shift: slots for shift, slots in shifted.items() if slots is not None}


def _every_layer_hint(trained: Sequence[int] | None, info: DataInfo, num_aux: int) -> str:
    """Eval's words for _every_layer_layouts: where a dump of every layer holds the
    configured ids, so the first --layout to try is named beside the probe."""
    numbered = _every_layer_layouts(trained, info, num_aux)
    if not numbered:
        return ""
    where = " or ".join(f"{','.join(map(str, slots))} ({how.split(' (')[0]})"
                        for slots, how in numbered.items())
    return (f"; if it holds every layer, the configured ids {list(trained or ())} are slots "
            f"{where}")


def check_drafter_vocab(model: str | Path, target: str | Path | None = None, *,
                        find_verifier: bool = True,
                        vocab_mapping: str | Path | None = None) -> dict[str, Any]:
    """Vocab-map checks on a checkpoint (reads only d2t/t2d and the headers). Without
    `target`, the verifier the draft's config names gives the vocab size when it is here.
    `vocab_mapping`: the training's map file, which the checkpoint's d2t must equal."""
    from spec_debug.eagle3.vocab import check_checkpoint_vocab

    from spec_debug.eagle3.checkpoint import store_notes

    checkpoint = open_draft(model)
    source = TARGET_GIVEN if target else None
    # the same notes on the files the draft's weights came from as eval gives (loading.py)
    notes = store_notes(checkpoint.tensors)
    if target:
        # a directory, or a Hub id resolved from the local cache, as eval and layout take it
        target = resolve_checkpoint_dir(target, "--target", "target checkpoint")
    else:
        # no scoring here (eval's words would say "scored against the data's next tokens")
        target, verifier_notes = _config_verifier(checkpoint.config, find_verifier,
                                                  without=_OWN_VOCAB)
        notes += verifier_notes
        source = TARGET_FROM_CONFIG if target is not None else None
    # only the target's vocab size is needed: a directory with just config.json will do
    try:
        target_cfg = load_verifier_config(target) if target else None
    except CheckpointError as exc:
        if source == TARGET_GIVEN:
            raise
        notes.append(f"the verifier the draft's config names ({checkpoint.config.verifier}) "
                     f"could not be read ({exc.message}): {_OWN_VOCAB}")
        target, source, target_cfg = None, None, None
    width = _fed_width(checkpoint)
    notes += _stated_width_note(checkpoint, width)
    if source == TARGET_FROM_CONFIG and target_cfg is not None and target_cfg.hidden_size != width:
        notes.append(f"the verifier the draft's config names ({checkpoint.config.verifier}, "
                     f"found at {target}) has hidden_size {target_cfg.hidden_size}, the draft "
                     f"takes {width}-wide states: not used; pass --target DIR")
        target, source, target_cfg = None, None, None
    elif source == TARGET_GIVEN and target_cfg is not None and target_cfg.hidden_size != width:
        # a draft trained for another member of the family (a 70B draft served with the 8B:
        # one tokenizer, 8192 vs 4096 wide) passes every vocab check: eval refuses the pair
        notes.append(f"the target {target} has hidden_size {target_cfg.hidden_size}, the draft "
                     f"takes {width}-wide target states (fc.weight): it was trained for another "
                     "target; only its vocabulary was checked against this one")
    vocab = target_cfg.vocab_size if target_cfg is not None else None
    if target is None and not any(_OWN_VOCAB in note for note in notes):
        # without a target every size is compared with the draft's own config: say so, or the
        # checks read as a pass against a target nobody named (no verifier in the config,
        # --no-verifier); a config that names none is said as eval says it (resolve_target)
        unnamed = ("the draft's config names no verifier (speculators_config.verifier), so "
                   if find_verifier and not checkpoint.config.verifier else "")
        notes.append(f"no target: {unnamed}{_OWN_VOCAB}")
    report = check_checkpoint_vocab(checkpoint, vocab)
    notes += report.notes
    mapping = _read_mapping(vocab_mapping, checkpoint, vocab)
    out = report.to_dict()
    if mapping is not None:
        from spec_debug.eagle3.vocab import VocabCheck
        from spec_debug.eagle3.vocab_mapping import mapping_note

        issues = tuple(_mapping_issues(checkpoint, mapping))
        out["checks"].append(VocabCheck("vocab_mapping", ok=not issues, issues=issues).to_dict())
        out["ok"] = out["ok"] and not issues
        notes.append(mapping_note(checkpoint.vocab_maps()[0], mapping, scored=False))
    head_rows = _draft_head_check(checkpoint, notes)
    if head_rows is not None:
        out["checks"] = [head_rows.to_dict() if check["name"] == "lm_head_rows" else check
                         for check in out["checks"]]
        out["ok"] = all(check["ok"] for check in out["checks"])
    for check_name, issue in _non_finite_rows(checkpoint):
        out["checks"] = [{**check, "ok": False, "skipped": False,
                          "issues": [*check["issues"], {**asdict(issue), "code": issue.code}]}
                         if check["name"] == check_name else check for check in out["checks"]]
        out["ok"] = False
    head_check = _head_map_check(checkpoint, target, mapping, notes)
    if head_check is not None:
        out["checks"].append(head_check.to_dict())
        out["ok"] = out["ok"] and head_check.ok
    files_check = _stale_index_check(checkpoint.tensors)
    if files_check is not None:
        out["checks"].append(files_check.to_dict())
        out["ok"] = False
    out.update({"target": str(target) if target else None, "target_source": source,
                "notes": notes,
                "vocab_mapping": str(mapping.source) if mapping is not None else None})
    return out


def _stale_index_check(store):
    """A failing `weight_files` check (SD710) for a draft whose model.safetensors.index.json
    names no shard that is here, beside the model.safetensors that holds the weights (a draft
    saved sharded, then whole, into one folder: checkpoint.stale_index). Its weights were read
    from the single file, as transformers reads it, and only a note said the rest: `drafter
    vocab` passed (exit 0) a draft vLLM and SGLang do not start with. Both keep only the
    safetensors files the index names (model_loader/weight_utils.py
    filter_duplicate_safetensors_files) and then stop with "Cannot find any model weights"
    (vLLM default_loader.py / SGLang loader.py _prepare_weights). A stale
    pytorch_model.bin.index.json is no fault for them: pickles are not filtered by an index."""
    from spec_debug.eagle3.checkpoint import stale_index_read
    from spec_debug.eagle3.vocab import VocabCheck, VocabIssue

    index = store.stale_index
    if index is None or index.name != "model.safetensors.index.json":
        return None
    # any *.safetensors file the index does not name (draft.safetensors too: stale_index)
    read = stale_index_read(store)
    held = (f"{index.parent / read[0]} beside it holds" if len(read) == 1
            else f"{', '.join(read)} beside it hold")
    return VocabCheck("weight_files", ok=False, issues=(VocabIssue(
        "stale_index", f"{index} names no weight file that is here, and {held} the draft's "
        "weights: vLLM and SGLang load only the safetensors files an index names, find none "
        "and stop (\"Cannot find any model weights\"); delete the stale index (or save the "
        "draft again into an empty folder)",
        {"index": str(index), "weights": ", ".join(read)}),))


# what `drafter vocab` compares with when no target vocabulary is known
_OWN_VOCAB = ("the maps and embedding were checked against the draft config's own vocab_size, "
              "not a target's; pass --target DIR (the target's config.json will do) to check "
              "them against the vocabulary the draft is served with")


def _fed_width(checkpoint) -> int:
    """The width of the target states the draft takes: the config's target_hidden_size, or
    the width fc.weight's fan-in says when the config's cannot be it (loading.py
    fc_state_width, the rule eval's refusal of the config follows). A config whose
    hidden_size disagrees with its weights (a config of another draft) made the verifier that
    fits the weights read as the wrong one ("has hidden_size 32, the draft takes 64-wide
    states: not used"), and so did a target_hidden_size set by hand to another width than
    fc.weight's, and the vocab was then checked without it."""
    from spec_debug.eagle3.loading import fc_state_width

    width = fc_state_width(checkpoint.config, checkpoint.shape("fc.weight"))
    return width if width is not None else checkpoint.config.target_hidden_size


def _stated_width_note(checkpoint, width: int) -> list[str]:
    """Eval's refusal of a config whose target_hidden_size fc.weight contradicts, said by
    `drafter vocab` too: it reads no layer weights and would otherwise pass the draft
    without a word of what stops every engine loading it."""
    from spec_debug.eagle3.loading import _shape_reason

    cfg = checkpoint.config
    if width == cfg.target_hidden_size or cfg.raw.get("target_hidden_size") is None:
        return []  # unset, it is the draft's own hidden_size: its own note (hidden_size)
    return [_shape_reason("fc.weight", checkpoint.shape("fc.weight"), cfg)
            + ": vLLM and SGLang build fc from the config and fail to load fc.weight"]


def _draft_head_check(checkpoint, notes: list[str]):
    """What eval says of the draft's head (loading.py), said here too: `drafter vocab` read
    only lm_head's rows, so a draft without lm_head.weight passed with "lm_head_rows skipped"
    (exit 0) while eval refuses it, and a config that ties the head to the embedding was not
    mentioned. A failed lm_head_rows check (SD303) when no head can be served; notes for a head
    an engine takes from elsewhere; None when the rows check stands as it is."""
    from spec_debug.eagle3.loading import _head_tied_to_embedding, _missing_head_hint
    from spec_debug.eagle3.vocab import (FULL_VOCAB_TARGET_HEAD, TARGET_HEAD, VocabCheck,
                                         VocabIssue, configured_draft_vocab)

    cfg = checkpoint.config
    try:
        # the tied-head notes eval gives (SGLang ties lm_head = embed_tokens and drops a stored
        # lm_head.weight; vLLM does not tie), and its refusal of a tied head of DV != V rows
        tied = _head_tied_to_embedding(checkpoint, notes)
    except CheckpointError as exc:
        return VocabCheck("lm_head_rows", ok=False, issues=(VocabIssue(
            "lm_head_rows", f"{exc.message.removeprefix(f'{checkpoint.path}: ')}; "
            f"{exc.hint}"),))
    if tied or checkpoint.has("lm_head.weight"):
        return None
    if not configured_draft_vocab(cfg.raw):
        # served as published drafts are (nvidia/gpt-oss-120b-Eagle3, loading.py
        # _target_head_for_draft): nothing of the draft's own to count rows of
        notes.append(f"{TARGET_HEAD}, as SGLang loads this draft (load_lm_head_from_target); the "
                     "draft has no head rows of its own to check")
        return None
    if cfg.draft_vocab_size == cfg.vocab_size:
        # a full vocabulary: vLLM serves the target's head, as the draft was published for
        # (nvidia/Kimi-K2.6-Eagle3); eval scores it so (loading.py _target_head_for_draft)
        notes.append(FULL_VOCAB_TARGET_HEAD)
        return None
    # the config asks for a draft head of its own and the file has none: eval refuses the
    # draft; vLLM (v1 spec_decode, "Detected EAGLE model without its own lm_head") puts the
    # target's [V, H] head in its place, SGLang leaves its ParallelLMHead(draft_vocab_size)
    # unloaded (load_weights skips absent names, sglang srt/models/llama_eagle3.py), and
    # speculators' from_pretrained starts a random one
    return VocabCheck("lm_head_rows", ok=False, issues=(VocabIssue(
        "lm_head_rows", f"no lm_head.weight, but the config's draft_vocab_size "
        f"{cfg.draft_vocab_size} asks for the draft's own [{cfg.draft_vocab_size}, "
        f"{cfg.hidden_size}] head: vLLM serves the target's lm_head in its place, SGLang an "
        "unloaded one, speculators a random one (the trained head is not in the file); "
        f"{_missing_head_hint(cfg)}",
        {"lm_head_rows": None, "config_draft_vocab_size": cfg.draft_vocab_size}),))


# What the engines do with a NaN embedding or head, by the vocab check that reports it
_NON_FINITE_ROWS = {
    "embed_tokens.weight": ("embed_rows", "vLLM serves this embedding (SGLang swaps in the "
                                          "target's), and a draft state built from such a row is NaN"),
    "lm_head.weight": ("lm_head_rows", "the draft logits from such rows are NaN or Inf, in every engine"),
}


def _non_finite_rows(checkpoint) -> list[tuple[str, Any]]:
    """(vocab check name, SD303 issue) for the draft's embedding and head when the rows
    `drafter vocab` samples of them hold NaN/Inf. speculators leaves both NaN until
    load_verifier_weights() copies the verifier's (EAGLE3.md section 8): a draft saved before
    that passed every vocab check (they read shapes and maps), while eval and layout refuse it
    (loading._non_finite_hint). Reads the sampled rows only, as the head map check does."""
    import torch

    from spec_debug.eagle3.head_map import sample_ids
    from spec_debug.eagle3.vocab import VocabIssue

    found = []
    for name, (check_name, effect) in _NON_FINITE_ROWS.items():
        shape = checkpoint.shape(name)
        if not shape or len(shape) != 2 or not shape[0]:
            continue
        ids = sample_ids(shape[0]).tolist()
        try:
            rows = checkpoint.tensors.rows(name, ids).float()
        except (CheckpointError, RuntimeError, ValueError, TypeError):
            continue  # a packed or quantized layout: eval reads it whole and says it
        bad = int((~torch.isfinite(rows)).any(dim=1).sum())
        if not bad:
            continue
        unloaded = checkpoint.config.format == "speculators" and bad == len(ids)
        fix = ("speculators leaves it NaN until load_verifier_weights() copies the verifier's: "
               "load the draft, call load_verifier_weights() and save it again (or export it "
               "again from the training checkpoint)" if unloaded else
               "the file is damaged or the training diverged: copy or export the draft again, "
               "from a checkpoint of the run before its loss went NaN")
        found.append((check_name, VocabIssue(check_name, (
            f"{name} holds NaN/Inf in {bad} of the {len(ids)} rows sampled: {effect}; {fix}"),
            {"non_finite_rows": bad})))
    return found


def _head_map_check(checkpoint, target: Path | None, mapping, notes: list[str]):
    """The map in use (the --vocab-mapping file's, else the checkpoint's d2t) against the
    target rows a speculators draft's frozen lm_head was copied from (head_map.py), as eval
    reports it: SD302 d2t_misaligns_lm_head. None when it cannot run (no target weights, a
    draft of another trainer)."""
    from spec_debug.eagle3.head_map import checkpoint_head_map_message
    from spec_debug.eagle3.vocab import HEAD_NOT_COMPARED, VocabCheck, VocabIssue, maps_swapped_issue

    if target is None or checkpoint.config.format != "speculators":
        return None
    d2t = mapping.d2t if mapping is not None else checkpoint.vocab_maps()[0]
    if mapping is None and d2t is not None:
        t2d = checkpoint.vocab_maps()[1]
        if t2d is not None and maps_swapped_issue(d2t.reshape(-1), t2d.reshape(-1),
                                                  checkpoint.config.vocab_size):
            d2t = t2d.reshape(-1)  # the offsets, saved as t2d: map_shapes says so (SD302)
    try:
        target_checkpoint = open_target(target)
        # nothing to compare (a tied draft head, no map; a target of config.json only): said
        # as skipped, not as passed
        if not checkpoint.has("lm_head.weight") or d2t is None:
            return VocabCheck("lm_head_map", ok=True, skipped=True)
        if target_checkpoint.lm_head_name not in target_checkpoint.tensors:
            # a head in a shard the index names but that was not copied is said too (eval
            # says it of its reference; this said nothing)
            if target_checkpoint.tensors.missing_shards:
                notes.append(f"{HEAD_NOT_COMPARED} (its lm_head is not in "
                             f"{target_checkpoint.path}"
                             f"{target_checkpoint.absent_because()})")
            return VocabCheck("lm_head_map", ok=True, skipped=True)
        message = checkpoint_head_map_message(checkpoint, target_checkpoint, d2t,
                                              from_file=mapping is not None)
    except CheckpointError as exc:
        # the map checks above stand without it; say why this one was not run
        notes.append(f"{HEAD_NOT_COMPARED} ({exc.message})")
        return None
    if message is None:
        return VocabCheck("lm_head_map", ok=True)
    return VocabCheck("lm_head_map", ok=False,
                      issues=(VocabIssue("d2t_misaligns_lm_head", message),))
