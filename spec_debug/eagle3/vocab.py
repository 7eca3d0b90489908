"""Vocabulary-map checks: pure functions over plain integer sequences, typed results.

Facts (EAGLE3.md section 1, speculators src/speculators/train/vocab_mapping.py; same logic in
SafeAILab/EAGLE eagle/traineagle3/cnets.py and SpecForge specforge/data/preprocessing.py):
d2t[i] is an OFFSET, target_id = i + d2t[i]; the selected target ids are sorted ascending, so
arange(DV) + d2t is strictly increasing, lies in [0, V) and equals t2d.nonzero(); t2d has V
entries, DV of them True. Failure modes: no d2t at all (vLLM then maps draft id i to target id
i, NVIDIA-NeMo/Automodel#2447), absolute ids stored instead of offsets (verl-project/verl-SpeCo
#67), an all-zero d2t (SafeAILab/EAGLE#222).

Inputs may be lists, numpy arrays or torch tensors (anything with `.tolist()` or iterable);
no torch import here so the controller can run the checks on a probe's output.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Iterable

# Which diagnostic code each check feeds (the diagnose/ catalog owns the codes themselves).
SUGGESTED_CODES = {
    "d2t_missing": "SD301",
    # d2t in a draft whose vocabulary is the target's: vLLM refuses it (check_d2t_present)
    "d2t_full_vocab": "SD302",
    "d2t_not_offsets": "SD302",
    "d2t_out_of_range": "SD302",
    "d2t_not_increasing": "SD302",
    "d2t_t2d_mismatch": "SD302",
    "d2t_all_zero": "SD302",
    "d2t_length": "SD302",
    "maps_swapped": "SD302",  # d2t and t2d saved under each other's names (maps_swapped_issue)
    "d2t_float": "SD302",
    "d2t_narrow": "SD302",  # an integer type too narrow for the offsets (narrow_d2t_issue)
    "d2t_not_training_map": "SD302",  # differs from the --vocab-mapping file (vocab_mapping.py)
    # sends draft ids to other tokens than speculators copied the frozen lm_head rows from
    # (head_map.py; eval and `drafter vocab` report it, api.py)
    "d2t_misaligns_lm_head": "SD302",
    "t2d_length": "SD303",
    "t2d_count": "SD303",
    "embed_rows": "SD303",
    # closest catalog entry: a vocab size that disagrees with the tensors (engines size
    # lm_head from draft_vocab_size: vLLM llama_eagle3.py, SGLang llama_eagle3.py)
    "lm_head_rows": "SD303",
    # a model.safetensors.index.json naming no shard here beside model.safetensors: the engines
    # load no weights from the folder (api._stale_index_check)
    "stale_index": "SD710",
}


@dataclass(frozen=True)
class VocabIssue:
    kind: str  # a key of SUGGESTED_CODES
    message: str
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> str:
        return SUGGESTED_CODES[self.kind]


@dataclass(frozen=True)
class VocabCheck:
    """The outcome of one check; `ok` is False when it found an issue."""

    name: str
    ok: bool
    issues: tuple[VocabIssue, ...] = ()
    skipped: bool = False  # not enough information to run it

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "skipped": self.skipped,
                "issues": [{**asdict(i), "code": i.code} for i in self.issues]}


def _ints(values: Iterable[Any]) -> list[int]:
    if hasattr(values, "tolist"):
        values = values.tolist()
    return [int(v) for v in values]


def _fail(name: str, *issues: VocabIssue) -> VocabCheck:
    return VocabCheck(name, ok=False, issues=tuple(issues))


def check_d2t_present(has_d2t: bool, draft_vocab_size: int, target_vocab_size: int,
                      t2d_selects: int | None = None) -> VocabCheck:
    """A draft vocab smaller than the target's needs a d2t map. `t2d_selects`: how many ids
    the checkpoint's t2d selects, when it has one: d2t is rebuilt from a t2d that selects
    the draft's DV ids (speculators' invariant d2t = t2d.nonzero() - arange(DV),
    src/speculators/model.py load_vocab_mappings), which an export that kept t2d alone lost."""
    if draft_vocab_size < target_vocab_size and not has_d2t:
        rebuild = (f"; the checkpoint's t2d selects the {draft_vocab_size} draft ids: save d2t "
                   f"= t2d.nonzero().squeeze(1) - arange({draft_vocab_size}) (int64) beside it"
                   if t2d_selects == draft_vocab_size else "")
        return _fail("d2t_present", VocabIssue(
            "d2t_missing",
            f"draft vocab {draft_vocab_size} < target vocab {target_vocab_size} but the "
            "checkpoint has no d2t: engines read draft id i as target id i" + rebuild,
            {"draft_vocab_size": draft_vocab_size, "target_vocab_size": target_vocab_size}))
    if draft_vocab_size == target_vocab_size and has_d2t:
        # vLLM 0.34.0 llama_eagle3.py (and qwen3_eagle3.py, deepseek_eagle3.py): __init__ sets
        # draft_id_to_target_id = None when draft_vocab_size equals the target's vocab size,
        # load_weights renames d2t to draft_id_to_target_id and keeps it, and AutoWeightsLoader
        # (models/utils.py _load_module) raises on a name with no parameter. speculators
        # registers no maps for a full vocabulary (src/speculators/model.py); SGLang's
        # llama_eagle3.py load_weights sets hot_token_id = d2t + arange.
        return _fail("d2t_present", VocabIssue(
            "d2t_full_vocab",
            f"the draft's vocabulary is the target's whole vocabulary ({target_vocab_size}), "
            "yet the checkpoint has a d2t: vLLM 0.34.0 builds no draft_id_to_target_id for a "
            "full-vocabulary draft but renames d2t to it when loading, and stops (\"There is "
            "no module or parameter named 'draft_id_to_target_id'\"); SGLang takes arange + "
            "d2t as its hot-token map; delete d2t and t2d from the checkpoint (speculators "
            "saves no maps for a full vocabulary)",
            {"draft_vocab_size": draft_vocab_size, "target_vocab_size": target_vocab_size}))
    return VocabCheck("d2t_present", ok=True)


# Integers a float type holds exactly: 2 ** (mantissa bits + 1). A state dict cast whole to
# bfloat16 / float16 by a conversion script (`{k: v.to(dtype)}`) turns the int64 d2t into
# floats and rounds every offset above this (bfloat16: 256 -> steps of 2, 4, ... at 128k
# vocabularies). vLLM copies the rounded values into its int64 draft_id_to_target_id
# (llama_eagle3.py load_weights, default_weight_loader); SGLang's hot_token_id becomes a
# float tensor it cannot index with (llama_eagle3.py load_weights).
_EXACT_INTEGERS = {"BF16": 2 ** 8, "F16": 2 ** 11, "F32": 2 ** 24, "F64": 2 ** 53,
                   "F8_E4M3": 2 ** 4, "F8_E5M2": 2 ** 3}
_TORCH_DTYPES = {"torch.bfloat16": "BF16", "torch.float16": "F16", "torch.float32": "F32",
                 "torch.float64": "F64", "torch.float8_e4m3fn": "F8_E4M3",
                 "torch.float8_e5m2": "F8_E5M2"}


def float_d2t_issue(dtype: str | None, offsets: list[int]) -> VocabIssue | None:
    """An issue when d2t is stored as a float type: rounded (facts' `rounded`) when the type is
    too narrow for its offsets; else exact, but SGLang still serves it wrong. `dtype` is the
    safetensors dtype string ("BF16") or a torch one ("torch.bfloat16")."""
    name = _TORCH_DTYPES.get(str(dtype), str(dtype))
    exact = _EXACT_INTEGERS.get(name)
    if exact is None:
        return None
    largest = max((abs(o) for o in offsets), default=0)
    facts = {"dtype": name, "largest_offset": largest, "exact_up_to": exact,
             "rounded": largest > exact}
    if largest > exact:
        return VocabIssue(
            "d2t_float",
            f"d2t is stored as {name}, which holds integers exactly only up to {exact}; its "
            f"offsets reach {largest}, so they were rounded and draft ids map to wrong target "
            "ids (a whole-state-dict dtype cast): save d2t as int64 (t2d.nonzero() - arange(DV))",
            facts)
    # Exact offsets still break SGLang: hot_token_id = d2t + arange(DV) keeps d2t's float type
    # (torch promotes int64 to it) and becomes the draft's token ids (sgl-project/sglang
    # python/sglang/srt/models/llama_eagle3.py load_weights; eagle_worker.py draft_forward
    # topk_index = self.hot_token_id[topk_index]). vLLM and speculators copy d2t into their
    # int64 buffers (vllm model_executor/models/llama_eagle3.py default_weight_loader;
    # speculators Eagle3DraftModel.from_pretrained), so they serve it right.
    return VocabIssue(
        "d2t_float",
        f"d2t is stored as {name}, not an integer type (a whole-state-dict dtype cast): its "
        f"offsets (at most {largest}) are exact, and vLLM and speculators copy them into int64, "
        f"but SGLang adds arange(DV) to d2t in {name} (hot_token_id, llama_eagle3.py "
        f"load_weights) and proposes those floats as token ids (rounded above {exact}): save "
        "d2t as int64 (d2t.long())",
        facts)


# The largest value each integer type narrower than 32 bits holds, and its modulus (the
# safetensors dtype, or torch's name for it). A state dict cast to uint16 / int16 to save
# space keeps d2t's offsets modulo 2 ** bits: a 128256-token target's offsets reach 96k.
_NARROW_INTEGERS = {"U8": (2 ** 8 - 1, 2 ** 8), "I8": (2 ** 7 - 1, 2 ** 8),
                    "U16": (2 ** 16 - 1, 2 ** 16), "I16": (2 ** 15 - 1, 2 ** 16)}
_TORCH_INTEGERS = {"torch.uint8": "U8", "torch.int8": "I8", "torch.uint16": "U16",
                   "torch.int16": "I16"}


def narrow_d2t_issue(dtype: str | None, target_vocab_size: int, draft_vocab_size: int | None,
                     mapped: list[int], selected: list[int] | None,
                     consistent: bool | None) -> VocabIssue | None:
    """An issue when d2t is stored in an integer type too narrow for the offsets this target's
    map may need (V - DV) and the map is not what t2d selects (or, without t2d, not a map the
    engines can serve): its offsets wrapped. The other d2t lines then said "not strictly
    increasing" or "differs from t2d" without the cause."""
    name = _TORCH_INTEGERS.get(str(dtype), str(dtype))
    if name not in _NARROW_INTEGERS or draft_vocab_size is None:
        return None
    ceiling, modulus = _NARROW_INTEGERS[name]
    needed = target_vocab_size - draft_vocab_size
    if needed <= ceiling:
        return None
    if (mapped == selected) if selected is not None else bool(consistent):
        return None  # no offset of this map reached past the type
    return VocabIssue(
        "d2t_narrow",
        f"d2t is stored as {name}, which holds offsets only up to {ceiling}; a map of "
        f"{draft_vocab_size} of this target's {target_vocab_size} ids needs offsets up to "
        f"{needed}, and those above {ceiling} were wrapped (kept modulo {modulus}), so draft ids "
        "map to wrong target ids (a whole-state-dict dtype cast): save d2t as int64 "
        "(t2d.nonzero() - arange(DV))",
        {"dtype": name, "holds_up_to": ceiling, "offsets_needed_up_to": needed})


def check_d2t_offsets(d2t: Iterable[Any] | None, target_vocab_size: int,
                      t2d: Iterable[Any] | None = None,
                      draft_vocab_size: int | None = None,
                      d2t_dtype: str | None = None) -> VocabCheck:
    """d2t are offsets: arange(DV)+d2t strictly increasing, in [0, V), == t2d.nonzero(); and
    stored in a type that holds them exactly."""
    if d2t is None:
        return VocabCheck("d2t_offsets", ok=True, skipped=True)
    selected, t2d_length = None, None
    if t2d is not None:
        flags = _ints(t2d)
        selected, t2d_length = [i for i, flag in enumerate(flags) if flag], len(flags)
    return _d2t_offsets(_ints(d2t), target_vocab_size, selected, t2d_length, draft_vocab_size,
                        d2t_dtype)


def _d2t_offsets(offsets: list[int], target_vocab_size: int, selected: list[int] | None,
                 t2d_length: int | None, draft_vocab_size: int | None,
                 d2t_dtype: str | None, mapped: list[int] | None = None,
                 consistent: bool | None = None) -> VocabCheck:
    """check_d2t_offsets on the lists check_vocab_maps reads once: `selected` is
    t2d.nonzero(), `mapped` arange(DV) + d2t, `consistent` _consistent_map of it."""
    issues: list[VocabIssue] = []
    if (rounded := float_d2t_issue(d2t_dtype, offsets)) is not None:
        issues.append(rounded)
    if draft_vocab_size is not None and len(offsets) != draft_vocab_size:
        issues.append(VocabIssue("d2t_length", d2t_length_line(len(offsets), draft_vocab_size)
                                 + _d2t_from_t2d(selected, draft_vocab_size),
                                 {"d2t_length": len(offsets)}))
    if mapped is None:
        mapped = [i + o for i, o in enumerate(offsets)]
    if d2t_dtype is not None and (narrow := narrow_d2t_issue(
            d2t_dtype, target_vocab_size, draft_vocab_size, mapped, selected,
            consistent if consistent is not None else (
                draft_vocab_size is not None
                and _consistent_map(mapped, draft_vocab_size, target_vocab_size)))) is not None:
        issues.append(narrow)
    out_of_range = [m for m in mapped if not 0 <= m < target_vocab_size]
    increasing = all(b > a for a, b in zip(mapped, mapped[1:]))
    looks_absolute = (
        len(offsets) > 1
        and all(0 <= v < target_vocab_size for v in offsets)
        and all(b > a for a, b in zip(offsets, offsets[1:]))
        and (selected == offsets if selected is not None else bool(out_of_range))
    )
    if looks_absolute and any(offsets):
        issues.append(VocabIssue(
            "d2t_not_offsets",
            "d2t holds absolute target ids, not offsets: engines compute i + d2t[i] and map "
            "draft id i to the wrong token (e.g. 2i)",
            {"first_entries": offsets[:5], "mapped_first": mapped[:5]}))
    if out_of_range:
        issues.append(VocabIssue(
            "d2t_out_of_range", f"{len(out_of_range)} mapped ids fall outside [0, "
            f"{target_vocab_size})" + _out_of_range_effect(mapped, target_vocab_size),
            {"count": len(out_of_range), "examples": out_of_range[:5]}))
    if not increasing:
        issues.append(VocabIssue("d2t_not_increasing",
                                 "arange(DV) + d2t is not strictly increasing (the training "
                                 "recipes sort the selected ids)"
                                 + _twice_mapped(mapped, target_vocab_size),
                                 {"named_twice": len(mapped) - len(set(mapped))}))
    if offsets and not any(offsets) and len(offsets) < target_vocab_size and (
            selected is None or selected != mapped):
        # t2d all True beside it: the buffers SpecForge's draft starts with (t2d = ones(V),
        # d2t = zeros(DV): specforge/modeling/draft/llama3_eagle.py LlamaForCausalLMEagle3),
        # saved because load_vocab_mapping never ran on it
        initial = selected is not None and len(selected) == target_vocab_size
        issues.append(VocabIssue(
            "d2t_all_zero", "d2t is all zeros: draft id i is read as target id i "
            "(SafeAILab/EAGLE#222)" + (
                "; with t2d all True these are the buffers SpecForge's draft is created with: "
                "the training's vocab mapping was never loaded into it (export again with "
                "--vocab-mapping <its vocab_mapping.pt>)" if initial else ""),
            {"initial_buffers": initial}))
    # a [V] t2d with one True too many or too few beside a d2t engines can serve: t2d is the
    # broken map (its t2d_count line says so and rebuilds it), every id after the extra one
    # would read as a d2t mismatch
    t2d_miscounted = (selected is not None and draft_vocab_size is not None
                      and t2d_length == target_vocab_size and len(selected) != draft_vocab_size
                      and (consistent if consistent is not None
                           else _consistent_map(mapped, draft_vocab_size, target_vocab_size)))
    # a d2t cut short or run long (its d2t_length line) that agrees with t2d on every id both
    # name: "differs at 0 of N draft ids" would only restate that line
    length_only = (draft_vocab_size is not None and len(offsets) != draft_vocab_size
                   and len(selected or ()) == draft_vocab_size
                   and all(a == b for a, b in zip(mapped, selected or ())))
    # likewise a t2d cut short (t2d[:200] of a 256-token vocab: its t2d_length and t2d_count
    # lines say so) that agrees with a served d2t on every id it selects: "differs at 0 of
    # 128 draft ids, first at draft id 100" only restated those lines, and misleadingly
    length_only = length_only or (
        selected is not None and draft_vocab_size is not None and len(offsets) == draft_vocab_size
        and len(selected) < len(mapped) and all(a == b for a, b in zip(mapped, selected)))
    if selected is not None and not looks_absolute and mapped != selected \
            and not t2d_miscounted and not length_only:
        issues.append(_d2t_t2d_mismatch(mapped, selected))
    return VocabCheck("d2t_offsets", ok=not issues, issues=tuple(issues))


def _out_of_range_effect(mapped: list[int], target_vocab_size: int) -> str:
    """Which draft ids map past the target vocabulary, and what engines do with them. vLLM
    scatters every draft logit to its target id on each draft step (llama_eagle3.py
    compute_logits: `logits_new[:, targets] = logits`, commit 00bd1493), so one stray id fails
    every step with an index out of bounds, a CUDA device-side assert; SGLang proposes
    `hot_token_id[i]` (d2t + arange) as the token, which the target has no embedding row for."""
    stray = [(i, m) for i, m in enumerate(mapped) if not 0 <= m < target_vocab_size]
    shown = ", ".join(f"draft id {i} -> {m}" for i, m in stray[:3]) + (
        " ..." if len(stray) > 3 else "")
    return (f" ({shown}): vLLM fails every draft step with an index out of bounds (a CUDA "
            "device-side assert: compute_logits scatters each draft logit to its target id), "
            "SGLang proposes a token id the target has no row for; save d2t again from the "
            "training's vocab map")


def _twice_mapped(mapped: list[int], target_vocab_size: int) -> str:
    """What a d2t that maps two draft ids to one target id does, said beside its unsorted line
    (sorting would not mend it): engines take i + d2t[i] as it is (vLLM llama_eagle3.py
    load_weights, SGLang's hot_token_id) and speculators' load_vocab_mappings checks nothing,
    so that token is proposed from two lm_head rows and as many selected ids are never
    proposed. A target id named three times is said so (was "2 target id(s) named twice"
    of one id, "both" of two of its three draft ids). An id past the vocabulary named twice
    is no token (its d2t_out_of_range line says it)."""
    named: dict[int, list[int]] = {}
    for i, m in enumerate(mapped):
        named.setdefault(m, []).append(i)
    repeated = [m for m, ids in named.items() if len(ids) > 1 and 0 <= m < target_vocab_size]
    if not repeated:
        return ""
    m = min(repeated, key=lambda t: named[t][1])  # the first repeat read in draft-id order
    ids = named[m]
    extra = sum(len(named[t]) - 1 for t in repeated)
    how = "twice" if all(len(named[t]) == 2 for t in repeated) else "more than once"
    which = (f"draft ids {ids[0]} and {ids[1]} both map" if len(ids) == 2 else
             f"draft ids {', '.join(map(str, ids[:-1]))} and {ids[-1]} all map")
    rows = "two" if len(ids) == 2 else str(len(ids))
    return (f"; {which} to target id {m} ({len(repeated)} target id(s) named {how}): that "
            f"token is proposed from {rows} lm_head rows and {extra} selected id(s) are never "
            "proposed; save d2t again from the training's vocab map")


def d2t_length_line(length: int, draft_vocab_size: int) -> str:
    """The d2t_length line with what the engines do with it. It gave the two lengths alone.
    vLLM loads d2t into its [draft_vocab_size] draft_id_to_target_id parameter
    (model_executor/models/llama_eagle3.py Eagle3LlamaForCausalLM) through
    default_weight_loader, which asserts equal sizes (model_loader/weight_utils.py), so the
    server does not start. SGLang checks nothing: hot_token_id = d2t + arange(len(d2t))
    (srt/models/llama_eagle3.py load_weights), which the draft step indexes with its top-k
    draft ids (speculative/eagle_worker.py draft_forward, hot_token_id[topk_index])."""
    if length < draft_vocab_size:
        sglang = (f"SGLang loads it as its hot-token map and breaks at the first draft id of "
                  f"{length} or more (hot_token_id[topk_index] out of range: a CUDA device-side "
                  "assert)")
    else:
        sglang = f"SGLang loads it and reads only its first {draft_vocab_size} entries"
    return (f"d2t has {length} entries, draft vocab is {draft_vocab_size}: vLLM loads d2t into its "
            f"[{draft_vocab_size}] draft_id_to_target_id, whose loader asserts equal sizes, and "
            f"does not start; {sglang}")


def _d2t_from_t2d(selected: list[int] | None, draft_vocab_size: int) -> str:
    """The fix of a d2t of the wrong length beside a t2d that selects one id per lm_head row:
    vLLM's loader asserts d2t's size (llama_eagle3.py load_weights), and speculators'
    load_vocab_mappings rebuilds nothing."""
    if selected is None or len(selected) != draft_vocab_size:
        return ""
    return (f"; t2d selects {draft_vocab_size} ids, one per lm_head row: save d2t again from "
            "it (d2t = t2d.nonzero().squeeze(1) - arange(DV))")


def _consistent_map(mapped: list[int], draft_vocab_size: int, target_vocab_size: int) -> bool:
    """arange(DV) + d2t is a map engines can serve: DV ids, strictly increasing, in [0, V)."""
    return (len(mapped) == draft_vocab_size and all(0 <= m < target_vocab_size for m in mapped)
            and all(b > a for a, b in zip(mapped, mapped[1:])))


def _d2t_t2d_mismatch(mapped: list[int], selected: list[int]) -> VocabIssue:
    """d2t and t2d of the same count naming different target ids. Engines map draft id i to
    i + d2t[i] and never read t2d (vLLM llama_eagle3.py, SGLang llama_eagle3.py hot_token_id),
    while speculators trains lm_head's row i on the verifier's row t2d.nonzero()[i]
    (verifier_lm_head, speculators src/speculators/models/eagle3/core.py): at the ids where
    they differ the engine proposes another token than the one the row was trained on."""
    differing = [i for i, (a, b) in enumerate(zip(mapped, selected)) if a != b]
    diff = differing[0] if differing else min(len(mapped), len(selected))
    shown = (f" (d2t maps it to target id {mapped[diff]}, t2d selects {selected[diff]})"
             if diff < min(len(mapped), len(selected)) else "")
    return VocabIssue(
        "d2t_t2d_mismatch",
        f"arange(DV) + d2t differs from t2d.nonzero() at {len(differing)} of {len(mapped)} draft "
        f"ids, first at draft id {diff}{shown}: engines map draft ids through d2t only, "
        "speculators trained lm_head's rows on t2d's ids, so at those ids the engine proposes "
        "another token than the row learned; save both from the training's vocab map "
        "(--vocab-mapping), or rebuild d2t from t2d (d2t = t2d.nonzero() - arange(DV)) if t2d "
        "is the one training used",
        {"first_difference": diff, "mapped_count": len(mapped), "t2d_count": len(selected),
         "differing": len(differing)})


def t2d_as_ids(t2d: list[int], target_vocab_size: int) -> bool:
    """True when t2d holds the selected target ids (ascending, in [0, V)) rather than the
    [V] 0/1 mask speculators' load_vocab_mappings expects: hand-written exporters store
    `selected` itself. Engines never read t2d (vLLM and SGLang llama_eagle3.py skip it), so
    only the map's form is wrong, not d2t."""
    return (len(t2d) != target_vocab_size and len(t2d) > 1 and max(t2d) > 1
            and all(0 <= v < target_vocab_size for v in t2d)
            and all(b > a for a, b in zip(t2d, t2d[1:])))


def check_t2d(t2d_length: int | None, t2d_count: int | None, target_vocab_size: int,
              draft_vocab_size: int, holds_ids: bool = False,
              d2t_ids: list[int] | None = None,
              t2d_ids: list[int] | None = None, built_for: str = "",
              d2t_consistent: bool | None = None) -> VocabCheck:
    """t2d has V entries and DV of them are True (speculators load_vocab_mappings).
    `d2t_ids` / `t2d_ids` (arange(DV) + d2t, t2d.nonzero()): when d2t is a consistent map, a
    t2d of the wrong count is compared with it and rebuilt from it (`d2t_consistent`: that
    already known)."""
    if t2d_length is None:
        return VocabCheck("t2d", ok=True, skipped=True)
    issues = []
    if holds_ids:
        return _fail("t2d", VocabIssue(
            "t2d_length", f"t2d holds {t2d_length} target ids, not a [{target_vocab_size}] "
            "mask with one entry per target id: speculators' load_vocab_mappings refuses it "
            "(vLLM and SGLang do not read t2d)", {"t2d_length": t2d_length,
                                                  "t2d_holds_ids": True}))
    if t2d_length != target_vocab_size:
        issues.append(VocabIssue("t2d_length", f"t2d has {t2d_length} entries, the target vocab "
                                 f"is {target_vocab_size}" + (built_for or _t2d_length_against_d2t(
                                     d2t_ids, t2d_ids, draft_vocab_size, target_vocab_size,
                                     d2t_consistent)),
                                 {"t2d_length": t2d_length}))
    if t2d_count is not None and t2d_count != draft_vocab_size:
        issues.append(VocabIssue("t2d_count", f"t2d selects {t2d_count} ids, the draft vocab is "
                                 f"{draft_vocab_size}" + _t2d_against_d2t(
                                     d2t_ids, t2d_ids, draft_vocab_size, target_vocab_size,
                                     d2t_consistent),
                                 {"t2d_count": t2d_count}))
    return VocabCheck("t2d", ok=not issues, issues=tuple(issues))


def check_embed_rows(embed_rows: int | None, target_vocab_size: int,
                     built_for: str = "") -> VocabCheck:
    """The draft embeds target ids, so embed_tokens has V rows. `built_for`: the rest of the
    line when t2d agrees with embed_tokens on another vocab (other_target_vocab)."""
    if embed_rows is None:
        return VocabCheck("embed_rows", ok=True, skipped=True)
    if embed_rows != target_vocab_size:
        return _fail("embed_rows", VocabIssue(
            "embed_rows", f"embed_tokens has {embed_rows} rows, the target vocab is "
            f"{target_vocab_size}" + built_for, {"embed_rows": embed_rows}))
    return VocabCheck("embed_rows", ok=True)


def check_lm_head_rows(lm_head_rows: int | None, config_draft_vocab_size: int,
                       configured: bool = True,
                       target_vocab_size: int | None = None) -> VocabCheck:
    """The config's draft_vocab_size is the number of lm_head rows, at most one per target
    token. `configured` is False when the config has no draft_vocab_size and the target vocab
    size was assumed."""
    if lm_head_rows is None:
        return VocabCheck("lm_head_rows", ok=True, skipped=True)
    if target_vocab_size is not None and lm_head_rows > target_vocab_size:
        # vLLM llama_eagle3.py compute_logits places the draft logits into a vocab_size-wide
        # row (asserting on the width when there is no d2t); SGLang indexes the target
        # vocabulary with hot_token_id = arange(DV) + d2t: rows past V map to no token
        return _fail("lm_head_rows", VocabIssue(
            "lm_head_rows", f"lm_head has {lm_head_rows} rows, more than the {target_vocab_size} "
            f"tokens of the target vocabulary: draft ids {target_vocab_size}.."
            f"{lm_head_rows - 1} map to no target token and engines fail on them (a "
            "draft_vocab_size or lm_head of another vocabulary)",
            {"lm_head_rows": lm_head_rows, "target_vocab_size": target_vocab_size}))
    if lm_head_rows != config_draft_vocab_size:
        said = (f"config draft_vocab_size is {config_draft_vocab_size}" if configured else
                f"the config has no draft_vocab_size (engines then assume the vocab size "
                f"{config_draft_vocab_size})")
        return _fail("lm_head_rows", VocabIssue(
            "lm_head_rows", f"{said} but lm_head has {lm_head_rows} rows: engines size lm_head "
            "from the config and fail to load it or drop rows",
            {"lm_head_rows": lm_head_rows, "config_draft_vocab_size": config_draft_vocab_size}))
    return VocabCheck("lm_head_rows", ok=True)


@dataclass(frozen=True)
class VocabReport:
    target_vocab_size: int
    draft_vocab_size: int
    checks: tuple[VocabCheck, ...]
    # what serves as it is but is worth a word (t2d_missing_note): no check fails over it
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def issues(self) -> list[VocabIssue]:
        return [issue for check in self.checks for issue in check.issues]

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "target_vocab_size": self.target_vocab_size,
                "draft_vocab_size": self.draft_vocab_size,
                "checks": [c.to_dict() for c in self.checks]}


