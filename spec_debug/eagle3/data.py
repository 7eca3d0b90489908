"""Hidden-state samples, streamed one file at a time (memory bounded by one sample).

Formats (EAGLE3.md section 5):
- speculators / vLLM extraction: `hs_{i}.safetensors` with `token_ids [T]` and
  `hidden_states [T, S, Ht]`, the last slot being the final layer (pre-norm)
  (vllm-project/speculators hs_connectors transfer.py; train/data.py strips the last slot).
  Optional: `loss_mask [T]`, and a `layer_ids` entry in the safetensors metadata (JSON list,
  one target layer id per slot, input-to-layer convention). A "wide" dump holds many slots
  (e.g. every layer) and names them there. FP8 dumps add `hidden_states_scales [T, 1, 1]`;
  vLLM's raw connector output is the same format named `{req_id}.safetensors`.
- SpecForge offline: `data_{i}.ckpt` (torch.save dict; read with weights_only=True):
  `input_ids [T]`, `loss_mask [T]`, `aux_hidden_state [1, T, A*Ht]`, `hidden_state [1, T, Ht]`
  (sgl-project/SpecForge scripts/prepare_hidden_states.py), the last one AFTER the target's
  final norm. `.ckpt.gz` is read too.
- speculators' earlier offline format ("v1"): `data_{i}.pt` (torch.save dict) with
  `input_ids [T]`, `loss_mask [T]` (a tensor, a list, or None) and `hidden_states`, a LIST of
  [T, Ht] tensors, one per captured layer, the last one the final layer (pre-norm)
  (vllm-project/speculators scripts/data_generation_offline.py, which saves
  VllmHiddenStatesGenerator.generate results; src/speculators/train/data.py
  standardize_data_v1 reads `cat(hidden_states[:-1])` and `hidden_states[-1]`).
- NVIDIA Model-Optimizer: `{conversation_id}.pt` (torch.save dict) with `input_ids [T]`,
  `aux_hidden_states [T, A*Ht]` and `hidden_states [T, Ht]`, the final state, no loss mask
  (NVIDIA/Model-Optimizer examples/speculative_decoding/collect_hidden_states/
  compute_hidden_states_hf.py and compute_hidden_states_vllm.py, which write one format).
- TensorRT-LLM's SaveState decoding: `data_{iter}.pt`, a torch.save LIST of up to
  write_interval (20) dicts, each `id`, `input_ids [T]`, `aux_hidden_states [T, A*Ht]` and
  `hidden_state [T, Ht]`, the final post-norm state (NVIDIA/TensorRT-LLM
  tensorrt_llm/_torch/speculative/save_hidden_state.py, llmapi SaveHiddenStatesDecodingConfig).
- Tencent AngelSlim: `rank_<r>/rows_*/data_<i>.ckpt` (i counted per rank) with `input_ids
  [1, T]`, `loss_mask [1, T]`, `hidden_states [1, T, A*Ht]` (the aux states) and
  `target_hiddens [1, T, Ht]` (see _AUX_KEYS).
These torch writers' aux states saved as a list of per-layer tensors are read as their
concatenation, and their keys in a `.safetensors` file (a conversion) as the torch file.
Hidden files and folders below the dump directory are not samples (see _walk).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import Tensor

from spec_debug.errors import SpecDebugError


class DataError(SpecDebugError):
    """Hidden-state data that cannot be found or read."""


@dataclass
class Sample:
    """One sequence. `slots[:, j]` is the target state named `layer_ids[j]` (when known)."""

    name: str
    token_ids: Tensor  # [T] long
    slots: Tensor  # [T, S, Ht] the slots read (all, or the requested ones)
    slot_index: tuple[int, ...]  # index of each read slot in the file
    final: Tensor | None  # [T, Ht] final-layer state (pre-norm), when the file has one
    loss_mask: Tensor  # [T] bool
    layer_ids: tuple[int, ...] | None  # per file slot (all slots of the file)
    num_file_slots: int
    final_normed: bool = False  # `final` is already past the target's final norm (SpecForge)
    format_v1: bool = False  # read from speculators' earlier data_*.pt (list of layer states)
    data_format: str = "speculators"  # the writer, as DataInfo.format names it
    loss_mask_given: bool = True  # False: the file has none and `loss_mask` is all ones
    padding: int = 0  # pad rows its attention_mask marked, cut off (see _unpadded_rows)
    chunk_size: int = 0  # its square attention_mask is chunked attention of chunks this long
    # the largest id the ids' stored integer type holds, when narrower than 32 bits (uint16:
    # 65535); None otherwise. check_sample refuses such ids for a larger target vocabulary
    ids_ceiling: int | None = None
    # hidden_states already in scale (a dequantized copy of an FP8 dump) with
    # hidden_states_scales kept beside them: read as they are here (_payload_needs_scales),
    # scaled again by hs_connectors' fp8 training backend
    scales_kept: bool = False
    # file slot -> where its NaN/Inf sit, for aux slots a probe's read kept rather than refused
    # (SampleSpec.non_finite_slots): the layout probe leaves them out of its candidates
    non_finite: dict[int, str] = field(default_factory=dict)

    @property
    def length(self) -> int:
        return int(self.token_ids.shape[0])


@dataclass(frozen=True)
class DataInfo:
    """What a dump holds, from its first file's header (no tensor data read for safetensors)."""

    format: str  # speculators | specforge | speculators_v1 | modelopt | trtllm | angelslim
    files: int
    num_slots: int  # slots per position including the final one (speculators: S)
    hidden_size: int
    layer_ids: tuple[int, ...] | None
    has_final: bool
    has_loss_mask: bool


_NUMBER = re.compile(r"(\d+)")


def _natural_key(path: Path) -> list:
    return [int(p) if p.isdigit() else p for p in _NUMBER.split(str(path))]


# hs_*.safetensors, data_*.ckpt, data_*.ckpt.gz, data_*.pt (see the module docstring)
_SAMPLE_NAME = re.compile(r"hs_.*\.safetensors|data_.*\.(ckpt|ckpt\.gz|pt)", re.DOTALL)