def _t2d_against_d2t(d2t_ids: list[int] | None, t2d_ids: list[int] | None,
                     draft_vocab_size: int, target_vocab_size: int,
                     consistent: bool | None = None) -> str:
    """The rest of the t2d_count line when d2t is a map engines can serve: which ids t2d adds
    or lacks against it, and t2d rebuilt from it. speculators' load_vocab_mappings refuses
    such a t2d ("t2d has N non-zero values, expected DV", src/speculators/model.py) and its
    verifier_lm_head = lm_head[t2d] would have N rows, not DV; engines read only d2t."""
    if d2t_ids is None or t2d_ids is None:
        return ""
    if not (consistent if consistent is not None
            else _consistent_map(d2t_ids, draft_vocab_size, target_vocab_size)):
        return ""
    served, kept = set(d2t_ids), set(t2d_ids)
    extra, missing = sorted(kept - served), sorted(served - kept)
    parts = ([f"holds {len(extra)} target id(s) d2t does not map ({_few(extra)})"] if extra
             else []) + ([f"lacks {len(missing)} that d2t maps ({_few(missing)})"] if missing else [])
    return (f"; against d2t (a consistent map of {draft_vocab_size} ids, what engines serve) it "
            f"{' and '.join(parts) or 'holds the same ids'}: speculators refuses it on load; "
            "rebuild t2d from d2t (t2d = zeros(V, dtype=bool); t2d[arange(DV) + d2t] = True)")


def _t2d_length_against_d2t(d2t_ids: list[int] | None, t2d_ids: list[int] | None,
                            draft_vocab_size: int, target_vocab_size: int,
                            consistent: bool | None = None) -> str:
    """The rest of the t2d_length line when t2d selects what a consistent d2t maps (a mask
    padded, or cut, past the target's ids by an exporter): the line said the lengths alone,
    neither that the server (which reads d2t only) is unaffected nor how to fix it.
    speculators' load_vocab_mappings refuses it (t2d.shape[0] != V, src/speculators/model.py)."""
    if d2t_ids is None or t2d_ids is None or sorted(set(t2d_ids)) != sorted(set(d2t_ids)):
        return ""
    if not (consistent if consistent is not None
            else _consistent_map(d2t_ids, draft_vocab_size, target_vocab_size)):
        return ""
    return ("; it selects the same ids as d2t, which is all vLLM and SGLang read, so serving is "
            "unaffected, but speculators refuses it on load (resuming training, evaluating): "
            f"rebuild t2d from d2t with {target_vocab_size} entries (t2d = zeros(V, dtype=bool); "
            "t2d[arange(DV) + d2t] = True)")


def _few(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:5])) + (", ..." if len(ids) > 5 else "")


def other_target_vocab(t2d_length: int | None, embed_rows: int | None,
                       target_vocab_size: int) -> str:
    """The rest of the t2d_length / embed_rows lines when both agree on another vocabulary
    than the target's: the draft was built (and its maps made) for another target revision,
    e.g. a tokenizer with added tokens, not two independent export faults."""
    if t2d_length is None or t2d_length != embed_rows or t2d_length == target_vocab_size:
        return ""
    return (f" (t2d and embed_tokens agree on a {t2d_length}-token vocabulary: the draft was "
            f"built for another target or revision than this {target_vocab_size}-token one; "
            "pass the target it was trained on as --target, or train the draft for this one)")