def _walk(root: Path) -> list[tuple[str, str]]:
    """(folder, file name) of every file under root, in one pass: speculators' dumps run to
    hundreds of thousands of files (one per training sample), listed several times per
    command; one os.walk is ~10x faster than a Path.rglob per name pattern. Linked folders
    are followed as rglob follows them, each real folder once.

    Hidden files and folders under root are left out: no writer names a sample with a leading
    dot, and what does is metadata or a copy (macOS's AppleDouble `._<name>` beside every file
    copied to a non-HFS disk, rsync's partial `.<name>.XXXXXX`, a `.Trash-<uid>` or NFS
    `.snapshot` folder): read as samples they were "skipped, not a safetensors file" noise,
    or every sample scored twice."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for folder, subfolders, names in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            subfolders[:] = []
            continue
        seen.add(real)
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        found.extend((folder, name) for name in names if not name.startswith("."))
    return found


def list_sample_files(data_dir: str | Path) -> list[Path]:
    # A quoted `--data "~/hs"` and the playbooks' `--var hidden_states=~/hs` reach here with the
    # `~` a shell would have expanded (as checkpoint.resolve_model_dir takes `--model`).
    root = Path(data_dir).expanduser() if str(data_dir).startswith("~") else Path(data_dir)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise DataError(f"{root}: data directory not found", hint=_pattern_hint(root))
    found = _walk(root)
    files = [Path(folder, name) for folder, name in found if _SAMPLE_NAME.fullmatch(name)]
    if not files:
        # vLLM's own extract_hidden_states connector names each file after its request,
        # `{req_id}.safetensors` (vllm distributed/kv_transfer/kv_connector/v1/
        # example_hidden_states_connector.py build_connector_meta); speculators' data
        # generation renames them hs_{i} afterwards. A raw connector directory is a dump too.
        files = [Path(folder, name) for folder, name in found
                 if name.endswith(".safetensors") and not name.startswith("model")]
    if not files:
        # NVIDIA Model-Optimizer names each sample after its conversation, `{conversation_id}.pt`,
        # in one flat folder (collect_hidden_states/compute_hidden_states_hf.py); TensorRT-LLM
        # after its --file_prefix, `<prefix>_<iter>.pt`. A training run's own state files
        # are not samples.
        files = [Path(folder, name) for folder, name in found
                 if folder == str(root) and name.endswith(".pt")
                 and name not in _TRAINING_STATE_FILES]
    if not files:
        found, hint = _what_else_is_here(root)
        raise DataError(f"{root}: no hs_*.safetensors or data_*.ckpt files (nor speculators' "
                        f"older data_*.pt){found}",
                        hint=hint or "point --data at the hidden-state dump directory")
    return sorted(files, key=_natural_key)


def _pattern_hint(root: Path) -> str | None:
    """A file pattern no shell expanded: `--data "dump/hs_*.safetensors"` quoted, or a
    playbook var (`--var hidden_states=dump/hs_*.safetensors`), which the runner quotes."""
    if not any(c in str(root) for c in "*?["):
        return None
    folder = next((p for p in root.parents if not any(c in str(p) for c in "*?[")), None)
    if folder is None or not folder.is_dir():
        return "a file pattern that no shell expanded: pass the directory that holds the samples"
    matched = sum(1 for _ in folder.glob(str(root.relative_to(folder))))
    return (f"a file pattern that no shell expanded ({matched} match(es)): pass --data {folder}, "
            "the directory that holds the samples (--max-samples scores fewer)")


# torch files a training run writes beside its weights (HF Trainer, DeepSpeed, SpecForge)
_TRAINING_STATE_FILES = frozenset({"optimizer.pt", "scheduler.pt", "rng_state.pt",
                                   "training_state.pt", "training_args.pt"})


_RANK_FOLDER = re.compile(r"(?<![^/\\])rank_\d+(?![^/\\])")


def repeated_sample_names(data_dir: str | Path) -> str | None:
    """A note when sample files of one name sit in several subdirectories: every writer
    numbers its files uniquely within a dump (speculators hs_{row}, SpecForge data_{row} under
    rows_* folders, vLLM {req_id}), so these are two dumps under one --data (a kept backup,
    an earlier generation) and each position would be scored twice. AngelSlim is the one
    writer that numbers per GPU rank, `rank_<r>/rows_*/data_<i>.ckpt` with i counted within the
    rank (tools/generate_hidden_for_draft_model.py): names repeated across rank_* folders only
    are one dump."""
    by_name: dict[str, list[Path]] = {}
    for path in list_sample_files(data_dir):
        by_name.setdefault(path.name, []).append(path)
    repeated = [paths for paths in by_name.values()
                if len({_RANK_FOLDER.sub("rank_*", str(p.parent)) for p in paths}) > 1]
    if not repeated:
        return None
    first = repeated[0]
    folders = sorted({str(p.parent) for paths in repeated for p in paths})
    return (f"{len(repeated)} sample file name(s) appear in several folders (e.g. {first[0]} "
            f"and {first[1]}): {len(folders)} dumps under one --data ({', '.join(folders[:3])}"
            + (" ..." if len(folders) > 3 else "") + "), each scored; pass the one folder "
            "to evaluate")


def _writer_of(path: Path) -> str:
    if path.name.endswith(".safetensors"):
        return "hs_*.safetensors (speculators/vLLM)"
    if path.name.endswith((".ckpt", ".ckpt.gz")):  # SpecForge writes either, per --compress
        return "*.ckpt (SpecForge, AngelSlim)"
    return "*.pt (speculators v1, Model-Optimizer, TensorRT-LLM)"


def mixed_sample_formats(data_dir: str | Path) -> str | None:
    """A note when one --data holds the files of several writers: each writer fills its dump
    with one format (data.py's docstring), so these are several dumps (a conversion written
    beside its source, two generations in one folder) and a sequence in both is scored
    twice; targets also differ per format (SpecForge's final state is post-norm)."""
    files = list_sample_files(data_dir)
    counts: dict[str, int] = {}
    for path in files:
        writer = _writer_of(path)
        counts[writer] = counts.get(writer, 0) + 1
    if len(counts) < 2:
        return None
    held = ", ".join(f"{n} {writer}" for writer, n in counts.items())
    return (f"{data_dir} mixes the files of {len(counts)} hidden-state writers ({held}): "
            "several dumps under one --data, each file scored, so a sequence held in both "
            "counts twice; pass the folder of one dump")


def _what_else_is_here(root: Path) -> tuple[str, str | None]:
    """What a directory without samples holds instead, and what to do: the usual wrong
    directories passed as --data."""
    if (root / "config.json").is_file() and (any(root.glob("*.safetensors"))
                                             or any(root.glob("pytorch_model*.bin"))):
        return ("; it holds a model checkpoint (config.json and weights)",
                "pass the checkpoint as --model or --target, and the hidden-state dump as --data")
    if any(root.rglob("*.arrow")) or (root / "dataset_info.json").is_file():
        # speculators prepare_data / SpecForge write the tokenized dataset (HF datasets) first;
        # the hidden states are a second step
        return ("; it holds a tokenized dataset (HF datasets .arrow), not hidden states",
                "generate the hidden states first (speculators generate_offline_data, SpecForge "
                "scripts/prepare_hidden_states.py) and pass that output as --data")
    compressed = sorted(p.name for p in root.rglob("*.zst"))
    if compressed:
        # vLLM's online hidden-states connector writes `{req_id}.safetensors.zst` when
        # compression is on (vllm kv_connector online/hidden_states_writer.py)
        return (f"; it holds {len(compressed)} zstd-compressed file(s), e.g. {compressed[0]}",
                "decompress them first, e.g. `zstd -d --rm DIR/*.zst`")
    numpy_files = sorted((p.name for pattern in ("*.npy", "*.npz") for p in root.rglob(pattern)),
                         key=lambda name: _natural_key(Path(name)))
    if numpy_files:
        return (f"; it holds {len(numpy_files)} numpy file(s) (e.g. {numpy_files[0]}), which "
                "the drafter does not read", _CONVERT_NUMPY)
    torch_paths = sorted((p for pattern in ("*.pt", "*.ckpt") for p in root.rglob(pattern)),
                         key=_natural_key)
    torch_files = [p.name for p in torch_paths]
    if torch_files:
        # *.pt directly in --data are read whatever their names (Model-Optimizer's
        # {conversation_id}.pt); these sit in subfolders, or are .ckpt not named data_*
        folder = torch_paths[0].parent
        return (f"; its torch files ({', '.join(torch_files[:3])}"
                + (" ..." if len(torch_files) > 3 else "") + ") are not named data_*"
                + (f" and sit in subfolders such as {folder}" if folder != root else ""),
                (f"pass the folder that holds them ({folder}) as --data, or " if folder != root
                 else "") + "name the samples data_<i>.pt (speculators) or data_<i>.ckpt "
                "(SpecForge), or pass one file as --data")
    return "", None


_LAYER_IDS_FIX = ("write the metadata as a JSON list of ints, one target layer id per stored "
                  "slot (json.dumps([2, 20, 37, 40])), or drop the layer_ids entry")


def _json_kind(value: Any) -> str:
    """The JSON name of a parsed value's type, for a message about what was written."""
    if isinstance(value, bool):
        return "boolean"
    return {str: "string", dict: "object", int: "integer", float: "number"}.get(
        type(value), "null")


def _layer_ids_from_metadata(path: Path, metadata: dict | None,
                             num_slots: int) -> tuple[int, ...] | None:
    """The file's `layer_ids` metadata, one target layer id per stored slot. A list of
    another length belongs to another capture (metadata copied from a wider or narrower
    dump, a hand-written entry): the slots it would name are not this file's, so the file is
    refused here, in the header read as in the sample read, before any slot is chosen by it
    (a shorter list was indexed past its end choosing the draft's slots: an IndexError)."""
    if not metadata or "layer_ids" not in metadata:
        return None
    written = metadata["layer_ids"]
    try:
        parsed = json.loads(written)
    except ValueError as exc:
        raise DataError(f"{path}: layer_ids metadata is not a JSON list of ints "
                        f"({written[:80]!r}: {exc})", hint=_LAYER_IDS_FIX) from None
    # taken as written: int() made `true` layer 1, `2.5` layer 2 and `1e3` layer 1000, and
    # a string of digits ("2345") was iterated into layers (2, 3, 4, 5), each naming
    # slots the capture may not hold with no word (bool is an int subclass, not a layer id)
    if not isinstance(parsed, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in parsed):
        if isinstance(parsed, list):
            bad = [i for i in parsed if type(i) is not int]
            what = (f"holds {', '.join(json.dumps(i) for i in bad[:4])}"
                    f"{' ...' if len(bad) > 4 else ''}, not layer ids")
        else:
            what = f"is a JSON {_json_kind(parsed)}, not a list"
        raise DataError(f"{path}: layer_ids metadata is not a JSON list of ints: "
                        f"{written[:80]!r} {what}", hint=_LAYER_IDS_FIX)
    ids = tuple(parsed)
    if len(ids) != num_slots:
        raise DataError(f"{path}: layer_ids metadata names {len(ids)} slot{'' if len(ids) == 1 else 's'} "
                        f"{list(ids)[:8]}{' ...' if len(ids) > 8 else ''}, the file's "
                        f"hidden_states hold {num_slots} per position",
                        hint="write the metadata again with one layer id per stored slot "
                             "(the last one the final layer), or drop the layer_ids entry")
    return ids


def _not_a_sample(path: Path, names: list[str]) -> DataError:
    """A safetensors file without token_ids and hidden_states: most often a checkpoint's
    weights passed as --data (its tensor list ran to hundreds of names)."""
    weights = sorted(n for n in names if n.endswith(".weight"))
    if weights:
        return DataError(f"{path}: model weights ({len(names)} tensors, e.g. {weights[0]}), not "
                         "a hidden-state sample",
                         hint="pass the hidden-state dump as --data; a checkpoint goes to "
                              "--model (the draft) or --target")
    found = sorted(names)
    listed = f"{found[:8]}" + (" ..." if len(found) > 8 else "")
    if "hidden_states" in names and not any(key in names for key in _TOKEN_KEYS):
        # states kept and their ids dropped (a hand-written dumper, a conversion that kept
        # the tensors it thought large): said as what is missing, with what to save
        return DataError(f"{path}: expected token_ids and hidden_states tensors, found "
                         f"{listed}: the states without the token ids they were computed from",
                         hint=_NO_IDS_FIX)
    return DataError(f"{path}: expected token_ids and hidden_states tensors, found {listed}")


# the fix of a sample saved without its token ids: the draft embeds those tokens and each row
# is scored against the next one, so nothing can stand in for them
_NO_IDS_FIX = ("save each sample's token ids beside its states, the [T] ids the states were "
               "computed from (token_ids in hs_<i>.safetensors, input_ids in a torch-saved "
               "sample): the draft embeds those tokens, so a sample without them cannot be scored")


# vLLM/speculators extraction names the ids `token_ids` (hs_connectors transfer.py); dumps
# written by hand or by other tools often say `input_ids` (SpecForge's name).
_TOKEN_KEYS = ("token_ids", "input_ids")


def _state_dims(path: Path, shape: Sequence[int]) -> tuple[int, int, bool]:
    """(slots S, hidden Ht, has a leading batch dim of 1) of a hidden_states shape."""
    shape = tuple(int(n) for n in shape)
    if len(shape) == 4 and shape[0] == 1:
        return shape[2], shape[3], True
    if len(shape) != 3:
        flat = " (flattened slots?)" if len(shape) == 2 else ""
        # the aux states concatenated into one vector, as SpecForge's aux_hidden_state holds
        # them: the hs layout keeps one slot per captured layer, the final layer's last
        raise DataError(f"{path}: hidden_states has shape {list(shape)}{flat}; expected "
                        "[tokens, slots, hidden] (speculators hs format)",
                        hint="save the states stacked, not concatenated: torch.stack([layer "
                             "states..., final layer state], dim=1) gives [tokens, slots, "
                             "hidden]" if len(shape) == 2 else None)
    return shape[1], shape[2], False


def _one_id_off(num_ids: int, num_states: int, connector: bool = False) -> str:
    """Why the ids may be one longer or shorter than the states, for the error message. A
    dumper that saves `generate(..., max_new_tokens=1, output_hidden_states=True)` keeps
    `sequences` (the prompt and the generated token) beside the prompt's states
    (transformers GenerateDecoderOnlyOutput: hidden_states[0] covers the prompt); one that
    saves the shifted labels has one id fewer. speculators refuses both
    (data_generation/offline.py check_hidden_states). Any other difference gets the general
    cause and fix, so no length error ends without one."""
    if num_ids == num_states + 1:
        return (": one id more than states, as in a dump of generate()'s sequences (the "
                "prompt and the generated token); save the ids the states were computed for")
    if num_ids == num_states - 1:
        return (": one id fewer than states, as in a dump of the shifted labels "
                "(input_ids[1:]); save the ids the states were computed for")
    if num_ids == 0 and num_states > 0 and connector:
        # vLLM's hidden-states connector saves `torch.tensor([])` as token_ids for a request
        # sent as prompt_embeds, which has no prompt token ids, beside the states it took
        # from the cache (vllm distributed/kv_transfer/kv_connector/v1/
        # example_hidden_states_connector.py request_finished: "Saved token_ids will be
        # empty"). Nothing else was cut or mixed up: the ids were never saved
        return (": no ids were saved with the states, as vLLM's extract_hidden_states "
                "connector writes for a request sent as prompt_embeds (it has no prompt "
                "token ids to save); send the prompts as token ids or text and dump again")
    if num_ids == 0 and num_states > 0:
        return (": no ids were saved with the states (the ids tensor is empty); save the "
                "ids the states were computed for")
    return (": the ids and the states of this sample are of different sequences (one cut to "
            "a max length and not the other, or another prompt's ids); dump it again with "
            "the ids the states were computed for")


# the fix of a loss_mask of another length than the sample's tokens
MASK_LENGTH_FIX = ("; the mask was built for another sequence (tokenized again, or cut to "
                   "another max length): dump the sample again, saving the mask of its own ids")


def _refuse_slot_major(path: Path, shape: Sequence[int], num_tokens: int) -> None:
    """hidden_states stacked slots first, [S, T, Ht] (`torch.stack(layers)` in a hand-written
    dumper) rather than speculators' [T, S, Ht] (hs_connectors transfer.py; its loader
    indexes `hidden_states[:, :-1]`, train/data.py). Read as written, the token count would be
    the slot count: say which axis is which."""
    shape = [int(n) for n in shape]
    if len(shape) == 4 and shape[0] == 1:
        shape = shape[1:]
    if len(shape) == 3 and shape[0] == 1 != num_tokens and shape[1] == num_tokens:
        # [1, T, W]: a batch of one around states concatenated along hidden (SpecForge's
        # aux_hidden_state shape, or `torch.cat(layers, dim=-1)` of model outputs). Read as
        # slots first it was "1 state of T tokens", and the transpose that message advised
        # gives [T, 1, W], still one state per token.
        raise DataError(f"{path}: hidden_states has shape {shape}, a batch of one with the "
                        f"layers concatenated ({shape[2]} wide per token); speculators' format "
                        "is [tokens, slots, hidden], one slot per captured layer and the final "
                        "layer's last",
                        hint="save torch.stack([layer states..., final layer state], dim=1) of "
                             "the sequence without the batch dim ([tokens, hidden] each), not "
                             "their torch.cat")
    if len(shape) == 3 and shape[0] != num_tokens and shape[1] == num_tokens:
        raise DataError(f"{path}: hidden_states has shape {shape}, slots first ({shape[0]} "
                        f"states of {num_tokens} tokens); speculators' format is [tokens, "
                        "slots, hidden]",
                        hint="save hidden_states.transpose(0, 1).contiguous() "
                             "(torch.stack(layer_states, dim=1), not dim=0)")


def _describe_file(path: Path, count: int) -> DataInfo:
    if path.name.endswith(".safetensors"):
        from spec_debug.eagle3.checkpoint import CheckpointError, read_safetensors_header

        try:
            header = read_safetensors_header(path)
        except CheckpointError as exc:
            raise DataError(exc.message, hint=exc.hint) from None
        if _aux_keys(header) is not None:
            return _describe_record(path, count)
        token_key = next((k for k in _TOKEN_KEYS if k in header), None)
        if "hidden_states" not in header or token_key is None:
            raise _not_a_sample(path, [k for k in header if k != "__metadata__"])
        tokens = [int(n) for n in header[token_key]["shape"]]
        if len(tokens) == 1 or (len(tokens) == 2 and tokens[0] == 1):
            _refuse_slot_major(path, header["hidden_states"]["shape"], tokens[-1])
        slots, hidden, _ = _state_dims(path, header["hidden_states"]["shape"])
        return DataInfo("speculators", count, slots, hidden,
                        _layer_ids_from_metadata(path, header.get("__metadata__"), slots), True,
                        "loss_mask" in header)
    return _describe_record(path, count)


def _describe_record(path: Path, count: int) -> DataInfo:
    sample = read_sample(path)
    return DataInfo(sample.data_format, count, sample.num_file_slots, int(sample.slots.shape[-1]),
                    None, sample.final is not None, sample.loss_mask_given)


_DESCRIBE_FILES = 8  # readable files whose shapes vote on what the dump holds
_DESCRIBE_TRIES = 32  # files opened at most, so a bad large dump is not read in full here


def describe_data(data_dir: str | Path) -> DataInfo:
    """What the dump holds, by majority over its first few readable files: one odd or broken
    file, even the first, must not decide the shapes (`iter_samples` skips and counts the
    files that disagree). Only when no file can be read is the dump itself an error."""
    files = list_sample_files(data_dir)
    errors: list[DataError] = []
    infos: list[DataInfo] = []
    for path in files[:_DESCRIBE_TRIES]:
        try:
            infos.append(_describe_file(path, len(files)))
        except DataError as exc:
            errors.append(exc)
        if len(infos) >= _DESCRIBE_FILES or (path.suffix != ".safetensors" and infos):
            break  # SpecForge files are read in full: one is enough
    if not infos:
        first = errors[0]
        raise DataError(f"no readable sample in {data_dir} ({len(errors)} tried); first: "
                        f"{first.message}", hint=first.hint)
    # layer_ids vote with the shapes: two captures of one width at other layers mixed in one
    # folder (another --layer-ids run copied in) must not let one odd first file name the
    # slots of all the others (check_sample then skips the files that name other layers)
    shape = lambda info: (info.num_slots, info.hidden_size, info.layer_ids)  # noqa: E731
    votes = [shape(info) for info in infos]
    common = max(votes, key=votes.count)  # ties: the earliest file
    return next(info for info in infos if shape(info) == common)


# speculators' FP8 hidden-state connector (hs_connectors fp8_hidden_states_connector.py,
# `--hidden-states-backend fp8`) writes `hidden_states` as float8_e4m3fn divided by one fp32
# scale per token, `hidden_states_scales [T, 1, 1]`; its reader (hs_connectors transfer.py
# FP8Transfer, fp8_utils.dequantize_fp8_tensor) restores `fp8.to(bf16) * scale.to(bf16)`.
# Read raw, every state is off by its token's scale (a draft without norm_before_fc then
# scores near zero).
_FP8_SCALES = "hidden_states_scales"
_FP8_SCALES_FIX = ("copy the files as the connector wrote them (hidden_states_scales, float32 "
                   "[tokens, 1, 1], beside hidden_states), or dump the hidden states again in "
                   "bfloat16")


def _dequantize_fp8(path: Path, scales: Tensor, T: int, chosen: Tensor,
                    final_state: Tensor | None) -> tuple[Tensor, Tensor | None]:
    if scales.numel() != T:
        raise DataError(f"{path}: {_FP8_SCALES} has shape {list(scales.shape)}, expected one "
                        f"scale per token [{T}, 1, 1] (speculators FP8 hidden-state format)",
                        hint=_FP8_SCALES_FIX)
    # the connector's scales are float32 amax / 448 clamped to at least 1e-12
    # (hs_connectors fp8_utils.quantize_tensor_to_fp8): scales cast to an integer type (all
    # rounded to 0) or zero ones multiplied every state to zero, and the sample was refused as
    # "all zeros: the capture wrote nothing there", a capture that did write
    if not scales.is_floating_point():
        raise DataError(f"{path}: {_FP8_SCALES} is {str(scales.dtype)[6:]}, not the float32 "
                        "scales speculators' FP8 connector writes: cast to integers, the scales "
                        "(amax / 448 per token, most under 1) are lost", hint=_FP8_SCALES_FIX)
    low = scales.reshape(-1).float()
    bad = int((low <= 0).sum())
    if bad:
        raise DataError(f"{path}: {_FP8_SCALES} holds {bad} of {T} scales at zero or below; the "
                        "FP8 connector's are positive (amax / 448 per token, at least 1e-12), "
                        "so the states cannot be read back", hint=_FP8_SCALES_FIX)
    per_token = scales.reshape(T, 1).to(torch.bfloat16)  # [T, 1]
    chosen = chosen.to(torch.bfloat16) * per_token[:, :, None]  # [T, s, Ht]
    if final_state is not None:
        final_state = final_state.to(torch.bfloat16) * per_token  # [T, Ht]
    return chosen, final_state


# e4m3's largest value: the connector divides each token by amax / 448, so every token of an
# FP8 payload peaks at exactly 448 (hs_connectors fp8_utils.quantize_tensor_to_fp8)
_FP8_MAX = 448.0
# bf16 keeps 8 significant bits (0.4%), and a bf16 scale as many again: 2% tells the two
# readings apart, which differ by the scale itself (amax / 448, far from 1 for real states)
_SCALE_RTOL = 0.02


def _payload_needs_scales(path: Path, states: Tensor, scales: Tensor, T: int) -> bool:
    """Whether a bfloat16 / float32 `hidden_states` beside `hidden_states_scales` still has
    to be multiplied by them. hs_connectors' FP8Transfer multiplies whenever the scales are
    there (transfer.py _dequantize), but a payload in a wider dtype is one of two copies:
    the FP8 values cast up (each token still peaking at 448: scale them), or states already
    dequantized with the scales kept beside them (each token peaking at its scale x 448:
    scaled again, every state shrank by its token's amax / 448 with no word). Told apart by
    the peaks; scales that fit neither are not these states'."""
    if T == 0 or scales.numel() != T or not scales.is_floating_point():
        return True  # _dequantize_fp8 names what is wrong with them
    peak = states.reshape(T, -1).float().abs().amax(dim=1)  # [T]
    scale = scales.reshape(T).float()
    # an all-zero row (scale clamped to 1e-12) fits both; a NaN / Inf one is named later
    written = (peak > 0) & peak.isfinite() & scale.isfinite()
    if not bool(written.any()):
        return True
    peak, scale = peak[written], scale[written]
    if bool(((peak - _FP8_MAX).abs() <= _SCALE_RTOL * _FP8_MAX).all()):
        return True
    if bool(((peak - scale * _FP8_MAX).abs() <= _SCALE_RTOL * scale * _FP8_MAX).all()):
        return False
    dtype = str(states.dtype)[6:]
    raise DataError(f"{path}: hidden_states are {dtype} beside {_FP8_SCALES}, but they are "
                    "neither FP8 values (each token peaking at 448) nor states the scales "
                    "were taken from (each peaking at its scale x 448): the scales are not "
                    "these states'",
                    hint=f"drop {_FP8_SCALES} from files whose hidden_states are already in "
                         "scale, or copy the files as the connector wrote them")


def _refuse_being_written(path: Path) -> None:
    """An unreadable file with `<name>.lock` beside it is one still being written: vLLM's
    hidden-states connector holds that lock while it writes `{req_id}.safetensors`, and
    speculators' generate_offline_data waits for it to go before moving the file to hs_{i}
    (speculators cli/generate_offline_data.py, data_generation/vllm_client.py
    wait_for_lock_async). Not a cut copy to fetch again: the run is not over."""
    lock = path.with_name(path.name + ".lock")
    if lock.exists():
        raise DataError(f"{path}: still being written ({lock.name} is beside it: the "
                        "hidden-state generation has not finished this file)",
                        hint="evaluate once the generation is done, or pass the files it "
                             "has finished (speculators moves each to hs_<i>.safetensors)")


def _itemsize(dtype: str) -> int:
    """Bytes per element of a safetensors header dtype ("BF16" 2, "F8_E4M3" 1, "BOOL" 1)."""
    bits = re.match(r"[A-Z]+(\d+)", dtype)
    return max(1, int(bits.group(1)) // 8) if bits else 1


def _read_speculators(path: Path, slots: Sequence[int] | None, final: bool,
                      bytes_left: Callable[[], int] | None = None) -> Sample:
    """`bytes_left`: a probe's read of every slot within a memory budget (api's
    _bounded_samples): only the first rows whose states fit it are read from the file."""
    from safetensors import safe_open

    from spec_debug.eagle3.checkpoint import (
        CheckpointError,
        fp8_dtypes,
        read_safetensors_header,
    )

    try:
        read_safetensors_header(path)  # a clear message for empty, LFS or truncated files
    except CheckpointError as exc:
        _refuse_being_written(path)
        raise DataError(exc.message, hint=exc.hint) from None
    try:
        with safe_open(str(path), framework="pt") as handle:
            keys = set(handle.keys())
            token_key = next((k for k in _TOKEN_KEYS if k in keys), None)
            if token_key is None or "hidden_states" not in keys:
                raise _not_a_sample(path, list(keys))
            token_ids = handle.get_tensor(token_key)
            states = handle.get_slice("hidden_states")
            state_shape = states.get_shape()
            S, _, batched = _state_dims(path, state_shape)
            layer_ids = _layer_ids_from_metadata(path, handle.metadata(), S)
            if batched:
                states = handle.get_tensor("hidden_states")[0]
            T = int(states.get_shape()[0]) if not batched else int(states.shape[0])
            wanted = tuple(range(S)) if slots is None else tuple(slots)
            if any(not 0 <= s < S for s in wanted):
                raise DataError(f"{path}: slot out of range {wanted} (file has {S} slots)")
            # rows read: all, or the first that fit bytes_left (never fewer than 2, the least
            # a sample scores). A wide dump's sample of a large target is tens of GB (81 slots
            # x 8192 x 2 bytes per token for a 70B one): read whole and cut after, a 2 GB
            # budget held the whole sample, and the next one was read in full before the
            # budget stopped the reading. Not where rows are dropped by position later
            # (attention_mask padding) or the payload is rescaled per token (FP8 scales)
            limit = T
            if bytes_left is not None and slots is None and not batched \
                    and "attention_mask" not in keys and _FP8_SCALES not in keys:
                per_row = S * int(state_shape[-1]) * _itemsize(states.get_dtype())
                limit = min(T, max(2, bytes_left() // max(per_row, 1)))
            if slots is None:
                chosen = states[:limit] if limit < T else states[:]
            else:
                # one contiguous read when the slots are a range, else slot by slot
                lo, hi = min(wanted), max(wanted) + 1
                block = states[:, lo:hi]
                chosen = block[:, [s - lo for s in wanted]]
            final_state = (None if not final else
                           states[:limit, S - 1] if limit < T else states[:, S - 1])
            dequantized = _FP8_SCALES in keys
            if dequantized and chosen.is_floating_point() \
                    and chosen.dtype not in fp8_dtypes():
                # rare: scales beside a wider payload; already in scale, they stay as read
                dequantized = _payload_needs_scales(
                    path, states if batched else states[:], handle.get_tensor(_FP8_SCALES), T)
            if dequantized:
                chosen, final_state = _dequantize_fp8(path, handle.get_tensor(_FP8_SCALES),
                                                      T, chosen, final_state)
            elif not chosen.is_floating_point():
                _float_states(path, "hidden_states", chosen)
            elif chosen.dtype in fp8_dtypes():
                # the connector's states are h / scale, each token filling the e4m3 range:
                # read without the scales every state is off by its token's own factor
                raise DataError(f"{path}: hidden_states are {str(chosen.dtype)[6:]} without "
                                f"{_FP8_SCALES} (one scale per token, written beside them by "
                                "speculators' FP8 hidden-state connector): the scales were "
                                "dropped, and the states cannot be read back",
                                hint="copy the files as the connector wrote them, or dump "
                                     "the hidden states again in bfloat16")
            loss_mask = handle.get_tensor("loss_mask") if "loss_mask" in keys else None
            attention = (handle.get_tensor("attention_mask") if "attention_mask" in keys
                         else None)
    except SpecDebugError:
        raise
    except Exception as exc:  # safetensors raises its own error types
        _refuse_being_written(path)
        raise DataError(f"{path}: cannot read ({exc})") from None
    if token_ids.dim() == 2 and token_ids.shape[0] == 1:
        token_ids = token_ids[0]
    if token_ids.dim() != 1:
        raise DataError(f"{path}: {token_key} has shape {list(token_ids.shape)}, expected [tokens]")
    if token_ids.shape[0] != T:
        _refuse_slot_major(path, state_shape, token_ids.shape[0])
        raise DataError(f"{path}: {token_key} has {token_ids.shape[0]} entries, hidden_states {T}"
                        + _one_id_off(int(token_ids.shape[0]), T, connector=True))
    given = loss_mask is not None
    if loss_mask is None:
        loss_mask = torch.ones(T, dtype=torch.bool)
    elif loss_mask.numel() != T:
        raise DataError(f"{path}: loss_mask has {loss_mask.numel()} entries, hidden_states {T}"
                        + MASK_LENGTH_FIX)
    kept, chunk_size = _unpadded_rows(path, attention, T)
    if limit < T:  # checked against the whole file above, read in part (bytes_left)
        token_ids, loss_mask = token_ids[:limit], loss_mask[:limit]
    sample = Sample(path.name, _exact_ids(path, token_key, token_ids), chosen, wanted,
                    final_state, _mask_bool(path, loss_mask), layer_ids, S,
                    loss_mask_given=given, chunk_size=chunk_size,
                    ids_ceiling=_ids_ceiling(token_ids),
                    scales_kept=_FP8_SCALES in keys and not dequantized)
    if kept is not None:
        sample = replace(sample, token_ids=sample.token_ids[kept], slots=chosen[kept],
                         final=None if final_state is None else final_state[kept],
                         loss_mask=sample.loss_mask[kept], padding=T - (kept.stop - kept.start))
    # all the slots read are a view of the mapped file; a choice of them, or dequantized
    # ones, a copy already
    return _own_memory(sample, slots=slots is None and not dequantized)


def _unpadded_rows(path: Path, attention: Tensor | None, T: int
                   ) -> tuple[slice | None, int]:
    """The rows a padded sample's attention_mask keeps, or None when it masks nothing, and
    the chunk size of a square chunked-attention mask (0 for any other; see _chunk_size).

    speculators' loader reads token_ids and hidden_states only (src/speculators/train/
    data.py), so a dump saved from a padded batch (a hand-written dumper around
    `model(..., attention_mask=...)`) feeds its pad rows as tokens: scored, their states
    (zeros, or whatever the model gave a masked row) pulled the accuracy down with no word.
    Padding at either end is cut off, which leaves exactly the unpadded sample (causal
    attention: rows before right padding never see it; left padding is cut before any row
    attends to it). Masked rows inside the sequence are not padding and are refused."""
    if attention is None:
        return None, 0
    mask, chunk_size = _per_position_mask(path, attention, T)
    if mask is None:
        return None, chunk_size
    if mask.numel() != T:
        raise DataError(f"{path}: attention_mask has {mask.numel()} entries, hidden_states {T}"
                        + _batch_mask(attention, T))
    keep = mask != 0
    if bool(keep.all()):
        return None, chunk_size
    rows = keep.nonzero().reshape(-1)
    if rows.numel() < 2:
        raise DataError(f"{path}: attention_mask keeps {rows.numel()} of {T} positions: "
                        "nothing to score")
    start, stop = int(rows[0]), int(rows[-1]) + 1
    if stop - start != rows.numel():
        raise DataError(f"{path}: attention_mask masks {T - rows.numel()} positions inside "
                        "the sequence, not padding at its ends (several documents packed in "
                        "one row?): speculators' loader ignores attention_mask and would feed "
                        "them as one sequence",
                        hint="write one sample per sequence, without padding")
    return slice(start, stop), chunk_size


def _batch_mask(attention: Tensor, T: int) -> str:
    """Why a mask of the wrong size has it, when its shape says: a dumper that saved the
    whole batch's mask ([B, T] or transformers' [B, 1, T, T]) beside one sample's states."""
    shape = list(attention.shape)
    if len(shape) in (2, 4) and shape[0] > 1 and shape[-1] == T and attention.numel() > T:
        return (f" (shape {shape}: the mask of a batch of {shape[0]}, not of this sample; "
                "save each sample's own row of it)")
    return ""


def _per_position_mask(path: Path, attention: Tensor, T: int) -> tuple[Tensor | None, int]:
    """The [T] keep mask an attention_mask stands for (None when it masks nothing), and the
    chunk size when it is a square chunked-attention mask (else 0).

    No reference writer saves an attention_mask (speculators' data generation writes
    token_ids / hidden_states / loss_mask; SpecForge's scripts/prepare_hidden_states.py
    input_ids / loss_mask / hidden_state / aux_hidden_state, and its offline loader
    makes a ones mask itself, specforge/data/preprocessing.py), so one in a sample comes
    from a hand-written dumper. Such a dumper may save the mask the model actually used,
    the square [T, T] (or [1, 1, T, T]) causal mask transformers builds from the [T]
    one: boolean, 0/1, or additive (0 kept, a large negative value masked), or the target's
    own sliding-window / bidirectional-span pattern (_model_pattern). It is read back to the
    [T] mask it was built from rather than refused for its size."""
    square = attention
    while square.dim() > 2 and square.shape[0] == 1:
        square = square[0]
    if square.dim() != 2 or tuple(square.shape) != (T, T) or T < 2:
        return attention.reshape(-1), 0
    keep = _kept_entries(square)
    if bool(keep.all()):
        return None, 0
    # True/1 = masked out is torch.nn.MultiheadAttention's boolean attn_mask convention
    # (nn.Transformer.generate_square_subsequent_mask's float one is additive, above). Plain
    # causal attention in either convention first: a MultiheadAttention mask with padded
    # keys reads as a windowed one in the other convention. A uint8/int 0/1 mask may be either
    # (MultiheadAttention took byte masks as boolean ones); a float one is additive in torch
    readings = [keep] if square.is_floating_point() else [keep, ~keep]
    for pattern in (False, True):
        for reading in readings:
            per_position = _causal_positions(reading, model_pattern=pattern)
            if per_position is not None:
                kept = per_position.nonzero().reshape(-1)
                chunk_size = _chunk_size(reading[kept][:, kept]) if pattern else 0
                return None if bool(per_position.all()) else per_position, chunk_size
    if not bool(keep.any()):
        # masks every position: said as for a [T] one
        return torch.zeros(T, dtype=torch.bool), 0
    raise DataError(f"{path}: attention_mask is a [{T}, {T}] mask that is not causal "
                        "attention over the positions it keeps (a block mask of several "
                        "documents packed in one row?): speculators' loader ignores "
                        "attention_mask and would feed them as one causal sequence",
                        hint="write one sample per sequence, without padding")


def _causal_positions(keep: Tensor, *, model_pattern: bool = False) -> Tensor | None:
    """The [T] positions a square keep mask attends, when it is causal attention over
    them (None when it is not): rows that see later positions are pad queries transformers
    un-masks (its SDPA path lets a fully masked row attend to everything) and say nothing
    about the columns. `model_pattern`: also the target's own attention pattern over them
    (_model_pattern)."""
    T = keep.shape[0]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    causal_rows = ~(keep & ~causal).any(dim=1)
    per_position = (keep & causal_rows[:, None]).any(dim=0)
    kept = per_position.nonzero().reshape(-1)
    inner = keep[kept][:, kept]
    if not kept.numel():
        return None
    if bool(torch.equal(inner, causal[:kept.numel(), :kept.numel()])):
        return per_position
    return per_position if model_pattern and _model_pattern(inner) else None


def _model_pattern(inner: Tensor) -> bool:
    """Whether a square keep mask over the kept positions is a target's own attention
    pattern, which the target ran and an engine serving it runs too, so it marks no
    padding: a sliding window (row i sees i-W+1..i; Mistral, Gemma 2/3, gpt-oss layers;
    transformers masking_utils.sliding_window_causal_mask_function), and causal attention
    with bidirectional spans (a prefix-LM prefix, Gemma 3's image tokens: its or_mask of
    token_type_ids), and Llama 4's chunked attention (_chunked). A block mask of packed
    documents is none of them: its rows after a document boundary do not see the earlier
    positions, the window's width or not, and its blocks are not chunks of one size."""
    n = inner.shape[0]
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    backward, forward = inner & causal, inner & ~causal
    if not bool(backward.diagonal().all()) or bool((forward & ~inner.T).any()):
        return False  # every position sees itself; a forward span is seen both ways
    if bool(torch.equal(backward, causal)):
        return True
    width = int(backward.sum(dim=1).max())
    window = causal & ~torch.ones(n, n, dtype=torch.bool).tril(-width)
    return width > 1 and (bool(torch.equal(backward, window)) or _chunk_size(inner) > 0)


def _chunk_size(inner: Tensor) -> int:
    """C when a keep mask is Llama 4's chunked attention, else 0: causal within chunks of C
    positions counted from the first kept one (transformers masking_utils.chunked_overlay:
    (kv - left_padding) // C == (q - left_padding) // C; Llama4TextConfig
    attention_chunk_size). Packed documents of C tokens each but the last make the same
    mask, so check_sample accepts it only when the target's config says C."""
    n = inner.shape[0]
    starts = [0] + [i for i in range(1, n) if not bool(inner[i, i - 1])]
    if len(starts) < 2:
        return 0
    size = starts[1]
    chunk = torch.arange(n) // size
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    same = starts == list(range(0, n, size)) and bool(
        torch.equal(inner, causal & (chunk[:, None] == chunk[None, :])))
    return size if same else 0


def _kept_entries(square: Tensor) -> Tensor:
    """Which entries of a saved square mask attend: additive masks keep their zeros."""
    if square.dtype == torch.bool:
        return square
    if square.is_floating_point() and bool((square < 0).any()):
        return square >= 0  # 0 kept, finfo.min or -inf masked (transformers' 4-D mask)
    if square.is_floating_point() and not bool(square.any()):
        # All zeros reads two ways: additive "nothing masked" or 0/1 "everything masked".
        # Every float attention mask torch and transformers apply is additive
        # (F.scaled_dot_product_attention and nn.MultiheadAttention add a float attn_mask;
        # transformers' masking_utils.eager_mask and modeling_attn_mask_utils.
        # _prepare_4d_attention_mask write 0 where a position attends, so a bidirectional or
        # expanded padding mask without padding is all zeros), and under the other reading
        # the target attended nothing and wrote no states: nothing masked, no padding.
        return torch.ones_like(square, dtype=torch.bool)
    return square != 0


_SAMPLE_FORMATS = ("the drafter reads speculators' hs_*.safetensors (token_ids, "
                   "hidden_states), SpecForge's data_*.ckpt (input_ids, aux_hidden_state, "
                   "hidden_state), speculators' older data_*.pt, and Model-Optimizer's or "
                   "TensorRT-LLM's *.pt (input_ids, aux_hidden_states, hidden_states)")


def _looks_like_json(path: Path) -> bool:
    if path.suffix in (".json", ".jsonl"):
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(64).lstrip()[:1] in (b"{", b"[")
    except OSError:
        return False


# numpy's own formats: np.save writes this magic first (numpy lib/format.py MAGIC_PREFIX);
# np.savez a zip of one <name>.npy per array. Neither is a torch.save, whose zip holds
# <archive>/data.pkl, so torch.load called them a pickle of "other objects" or an archive
# "not in a subdirectory".
_NPY_MAGIC = b"\x93NUMPY"

_CONVERT_NUMPY = ("convert each sample: safetensors.torch.save_file({'token_ids': "
                  "torch.from_numpy(ids), 'hidden_states': torch.from_numpy(states)}, "
                  "'hs_<i>.safetensors'), ids [T] and states [T, slots, hidden] with the final "
                  "layer's state last")


def _numpy_kind(path: Path) -> str | None:
    """'np.save' or 'np.savez' when the file is one of numpy's, else None."""
    import zipfile

    try:
        with path.open("rb") as handle:
            if handle.read(len(_NPY_MAGIC)) == _NPY_MAGIC:
                return "np.save"
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                names = archive.namelist()
            if names and all(name.endswith(".npy") and "/" not in name for name in names):
                return "np.savez"
    except (OSError, zipfile.BadZipFile):
        return None
    return None


def _torch_load(path: Path) -> Any:
    """torch.load of a sample, memory-mapped where it can be: a 100k-token SpecForge sample of
    a 7168-wide target is gigabytes, and read whole it sat in memory beside the copies made
    of it (the slots asked for, the final state). Mapped, only the bytes touched are read and
    they stay reclaimable page cache. Only zip-format files (torch >= 1.6) can be mapped; a
    legacy one is read whole, as checkpoint._load_bin does."""
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as handle:
            return torch.load(io.BytesIO(handle.read()), map_location="cpu", weights_only=True)
    try:
        return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except RuntimeError as exc:
        from spec_debug.eagle3.checkpoint import torch_save_cut

        if "mmap" not in str(exc) or torch_save_cut(path):
            raise
        return torch.load(path, map_location="cpu", weights_only=True)


def _torch_lacks(name: str) -> bool:
    """checkpoint.torch_lacks: shared with the draft checkpoint's pickle reader."""
    from spec_debug.eagle3.checkpoint import torch_lacks

    return torch_lacks(name)


def _dtensors(path: Path) -> DataError:
    """States a hook took from an FSDP2 / tensor-parallel model are DTensors: each rank's file
    holds its shard and a device mesh, not the sample. Refused whether torch could load them
    (torch.distributed.tensor imported in this process: they reached the draft's fc as
    "unexpected RuntimeError: aten.mm.default got mixed torch.Tensor and DTensor") or not (torch
    2.6+ refuses them unimported: "it pickles other objects", with a numpy hint)."""
    return DataError(f"{path}: its tensors are DTensors (torch.distributed.tensor: states of a "
                     "sharded FSDP2 or tensor-parallel model saved as they were), which hold "
                     "one rank's shard and its device mesh, not the sample",
                     hint="save plain tensors: .full_tensor() of each (a collective: on every "
                          "rank, then save from one) before torch.save")


def _detached(record: dict, path: Path) -> dict:
    """The record with its tensors (and lists of them: speculators v1's hidden_states) cut
    from autograd. States captured by a forward hook outside torch.no_grad() and saved
    without .detach() keep requires_grad=True through torch.save; read as they are, every
    float() of them printed torch's "Converting a tensor with requires_grad=True to a scalar
    may lead to unexpected behavior" warning into the report, and each op on them built a
    graph never used. DTensors are refused (_dtensors), and tensors that hold no values to
    read as they are (_unreadable_tensor). One pass over the record's values, per file."""
    dtensor = getattr(sys.modules.get("torch.distributed.tensor"), "DTensor", None)

    def cut(value: Any, key: str) -> Any:
        if isinstance(value, Tensor):
            if dtensor is not None and isinstance(value, dtensor):
                raise _dtensors(path)
            if value.is_meta or value.layout != torch.strided:
                raise _unreadable_tensor(path, key, value)
            return value.detach() if value.requires_grad else value
        if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
            return type(value)(cut(v, key) for v in value)
        return value

    return {key: cut(value, key) for key, value in record.items()}


def _unreadable_tensor(path: Path, key: str, value: Tensor) -> DataError:
    """A meta tensor is a shape with no values: the states of a target whose weights stayed on
    the meta device (built under accelerate's init_empty_weights or `with torch.device("meta")`
    and never loaded) save and load as such, and reading one ended in "unexpected
    RuntimeError: Tensor.item() cannot be called on meta tensors". A sparse one (to_sparse()
    to save room) ended in "reshape is not implemented for sparse tensors"."""
    if value.is_meta:
        return DataError(f"{path}: {key} is on the meta device: a shape with no values (the "
                         "target ran with its weights on the meta device, built under "
                         "init_empty_weights or torch.device('meta') and never loaded)",
                         hint="dump the hidden states again from the target with its weights "
                              "loaded")
    layout = str(value.layout).replace("torch.", "")
    return DataError(f"{path}: {key} is a {layout} tensor; the drafter reads dense ones",
                     hint=f"save {key} dense (.to_dense()) with torch.save")


def _load_torch_records(path: Path) -> list[dict]:
    """The sample dicts of a torch-saved file: one dict, or TensorRT-LLM's list of them."""
    try:
        data = _torch_load(path)
    except Exception as exc:  # zip, pickle and gzip errors have no common base
        from spec_debug.eagle3.checkpoint import torch_save_cut

        if path.stat().st_size == 0:  # as the safetensors reader says it (checkpoint.py)
            raise DataError(f"{path}: empty file (0 bytes); copy it again") from None
        if torch_save_cut(path) or isinstance(exc, EOFError):  # EOFError: a cut .gz
            raise DataError(f"{path}: cannot read: truncated ({path.stat().st_size} bytes); "
                            "copy it again") from None
        numpy_kind = _numpy_kind(path)
        if numpy_kind:
            raise DataError(f"{path}: a numpy file ({numpy_kind}), not a hidden-state sample: "
                            "the drafter reads torch.save and safetensors files",
                            hint=_CONVERT_NUMPY) from None
        if _looks_like_json(path):
            raise DataError(f"{path}: JSON, not a hidden-state sample (e.g. SGLang's "
                            "--enable-return-hidden-states output, meta_info.hidden_states)",
                            hint=_SAMPLE_FORMATS) from None
        if "DTensor" in str(exc):
            # torch 2.6+: "``torch.distributed.tensor`` must be imported to load DTensors";
            # earlier ones refuse the global torch.distributed._tensor.api.DTensor. States a hook
            # took from an FSDP2 / tensor-parallel model are DTensors: each rank's file holds
            # its shard and a device mesh, not the sample (and loading one needs that mesh's
            # process groups), so it was said as "it pickles other objects" with a numpy hint
            raise _dtensors(path) from None
        # torch names the refused global "Unsupported global: GLOBAL x.y" (a class not on its
        # allowlist) or "unsupported GLOBAL x.y whose module x is blocked" (os.system pickled
        # by a __reduce__: posix.system); either way the name says what the file would run
        from spec_debug.eagle3.checkpoint import REFUSED_GLOBAL, newer_torch

        refused = REFUSED_GLOBAL.search(str(exc))
        if refused and _torch_lacks(refused.group(1)):
            # a dtype, storage type or rebuild function a later torch added (this torch
            # pickles a uint16 tensor as torch._utils._rebuild_tensor_v3 and the global
            # torch.uint16; an older one has neither): the file is tensors saved by a newer
            # torch than this host's, not "other objects" to convert from numpy
            raise DataError(newer_torch(path, refused.group(1)),
                            hint="read it with a torch at least as new as the one that saved "
                                 "it (upgrade torch where the drafter runs), or save the "
                                 "sample with safetensors") from None
        if refused or "Weights only load failed" in str(exc):
            # torch's own text tells the user to load untrusted pickles with
            # weights_only=False; the sample needs plain tensors instead
            what = f" ({refused.group(1)})" if refused else ""
            raise DataError(f"{path}: not a torch.save of tensors: it pickles other "
                            f"objects{what}, which are not loaded (a pickle can run code)",
                            hint="save each value as a torch tensor (torch.from_numpy for "
                                 "numpy arrays); " + _SAMPLE_FORMATS) from None
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataError(f"{path}: cannot read ({text})") from None
    if isinstance(data, dict):
        return [_detached(data, path)]
    if isinstance(data, (list, tuple)) and data and all(isinstance(r, dict) for r in data):
        # TensorRT-LLM's SaveState decoding saves its requests in batches of write_interval
        # (save_hidden_state.py _write_to_file: torch.save(self._saved_state, ...))
        return [_detached(record, path) for record in data]
    what = type(data).__name__
    if isinstance(data, (list, tuple)):
        what += f" of {len(data)}"
    raise DataError(f"{path}: expected a dict of tensors (SpecForge: input_ids, "
                    f"aux_hidden_state; speculators data_*.pt: input_ids, hidden_states), "
                    f"found a {what}", hint="save each sample with torch.save({...}) "
                    "under these keys")


# Integers a float type holds exactly (2 ** (mantissa bits + 1)): a dump whose tensors were all
# cast to bfloat16 (`{k: v.bfloat16()}` to halve its size) rounds every token id above 256.
_EXACT_IDS = {torch.bfloat16: 2 ** 8, torch.float16: 2 ** 11, torch.float32: 2 ** 24}


def _exact_ids(path: Path, key: str, ids: Tensor) -> Tensor:
    """Token ids as int64; ids stored as floats are refused where the type rounded them, and
    ids stored as bool (a mask saved under the ids' key) are refused outright: read as ids 0
    and 1 every score was of two tokens that are not the sample's."""
    if ids.dtype == torch.bool:
        raise DataError(f"{path}: {key} is stored as bool (true/false, not token ids): a mask saved under "
                        "the ids' key", hint=f"save {key} as the sample's token ids (int64 or int32)")
    if ids.is_floating_point() and ids.numel():
        exact = _EXACT_IDS.get(ids.dtype, 2 ** 53)
        largest = float(ids.abs().max())
        if largest > exact or not bool((ids == ids.round()).all()):
            raise DataError(f"{path}: {key} stored as {str(ids.dtype)[6:]}, which holds "
                            f"integers exactly only up to {exact}; the ids reach {largest:.0f}, "
                            "so they were rounded (a dtype cast of the whole sample)",
                            hint=f"save {key} as an integer tensor (int64 or int32)")
    return ids.long()


# The largest id each integer type narrower than 32 bits holds. A dump whose ids were cast to
# uint16 to halve them (as token files for vocabularies under 65536 are kept) stores a larger
# vocabulary's ids modulo 65536: each one above 65535 reads as another, valid, token id.
_NARROW_IDS = {torch.uint8: 2 ** 8 - 1, torch.int8: 2 ** 7 - 1, torch.int16: 2 ** 15 - 1,
               **({torch.uint16: 2 ** 16 - 1} if hasattr(torch, "uint16") else {})}


def _ids_ceiling(ids: Any) -> int | None:
    return _NARROW_IDS.get(getattr(ids, "dtype", None))


def _token_ids(path: Path, data: dict) -> Tensor:
    """input_ids [T] (or [1, T]) of a torch-saved sample as int64. A [B, T] batch is refused:
    flattened, B sequences would be scored as one, each attending to the one before."""
    ids = _required(path, data, "input_ids")
    if ids.dim() >= 2 and ids.shape[0] > 1 and ids.shape[-1] > 1:
        raise DataError(f"{path}: input_ids has shape {list(ids.shape)}, a batch of "
                        f"{ids.shape[0]} sequences in one file; every writer saves one "
                        "sequence per file ([T] or [1, T])",
                        hint="save each row of the batch to its own file")
    return _exact_ids(path, "input_ids", ids.reshape(-1))


def _float_states(path: Path, key: str, states: Tensor) -> Tensor:
    """Hidden states must be floating point: cast to ints or bools they are not activations
    any more, and read as such every score would be noise."""
    if not states.is_floating_point():
        raise DataError(f"{path}: {key} is {str(states.dtype).replace('torch.', '')}, not "
                        "floating point: the activations were cast (or quantized without "
                        "their scales)", hint="save the hidden states in bfloat16 or float32")
    if states.dtype.itemsize == 1:
        # FP8: no torch-file writer stores scales beside its states (speculators' FP8
        # connector writes safetensors, read with its hidden_states_scales by
        # _read_speculators, which refuses FP8 without them). torch's cast saturates at the
        # format's largest value, so a plain .to(float8) clipped every larger activation, and
        # a scaled one cannot be read back without its scales: scored, every state is off.
        from spec_debug.eagle3.checkpoint import fp8_dtypes

        if states.dtype in fp8_dtypes():
            top = torch.finfo(states.dtype).max
            raise DataError(f"{path}: {key} is {str(states.dtype)[6:]} with no scales "
                            f"saved: a cast to it clips every activation beyond +-{top:g} "
                            "there, and states divided by a scale to fit cannot be read "
                            "back without it; scored, every state would be off",
                            hint="dump the hidden states again in bfloat16 or float32")
    return states


def _required(path: Path, data: dict, key: str) -> Tensor:
    """data[key] as a tensor; a key saved as None (a writer that had nothing to put there)
    is reported as missing."""
    value = _tensor(path, data, key)
    if value is None:
        raise DataError(f"{path}: {key} is missing (None), found {sorted(map(str, data))}")
    return value


def _tensor(path: Path, data: dict, key: str) -> Tensor | None:
    """data[key] as a tensor (HF datasets rows hold python lists), None when absent."""
    value = data.get(key)
    if value is None or isinstance(value, Tensor):
        return value
    try:
        return torch.as_tensor(value)
    except (TypeError, ValueError, RuntimeError):
        raise DataError(f"{path}: {key} is a {type(value).__name__}, not a tensor or a list "
                        "of numbers") from None


def _slots_and_mask(path: Path, data: dict, S: int, T: int, slots: Sequence[int] | None
                    ) -> tuple[tuple[int, ...], Tensor]:
    """The slots asked for (checked against the file's S) and the [T] loss mask (all ones
    when the file has none) of a torch-saved sample."""
    wanted = tuple(range(S)) if slots is None else tuple(slots)
    if any(not 0 <= s < S for s in wanted):
        raise DataError(f"{path}: slot out of range {wanted} (file has {S} slots)")
    loss_mask = _tensor(path, data, "loss_mask")
    if loss_mask is not None and loss_mask.numel() != T:
        raise DataError(f"{path}: loss_mask has {loss_mask.numel()} entries, input_ids {T}"
                        + MASK_LENGTH_FIX)
    return wanted, (_mask_bool(path, loss_mask) if loss_mask is not None
                    else torch.ones(T, dtype=torch.bool))


def _mask_bool(path: Path | str, loss_mask: Tensor) -> Tensor:
    """The [T] loss mask as bool, refusing values outside [0, 1]: token ids or HF labels
    (-100 at the ignored positions) saved under loss_mask. Cast to bool (as speculators'
    metrics do) every nonzero entry, -100 included, would be scored: the prompt the mask was
    to leave out would count, a silently different accuracy. Weights within [0, 1] pass."""
    shape = list(loss_mask.shape)
    if sum(d != 1 for d in shape) > 1:
        # [T], [1, T] (SpecForge) or [T, 1] name one entry per position; [2, T/2] is the
        # right count by chance (two rows of a batch, a mask folded in two), and read in row
        # order it scored positions it does not describe with no word
        T = loss_mask.numel()
        raise DataError(f"{path}: loss_mask has shape {shape}, {shape[0]} rows for the {T} "
                        f"positions of the sample, not one entry per position ([{T}] or "
                        f"[1, {T}]): flattened, its entries would stand for positions they "
                        "were not made for",
                        hint="save this sample's own mask, one entry per token, as [tokens]")
    flat = loss_mask.reshape(-1)
    if flat.is_floating_point() and not bool(flat.isfinite().all()):
        # NaN compares false both ways, so it passed the range test below and bool(NaN) is
        # True: a mask of NaN (a float buffer saved before it was filled) scored every position
        bad = int((~flat.isfinite()).sum())
        raise DataError(f"{path}: loss_mask holds NaN or Inf ({bad} of {flat.numel()} entries): it is no "
                        "mask", hint="save loss_mask as 1 where the assistant's tokens are, 0 elsewhere")
    if flat.dtype != torch.bool:
        odd = flat[(flat < 0) | (flat > 1)]
        if odd.numel():
            shown = sorted({int(v) if float(v).is_integer() else float(v)
                            for v in odd[:64].tolist()})[:3]
            raise DataError(f"{path}: loss_mask holds values outside 0 and 1 (e.g. "
                            f"{', '.join(map(str, shown))}): token ids or labels (-100 = "
                            "ignored) saved as the mask, which would score every nonzero "
                            "position", hint="save loss_mask as 1 where the assistant's "
                            "tokens are, 0 elsewhere")
    return flat.bool()


def _refuse_concatenated(path: Path, data: dict, shape: list[int]) -> None:
    """`hidden_states` as ONE [1, T, W] tensor beside input_ids, without a final state that names
    its hidden size: SpecForge's DFlash/Domino (aux_feature="hidden_states", no final) and
    DSpark (final `target_last_hidden_states`) captures write this under the same data_*.ckpt
    names (specforge/algorithms/{dflash,domino,dspark}/providers.py OfflineCaptureLayout).
    Read as one state of width W it would be blamed on another target model; its layers are
    the other draft type's choice, not EAGLE-3's."""
    extra = sorted(str(k) for k in data if k not in ("input_ids", "loss_mask", "hidden_states"))
    raise DataError(f"{path}: hidden_states is one tensor of shape {shape} (several layers "
                    "concatenated, as SpecForge's DFlash/DSpark capture writes)"
                    + (f" beside {extra}" if extra else "") + ", not an EAGLE-3 dump: no "
                    "aux_hidden_state and hidden_state (SpecForge) nor per-layer states",
                    hint="capture the hidden states for EAGLE-3: SpecForge "
                         "scripts/prepare_hidden_states.py with the eagle3 method, or "
                         "speculators' data generation")


def _read_speculators_v1(path: Path, data: dict, slots: Sequence[int] | None,
                         final: bool) -> Sample:
    layers = data["hidden_states"]
    # transformers' output_hidden_states saved as it returns them: a tuple of [1, T, Ht], or
    # stacked, [S, 1, T, Ht]; the batch of one left in, as the other formats' readers allow
    if isinstance(layers, Tensor) and layers.dim() == 4 and 1 in layers.shape[:2]:
        layers = layers[:, 0] if layers.shape[1] == 1 else layers[0]
    if isinstance(layers, (list, tuple)) and layers and all(
            isinstance(t, Tensor) and t.dim() == 3 and t.shape[0] == 1 for t in layers):
        layers = [t[0] for t in layers]
    if isinstance(layers, Tensor):  # stacked by hand: [S, T, Ht], or the hs layout [T, S, Ht]
        T = int(_required(path, data, "input_ids").numel())
        if layers.dim() == 3 and layers.shape[0] == 1 and layers.shape[1] == T > 1:
            _refuse_concatenated(path, data, list(layers.shape))
        token_major = layers.dim() == 3 and layers.shape[0] == T and layers.shape[1] != T
        layers = (list(layers.unbind(1 if token_major else 0)) if layers.dim() == 3
                  else [layers])
    if not isinstance(layers, (list, tuple)) or not layers or not all(
            isinstance(t, Tensor) for t in layers):
        raise DataError(f"{path}: hidden_states is {type(layers).__name__}, expected a list of "
                        "[tokens, hidden] tensors, one per captured layer (speculators "
                        "data_*.pt format)")
    token_ids = _token_ids(path, data)
    T = token_ids.shape[0]
    shapes = {tuple(t.shape) for t in layers}
    if len(shapes) > 1 and all(len(shape) == 2 for shape in shapes):
        _refuse_unlike_layers(path, layers, T)
    if len(shapes) != 1 or len(next(iter(shapes))) != 2 or next(iter(shapes))[0] != T:
        states = next(iter(shapes))[0] if len(shapes) == 1 and len(next(iter(shapes))) == 2 else T
        raise DataError(f"{path}: hidden_states holds shapes {sorted(shapes)[:3]}; expected "
                        f"{len(layers)} x [{T}, hidden] for {T} input_ids"
                        + _one_id_off(T, states))
    S = len(layers)
    for layer in layers:
        _float_states(path, "hidden_states", layer)
    wanted, loss_mask = _slots_and_mask(path, data, S, T, slots)
    chosen = torch.stack([layers[s] for s in wanted], dim=1)  # [T, s, Ht]
    return Sample(path.name, token_ids, chosen, wanted, layers[-1] if final else None,
                  loss_mask, None, S, format_v1=True, data_format="speculators_v1",
                  loss_mask_given=data.get("loss_mask") is not None,
                  ids_ceiling=_ids_ceiling(data["input_ids"]))


def _refuse_unlike_layers(path: Path, layers: Sequence[Tensor], T: int) -> None:
    """A v1 list of [tokens, hidden] layers that disagree with each other. Every layer of one
    forward pass is as long as its sequence and as wide as the target's hidden size
    (speculators' generator appends one [T, Ht] slice per captured layer), so layers of two
    widths hold something that is no hidden state of this target (logits, another model's
    states), and layers of two lengths the states of different sequences. Either way the
    ids are not the cause, which the length refusal after this one would say."""
    rows = sorted({int(t.shape[0]) for t in layers})
    widths = sorted({int(t.shape[1]) for t in layers})
    listed = ", ".join(f"{j}: {list(t.shape)}" for j, t in enumerate(layers[:8])) + (
        ", ..." if len(layers) > 8 else "")
    if len(rows) == 1:
        raise DataError(f"{path}: the {len(layers)} layers of hidden_states are of different "
                        f"widths {widths} ({listed}): the layers of one target share its "
                        "hidden size, so an entry of the list is no hidden state of it (logits, "
                        "another model's states)",
                        hint="save one [tokens, hidden] tensor per captured layer of the target, "
                             "the final layer's last (speculators data_*.pt format)")
    raise DataError(f"{path}: the {len(layers)} layers of hidden_states are of different "
                    f"lengths {rows} ({listed}), input_ids {T}: the list mixes the states of "
                    "different sequences (one layer cut to a max length, or kept from another "
                    "prompt)", hint="dump the sample again, every layer from the one forward "
                                    "pass over its input_ids")


# Torch-saved writers that keep the aux states (concatenated, [.., T, A*Ht]) apart from the
# final one: (aux key, final key, format). Only SpecForge's final state is marked post-norm
# here (see _read_record). The others are told from the values by the scorer
# (evaluate.score_sample, TargetHead.already_normed): TensorRT-LLM documents its layer -1 as
# "the final post-norm hidden state" (SaveHiddenStatesDecodingConfig), Model-Optimizer's HF
# script saves output_hidden_states[-1] (post-norm) and its vLLM script speculators' capture
# (pre-norm), AngelSlim output_hidden_states[-1].
# Tencent AngelSlim names them `hidden_states` [1, T, A*Ht] and `target_hiddens` [1, T, Ht]
# in `rank_<r>/rows_*/data_<i>.ckpt` (tools/generate_hidden_for_draft_model.py;
# angelslim/compressor/speculative/train/models/target/target_model_wrapper.py
# get_aux_and_target_hiddens).
_AUX_KEYS = (
    ("aux_hidden_state", "hidden_state", "specforge"),
    ("aux_hidden_states", "hidden_state", "trtllm"),
    ("aux_hidden_states", "hidden_states", "modelopt"),
    ("hidden_states", "target_hiddens", "angelslim"),
)


# the fix of a SpecForge dump of the last layer only (see _read_record)
_SPECFORGE_AUX_FIX = ("run SpecForge's scripts/prepare_hidden_states.py again with "
                      "--enable-aux-hidden-states (and the --aux-hidden-states-layers the draft "
                      "is trained with, if any: SpecForge's own output-of-layer ids) into a new "
                      "--output-path: it skips every sample whose file is already there")


def _aux_keys(data: dict) -> tuple[str, str, str] | None:
    both = [row for row in _AUX_KEYS if row[0] in data and row[1] in data]
    if both:
        return both[0]
    # aux states without a final one; `hidden_states` alone is speculators' v1 list
    alone = [row for row in _AUX_KEYS if row[0] in data and row[0] != "hidden_states"]
    return alone[0] if alone else None


def _aux_states(path: Path, data: dict, key: str) -> Tensor:
    """The aux states as one [.., T, A*Ht] tensor. SpecForge, Model-Optimizer and TensorRT-LLM
    concatenate them (torch.cat(aux_hidden_states, dim=-1): SpecForge scripts/
    prepare_hidden_states.py, Model-Optimizer compute_hidden_states_hf.py); a dumper that
    kept the list of per-layer tensors holds the same states in the same order, so they are
    concatenated here as those writers do rather than refused as "a list"."""
    value = data.get(key)
    if not (isinstance(value, (list, tuple)) and value
            and all(isinstance(t, Tensor) for t in value)):
        return _tensor(path, data, key)
    shapes = sorted({tuple(t.shape) for t in value})
    if len(shapes) > 1:
        raise DataError(f"{path}: {key} is a list of {len(value)} tensors of different shapes "
                        f"({', '.join(str(list(s)) for s in shapes[:3])}): not one state per "
                        "captured layer of one sequence",
                        hint=f"save {key} as torch.cat(aux_states, dim=-1), [1, T, aux x hidden], "
                             "each aux state [1, T, hidden] of the same T tokens")
    return torch.cat(list(value), dim=-1)


def _read_record(path: Path, data: dict, slots: Sequence[int] | None, final: bool) -> Sample:
    keys = _aux_keys(data)
    if keys is None and "hidden_states" in data and "token_ids" in data:
        # speculators/vLLM's hs layout (token_ids, hidden_states [T, slots, H]) passed through
        # torch.save instead of safetensors' save_file: no torch-file writer names its ids
        # token_ids (SpecForge, v1, Model-Optimizer and TensorRT-LLM all say input_ids)
        raise DataError(f"{path}: speculators' hs sample layout (token_ids, hidden_states) "
                        "written with torch.save; that layout is read from hs_<i>.safetensors "
                        "files, as vLLM's hidden-state extraction writes them",
                        hint="save each sample with safetensors.torch.save_file({'token_ids': "
                             "..., 'hidden_states': ...}, 'hs_<i>.safetensors')")
    if keys is None and "hidden_states" in data and "input_ids" in data:
        return _read_speculators_v1(path, data, slots, final)
    if keys is None and data.get("hidden_states") is not None and data.get("input_ids") is None:
        # speculators' v1 layout without its ids: read as SpecForge's it was "missing
        # ['aux_hidden_state', 'input_ids']", a key this writer never saves
        raise DataError(f"{path}: hidden_states without the token ids they were computed from "
                        f"(input_ids missing), found {sorted(map(str, data))}", hint=_NO_IDS_FIX)
    if keys is None and "hidden_state" in data and "input_ids" in data:
        # SafeAILab/EAGLE's EAGLE-1/2 data generation saves only the last layer
        # (eagle/ge_data/ge_data_all_*.py: input_ids, hidden_state, loss_mask) as
        # `<outdir>/<index>/data_<i>.ckpt`, the names SpecForge uses; and so does SpecForge's
        # own scripts/prepare_hidden_states.py (v0.1.0 to 2025-11) without
        # --enable-aux-hidden-states, under rows_*/data_<i>.ckpt
        raise DataError(f"{path}: an EAGLE-1/EAGLE-2 training sample (input_ids, hidden_state, "
                        "loss_mask: the last layer's state only, as SafeAILab/EAGLE ge_data "
                        "writes it); an EAGLE-3 draft takes aux states of several layers",
                        hint="generate EAGLE-3 hidden states (SpecForge scripts/"
                             "prepare_hidden_states.py, speculators' data generation); "
                             "SpecForge's script itself writes these files when run without "
                             "--enable-aux-hidden-states: " + _SPECFORGE_AUX_FIX)
    aux_key, last_key, data_format = keys or _AUX_KEYS[0]
    if (data_format == "specforge" and aux_key in data and data[aux_key] is None
            and data.get(last_key) is not None):
        # SpecForge's prepare_hidden_states.py run without --enable-aux-hidden-states (a
        # store_true flag, off unless given) saves its DataPoint with aux_hidden_state=None
        # beside the last layer's state (scripts/prepare_hidden_states.py `asdict(data_point)`,
        # 2025-11 to 2026-07): "missing ['aux_hidden_state'], found ['aux_hidden_state', ...]"
        # named neither the cause nor the flag
        raise DataError(f"{path}: aux_hidden_state is None, only the last layer's hidden_state "
                        "was saved: SpecForge's scripts/prepare_hidden_states.py writes such "
                        "files when run without --enable-aux-hidden-states (an EAGLE-1/EAGLE-2 "
                        "sample); an EAGLE-3 draft takes the aux states of several layers",
                        hint=_SPECFORGE_AUX_FIX)
    missing = {key for key in ("input_ids", aux_key) if data.get(key) is None}
    if missing:
        raise DataError(f"{path}: missing {sorted(missing)}, found {sorted(map(str, data))}",
                        hint=None if missing != {"input_ids"} else (
                            _NO_IDS_FIX if "token_ids" not in data else
                            "save the ids as input_ids, the name torch-saved samples give them "
                            "(token_ids is the name in speculators' hs_<i>.safetensors)"))
    token_ids = _token_ids(path, data)
    aux = _float_states(path, aux_key, _aux_states(path, data, aux_key))
    T = token_ids.shape[0]
    width = aux.shape[-1] if aux.dim() else 0
    if T == 0 and aux.numel() == 0:
        # an empty sample (no ids, no states), as the hs reader's check_sample says it: with
        # the length check below it was "the ids and the states of this sample are of
        # different sequences", when both are empty alike
        raise DataError(f"{path}: 0 token(s), too short to score (input_ids and {aux_key} "
                        "are empty)")
    if T == 0 or aux.numel() != T * width:
        states = aux.numel() // width if width else T
        raise DataError(f"{path}: {aux_key} has shape {list(aux.shape)}, expected "
                        f"[1, {T}, aux x hidden] for {T} input_ids" + _one_id_off(T, states))
    aux = aux.reshape(T, width)  # [T, A*Ht]
    last = _tensor(path, data, last_key)
    if last is not None:
        _float_states(path, last_key, last)
    Ht = last.shape[-1] if last is not None else width // 3
    if last is not None and last.numel() != T * Ht:
        raise DataError(f"{path}: {last_key} has shape {list(last.shape)}, expected "
                        f"[1, {T}, hidden] for {T} input_ids")
    if last is None and width % 3:
        # without the final state the hidden size is only guessed as width / 3 (the 3 aux
        # states SpecForge requires, model_providers.py resolve_eagle_capture_layers); a
        # "hidden size 21" would send the user after a width the target never had
        raise DataError(f"{path}: {aux_key} is {width} wide and the file has no `{last_key}` "
                        "to give the hidden size: not 3 aux states of one width (an aux key "
                        "captured for another draft, and the final state dropped)",
                        hint="capture the hidden states again with the draft's aux layer ids, "
                             f"keeping `{last_key}`")
    if last is not None and Ht and width % Ht:
        # the hidden size is read from the final state: when the aux key is no whole number
        # of its width, either may be the one saved wrong. SpecForge requires exactly 3 aux
        # states (model_providers.py resolve_eagle_capture_layers): an aux key of 3 x w with
        # a final state not w wide points at the final state, not at the aux width.
        fits = (f"; {aux_key} is 3 states of {width // 3}, as SpecForge captures, so "
                f"{last_key} was saved wrong (the target's last hidden state is one state "
                f"of that width)" if data_format == "specforge" and width % 3 == 0 else
                "; one of the two was saved wrong")
        raise DataError(f"{path}: {last_key} is {Ht} wide and {aux_key} {width}, not a "
                        f"whole number of {Ht}-wide states" + fits,
                        hint=f"save {last_key} [1, T, hidden] (the target's last hidden state) "
                             f"beside {aux_key} [1, T, aux x hidden]")
    if Ht == 0 or width % Ht:
        raise DataError(f"{path}: {aux_key} width {width} is not a multiple of the "
                        f"hidden size {Ht}")
    A = width // Ht
    aux_slots = aux.view(T, A, Ht)
    S = A + (last is not None)  # the final state is the last slot
    wanted, loss_mask = _slots_and_mask(path, data, S, T, slots)
    # one copy, of the slots asked for: a cat of every slot first was a second copy of the file
    chosen = torch.stack([aux_slots[:, s] if s < A else last.reshape(T, Ht)
                          for s in wanted], dim=1)  # [T, s, Ht]
    # SpecForge's `hidden_state` is the state AFTER the target's final norm: its SGLang capture
    # stores the logits processor's input (specforge/offline_capture/sglang_backend/utils.py:
    # last_hidden_states=pruned_states, hidden_states_before_norm kept apart) and its
    # TargetHead is the bare lm_head (specforge/modeling/target/target_head.py). Normed again,
    # the reference argmax is not the target's.
    return Sample(path.name, token_ids, chosen, wanted,
                  last.reshape(T, Ht) if (final and last is not None) else None,
                  loss_mask, None, S, final_normed=data_format == "specforge",
                  loss_mask_given=data.get("loss_mask") is not None, data_format=data_format,
                  ids_ceiling=_ids_ceiling(data["input_ids"]))


def _aux_layout_safetensors(path: Path) -> bool:
    """A safetensors file under the torch writers' keys (input_ids, aux_hidden_state(s) and
    the final state apart: SpecForge, Model-Optimizer, TensorRT-LLM), as a conversion to
    safetensors keeps them. Read as speculators' [T, S, H] layout its final state was "flattened
    slots?" with the advice to stack what the file already holds apart."""
    from spec_debug.eagle3.checkpoint import CheckpointError, read_safetensors_header

    try:
        header = read_safetensors_header(path)
    except CheckpointError:
        return False  # _read_speculators says why
    return _aux_keys(header) is not None


def _load_safetensors_record(path: Path) -> dict:
    from safetensors.torch import load_file

    try:
        return load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types
        raise DataError(f"{path}: cannot read ({exc})") from None


def read_samples(path: Path, slots: Sequence[int] | None = None,
                 final: bool = True,
                 bytes_left: Callable[[], int] | None = None) -> Iterator[Sample | DataError]:
    """The samples of one file, one at a time, each a Sample or the DataError that refuses it
    (a TensorRT-LLM file holds up to 20; one bad record must not hide the others). A file
    that cannot be read at all raises. Lazy, and each record is dropped once read: a Sample
    copies its states, and 20 long samples held twice would double the file in memory."""
    if path.name.endswith(".safetensors") and not _aux_layout_safetensors(path):
        yield _read_speculators(path, slots, final, bytes_left)
        return
    records: list[dict | None] = (list(_load_torch_records(path))
                                  if not path.name.endswith(".safetensors")
                                  else [_load_safetensors_record(path)])
    for i in range(len(records)):
        record, records[i] = records[i], None
        # a record of a list file is named by its index: `data_3.pt[7]`
        where = path if len(records) == 1 else Path(f"{path}[{i}]")
        try:
            sample = _read_record(where, record, slots, final)
        except DataError as exc:
            yield exc
            continue
        yield _own_memory(sample)


def _own_memory(sample: Sample, slots: bool = False) -> Sample:
    """The sample with tensors of its own. Both readers map the file (torch.load mmap=True;
    safetensors' safe_open, whose tensors and slices are views of the mapping), and a tensor
    the sample shares with it (ids already int64, a final state or mask kept as saved, every
    slot of a safetensors file) kept the whole file mapped while the sample was scored: a
    writer truncating the file meanwhile (a generation run again over the dump, torch.save or
    save_file over it, a copy onto it in place) killed the process with SIGBUS, no message and
    every result lost. `slots`: they are such a view too (else they are a copy already)."""
    def own(tensor: Tensor | None) -> Tensor | None:
        return None if tensor is None else tensor.clone()

    return replace(sample, token_ids=own(sample.token_ids), final=own(sample.final),
                   loss_mask=own(sample.loss_mask),
                   slots=own(sample.slots) if slots else sample.slots)


def read_sample(path: Path, slots: Sequence[int] | None = None, final: bool = True) -> Sample:
    """The first readable sample of a file (raises the first refusal when none is)."""
    first_error: DataError | None = None
    for item in read_samples(path, slots, final):
        if isinstance(item, Sample):
            return item
        first_error = first_error or item
    assert first_error is not None  # every file holds at least one record
    raise first_error


@dataclass(frozen=True)
class SampleSpec:
    """What a sample must match to be scored: the draft's target hidden size, the dump's slot
    count (from its first readable file) and the target vocabulary."""

    hidden_size: int | None = None
    num_slots: int | None = None
    vocab_size: int | None = None
    # the layers the dump's files name in their layer_ids metadata (from the files that
    # describe_data read): the layout is chosen by these names, so a file naming others would
    # have its slots read as layers they do not hold
    layer_ids: tuple[int, ...] | None = None
    attention_chunk_size: int | None = None  # the target's (Llama 4), when it has one
    bos_token_id: int | None = None  # the target's, which opens every document it was fed
    # the slots read are the ones the draft's fc takes (eval's read), not every slot of the
    # file (a probe's, which ranks the slots and may pass over a repeated one): only the
    # draft's read is refused for two aux slots holding one layer (_refuse_repeated_slots)
    fc_read: bool = False
    # the layer the draft's config names for each fc input, in the order the slots are read
    # (eval's read, when the config names them): a config that lists one layer twice was
    # trained on a dump that holds it twice, and that is the config's fault, not the capture's
    fc_layer_ids: tuple[int, ...] | None = None
    # a probe's read of every slot: the slots that must be finite (the layouts the draft is
    # configured for); an aux slot not among them holding NaN/Inf is recorded in
    # Sample.non_finite instead of refusing the file (a wide dump's layer the draft does not
    # read must not cost the ranking every sample). None: every slot must be finite. The
    # final state must always be
    finite_slots: tuple[int, ...] | None = None


def _unchunked_target(sample: Sample, chunk_size: int | None) -> str:
    """Why a mask of causal blocks of one length is read as packed documents: the target
    has no chunked attention of that length (Llama 4's attention_chunk_size), so it did not
    run such a mask on one sequence."""
    target = (f"the target's attention_chunk_size is {chunk_size}" if chunk_size
              else "the target has no attention_chunk_size (no chunked attention, or no "
                   "--target given)")
    return (f"{sample.name}: attention_mask is not causal attention over the positions it "
            f"keeps but within blocks of {sample.chunk_size}, and {target}: a block mask of "
            "several documents packed in one row, "
            "not Llama 4's chunked attention; speculators' loader ignores attention_mask and "
            "would feed them as one causal sequence")


def _blocks_open_documents(sample: Sample, bos_token_id: int | None) -> bool:
    """Whether every block of a chunk-shaped mask opens with the target's BOS token: packed
    documents whose length happens to be the target's attention_chunk_size. A chat template
    puts BOS once, at a document's start (Llama 4's <|begin_of_text|>, text_config
    bos_token_id 200000), so one sequence under Llama 4's chunked attention has it at its
    first position only."""
    if bos_token_id is None:
        return False
    starts = sample.token_ids[::sample.chunk_size]
    return starts.numel() > 1 and bool((starts == bos_token_id).all())


def _packed_chunks(sample: Sample, bos_token_id: int | None) -> str:
    return (f"{sample.name}: attention_mask is causal within blocks of {sample.chunk_size}, "
            f"the target's attention_chunk_size, but every block opens with its BOS token "
            f"({bos_token_id}): documents of {sample.chunk_size} tokens packed in one row, "
            "not Llama 4's chunked attention over one sequence; speculators' loader ignores "
            "attention_mask and would feed them as one causal sequence")


def _ids_outside_why(low: int, high: int) -> str:
    """Why a sample's ids leave the target's vocabulary, said in the skip reason itself: when
    every file is skipped the run ends in "no usable samples (...; first: <reason>)", which
    carries no hint of its own."""
    if low == -100:
        # transformers' CrossEntropyLoss ignore_index: the shifted labels, not the input ids
        return (": -100 is the ignore index of HF labels, so the labels were saved as the ids; "
                "save the input ids the states were computed for")
    if low < 0:
        return ": no tokenizer writes negative ids (a dtype overflow, or another field saved)"
    return (": ids the target's tokenizer never gives, so another model's tokenizer made "
            "this dump (or it is of another target); dump it again with the target's "
            "tokenizer")


def _narrow_ids(sample: Sample, vocab_size: int, low: int) -> None:
    """Refuse ids stored in an integer type too narrow for the target vocabulary. An unsigned
    one (uint16 for Llama 3's 128256 tokens) keeps each id modulo 2**bits: every wrapped id
    is another in-range token, so the range check passed them and the draft was scored on
    tokens the sample never held; which ids wrapped cannot be told. A signed one (int16)
    turns them negative, which the range check named only as "a dtype overflow" when any
    id wrapped."""
    ceiling = sample.ids_ceiling
    if ceiling is None or vocab_size <= ceiling + 1:
        return
    signed = ceiling + 1 in (2 ** 7, 2 ** 15)
    if signed and low >= 0:
        return  # no id of this sample reached past the type: none wrapped
    kind = {2 ** 8 - 1: "uint8", 2 ** 7 - 1: "int8", 2 ** 15 - 1: "int16"}.get(ceiling, "uint16")
    held = ("its negative ids are ids above {c} wrapped" if signed else
            "any id above {c} was stored modulo {m} as another token id, and which ones "
            "cannot be told").format(c=ceiling, m=ceiling + 1)
    raise DataError(f"{sample.name}: token ids are stored as {kind}, which holds ids up to "
                    f"{ceiling}, and the target vocabulary has {vocab_size} tokens: {held}",
                    hint="dump the token ids again as int64 (or int32)")


# the fix of hidden states the target's forward pass left non-finite (see check_sample)
NON_FINITE_FIX = ("the target's forward pass gave these values (a target run in float16 "
                  "overflows on large activations: run it in bfloat16); speculators' data "
                  "generation refuses such files (data_generation/offline.py "
                  "check_hidden_states): drop the sample or dump it again")


def check_sample(sample: Sample, spec: SampleSpec) -> None:
    """Raise DataError when `sample` cannot be scored against `spec`.

    NaN/Inf states are refused as speculators' check_hidden_states refuses them
    (src/speculators/data_generation/offline.py) and SpecForge skips them
    (scripts/prepare_hidden_states.py)."""
    if sample.length == 1:
        # said in the reason itself, as the skip note of a run that scored other files has no
        # hint: one-token files are what a hook on the target writes when it saves on every
        # forward of generate(), whose decode steps each run the one new token against the
        # KV cache (transformers prepare_inputs_for_generation keeps the uncached tokens)
        raise DataError(f"{sample.name}: 1 token, too short to score (a sample needs a token "
                        "and the next one it predicts): one-token files are what a hook "
                        "saving on every forward of generate() writes, one per decode step",
                        hint="capture each sequence in one forward pass over all its tokens "
                             "(prompt and response), one file per sequence, as speculators' "
                             "and SpecForge's data generation do")
    if sample.length < 2:
        raise DataError(f"{sample.name}: {sample.length} token(s), too short to score")
    if sample.chunk_size and sample.chunk_size != spec.attention_chunk_size:
        raise DataError(_unchunked_target(sample, spec.attention_chunk_size),
                        hint="write one sample per sequence, without padding")
    if sample.chunk_size and _blocks_open_documents(sample, spec.bos_token_id):
        raise DataError(_packed_chunks(sample, spec.bos_token_id),
                        hint="write one sample per sequence, without padding")
    hidden = int(sample.slots.shape[-1])
    if spec.hidden_size is not None and hidden != spec.hidden_size:
        raise DataError(f"{sample.name}: hidden size {hidden}, the draft expects "
                        f"{spec.hidden_size} per aux state")
    if spec.num_slots is not None and sample.num_file_slots != spec.num_slots:
        raise DataError(f"{sample.name}: {sample.num_file_slots} slots per position, the "
                        f"dump's other files have {spec.num_slots}")
    if spec.layer_ids is not None and sample.layer_ids is not None \
            and tuple(sample.layer_ids) != tuple(spec.layer_ids):
        raise DataError(f"{sample.name}: layer_ids metadata names layers "
                        f"{list(sample.layer_ids)}, the dump's other files "
                        f"{list(spec.layer_ids)}: files of two captures in one folder")
    if spec.vocab_size is not None:
        low, high = int(sample.token_ids.min()), int(sample.token_ids.max())
        _narrow_ids(sample, spec.vocab_size, low)
        if low < 0 or high >= spec.vocab_size:
            raise DataError(f"{sample.name}: token ids span [{low}, {high}], outside the "
                            f"target vocabulary [0, {spec.vocab_size})"
                            + _ids_outside_why(low, high))
    # name the file's own key: a SpecForge file has no `hidden_states`, its aux states are
    # `aux_hidden_state` [1, T, A*Ht] (see _AUX_KEYS), where a user looks for the bad value
    aux_key = next((aux for aux, _, fmt in _AUX_KEYS if fmt == sample.data_format),
                   "hidden_states")
    for what, states in ((aux_key, sample.slots), ("final state", sample.final)):
        if states is None or not states.is_floating_point():
            continue
        # slot by slot: the mask of a wide dump's whole sample would double its memory.
        # A NaN refuses the file even in rows the loss mask leaves out: speculators' own
        # check refuses any non-finite value in a file (0.9.0 data_generation/offline.py
        # check_hidden_states), and the draft's attention reads such a row at every later
        # position (under an additive mask at earlier ones too: weight 0 times NaN is NaN)
        parts = states.unbind(1) if states.dim() == 3 else (states,)
        for j, part in enumerate(parts):
            finite = torch.isfinite(part.float() if part.element_size() < 2 else part)
            if finite.all():
                continue
            bad_rows = (~finite.reshape(part.shape[0], -1).all(-1)).nonzero().reshape(-1)
            where = (f"slot {sample.slot_index[j]}, " if states.dim() == 3 else "") + (
                f"{bad_rows.numel()} of {part.shape[0]} positions, first at "
                f"{int(bad_rows[0])}")
            if part.dtype == torch.float16:
                # a dump saved in fp16: activations above 65504 (the "massive activations"
                # some targets keep at the first token) become Inf
                where += "; float16 holds at most 65504, so large activations overflow: dump " \
                         "in bfloat16"
                hint = "dump the hidden states again in bfloat16 (or float32)"
            else:
                # stored in a type that holds them, so the target's forward gave them: most
                # often a target run in float16 (vLLM/transformers --dtype half, or a GPU
                # without bfloat16) whose activations overflowed before the cast for saving
                hint = NON_FINITE_FIX
            slot = sample.slot_index[j] if states.dim() == 3 else None
            if spec.finite_slots is not None and slot is not None \
                    and slot not in spec.finite_slots and not (
                    sample.final is not None and slot == sample.num_file_slots - 1):
                sample.non_finite[slot] = where.split(", ", 1)[1]  # without "slot j, "
                continue
            raise DataError(f"{sample.name}: NaN or Inf in the {what} ({where})", hint=hint)
        _refuse_unwritten(sample, what, parts, states.dim() == 3)
        if states.dim() == 3 and spec.fc_read:
            # told by the caller, not guessed from the count of slots read: a dump of the aux
            # states alone (no final slot) feeds the draft every slot it has
            _refuse_repeated_slots(sample, parts, spec.fc_layer_ids, aux_key)


def _refuse_unwritten(sample: Sample, what: str, parts: Sequence[Tensor], slotted: bool) -> None:
    """A slot that is exactly zero at every position is a capture that never wrote: a hook on
    a layer that did not run (a capture id past the layers this rank holds), or a buffer saved
    before it was filled. Scored, it reads as an accuracy near 0 with nothing to say why."""
    for j, part in enumerate(parts):
        if part.numel() and not bool(part.any()):
            where = f"slot {sample.slot_index[j]} of the " if slotted else "the "
            raise DataError(f"{sample.name}: {where}{what} is all zeros at all {part.shape[0]} "
                            "positions: the capture wrote nothing there; dump the hidden "
                            "states again")
    _refuse_unwritten_rows(sample, what, parts)


def _refuse_repeated_slots(sample: Sample, parts: Sequence[Tensor],
                           fc_layer_ids: Sequence[int] | None = None,
                           aux_key: str = "hidden_states") -> None:
    """Two aux slots equal at every position: one layer's output captured twice (a hook
    registered in a loop whose closure reads the loop variable late, so every hook stores
    under the last id; a capture list naming one layer twice). No two layers give the same
    states, and the draft's fc reads the repeated layer in place of the one it was trained
    on (aux slots 0, 1 and 2 all slot 0's: step-0 accuracy 0.690 -> 0.262 with no word).
    The final slot may equal the last aux one (an aux id on the last layer), and a file whose
    layer_ids metadata, or a draft whose config (`fc_layer_ids`), names one layer twice says
    so itself: neither is refused (api._aux_order_note says what the engines make of such a
    config). A sample read without its final state (a dump of the aux states alone) has no
    final slot: every slot read is an aux one. `aux_key`: the file's own name for its aux
    states (SpecForge's `aux_hidden_state`, see _AUX_KEYS), which the refusal names."""
    final_slot = sample.num_file_slots - 1 if sample.final is not None else None
    seen: dict[tuple[int, float], tuple[int, int, Tensor]] = {}
    for k, (j, part) in enumerate(zip(sample.slot_index, parts)):
        if j == final_slot:
            continue
        key = (int(part.shape[0]), float(part.float().abs().sum()))  # a cheap fingerprint first
        earlier = seen.get(key)
        if earlier is not None and torch.equal(earlier[2], part) and not _named_twice(
                sample.layer_ids, earlier[0], j) and not _named_twice(fc_layer_ids, earlier[1], k):
            raise DataError(f"{sample.name}: slots {earlier[0]} and {j} of the {aux_key} "
                            f"are equal at all {part.shape[0]} positions: one layer captured "
                            "twice (a hook that stores under the wrong layer id, or a layer "
                            "listed twice), so the draft reads it in place of another; fix "
                            "the capture so each aux slot holds its own layer and dump again")
        seen.setdefault(key, (j, k, part))


def _named_twice(ids: Sequence[int] | None, first: int, second: int) -> bool:
    return ids is not None and len(ids) > max(first, second) and ids[first] == ids[second]


def _refuse_unwritten_rows(sample: Sample, what: str, parts: Sequence[Tensor]) -> None:
    """Positions whose state is exactly zero in every slot: no layer's output is an all-zero
    vector, so these rows were never written (padding saved without its attention_mask, a
    buffer filled only up to some length). Scored, the draft reads zeros as context and the
    accuracy drops with nothing to say why (hs_1 zero from position 5 on: step-0 accuracy
    0.690 -> 0.524 over three samples). Zero rows with no scored position at or after them
    are padding the loss mask already leaves out."""
    if not parts or not parts[0].numel():
        return
    unwritten = None
    for part in parts:
        zero = ~part.reshape(part.shape[0], -1).any(-1)  # [T]
        unwritten = zero if unwritten is None else unwritten & zero
        if not bool(unwritten.any()):
            return
    rows = unwritten.nonzero().reshape(-1)
    T = int(unwritten.shape[0])
    first, count = int(rows[0]), int(rows.numel())
    if not bool(sample.loss_mask[first:].any()):
        # SpecForge's prepare_hidden_states pads a batch's samples with zero rows at the end
        # and loss_mask 0 there: no scored position comes at or after them, and causal
        # attention keeps them out of every earlier one
        return
    tail = " (the last positions: right padding)" if first == T - count else (
        " (the first positions: left padding)" if int(rows[-1]) == count - 1 else "")
    raise DataError(f"{sample.name}: the {what} {'are' if len(parts) > 1 else 'is'} all "
                    f"zeros{' in every slot' if len(parts) > 1 else ''} at {count} of {T} "
                    f"positions, first at {first}{tail}: states the capture never wrote "
                    "(padding saved without its attention_mask, or a buffer saved before it "
                    "was filled); save the attention_mask beside padded samples, or dump "
                    "them again")


def unwritten_positions(sample: Sample) -> Tensor:
    """[T] bool: the positions zero in every slot (and in the final state, when read)."""
    T = sample.length
    zero = ~sample.slots.reshape(T, -1).any(-1)  # [T]
    if sample.final is not None:
        zero &= ~sample.final.reshape(T, -1).any(-1)
    return zero


def lost_layer_positions(sample: Sample, zero_embedding: Callable[[], Tensor] | None = None
                         ) -> tuple[Tensor, tuple[int, ...]]:
    """([T] bool, file slots): the positions where some slot read is all zeros while the
    sample's others there are not (those zero in every slot are unwritten_positions'), and
    the file slots zero at them. No layer's output is an all-zero vector: a capture that lost
    one layer for those positions (a hook that missed them, a partial write). speculators'
    loader checks a file for NaN/Inf only (0.9.0 data_generation/offline.py
    check_hidden_states) and would train on the zeros as that layer's output; scored, they
    took step-0 accuracy 0.690 -> 0.619 (slot 1 of one sample zero at 4 of 15 positions) with
    no word. `zero_embedding` gives the [V] bool of the token ids whose embedding row is all
    zeros (a pad row nn.Embedding's padding_idx keeps at zero): a slot holding the embedding
    output (id 0, which vLLM and speculators' datagen capture: engines.py captures_embedding)
    is all zeros at such a token in a sound capture, so those positions are not said lost."""
    T = sample.length
    zero = ~sample.slots.reshape(T, len(sample.slot_index), -1).any(-1)  # [T, S]
    unwritten = zero.all(-1)  # unwritten_positions(sample), from the slots read once
    if sample.final is not None:
        unwritten &= ~sample.final.reshape(T, -1).any(-1)
    lost = zero.any(-1) & ~unwritten  # [T]
    if not bool(lost.any()):
        return lost, ()
    if zero_embedding is not None:
        embeds_zero = zero_embedding()
        ids = sample.token_ids.to(embeds_zero.device)
        inside = (ids >= 0) & (ids < embeds_zero.shape[0])
        lost &= ~(inside & embeds_zero[ids.clamp(0, embeds_zero.shape[0] - 1)]).to(lost.device)
        if not bool(lost.any()):
            return lost, ()
    slots = zero[lost].any(0).nonzero().reshape(-1).tolist()
    return lost, tuple(sample.slot_index[j] for j in slots)


def every_position_padding(sample: Sample) -> tuple[Tensor, int, int]:
    """(every_position_mask(sample), tail, inner), the sample's states scanned once: tail and
    inner are the rows (row t predicts position t + 1) the mask leaves out past a sample's
    last written position, and those it leaves out before it (zero rows inside the sample and
    the rows that read or predict them). Told apart by the last written position, not by the
    last scored row: a zero run right before a sample's last row leaves that row out too (it
    reads a zero state), and was said as the sample's tail ("end in 5 position(s) zero" of a
    sample ending in a written row)."""
    zero = unwritten_positions(sample)
    mask = _mask_of(zero)
    if bool(zero.all()):
        return mask, 0, 0  # the mask scores them all (check_sample refuses such a sample)
    last_written = int((~zero).nonzero()[-1])
    tail = sample.length - 1 - last_written
    left_out = int((~mask[1:]).sum())
    return mask, tail, left_out - tail


def every_position_mask(sample: Sample) -> Tensor:
    """[T] bool: the positions scored when no loss mask selects any (eval's every-position
    rerun, the layout probe): every one but those zero in every slot, and the one right after
    each of them. The zero rows are padding (SpecForge pads a batch with zero rows,
    prepare_hidden_states.py; speculators' collate fills a packed batch into a zeroed buffer
    with loss_mask 0 past its documents, src/speculators/train/data.py), which the loss mask
    leaves out and _refuse_unwritten_rows lets through at the tail; scored, the draft reads
    zeros as context and predicts pad tokens (one sample's 5 padding rows of 15: step-0
    accuracy 0.676 -> 0.595). The position after a zero run inside a sample (a packed batch's
    padding between documents, a gap the capture never wrote) is the first of what follows:
    its row reads a zero state, and speculators shifts each document before packing
    (models/eagle3/data.py shift_batch), so a document's first token is never predicted."""
    return _mask_of(unwritten_positions(sample))


def _mask_of(zero: Tensor) -> Tensor:
    """every_position_mask from the sample's unwritten positions."""
    if bool(zero.all()):
        return torch.ones(zero.shape[0], dtype=torch.bool)  # all zero: refused by check_sample
    mask = ~zero
    mask[1:] &= ~zero[:-1]  # row t reads position t's state and predicts position t+1
    return mask


# speculators 0.9.0 keeps the loss mask out of the hidden-state files: `prepare_data` saves an
# HF dataset (save_to_disk: state.json, dataset_info.json, data-*.arrow) with input_ids and
# loss_mask per row, and `generate_offline_data` writes row i's states to
# `<dataset>/hidden_states/hs_{i}.safetensors` (cli/generate_offline_data.py). Training reads
# the mask from row i and skips a file whose token_ids differ from that row
# (src/speculators/train/data.py ArrowDataset._get_raw_data). Scored without it, every prompt
# token counts and the accuracies are not the ones training reported.
_HS_INDEX = re.compile(r"hs_(\d+)\.safetensors")


@dataclass
class DatasetMasks:
    """The loss masks of speculators' prepared dataset, looked up per hs_{i} file."""

    path: Path
    rows: Any  # datasets.Dataset, rows as python lists

    def apply(self, sample: Sample) -> Sample:
        match = _HS_INDEX.fullmatch(sample.name)
        if sample.loss_mask_given or match is None:
            return sample
        index = int(match.group(1))
        if index >= len(self.rows):
            raise DataError(f"{sample.name}: no row {index} in the dataset {self.path} "
                            f"({len(self.rows)} rows) to take its loss_mask from")
        row = self.rows[index]
        if list(row["input_ids"]) != sample.token_ids.tolist():
            raise DataError(f"{sample.name}: its token_ids differ from row {index} of the "
                            f"dataset {self.path} (speculators' loader skips such a file)"
                            + _row_length_differs(len(row["input_ids"]), sample.token_ids))
        if row.get("loss_mask") is None:
            return sample  # a row without a mask: every position, as the file alone says
        try:
            raw = torch.as_tensor(row["loss_mask"])
        except (TypeError, ValueError, RuntimeError):
            raise DataError(f"{sample.name}: the loss_mask of row {index} of {self.path} is "
                            "not a list of numbers") from None
        if raw.numel() != sample.length:
            raise DataError(f"{sample.name}: row {index} of {self.path} has a loss_mask of "
                            f"{raw.numel()} entries for {sample.length} tokens")
        # the files' rule for the row's mask too: one entry per position ([T], [1, T] or
        # [T, 1]) and values within [0, 1]; a folded [2, T/2] row or HF labels (-100)
        # flattened and cast to bool scored positions the mask does not describe
        sample.loss_mask = _mask_bool(f"{sample.name}: row {index} of {self.path}", raw)
        sample.loss_mask_given = True
        return sample


def _row_length_differs(row_ids: int, token_ids: Tensor) -> str:
    """The lengths, when a dataset row and the file's ids differ there too (speculators'
    ArrowDataset compares them with torch.equal and skips the file): "differ" alone did not
    tell one id off from other tokens."""
    T = int(token_ids.shape[0])
    return "" if row_ids == T else f": the row holds {row_ids} ids, the file {T}"


def find_dataset_masks(data_dir: str | Path) -> tuple[DatasetMasks | None, str | None]:
    """speculators' prepared dataset holding the dump's loss masks, when the dump sits in
    (or is) its `hidden_states/` directory; with a note on what was found."""
    root = Path(data_dir)
    if root.is_file():
        root = root.parent
    # the dataset itself, or the parent of its default `hidden_states/` output folder (an
    # unrelated dataset above some other folder must not lend its masks)
    candidates = [root] + ([root.parent] if root.name == "hidden_states" else [])
    for candidate in candidates:
        if (candidate / "state.json").is_file() and (candidate / "dataset_info.json").is_file():
            break
    else:
        return None, None
    try:
        from datasets import load_from_disk

        rows = load_from_disk(str(candidate)).with_format(None)
    except ImportError:
        return None, (f"the loss masks are in speculators' dataset {candidate}, which needs "
                      "the `datasets` package to read: every position was scored (training "
                      "scores the assistant tokens only)")
    except Exception as exc:  # datasets and pyarrow raise many kinds
        return None, (f"{candidate}: cannot read the dataset beside the hidden states "
                      f"({type(exc).__name__}: {exc}): every position was scored")
    columns = set(getattr(rows, "column_names", None) or [])
    if not {"input_ids", "loss_mask"} <= columns:
        return None, (f"the dataset {candidate} beside the hidden states has no input_ids and "
                      f"loss_mask columns (found {sorted(columns)}): every position was scored")
    return DatasetMasks(candidate, rows), (
        f"loss masks from speculators' dataset {candidate} (row i for hs_i), as training "
        "reads them")


@dataclass
class SkippedFiles:
    """Sample files left out of an evaluation, with why (the first few kept)."""

    count: int = 0
    examples: list[dict[str, str]] = field(default_factory=list)
    keep: int = 20
    first_hint: str | None = None  # the fix of the first skip, the one summary() names

    def add(self, path: Path, reason: str, hint: str | None = None) -> None:
        self.count += 1
        if len(self.examples) < self.keep:
            self.examples.append({"file": str(path), "reason": reason})
        if self.count == 1:
            self.first_hint = hint

    def summary(self) -> str:
        first = self.examples[0]["reason"] if self.examples else ""
        return f"{self.count} sample file(s) skipped; first: {first}"


def iter_samples(data_dir: str | Path, *, slots: Sequence[int] | None = None, final: bool = True,
                 max_samples: int | None = None, spec: SampleSpec | None = None,
                 skipped: SkippedFiles | None = None,
                 masks: DatasetMasks | None = None,
                 bytes_left: Callable[[], int] | None = None) -> Iterator[Sample]:
    """Yield samples one at a time; only the requested slots (and the final one) are read.
    `bytes_left`: the memory a probe's read of every slot may still take (_read_speculators).

    With `skipped`, a file that cannot be read or fails `spec` is counted there and the
    iteration goes on (one bad file among thousands must not end an evaluation); without it,
    the first bad file raises DataError. `max_samples` counts the samples yielded."""
    count = 0
    for path in list_sample_files(data_dir):
        if max_samples is not None and count >= max_samples:
            return
        # not cut where a prepared dataset gives the masks: its rows are matched to the
        # file's whole token_ids (DatasetMasks.apply)
        items = read_samples(path, slots, final, bytes_left if masks is None else None)
        while True:
            if max_samples is not None and count >= max_samples:
                return
            try:
                item = next(items, None)
                if item is None:
                    break
                if isinstance(item, DataError):
                    raise item
                sample = masks.apply(item) if masks is not None else item
                if spec is not None:
                    check_sample(sample, spec)
            except DataError as exc:
                if skipped is None:
                    raise
                skipped.add(path, exc.message, exc.hint)
                continue
            count += 1
            yield sample


def write_hs_sample(path: str | Path, token_ids: Tensor, hidden_states: Tensor, *,
                    layer_ids: Sequence[int] | None = None,
                    loss_mask: Tensor | None = None) -> None:
    """Write one sample in speculators' hs format (used by synthetic.py and tests)."""
    from safetensors.torch import save_file

    tensors = {"token_ids": token_ids.contiguous(), "hidden_states": hidden_states.contiguous()}
    if loss_mask is not None:
        tensors["loss_mask"] = loss_mask.contiguous()
    metadata = {"layer_ids": json.dumps([int(i) for i in layer_ids])} if layer_ids else None
    save_file(tensors, str(path), metadata=metadata)