def check_vocab_maps(*, d2t: Iterable[Any] | None, t2d: Iterable[Any] | None,
                     target_vocab_size: int, draft_vocab_size: int,
                     embed_rows: int | None = None,
                     d2t_dtype: str | None = None) -> VocabReport:
    # each map is read into Python once and every check shares the lists (was: t2d's
    # nonzero() and arange(DV) + d2t built two or three times over the whole vocabulary)
    t2d_list = _ints(t2d) if t2d is not None else None
    holds_ids = t2d_list is not None and t2d_as_ids(t2d_list, target_vocab_size)
    # d2t is compared with the ids t2d selects, whichever form t2d has: a t2d holding ids
    # (ascending, in range: t2d_as_ids) selects exactly those, in a [V] mask's length
    selected = (t2d_list if holds_ids else [i for i, flag in enumerate(t2d_list) if flag]
                ) if t2d_list is not None else None
    mask_length = target_vocab_size if holds_ids else (
        len(t2d_list) if t2d_list is not None else None)
    built_for = other_target_vocab(len(t2d_list) if t2d_list is not None and not holds_ids
                                   else None, embed_rows, target_vocab_size)
    offsets = _ints(d2t) if d2t is not None else None
    mapped = [i + o for i, o in enumerate(offsets)] if offsets is not None else None
    consistent = (_consistent_map(mapped, draft_vocab_size, target_vocab_size)
                  if mapped is not None else None)
    checks = (
        check_d2t_present(d2t is not None, draft_vocab_size, target_vocab_size,
                          len(selected) if selected is not None else None),
        (_d2t_offsets(offsets, target_vocab_size, selected, mask_length, draft_vocab_size,
                      d2t_dtype, mapped, consistent) if offsets is not None
         else check_d2t_offsets(None, target_vocab_size)),
        check_t2d(len(t2d_list) if t2d_list is not None else None,
                  len(selected) if selected is not None else None,
                  target_vocab_size, draft_vocab_size, holds_ids,
                  d2t_ids=mapped, t2d_ids=selected, built_for=built_for,
                  d2t_consistent=consistent),
        check_embed_rows(embed_rows, target_vocab_size,
                         " (the vocabulary t2d has: see that line)" if built_for else ""),
    )
    return VocabReport(target_vocab_size, draft_vocab_size, checks)


def check_checkpoint_vocab(checkpoint: Any, target_vocab_size: int | None = None) -> VocabReport:
    """Run every check on a `checkpoint.DraftCheckpoint` (reads only d2t and t2d)."""
    cfg = checkpoint.config
    d2t, t2d = checkpoint.vocab_maps()
    # maps saved as [1, N] or [N, 1] by hand-written exporters: compare their entries, and
    # say that the loaders refuse the shape (check_map_shapes)
    shapes = check_map_shapes(_shape(d2t), _shape(t2d))
    d2t = d2t.reshape(-1) if d2t is not None else None
    t2d = t2d.reshape(-1) if t2d is not None else None
    swapped = maps_swapped_issue(d2t, t2d, target_vocab_size or cfg.vocab_size)
    if swapped is not None:
        # said as the one fault it is; the other checks then judge the maps by what they hold
        # (each judged under the other's name gave d2t/t2d length faults and the advice to
        # rebuild d2t from t2d.nonzero(), which is nonsense for a t2d of offsets)
        shapes = replace(shapes, ok=False, skipped=False, issues=shapes.issues + (swapped,))
        d2t, t2d = t2d, d2t
    lm_head = checkpoint.shape("lm_head.weight")
    lm_rows = lm_head[0] if lm_head else None
    # the maps are checked against the lm_head they index; a config that disagrees with the
    # tensors is reported once, as itself, not as a d2t/t2d fault
    report = check_vocab_maps(d2t=d2t, t2d=t2d,
                              target_vocab_size=target_vocab_size or cfg.vocab_size,
                              draft_vocab_size=lm_rows or cfg.draft_vocab_size,
                              embed_rows=checkpoint.embed_rows,
                              d2t_dtype=(checkpoint.tensors.infos["d2t"].dtype
                                         if checkpoint.has("d2t") else None))
    report = replace(report, checks=tuple(
        _config_vocab_check(check, cfg.vocab_size, checkpoint.embed_rows)
        for check in report.checks))
    configured = configured_draft_vocab(cfg.raw)
    # without the key the engines size lm_head from vocab_size (vLLM llama_eagle3.py; SGLang
    # llama_eagle3.py also loads the target's head then), whatever speculators' default says
    served_rows = cfg.draft_vocab_size if configured else cfg.vocab_size
    notes: tuple[str, ...] = ()
    if cfg.format == "speculators" and d2t is not None and t2d is None and all(
            check.ok for check in report.checks if check.name == "d2t_offsets"):
        # a d2t engines can serve: t2d is rebuilt from it (a broken one has its own SD302
        # line, and t2d rebuilt from it would carry the fault)
        note = t2d_missing_note(report.target_vocab_size, lm_rows or cfg.draft_vocab_size)
        notes = (note,) if note else ()
    return VocabReport(report.target_vocab_size, cfg.draft_vocab_size,
                       (shapes,) + report.checks
                       + (check_lm_head_rows(lm_rows, served_rows, configured,
                                             report.target_vocab_size),), notes)


# how t2d_missing_note begins: `diagnose`'s vocab step finds the note in the report by it
T2D_MISSING = "d2t is saved without t2d"
# how the note begins that the target's lm_head rows could not be read for the SD302 check (a
# shard the index names not copied, a cut target file: api._head_map_check writes it);
# `diagnose`'s vocab step finds the note in the report by it
HEAD_NOT_COMPARED = "the draft's lm_head rows were not compared with the target's"


# how the notes on a head tied to the embedding begin (loading._head_tied_to_embedding), and
# those on a draft whose head is the target's (loading._target_head_for_draft,
# api._draft_head_check): `diagnose`'s vocab step finds them in the report by these, and says
# which the served engine gets wrong
TIED_HEAD_DROPPED = "the config sets tie_word_embeddings but the checkpoint has its own lm_head.weight"
TIED_HEAD_NOT_STORED = "no lm_head.weight: the head is the embedding (tie_word_embeddings)"
TARGET_HEAD = "no lm_head.weight and no draft_vocab_size: the head is the target's lm_head"
# the note on a full-vocab draft without lm_head.weight (see loading._target_head_for_draft),
# which `drafter vocab` gives too (api._draft_head_check)
FULL_VOCAB_TARGET_HEAD = (
    "no lm_head.weight, and draft_vocab_size is the whole vocabulary: the head is the target's "
    "lm_head, as vLLM serves this draft (its proposer shares the target's head with a draft that "
    "has none); SGLang builds a head of its own for a draft_vocab_size and leaves it unloaded "
    "(sgl-project/sglang#27829: accept length 1.00): set \"draft_vocab_size\": null to serve "
    "it there (SGLang then loads the target's head)")


def t2d_missing_note(target_vocab_size: int, draft_vocab_size: int) -> str | None:
    """A speculators checkpoint of a pruned vocabulary with d2t and no t2d (an export that
    kept only what engines read). vLLM skips t2d and SGLang reads d2t alone (vllm
    model_executor/models/llama_eagle3.py load_weights, sglang srt/models/llama_eagle3.py),
    so it serves as it is: a note, not a failed check (an SD303 error is a serving-path cause
    in `diagnose`, and `drafter vocab` would exit 1 on a draft the engines serve right).
    speculators' Eagle3DraftModel.from_pretrained does not load it: the t2d buffer is left as
    allocated, and load_verifier_weights, which from_pretrained calls, raises "t2d tensor
    hasn't been set" or a size mismatch copying lm_head[t2d] into its [DV, H]
    verifier_lm_head, by what that memory held (src/speculators/model.py
    _load_verifier_weights; checked with speculators 0.9.0)."""
    if draft_vocab_size >= target_vocab_size:
        return None  # no pruned vocab: speculators ignores t2d
    return (f"{T2D_MISSING}: vLLM and SGLang serve the draft from d2t alone, but "
            "speculators' from_pretrained cannot load it (load_verifier_weights raises: \"t2d "
            "tensor hasn't been set\" or a size mismatch in verifier_lm_head), so training "
            "cannot resume from it; save t2d beside d2t (t2d = zeros("
            f"{target_vocab_size}, dtype=bool); t2d[arange({draft_vocab_size}) + d2t] = True)")


def maps_swapped_issue(d2t: Any, t2d: Any, target_vocab_size: int) -> VocabIssue | None:
    """d2t and t2d saved under each other's names (a hand-written export): the tensor named d2t
    is a bool mask of one entry per target token, the one named t2d holds integers that are
    offsets of a map of as many draft ids as the mask selects (i + t2d[i] its selected ids).
    speculators saves d2t as int64 [DV] offsets and t2d as a bool [V] mask
    (src/speculators/models/eagle3/core.py load_vocab_mappings; speculators 0.9.0). vLLM then
    refuses d2t (a [V] tensor into its [DV] draft_id_to_target_id: size mismatch, vllm
    model_executor/models/llama_eagle3.py load_weights) and SGLang adds arange to a mask
    (sglang srt/models/llama_eagle3.py hot_token_id)."""
    if d2t is None or t2d is None or str(d2t.dtype) != "torch.bool" \
            or str(t2d.dtype) == "torch.bool" or t2d.is_floating_point():
        return None
    mask, offsets = d2t.tolist(), _ints(t2d)
    selected = [i for i, flag in enumerate(mask) if flag]
    if len(mask) != target_vocab_size or [i + o for i, o in enumerate(offsets)] != selected:
        return None
    return VocabIssue(
        "maps_swapped", f"d2t and t2d are saved under each other's names: d2t is a bool "
        f"[{len(mask)}] mask (t2d's form) and t2d holds {len(offsets)} offsets that map draft "
        "ids onto exactly the ids that mask selects (d2t's form); vLLM refuses a d2t of that "
        "shape (size mismatch) and SGLang adds arange(DV) to a mask: save them again under "
        "their own names (d2t = the int64 offsets, t2d = the bool mask)",
        {"d2t_shape": [len(mask)], "t2d_shape": [len(offsets)]})


def _shape(tensor: Any) -> list[int] | None:
    return None if tensor is None else [int(n) for n in tensor.shape]


def check_map_shapes(d2t_shape: list[int] | None, t2d_shape: list[int] | None) -> VocabCheck:
    """d2t and t2d are 1-D. speculators registers them as [DV] / [V] buffers and its
    from_pretrained refuses a [1, N] or [N, 1] map (transformers: size mismatch, with
    ignore_mismatched_sizes off; checked with speculators 0.9.0); vLLM loads d2t into its
    [DV] draft_id_to_target_id through default_weight_loader, which asserts equal sizes
    (vllm model_executor/models/llama_eagle3.py, model_loader/weight_utils.py). SGLang loads
    any shape: its load_weights sets hot_token_id = d2t + arange(d2t.shape[0])
    (sgl-project/sglang python/sglang/srt/models/llama_eagle3.py, commit 03d5a77), so the
    arange runs along the wrong axis, and the draft step maps its top-k draft ids through
    hot_token_id[topk_index] (speculative/eagle_worker.py draft_forward): a [1, N] map is
    the raw offsets indexed out of range (a CUDA device-side assert at the first draft step),
    an [N, 1] map an [N, N] table giving N ids per draft token. Engines skip t2d, so its
    shape stops speculators only."""
    issues = []
    if d2t_shape is not None and len(d2t_shape) != 1:
        issues.append(VocabIssue(
            "d2t_length", f"d2t has shape {d2t_shape}, not [{math.prod(d2t_shape)}]: "
            "speculators' from_pretrained and vLLM's weight loader refuse it (size mismatch); "
            f"SGLang loads it, then its draft step breaks ({_sglang_d2t_symptom(d2t_shape)}); "
            "save d2t.reshape(-1)", {"d2t_shape": d2t_shape}))
    if t2d_shape is not None and len(t2d_shape) != 1:
        issues.append(VocabIssue(
            "t2d_length", f"t2d has shape {t2d_shape}, not [{math.prod(t2d_shape)}]: "
            "speculators' from_pretrained refuses it (size mismatch; vLLM and SGLang do not "
            "read t2d); save t2d.reshape(-1)", {"t2d_shape": t2d_shape}))
    return VocabCheck("map_shapes", ok=not issues, issues=tuple(issues),
                      skipped=d2t_shape is None and t2d_shape is None)



def _sglang_d2t_symptom(shape: list[int]) -> str:
    """What SGLang's hot_token_id = d2t + arange(d2t.shape[0]) becomes for a d2t of ``shape``
    (see check_map_shapes)."""
    if len(shape) == 2 and shape[0] == 1:
        return "hot_token_id keeps the raw offsets in one row, so indexing it by a draft id " \
               "is out of range: a CUDA device-side assert"
    if len(shape) == 2 and shape[1] == 1:
        return f"hot_token_id becomes a [{shape[0]}, {shape[0]}] table, {shape[0]} target ids " \
               "per draft token"
    return "hot_token_id is not one target id per draft token"


def _config_vocab_check(check: VocabCheck, config_vocab: int, embed_rows: int | None) -> VocabCheck:
    """The embed_rows check, failed also when the embedding fits the target but the draft
    config's vocab_size does not: engines build the draft embedding from the config (vLLM
    llama_eagle3.py VocabParallelEmbedding(config.vocab_size), whose weight loader asserts
    the rows) and fail to load the draft."""
    if check.name != "embed_rows" or not check.ok or check.skipped or embed_rows is None \
            or config_vocab == embed_rows:
        return check
    return _fail("embed_rows", VocabIssue(
        "embed_rows", f"the draft config's vocab_size is {config_vocab} but embed_tokens has "
        f"{embed_rows} rows, one per target token: engines size the draft embedding from the "
        f"config and fail to load it; set vocab_size to {embed_rows}",
        {"embed_rows": embed_rows, "config_vocab_size": config_vocab}))


def configured_draft_vocab(raw: Any) -> bool:
    decoder = raw.get("transformer_layer_config") if hasattr(raw, "get") else None
    return bool(raw.get("draft_vocab_size")) or bool(
        hasattr(decoder, "get") and decoder.get("draft_vocab_size"))
