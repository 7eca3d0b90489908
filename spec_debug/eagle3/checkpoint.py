"""Lazy access to draft and target checkpoints.

Tensor names and shapes come from the safetensors headers (stdlib JSON, no torch, no tensor
data read), so a 10 GB checkpoint's config and vocab maps can be checked cheaply. Tensors are
read one at a time with `safe_open` when asked for.

Names are normalised to speculators' (EAGLE3.md section 1): EAGLE/SpecForge's `midlayer.*` is
`layers.0.*` (speculators src/speculators/convert/eagle/eagle3_converter.py; vLLM
llama_eagle3.py load_weights does the same rename) and a leading `model.` is dropped; a draft
saved inside a training wrapper (`draft_model.fc.weight`, ...) is read from under its prefix.
"""

from __future__ import annotations

import json
import math
import re
import struct
import tarfile
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spec_debug.eagle3 import trainer_state
from spec_debug.eagle3.config import (
    SUPPORTED_DECODERS, CheckpointError, DraftConfig, TargetConfig, load_draft_config, load_target_config,
)
from spec_debug.eagle3.vocab import configured_draft_vocab
from spec_debug.probes.hostfiles import HeaderJSONError, described_size, header_problem, load_header_json

if TYPE_CHECKING:  # torch is only needed when tensors are read
    import torch


@dataclass(frozen=True)
class TensorInfo:
    name: str  # normalised name
    stored_name: str  # name in the file
    file: Path
    shape: tuple[int, ...]
    dtype: str  # safetensors dtype string, e.g. "F32", "BF16", "I64", "BOOL"


_LFS_POINTER = b"version https://git-lfs"


def read_safetensors_header(path: Path) -> dict[str, Any]:
    """The JSON header of a .safetensors file: {name: {dtype, shape, data_offsets}, ...}.

    Also checks that the file holds every byte the header promises: an interrupted copy or
    download leaves a valid header over a short file, which safetensors only reports when a
    tensor is read (format: huggingface/safetensors README, "Format")."""
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(8)
            if size == 0:
                raise CheckpointError(f"{path}: empty file (0 bytes); copy it again")
            if head.startswith(_LFS_POINTER[:8]) and handle.read(64).startswith(
                    _LFS_POINTER[8:]):
                raise CheckpointError(f"{path}: a git-lfs pointer, not the weights",
                                      hint="run `git lfs pull` in the checkpoint repository")
            if len(head) < 8:
                raise CheckpointError(f"{path}: not a safetensors file ({size} bytes)")
            (length,) = struct.unpack("<Q", head)
            if length > min(100_000_000, size - 8):
                _refuse_torch_save(path, head)  # only here: 0x80 0x02 also opens a real header
                raise CheckpointError(f"{path}: not a safetensors file, or truncated (header "
                                      f"length {length}, file {size} bytes)")
            header = load_header_json(handle.read(length))
    except CheckpointError:
        raise
    except HeaderJSONError as exc:  # JSON safetensors' reader refuses and Python's json takes
        if not exc.rewritten:
            raise CheckpointError(f"{path}: cannot read safetensors header ({exc})") from None
        raise CheckpointError(f"{path}: {exc}; {_REFUSED}") from None
    except (OSError, struct.error) as exc:
        raise CheckpointError(f"{path}: cannot read safetensors header ({exc})") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{path}: safetensors header is not a JSON object")
    _check_header_metadata(path, header.get("__metadata__"))
    problem = header_problem(header)
    if problem:
        # safetensors refuses the whole file over one entry ("invalid shape, data type, or
        # offset for tensor"), which was said as "cannot read d2t" (the first tensor read),
        # not the entry that is wrong
        raise CheckpointError(f"{path}: {problem}; {_REFUSED}")
    described = described_size(length, header)
    if described > size:
        raise CheckpointError(f"{path}: truncated ({size} bytes, the header describes "
                              f"{described}); copy or download it again")
    if described < size:
        # bytes past the last tensor: safetensors refuses the file ("incomplete metadata, file
        # not fully covered": its Metadata::validate wants the data to end where the last
        # tensor does), so speculators and the engines cannot load it either; this said
        # "cannot read d2t (Error while deserializing header: ...)"
        raise CheckpointError(f"{path}: {size - described} byte(s) past the tensors the "
                              f"header describes ({size} bytes, the header describes "
                              f"{described}), which safetensors refuses: a copy "
                              "written over a longer file, or appended to; copy or download "
                              "it again")
    return header


_REFUSED = ("safetensors refuses the whole file over it, so speculators, vLLM and SGLang "
            "cannot load any tensor of it: a header edited by hand or written by another "
            "writer; copy or download the file again, or save it again")


def _check_header_metadata(path: Path, metadata: Any) -> None:
    """__metadata__ is a map of strings to strings (huggingface/safetensors README, "Format"):
    safetensors refuses the whole file over one value of another type ("invalid JSON in
    header: invalid type: integer `12`, expected a string"), so speculators, vLLM and SGLang
    cannot load any tensor of it. A header edited by hand, or written by another writer, holds
    a number or a list there."""
    if metadata is None:
        return
    if not isinstance(metadata, dict):
        raise CheckpointError(f"{path}: the safetensors header's __metadata__ is a "
                              f"{type(metadata).__name__}, not a map of strings: safetensors "
                              "refuses the file, so no loader reads it",
                              hint="rewrite __metadata__ as a map of strings, or save the "
                                   "tensors again with save_file(tensors, path, metadata={...})")
    bad = next(((k, v) for k, v in metadata.items() if not isinstance(v, str)), None)
    if bad is not None:
        raise CheckpointError(f"{path}: the safetensors header's __metadata__ holds {bad[0]!r}: "
                              f"{json.dumps(bad[1])}, not a string: safetensors refuses the "
                              "file, so no loader (speculators, vLLM, SGLang) reads it",
                              hint=f"write the value as a string ({bad[0]!r}: "
                                   f"{json.dumps(json.dumps(bad[1]))}), or save the tensors "
                                   "again with save_file(tensors, path, metadata={...})")


# torch.save writes a zip archive (torch >= 1.6) or, with _use_new_zipfile_serialization=False,
# a bare pickle (protocol 2 opens with 0x80 0x02): a .safetensors name on either is a save_file
# call replaced by torch.save, which safetensors reports as a header "too large"
_TORCH_SAVE_MAGIC = ((b"PK\x03\x04", "zip archive"), (b"\x80\x02", "pickle"))


def _refuse_torch_save(path: Path, head: bytes) -> None:
    kind = next((kind for magic, kind in _TORCH_SAVE_MAGIC if head.startswith(magic)), None)
    if kind is not None:
        raise CheckpointError(f"{path}: a torch.save file ({kind}), not safetensors: it was "
                              "written with torch.save under a .safetensors name",
                              hint="save it again with safetensors.torch.save_file(tensors, "
                                   "path), or give it the .pt/.bin name it has")


_TORCH_FILE_HINT = ("load the state dict and save it as model.safetensors "
                    "(safetensors.torch.save_file), the file from_pretrained and the engines "
                    "load first")


# A trainer's own state, saved beside the weights and never weights: speculators'
# Checkpointer writes <epoch>/optimizer_state_dict.pt and scheduler_state_dict.pt next to
# save_pretrained's files (src/speculators/train/checkpointer.py); transformers' Trainer
# writes optimizer.pt, scheduler.pt, scaler.pt, rng_state*.pth and training_args.bin;
# SpecForge's save_checkpoints writes epoch_<e>_step_<s>/training_state.pt (epoch, step, args
# and the optimizer's state) beside save_pretrained's files (scripts/train_eagle3.py);
# accelerate's save_state, which the EAGLE repo's trainers call for <cpdir>/state_<epoch>,
# writes optimizer.bin, scheduler.bin and sampler.bin (optimizer_<i>.bin for a second one),
# dl_state_dict.bin for a stateful dataloader (use_stateful_dataloader), scaler.pt and
# random_states_<rank>.pkl beside the model's weights (huggingface/accelerate
# src/accelerate/checkpointing.py save_accelerator_state, utils/constants.py).
_TRAINER_STATE = re.compile(r"(optimizer_state_dict\.pt|scheduler_state_dict\.pt|optimizer\.pt|"
                            r"scheduler\.pt|scaler\.pt|rng_state.*\.pth|training_args\.bin|"
                            r"training_state\.pt|modelopt_state\.pth|"
                            r"(optimizer|scheduler|sampler|dl_state_dict)(_\d+)?\.bin)")
# NVIDIA ModelOpt's HF checkpointing (modelopt/torch/opt/plugins/huggingface.py) saves
# modelopt_state.pth, the modes the model was converted with (its EAGLE config), beside
# save_pretrained's weights; mto.save(model, path) puts the weights in it too
# (model_state_dict). Like training_state.pt, it is read for the weights it may hold.
_MODELOPT_STATE = "modelopt_state.pth"
_MAY_HOLD_WEIGHTS = ("training_state.pt", _MODELOPT_STATE)


def _torch_files(directory: Path) -> tuple[list[str], list[str]]:
    """torch.save files under other names than the loaders look for: (possible state dicts,
    a trainer's own state files)."""
    try:
        found = sorted(p.name for pattern in ("*.pt", "*.pth", "*.ckpt", "*.bin")
                       for p in directory.glob(pattern) if p.is_file())
    except OSError:
        return [], []
    state = [name for name in found if _TRAINER_STATE.fullmatch(name)]
    return [name for name in found if name not in state], state


def _shown(names: list[str]) -> str:
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _other_torch_files(directory: Path) -> str:
    """', only <files>' for torch.save files under other names (model.pt, a trainer's
    state_dict.pth, epoch_3.ckpt): a state dict saved by hand, which no loader looks for.
    A trainer's optimizer / scheduler state is named as that, not as weights to convert."""
    weights, state = _torch_files(directory)
    if weights:
        return f"; only torch.save file(s) under other names: {_shown(weights)}"
    held = _weights_in_trainer_state(directory, state)
    if held:
        return f"; only a trainer's state ({_shown(state)}): {held}"
    if state == [_MODELOPT_STATE]:
        return (f"; only ModelOpt's {_MODELOPT_STATE} (the modes the draft was converted "
                "with), saved beside a checkpoint's weights, not weights: the weights were not "
                "saved or not copied here")
    if state:
        return (f"; only a trainer's optimizer/scheduler state ({_shown(state)}), saved beside "
                "a checkpoint's weights, not weights: the weights were not saved or not "
                "copied here")
    return ""


# What vLLM and SGLang load from a folder with no *.safetensors: every file of the first of
# "*.bin", "*.pt" that matches anything here, less the trainer files they know by name
# (vLLM 0.34.0 model_loader/default_loader.py _prepare_weights and weight_utils.py
# filter_files_not_needed_for_inference; SGLang 0.5.23 model_loader/loader.py and
# weight_utils.py, the same code). transformers' from_pretrained reads only pytorch_model.bin.
_ENGINE_PICKLE_PATTERNS = ("*.bin", "*.pt")
_ENGINE_SKIPPED = ("training_args.bin", "optimizer.bin", "optimizer.pt", "scheduler.pt",
                   "scaler.pt")


def _engine_pickle_match(directory: Path) -> tuple[str, list[str]]:
    """The first of _ENGINE_PICKLE_PATTERNS that matches a file here and its matches, sorted
    (the skipped trainer files among them); ("", []) when none does. OSError passes."""
    return next(((pattern, names) for pattern in _ENGINE_PICKLE_PATTERNS
                 for names in [sorted(p.name for p in directory.glob(pattern))] if names), ("", []))


def _engine_pickles_note(directory: Path) -> str:
    """'; <what vLLM and SGLang load here>' for a folder read past for want of
    model.safetensors or pytorch_model.bin: the torch.save files the server would serve (and
    any trainer state it would take for weights), or that it finds no weights either."""
    weights, state = _torch_files(directory)
    if not weights and not state:
        return ""
    try:
        pattern, matched = _engine_pickle_match(directory)
    except OSError:
        return ""
    loaded = [name for name in matched if not name.endswith(_ENGINE_SKIPPED)]
    if not loaded:
        if not matched:
            return ("; vLLM and SGLang find no weights here either (they load *.safetensors, "
                    "*.bin or *.pt files only)")
        before = " (*.bin is matched before *.pt)" if pattern == "*.bin" and any(
            directory.glob("*.pt")) else ""
        verb = "take {}{}, then skip {}".format(_shown(matched), before,
                                                "it" if len(matched) == 1 else "them")
        return (f"; vLLM and SGLang find no weights here either: they {verb} "
                "(\"Cannot find any model weights\")")
    served = [name for name in loaded if name in weights]
    as_weights = [name for name in loaded if name not in weights]
    wrapped = _wrapped_pickles(directory, served)
    if wrapped:
        # the engines iterate a pickle's top-level items as (name, tensor) (vLLM 0.34.0
        # weight_utils.py pt_weights_iterator, SGLang 0.5.23 weight_utils.py): a nested state
        # dict reaches load_weights as one unknown name, which SGLang's llama_eagle3.py drops
        # and vLLM's AutoWeightsLoader refuses
        name, key = next(iter(wrapped.items()))
        return (f"; vLLM and SGLang would load {name} but read its top-level entries as "
                f"weights, and its tensors are nested under {key!r}: SGLang drops that unknown "
                "name and runs the draft on unloaded weights, vLLM stops on it; "
                "transformers' from_pretrained (so speculators) cannot load it either")
    skips = ("they skip only " + ", ".join(_ENGINE_SKIPPED[:-1]) + " and "
             + _ENGINE_SKIPPED[-1])
    if not served:
        return f"; vLLM and SGLang would read {_shown(as_weights)} as the weights ({skips})"
    also = (f" and would load {_shown(as_weights)} as weights too ({skips})"
            if as_weights else "")
    return (f"; vLLM and SGLang would serve {_shown(served)} (with no *.safetensors here they "
            f"load every *.bin, else every *.pt){also}; transformers' from_pretrained (so "
            f"speculators) cannot load {'it' if len(served) == 1 else 'them'}")


# torch.distributed.checkpoint (DCP) saves a state dict as `__<rank>_<n>.distcp` files and a
# `.metadata` file (torch/distributed/checkpoint/filesystem.py FileSystemWriter); accelerate's
# FSDP save_state with SHARDED_STATE_DICT writes the model's as `pytorch_model_fsdp_0/`, its
# state dict under "model", and the optimizer's as `optimizer_0/` (huggingface/accelerate
# src/accelerate/utils/fsdp_utils.py save_fsdp_model, save_fsdp_optimizer). No engine and no
# from_pretrained reads them: `accelerate merge-weights` (merge_fsdp_weights) or torch's
# format_utils dcp_to_torch turns them into one file first.
_DCP_SHARDS = "*.distcp"


def _dcp_folders(directory: Path) -> list[str]:
    """The DCP shard folders of a draft folder: "." for the folder itself, else its
    subfolders holding *.distcp files, the model's before the optimizer's."""
    try:
        if any(directory.glob(_DCP_SHARDS)):
            return ["."]
        found = sorted(d.name for d in directory.iterdir()
                       if d.is_dir() and any(d.glob(_DCP_SHARDS)))
    except OSError:
        return []
    return sorted(found, key=lambda name: name.startswith("optimizer"))


def _dcp_note(directory: Path, into: "Path | str | None" = None) -> tuple[str, str | None]:
    """('; <what the DCP shards are>', the hint) for a folder holding a sharded FSDP save;
    the merge writes into `into` (default: the folder)."""
    folders = _dcp_folders(directory)
    if not folders:
        return "", None
    model = [name for name in folders
             if not (directory.name if name == "." else name).startswith("optimizer")]
    shown = ", ".join(f"{name}/" if name != "." else "*.distcp" for name in folders[:3])
    if not model:
        return (f"; only an optimizer's torch.distributed.checkpoint shards ({shown}), saved "
                "beside a checkpoint's weights, not weights: the weights were not saved or not "
                "copied here"), None
    shards = directory if model[0] == "." else directory / model[0]
    return (f"; only torch.distributed.checkpoint shards ({shown}: a sharded FSDP save), which "
            "vLLM and SGLang do not load either (they load *.safetensors, *.bin or *.pt files "
            "only)"), (f"merge them into one file beside config.json: `accelerate merge-weights "
                       f"{shards} {into or directory}` writes model.safetensors (or `python -m "
                       f"torch.distributed.checkpoint.format_utils dcp_to_torch {shards} "
                       "draft.pt`, then save its state dict, which accelerate keeps under "
                       "\"model\", as model.safetensors with safetensors.torch.save_file)")


def no_weights_error(directory: Path) -> CheckpointError:
    """Why no weights are read from a folder with no *.safetensors, no pytorch_model.bin and
    no torch.save file the engines serve (engine_served_pickle): what it holds instead, and
    whether vLLM and SGLang find weights there (the `diagnose` configs step says the same:
    engines_find_no_weights)."""
    others = _other_torch_files(directory) + _engine_pickles_note(directory)
    dcp, dcp_hint = _dcp_note(directory) if not others else ("", None)
    if not others and not dcp:
        others = ("; vLLM and SGLang find no weights here either (they load *.safetensors, "
                  "*.bin or *.pt files only: \"Cannot find any model weights\")")
    return CheckpointError(f"{directory}: no model.safetensors, *.safetensors or "
                           "pytorch_model.bin" + others + dcp,
                           hint=interrupted_hub_download(directory)
                           or _torch_files_hint(directory) or dcp_hint)


def engines_find_no_weights(directory: Path) -> CheckpointError | None:
    """no_weights_error for a draft folder where vLLM and SGLang load no file: no
    *.safetensors, and of the first of *.bin, *.pt that matches, nothing but the trainer files
    they skip (see _engine_pickles_note); they stop with "Cannot find any model weights with
    <dir>". None where they find a weight file (a stale index filtering it out is
    stale_index's; a file that cannot be read, its reader's)."""
    return None if engines_load_weights(directory) else no_weights_error(directory)


def engines_load_weights(directory: Path) -> bool:
    """Whether vLLM and SGLang find a weight file to load in the folder (see
    engines_find_no_weights); True where it cannot be listed (its reader says why)."""
    try:
        if any(directory.glob("*.safetensors")):
            return True
        matched = _engine_pickle_match(directory)[1]
    except OSError:
        return True
    return any(not name.endswith(_ENGINE_SKIPPED) for name in matched)


def _served_pickle_name(directory: Path) -> str | None:
    """The one torch.save file of a state dict's name (not a trainer's state) the engines
    would load from the folder, by its listing alone (engine_served_pickle reads it too)."""
    weights, _ = _torch_files(directory)
    if not weights:
        return None
    try:
        matched = _engine_pickle_match(directory)[1]
    except OSError:
        return None
    loaded = [name for name in matched if not name.endswith(_ENGINE_SKIPPED)]
    return loaded[0] if len(loaded) == 1 and loaded[0] in weights else None


def engine_served_pickle(directory: Path) -> Path | None:
    """The one torch.save file vLLM and SGLang serve from a folder with no *.safetensors and no
    pytorch_model.bin (model.pt, model.bin: see _engine_pickles_note), where it alone is what
    they load and holds only top-level tensors (torch.load(weights_only=True), as their
    pt_weights_iterator reads it); None otherwise (the refusal says what they do there). The
    drafter then measures the weights the server runs, as for pytorch_model.bin."""
    name = _served_pickle_name(directory)
    if name is None:
        return None  # none, several (read in the file system's order), or a trainer's state
    path = directory / name
    try:
        held = _load_bin(path)
    except Exception:  # its refusal (the note of what the engines would load) says more
        return None
    if not isinstance(held, dict) or not held or not all(hasattr(v, "shape") for v in held.values()):
        return None
    return path


def engine_pickle_note(store: "TensorStore", role: str) -> str | None:
    """Which torch.save file was read (engine_served_pickle), and the ones beside it nobody loads."""
    if store.engine_pickle is None:
        return None
    path = store.engine_pickle
    weights, state = _torch_files(path.parent)
    others = [name for name in weights + state if name != path.name]
    unread = (f"; {_shown(others)} not read (the engines do not load "
              f"{'it' if len(others) == 1 else 'them'} here)" if others else "")
    return (f"the {role}'s weights were read from {path}, the file vLLM and SGLang serve from "
            "this folder (with no *.safetensors they load every *.bin, else every *.pt); "
            "transformers' from_pretrained (so speculators) cannot load it: "
            + _TORCH_FILE_HINT + unread)


def _wrapped_pickles(directory: Path, names: list[str]) -> dict[str, str]:
    """name -> the key its tensors are nested under ({"state_dict": ...}), for the torch.save
    files that hold a wrapped state dict (see _tensors); unreadable files are left out."""
    wrapped = {}
    for name in names:
        try:
            key = _tensors(_load_bin(directory / name))[1]
        except Exception:  # its read (eval's, the hint's) says why it cannot be read
            continue
        if key is not None:
            wrapped[name] = key
    return wrapped


def _weights_in_trainer_state(directory: Path, state: list[str]) -> str | None:
    """Which weights a training_state.pt or modelopt_state.pth holds: SpecForge's and
    ModelOpt's HF checkpointing's hold none, other trainers' scripts and mto.save put the
    model's state dict in them (trainer_state)."""
    return next((held for name in _MAY_HOLD_WEIGHTS if name in state
                 for held in [trainer_state.describe(directory / name)] if held), None)


def _torch_files_hint(directory: Path) -> str | None:
    weights, state = _torch_files(directory)
    if weights:
        return _TORCH_FILE_HINT
    for name in _MAY_HOLD_WEIGHTS:
        hint = trainer_state.save_hint(directory / name) if name in state else None
        if hint:
            return hint
    if state:
        return ("copy the checkpoint's model.safetensors (or its shards and index) too, or "
                "pass a checkpoint directory that holds them")
    return None


def torch_save_cut(path: Path) -> bool:
    """True for a torch.save zip archive that lost its end (an interrupted copy): it starts
    like a zip but has no central directory. torch then reports only "[Errno 22] Invalid
    argument" or "failed finding central directory"."""
    import zipfile

    try:
        with path.open("rb") as handle:
            starts_as_zip = handle.read(4) == b"PK\x03\x04"
        return starts_as_zip and not zipfile.is_zipfile(path)
    except OSError:
        return False


def _indexed_shards(index: Path, missing: list[str] | None) -> list[Path]:
    """The shards a HF index (`*.index.json`, weight_map: tensor -> file) names.

    A shard the index names but the directory lacks is an error, unless `missing` is given:
    then its name is appended there and the shards present are returned (a target copied
    to a debug host often holds only the shards with the embedding and the head)."""
    from spec_debug.eagle3.config import read_json

    weight_map = read_json(index).get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        raise CheckpointError(f"{index}: no weight_map (shard names per tensor)")
    shards = sorted({index.parent / str(name) for name in weight_map.values()})
    unlisted = _unlisted_shards(index, shards)
    if unlisted:
        raise CheckpointError(
            f"{index} does not name shard(s) {', '.join(unlisted[:4])}"
            + (" ..." if len(unlisted) > 4 else "") + " that sit beside it: a stale index, "
            "and their tensors would not be read (nor by vLLM or SGLang, which load the "
            "files the index names)",
            hint="regenerate the index from the shards, or copy the index that came with them")
    absent = [p.name for p in shards if not p.is_file()]
    if absent and missing is None:
        raise CheckpointError(f"{index} names shard(s) that are missing: "
                              f"{', '.join(absent[:4])}" + (" ..." if len(absent) > 4 else ""),
                              hint=interrupted_hub_download(index.parent)
                              or "copy every shard listed in the index")
    if missing is not None:
        missing.extend(absent)
    return [p for p in shards if p.is_file()]


def index_misplaces(directory: Path, names: list[str]) -> str:
    """'; <index> puts <name> in <shard>, which does not hold it ...' for tensors the index
    assigns to a shard that is here but lacks them (shards copied from two saves, or an index
    edited by hand); '' otherwise. vLLM and SGLang read every tensor of the files the index
    names, so such a tensor is missing for them too."""
    from spec_debug.eagle3.config import read_json

    index = directory / "model.safetensors.index.json"
    try:
        weight_map = read_json(index).get("weight_map") if index.is_file() else None
    except (CheckpointError, AttributeError):
        return ""
    if not isinstance(weight_map, dict):
        return ""
    placed = [(name, str(weight_map[name])) for name in names
              if isinstance(weight_map.get(name), str) and (directory / weight_map[name]).is_file()]
    if not placed:
        return ""
    name, shard = placed[0]
    return (f"; {index.name} puts {name} in {shard}, which is here but does not hold it: "
            "shards from two different saves, or an index from another one")


def interrupted_hub_download(directory: Path) -> str | None:
    """The hint for a Hub cache snapshot (`models--org--name/snapshots/<rev>/`) whose weights
    are missing because the download was cut: huggingface_hub writes each file to
    `blobs/<etag>.<id>.incomplete` and links it into the snapshot only once complete
    (huggingface_hub file_download.py _download_to_tmp_and_move), so the small config.json and
    index are there and the shards are not."""
    repo = directory.parent.parent
    if directory.parent.name != "snapshots" or not repo.name.startswith("models--"):
        return None
    incomplete = sorted((repo / "blobs").glob("*.incomplete"))
    if not incomplete:
        return None
    name = repo.name[len("models--"):].replace("--", "/")
    return (f"an interrupted Hub download: {repo / 'blobs'} holds {len(incomplete)} "
            f"*.incomplete file(s); run `hf download {name}` (huggingface-cli download on "
            "older huggingface_hub) again to finish it")


_SHARD = re.compile(r"(.+)-(\d+)-of-(\d+)(\.safetensors|\.bin)")


def _unlisted_shards(index: Path, shards: list[Path]) -> list[str]:
    """Files beside the index from the same `<name>-<i>-of-<n>` series as the shards it
    names, that it does not name (an index written before a re-shard, or for another copy).
    vLLM and SGLang load only the files the index names (model_loader/weight_utils.py
    filter_duplicate_safetensors_files), so those tensors are lost to them too. Other weight
    files (Mistral's consolidated.safetensors beside HF shards) are left alone."""
    series = {(m.group(1), m.group(3), m.group(4)) for p in shards
              if (m := _SHARD.fullmatch(p.name))}
    if not series:
        return []
    named = {p.name for p in shards}
    return sorted(p.name for p in index.parent.iterdir()
                  if p.name not in named and (m := _SHARD.fullmatch(p.name))
                  and (m.group(1), m.group(3), m.group(4)) in series)


def stale_index(index: Path, single: Path) -> bool:
    """True for an index none of whose shards is here, beside the single weight file: what
    save_pretrained leaves when a sharded checkpoint is saved again unsharded into the same
    directory (transformers 5 modeling_utils.py removes the old `*-0000i-of-0000n` shards but
    not the index). transformers' from_pretrained reads the single file first; vLLM and
    SGLang load only the files an index names (model_loader/weight_utils.py
    filter_duplicate_safetensors_files), so they find no weights there.

    A safetensors index is stale beside any *.safetensors file it does not name, as the probes
    judge it (probes/hostfiles.py list_weights): the engines filter every file by the index,
    whatever its name (vllm-project/vllm vllm/model_executor/model_loader/weight_utils.py
    filter_duplicate_safetensors_files keeps the paths its weight_map names), so a draft saved
    again as `draft.safetensors` (or a retrained model-00001-of-00001) beside the index of an
    older sharded save loads nothing there either. Only the single model.safetensors counted
    here: `drafter` stopped at "names shard(s) that are missing: copy every shard listed in the
    index", and the vocab step failed as a step that could not run (SD003) beside the configs
    step's SD710. Pickles are not filtered by an index: pytorch_model.bin alone counts there."""
    if not index.is_file():
        return False
    beside = ([single] if single.suffix != ".safetensors"
              else sorted(index.parent.glob("*.safetensors")))
    if not any(path.is_file() for path in beside):
        return False
    from spec_debug.eagle3.config import read_json

    weight_map = read_json(index).get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        return False
    names = {str(name) for name in weight_map.values()}
    return not any((index.parent / n).is_file() for n in names)


def safetensors_files(directory: Path, *, missing: list[str] | None = None) -> list[Path]:
    """The weight files of a HF-style directory (sharded via model.safetensors.index.json)."""
    index = directory / "model.safetensors.index.json"
    single = directory / "model.safetensors"
    if index.exists() and not stale_index(index, single):
        return _indexed_shards(index, missing)
    if single.exists():
        return [single]
    return sorted(directory.glob("*.safetensors"))


# transformers < 4.35 saved torch pickles: pytorch_model.bin, or shards named by
# pytorch_model.bin.index.json (transformers utils WEIGHTS_NAME / WEIGHTS_INDEX_NAME); EAGLE's
# original targets (lmsys/vicuna-*-v1.3) and drafts ship so.
_BIN_INDEX = "pytorch_model.bin.index.json"


def bin_files(directory: Path, *, missing: list[str] | None = None) -> list[Path]:
    index = directory / _BIN_INDEX
    single = directory / "pytorch_model.bin"
    if index.exists() and not stale_index(index, single):
        return _indexed_shards(index, missing)
    return [single] if single.exists() else []


_SINGLE_FILES = (("model.safetensors.index.json", "model.safetensors"),
                 (_BIN_INDEX, "pytorch_model.bin"))


def stale_index_note(store: "TensorStore", role: str) -> str | None:
    """The note for a store read past a stale index (see `stale_index`)."""
    if store.stale_index is None:
        return None
    if store.stale_index.name == _BIN_INDEX:
        # vLLM and SGLang filter only safetensors files by an index (model_loader
        # _prepare_weights: filter_files_not_needed_for_inference for *.bin): the pickle loads
        return (f"{store.stale_index} names no shard that is here: an index left by an earlier "
                f"sharded save beside pytorch_model.bin, which was read, as transformers, vLLM "
                f"and SGLang read it (none of them filters pickles by an index): harmless, but "
                f"delete the stale index")
    read = stale_index_read(store)
    if read == ["model.safetensors"]:
        beside = "the single weight file, which was read (as transformers reads it)"
    else:
        # transformers' from_pretrained looks for model.safetensors, then the index's shards
        beside = (f"{', '.join(read)}, which {'was' if len(read) == 1 else 'were'} read (the "
                  "files here; transformers' from_pretrained reads model.safetensors or the "
                  "index's shards, neither of which is here)")
    return (f"{store.stale_index} names no shard that is here: an index left by an earlier "
            f"sharded save beside {beside}; vLLM and SGLang load only the files an index names "
            f"and would find no weights for this {role}: delete the stale index")


def stale_index_read(store: "TensorStore") -> list[str]:
    """The names of the weight files a store read past its stale index (see stale_index)."""
    return sorted({info.file.name for info in store.infos.values()})


def shadowed_single(index: Path, single: Path) -> bool:
    """True for a single weight file beside a live index that does not name it (its shards
    are here): a retrained draft uploaded unsharded into a Hub repo that held shards
    (huggingface_hub upload_folder deletes nothing unless told), or copied over an older
    sharded save. transformers' from_pretrained, so speculators, loads the single file;
    vLLM and SGLang load only the files an index names (model_loader/weight_utils.py
    filter_duplicate_safetensors_files), so they serve the shards."""
    if not (index.is_file() and single.is_file()) or stale_index(index, single):
        return False
    from spec_debug.eagle3.config import read_json

    try:
        weight_map = read_json(index).get("weight_map")
    except CheckpointError:
        return False
    return isinstance(weight_map, dict) and single.name not in {
        str(name) for name in weight_map.values()}


def shadowed_single_note(store: "TensorStore", role: str) -> str | None:
    """The note for a store read from an index's shards beside a single weight file that
    transformers would read instead (see `shadowed_single`), and whether they differ."""
    if store.shadowed_single is None:
        return None
    single = store.shadowed_single
    differ = _first_difference(store, single)
    readers = _single_readers(role, single)
    differs = (f"; they hold different weights ({differ} differs): {readers[1]} "
               f"{single.name}, the engines serve the shards" if differ else "")
    return (f"{single} is beside {single.parent / _index_of(single)} and its shards: "
            f"{readers[0]} load {single.name}, vLLM and SGLang only the "
            f"shards the index names, which were read here (what the engines serve){differs}; "
            f"delete whichever of the two is the older save of this {role}")


def _single_readers(role: str, single: Path) -> tuple[str, str]:
    """Who loads the single file, and who used it. A draft is loaded by transformers'
    from_pretrained (the single file first), which speculators evaluates through; a target's
    embedding and head are read by speculators' load_verifier_weights through
    utils/loading.py load_model_layers, which opens the index first, as the engines do, so
    of the target only transformers runs (SpecForge's hf backend dumping states) read it."""
    if role == "draft":
        return "transformers and speculators", "speculators evaluates"
    return ("transformers (speculators' verifier-weight loader reads the index first, as the "
            "engines do)", "states dumped through transformers (SpecForge's hf backend) came "
            "from")


def _index_of(single: Path) -> str:
    return next(index for index, name in _SINGLE_FILES if name == single.name)


def _first_difference(store: "TensorStore", single: Path) -> str | None:
    """The first tensor both weight sets hold whose shape or dtype differ, else the first
    (smallest first) whose stored values differ; None when they all agree. Every tensor is
    compared, a few million elements at a time (a fix made to fc.weight alone is a fix: the
    smallest tensors, the norms, agree)."""
    if single.suffix != ".safetensors":
        return None
    from safetensors import safe_open

    try:
        header = read_safetensors_header(single)
        common = sorted((info for info in store.infos.values()
                         if info.stored_name in header and info.file.suffix == ".safetensors"),
                        key=lambda info: math.prod(info.shape))
        differ = next((info.stored_name for info in common
                       if (tuple(header[info.stored_name]["shape"]), header[info.stored_name]["dtype"])
                       != (info.shape, info.dtype)), None)
        if differ is not None:
            return differ  # found from the headers, no value read
        with ExitStack() as files, safe_open(str(single), framework="pt") as handle:
            shards: dict[Path, Any] = {}
            for info in common:
                if info.file not in shards:
                    shards[info.file] = files.enter_context(safe_open(str(info.file), framework="pt"))
                if not _same_values(_safetensors_chunks(handle, info.stored_name),
                                    _safetensors_chunks(shards[info.file], info.stored_name)):
                    return info.stored_name
    except Exception:  # an unreadable single file: said by the read of it, not here
        return None
    return None


# How many elements one comparison step reads of each side (16 MB of float32): every tensor
# is compared in full, in bounded memory (an embedding of a 128k vocabulary is GBs).
_CHUNK_ELEMENTS = 1 << 22


def _chunk_rows(shape: "tuple[int, ...] | list[int]") -> int:
    """Rows of dimension 0 per comparison step; 0 for a tensor read whole."""
    if len(shape) == 0 or math.prod(shape) <= _CHUNK_ELEMENTS:
        return 0
    return max(1, _CHUNK_ELEMENTS // max(1, math.prod(shape[1:])))


def _safetensors_chunks(handle: Any, name: str) -> Iterator[Any]:
    """A safetensors tensor's shape, then its rows a chunk at a time (get_slice reads only those)."""
    view = handle.get_slice(name)
    shape = tuple(view.get_shape())
    yield shape
    rows = _chunk_rows(shape)
    if rows == 0:
        yield handle.get_tensor(name)
        return
    for start in range(0, shape[0], rows):
        yield view[start:start + rows]


def _torch_chunks(tensor: Any) -> Iterator[Any]:
    """A loaded tensor's shape, then its rows as _safetensors_chunks cuts them (views: a
    torch.load(mmap=True) tensor is read a chunk at a time too)."""
    shape = tuple(tensor.shape)
    yield shape
    rows = _chunk_rows(shape)
    if rows == 0:
        yield tensor
        return
    for start in range(0, shape[0], rows):
        yield tensor[start:start + rows]


def _same_values(ours: Iterator[Any], theirs: Iterator[Any]) -> bool:
    """Same shape, dtype and bits, chunk by chunk (bits: a NaN equals the same NaN)."""
    if next(ours) != next(theirs):
        return False
    for a, b in zip(ours, theirs):
        if a.dtype != b.dtype or a.shape != b.shape or not _same_bits(a, b):
            return False
    return True


def _same_bits(a: "torch.Tensor", b: "torch.Tensor") -> bool:
    """Whether two tensors of one dtype and shape hold the same bytes, compared as the widest
    integers their length allows: torch.equal over uint8 ran at a third of the speed of int64
    (a 1.9 GB draft beside its pytorch_model.bin copy: 5 s of `drafter vocab`'s 12 s). A chunk
    whose bytes cannot be viewed wider (an odd offset in the mapped file) is compared byte by
    byte."""
    import torch

    a8, b8 = a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8)
    for wide, size in ((torch.int64, 8), (torch.int32, 4)):
        if a8.numel() % size == 0:
            try:
                a_wide, b_wide = a8.view(wide), b8.view(wide)
            except RuntimeError:  # storage offset not a multiple of the wider type's size
                continue
            return torch.equal(a_wide, b_wide)
    return torch.equal(a8, b8)


def _index_placement(directory: Path) -> dict[str, str]:
    """model.safetensors.index.json's weight_map (stored name -> shard file), {} without one."""
    from spec_debug.eagle3.config import read_json

    index = directory / "model.safetensors.index.json"
    weight_map = read_json(index).get("weight_map") if index.is_file() else None
    return {str(k): str(v) for k, v in weight_map.items()} if isinstance(weight_map, dict) else {}


def duplicated_note(store: "TensorStore", role: str) -> str | None:
    """The note for tensors that several shards hold (a re-save into a folder that kept an
    older shard, shards of two saves merged under one index). vLLM and SGLang read every
    tensor of every shard the index names (vllm and sglang model_loader/weight_utils.py
    safetensors_weights_iterator walk each file's keys, not the weight_map), so the model
    gets each copy in turn and keeps the one read last; the index places each tensor in one
    file, and that copy was read here. Copies may be stored under two names that load as
    one weight (SpecForge's midlayer.* beside speculators' layers.0.*: vLLM llama_eagle3.py
    load_weights renames the first), so each copy is read under its own name. Copies that
    hold the same values change nothing and are not named."""
    differing = [(copies, read) for copies in store.duplicated.values()
                 if (read := _read_copy(store, copies)) is not None and _copies_differ(copies)]
    if not differing:
        return None
    copies, read = differing[0]
    files = list(dict.fromkeys(path.name for path, _ in copies))
    others = sorted({stored for _, stored in copies} - {read.stored_name})
    also = f" (also stored as {', '.join(others)})" if others else ""
    more = f" and {len(differing) - 1} more" if len(differing) > 1 else ""
    where = (f"{len(files)} shards" if len(files) > 1
             else f"{len(copies)} copies in one file")
    placed = ("where model.safetensors.index.json places it" if store.placed_by_index(read)
              else "the copy met last")
    return (f"the {role}'s {read.stored_name}{also}{more} is stored in {where} with different "
            f"values ({', '.join(files)}): the copy in {read.file.name}, {placed}, was read, "
            "but vLLM and SGLang load every copy and keep the last one they read; remove the "
            f"stale copies (save the {role} again into an empty folder)")


def _read_copy(store: "TensorStore", copies: list[tuple[Path, str]]) -> "TensorInfo | None":
    """The copy the store reads, found by file and stored name: a draft saved under a prefix
    is renamed after the shards are read (keep_under), and a copy outside it is no draft
    tensor (None: not named)."""
    held = set(copies)
    return next((info for info in store.infos.values()
                 if (info.file, info.stored_name) in held), None)


def _copies_differ(copies: list[tuple[Path, str]]) -> bool:
    from safetensors import safe_open

    first = None
    for path, stored in copies:
        with safe_open(str(path), framework="pt") as handle:
            tensor = handle.get_tensor(stored)
        if first is None:
            first = tensor
        elif tensor.dtype != first.dtype or tensor.shape != first.shape or not bool(
                (tensor == first).all()):
            return True
    return False


def unindexed_note(store: "TensorStore", role: str) -> str | None:
    """The note for weights read from *.safetensors files with neither model.safetensors nor
    its index beside them (shards whose index was not copied, a renamed file). vLLM and
    SGLang load every *.safetensors of a directory without an index (model_loader/
    weight_utils.py), but transformers' from_pretrained, so speculators, looks for those two
    names only and finds no weights ("no file named model.safetensors"); so does
    speculators' load_verifier_weights for a target (utils/loading.py load_model_layers:
    "Expected local file missing: .../model.safetensors"), which training a draft calls."""
    if not store.unindexed:
        return None
    shards = any(_SHARD.fullmatch(name) for name in store.unindexed)
    fix = ("copy model.safetensors.index.json beside the shards" if shards
           else "rename the file to model.safetensors")
    readers = ("transformers' from_pretrained (speculators' training and evaluation) finds"
               if role == "draft" else "transformers' from_pretrained and speculators' "
               "verifier-weight loader (load_verifier_weights, which training a draft on "
               "this target calls) find")
    return (f"the {role}'s weights are in {_shown(store.unindexed)}, with neither "
            "model.safetensors nor model.safetensors.index.json: vLLM and SGLang load every "
            f"*.safetensors here, as read, but {readers} no weights: {fix}")


def _unread_pickles(store: "TensorStore") -> list[Path]:
    """The torch pickles beside the safetensors files the store was read from: the shards
    pytorch_model.bin.index.json names (transformers < 4.35 save_pretrained of a large model,
    or a re-export sharded the same way), else pytorch_model.bin. vLLM's and SGLang's loaders
    take the first of their patterns ("*.safetensors", then "*.bin") that matches any file
    (model_loader/default_loader.py _prepare_weights, and SGLang's copy in
    model_loader/loader.py), and transformers' from_pretrained tries safetensors first, so
    nobody loads the pickles. An index whose shards are not all here: [] (nothing to
    compare)."""
    if store._bin_state is not None or not store.infos:
        return []
    directory = next(iter(store.infos.values())).file.parent
    try:
        return bin_files(directory)
    except CheckpointError:
        return []


def _pickle_difference(store: "TensorStore", binaries: list[Path]) -> str | None:
    """The first tensor the pickles and the store both hold whose shape or dtype differ,
    else the first (smallest first) whose values differ, every tensor compared a chunk at a
    time (see _first_difference); None when they all agree or a pickle cannot be read (its
    read would say why)."""
    from safetensors import safe_open

    try:
        state: dict[str, Any] = {}
        for binary in binaries:
            state.update(_tensors(_load_bin(binary))[0])
        common = sorted((info for info in store.infos.values() if info.stored_name in state),
                        key=lambda info: math.prod(info.shape))
        # shapes and dtypes first, from the headers and the pickle's tensors (no value read):
        # a copy cast to another dtype differed only after every smaller tensor was read whole
        differ = next((info.stored_name for info in common
                       if not hasattr(theirs := state[info.stored_name], "dtype")
                       or (tuple(theirs.shape), trainer_state.safetensors_dtype(theirs.dtype))
                       != (info.shape, info.dtype)), None)
        if differ is not None:
            return differ
        with ExitStack() as files:
            handles: dict[Path, Any] = {}
            for info in common:
                if info.file not in handles:
                    handles[info.file] = files.enter_context(safe_open(str(info.file), framework="pt"))
                theirs = state[info.stored_name]
                if not hasattr(theirs, "dtype") or not _same_values(
                        _safetensors_chunks(handles[info.file], info.stored_name), _torch_chunks(theirs)):
                    return info.stored_name
    except Exception:  # an unreadable pickle is nobody's weights here: no note on it
        return None
    return None


def unread_pickle_note(store: "TensorStore", role: str) -> str | None:
    """A draft's pytorch_model.bin (or the shards its index names) that holds other weights
    than the safetensors beside it: a re-export by torch.save over a folder speculators saved.
    Everyone serves the safetensors (see `_unread_pickles`), so a fix made in the pickle never
    reaches the server. Said only when they differ: many Hub repos ship both formats of one
    save."""
    binaries = _unread_pickles(store) if role == "draft" else []
    differ = _pickle_difference(store, binaries) if binaries else None
    if differ is None:
        return _unread_torch_save_note(store) if role == "draft" and not binaries else None
    directory = binaries[0].parent
    if (directory / _BIN_INDEX).is_file() and binaries != [directory / "pytorch_model.bin"]:
        pickles, verb, them = (f"{directory / _BIN_INDEX} and the {len(binaries)} shard(s) it "
                               "names", "hold", "the pickles are")
    else:
        pickles, verb, them = str(binaries[0]), "holds", "the pickle is"
    return (f"{pickles} {verb} other weights than the safetensors beside it ({differ} differs): "
            "vLLM, SGLang and transformers (so speculators) load only the safetensors when "
            f"both are there, which were read here; {them} never served: delete "
            "whichever of the two is the older save of this draft")


def _unread_torch_save_note(store: "TensorStore") -> str | None:
    """A torch.save file under another name (model.pt, draft.pth) beside the safetensors the
    draft was read from, holding other weights: a fix saved with torch.save(state_dict) into
    the folder. Nobody loads it while a *.safetensors is there: transformers' from_pretrained
    knows no such name, vLLM and SGLang take the first of "*.safetensors", "*.bin", "*.pt"
    that matches (see _engine_pickles_note)."""
    if store._bin_state is not None or not store.infos:
        return None
    directory = next(iter(store.infos.values())).file.parent
    for name in _torch_files(directory)[0]:
        differ = _pickle_difference(store, [directory / name])
        if differ is not None:
            return (f"{directory / name} holds other weights than the safetensors beside it "
                    f"({differ} differs): vLLM, SGLang and transformers (so speculators) load "
                    "only the safetensors, which were read here; the torch.save file is never "
                    "served: if it is the newer save of this draft, write it as "
                    "model.safetensors (safetensors.torch.save_file), else delete it")
    return None


def extra_pickles_note(store: "TensorStore", role: str) -> str | None:
    """Other *.bin files beside the pytorch_model.bin (or the shards its index names) the
    store was read from: transformers' from_pretrained reads only those, vLLM and SGLang every
    *.bin of a folder with no *.safetensors but the ones they skip by name (see
    _engine_pickles_note): an older export left there (its tensors set in file order), or
    accelerate's scheduler.bin / sampler.bin, reach the server as weights."""
    if store._bin_state is None or not store.infos:
        return None
    directory = next(iter(store.infos.values())).file.parent
    try:
        read = bin_files(directory)
        others = sorted(p.name for p in directory.glob("*.bin")
                        if p not in read and not p.name.endswith(_ENGINE_SKIPPED))
    except (CheckpointError, OSError):
        return None
    if not others or not read:
        return None
    names = _shown(others)
    single = read == [directory / "pytorch_model.bin"]
    read_names = ("pytorch_model.bin, which was read (as transformers, so speculators, reads it)"
                  if single else f"the {len(read)} shard(s) {_BIN_INDEX} names, which were "
                  "read (as transformers, so speculators, reads them)")
    skipped = " and ".join(name for name in _ENGINE_SKIPPED if name.endswith(".bin"))
    return (f"{directory} holds {names} beside {read_names}: vLLM and SGLang load every *.bin "
            f"in a folder with no *.safetensors, whatever an index names (they skip only "
            f"{skipped}), so they load {names} as weights too, "
            f"and a tensor stored in both is set from the file they read last: move {names} "
            f"out of the {role}'s folder")


def store_notes(draft: "TensorStore", target: "TensorStore | None" = None) -> list[str]:
    """The notes on the files the weights were read from, the draft's and the target's in
    turn (stale index, shadowed single file, unindexed files), then the draft's copies of one
    tensor: what eval and vocab say of the same files."""
    notes = []
    for note_of in (stale_index_note, shadowed_single_note, unindexed_note,
                    extra_pickles_note, engine_pickle_note):
        notes += [note_of(draft, "draft"), note_of(target, "target") if target is not None else None]
    notes.append(duplicated_note(draft, "draft"))
    notes.append(unread_pickle_note(draft, "draft"))
    return [note for note in notes if note]


def has_weight_files(directory: Path) -> bool:
    return ((directory / "model.safetensors.index.json").exists()
            or bool(safetensors_files(directory)) or (directory / _BIN_INDEX).exists()
            or (directory / "pytorch_model.bin").exists())


def _load_bin(binary: Path) -> dict[str, Any]:
    # weights_only keeps a pickle safe; mmap keeps it from being read in full (only zip-format
    # files, torch >= 1.6, can be mapped: older ones are read whole)
    import torch

    try:
        try:
            state = torch.load(binary, map_location="cpu", weights_only=True, mmap=True)
        except RuntimeError as exc:
            if "mmap" not in str(exc) or torch_save_cut(binary):
                raise
            state = torch.load(binary, map_location="cpu", weights_only=True)
    except Exception as exc:  # pickle, zip and mmap errors have no common base
        if torch_save_cut(binary):
            raise CheckpointError(f"{binary}: cannot read: truncated (a zip archive "
                                  f"without its end, {binary.stat().st_size} bytes)",
                                  hint="copy or download it again") from None
        refused = REFUSED_GLOBAL.search(str(exc))
        if refused and torch_lacks(refused.group(1)):
            # a rebuild function, dtype or storage type a later torch added: the weights were
            # saved by a newer torch than this host's, not a module pickled whole
            raise CheckpointError(newer_torch(binary, refused.group(1)),
                                  hint="read it with a torch at least as new as the one that "
                                       "saved it (upgrade torch where spec-debug runs), or "
                                       "save the weights with save_pretrained "
                                       "(safetensors)") from None
        pickled = _UNSAFE_GLOBAL.search(str(exc))
        if pickled:
            # torch >= 2.6 weights_only refusal: several paragraphs with terminal escapes,
            # offering weights_only=False, which a checker must not do to a file it was handed
            raise CheckpointError(
                f"{binary}: not a plain state dict of tensors: it pickles {pickled.group(1)} "
                "(torch.save of a whole module or a training object rather than of "
                "model.state_dict()); spec-debug reads pickles with weights_only=True and "
                "does not run their code",
                hint="re-save the weights where they were trained: torch.save(model."
                     "state_dict(), ...) or save_pretrained (safetensors)") from None
        raise CheckpointError(f"{binary}: cannot read ({exc})") from None
    if not isinstance(state, dict):
        raise CheckpointError(f"{binary}: not a state dict")
    return state


# Keys trainers save the model's state dict under, beside the optimizer and the epoch:
# `torch.save({"model": model.state_dict(), "optimizer": ...})` (the PyTorch checkpointing
# recipe), Lightning's "state_dict", DeepSpeed's mp_rank_*_model_states.pt "module"
_STATE_DICT_KEYS = ("state_dict", "model_state_dict", "model", "module")


def _tensors(state: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The tensors of a pickled checkpoint, and the key they were nested under (None when at
    the top, as save_pretrained and torch.save(model.state_dict()) write them). Read at the
    top only, a training checkpoint of {"model": ..., "optimizer": ...} reported every draft
    tensor "missing"."""
    if any(hasattr(value, "shape") for value in state.values()):
        return state, None
    nested = [key for key, value in state.items() if isinstance(value, dict)
              and any(hasattr(tensor, "shape") for tensor in value.values())]
    preferred = [key for key in _STATE_DICT_KEYS if key in nested]
    key = preferred[0] if preferred else (nested[0] if len(nested) == 1 else None)
    return (state[key], str(key)) if key is not None else (state, None)


# torch serialization _weights_only_unpickler: "Unsupported global: GLOBAL mod.Name was not an
# allowed global by default"
_UNSAFE_GLOBAL = re.compile(r"Unsupported global: GLOBAL ([\w.]+)")

# Either refusal of a global torch's weights_only unpickler words: "Unsupported global: GLOBAL
# x.y" (a name not on its allowlist) or "unsupported GLOBAL x.y whose module x is blocked"
REFUSED_GLOBAL = re.compile(r"unsupported (?:global: )?GLOBAL ([\w.]+)", re.IGNORECASE)


def torch_lacks(name: str) -> bool:
    """Whether `name` (a global a pickle names: torch.uint16, torch._utils._rebuild_tensor_v3)
    is under torch and missing from this torch: the file was saved by a newer torch (this
    torch pickles a uint16 tensor as torch._utils._rebuild_tensor_v3 with the global
    torch.uint16; an older one has neither), not one that pickles other objects."""
    module, _, attribute = name.rpartition(".")
    if module != "torch" and not module.startswith("torch."):
        return False
    try:
        found = __import__(module, fromlist=[attribute])
    except ImportError:
        return True
    return not hasattr(found, attribute)


def newer_torch(path: Path, name: str) -> str:
    """What a torch file naming `name` (torch_lacks(name)) is: saved by a newer torch."""
    import torch

    return (f"{path}: it names {name}, which this torch ({torch.__version__}) does not have: "
            "the file was saved by a newer torch")


def normalise_draft_name(name: str) -> str:
    if name.startswith("model."):
        name = name[len("model."):]
    if name.startswith("midlayer."):
        name = "layers.0." + name[len("midlayer."):]
    return name


# FP8 checkpoints keep one scale beside each quantized Linear weight, real = fp8 * scale:
# `<module>.weight_scale` (compressed-tensors / llm-compressor and NVIDIA ModelOpt: one per
# tensor or per output row; vLLM quantized EAGLE-3 drafts, vllm-project/vllm#28435), or
# `<module>.weight_scale_inv` with one scale per 128x128 block (DeepSeek-V3 and Mistral FP8
# releases, `quantization_config.weight_block_size`; DeepSeek-V3 inference/kernel.py
# weight_dequant multiplies by it despite the name). Read raw, every weight is off by its
# scale and the draft's accuracy collapses without any error.
_SCALE_SUFFIXES = ("weight_scale", "weight_scale_inv")
# Activation and KV-cache scales of static FP8 (ModelOpt, compressed-tensors): needed by a
# kernel, not by a float forward.
_RUNTIME_SCALES = ("input_scale", "k_scale", "v_scale", "kv_scale", "output_scale")


# Integer-packed weight formats a float forward cannot read: each replaces `<module>.weight` by
# packed integers and side tensors, so the draft looked like it "misses" its weights.
# AutoGPTQ / AutoAWQ: `qweight` (int32, 8 int4 per word), `qzeros`, `scales`, `g_idx`
# (vLLM model_executor/layers/quantization/gptq.py, awq.py create_weights); compressed-tensors
# pack-quantized int4 (llm-compressor W4A16): `weight_packed`, `weight_scale`, `weight_shape`
# (vLLM quantization/compressed_tensors/schemes/compressed_tensors_wNa16.py); bitsandbytes
# 4-bit: `weight.absmax`, `weight.quant_map`, `weight.quant_state.bitsandbytes__nf4|fp4`
# (transformers integrations/bitsandbytes.py saves the quant state beside the weight).
_PACKED_FORMATS = (
    (re.compile(r"\.qweight$"), "GPTQ/AWQ int4"),
    (re.compile(r"\.weight_packed$"), "compressed-tensors pack-quantized int4"),
    (re.compile(r"\.weight\.(absmax|quant_map|quant_state\.bitsandbytes__\w+)$"),
     "bitsandbytes 4-bit"),
)


def packed_weight_format(names) -> tuple[str, list[str]] | None:
    """(format, example tensor names) when the weights are integer-packed, else None."""
    return _named_format(_PACKED_FORMATS, names)


def _named_format(formats, names) -> tuple[str, list[str]] | None:
    for pattern, label in formats:
        hits = sorted(n for n in names if pattern.search(n))
        if hits:
            return label, hits
    return None


# NVFP4 packs two 4-bit floats per byte: ModelOpt keeps the name `weight` (uint8 [out, in/2])
# beside `weight_scale` (fp8 per 16 values), `weight_scale_2` and `input_scale` (vLLM
# quantization/modelopt.py ModelOptNvFp4LinearMethod.create_weights); compressed-tensors
# writes `weight_packed`, `weight_global_scale`, `input_global_scale`
# (compressed_tensors_w4a4_nvfp4.py). Kept apart from _PACKED_FORMATS: the configs step still
# compares such a draft's layer count (its uint8 shapes are skipped there, draft_weights.py).
_FP4_FORMATS = (
    (re.compile(r"\.weight_scale_2$"), "ModelOpt NVFP4 (4-bit float)"),
    (re.compile(r"\.weight_global_scale$"), "compressed-tensors NVFP4 (4-bit float)"),
)


def fp4_weight_format(names) -> tuple[str, list[str]] | None:
    """(format, example tensor names) when the weights are NVFP4, else None: read by name
    alone, a ModelOpt NVFP4 weight read as a config that "implies" twice its width."""
    return _named_format(_FP4_FORMATS, names)


def fp8_dtypes() -> tuple:
    import torch

    return tuple(getattr(torch, name) for name in ("float8_e4m3fn", "float8_e5m2",
                                                   "float8_e4m3fnuz", "float8_e5m2fnuz")
                 if hasattr(torch, name))


def dequantize_fp8(weight: "torch.Tensor", scale: "torch.Tensor", where: str,
                   block: tuple[int, int] | None = None) -> "torch.Tensor":
    """weight (fp8) times its scale, in float32: per tensor ([] or [1]), per output row
    ([out] or [out, 1]) or per block ([ceil(out/b0), ceil(in/b1)])."""
    w = weight.float()
    s = scale.float()
    if s.numel() == 1:
        return w * s.reshape(())
    if w.dim() == 2 and s.numel() == w.shape[0] and (s.dim() == 1 or s.shape[-1] == 1):
        return w * s.reshape(-1, 1)
    if w.dim() == 2 and s.dim() == 2:
        out, inp = w.shape
        if block is None:  # no weight_block_size: tiles that divide the weight, else 128x128
            exact = out % s.shape[0] == 0 and inp % s.shape[1] == 0
            block = (out // s.shape[0], inp // s.shape[1]) if exact else (128, 128)
        b0, b1 = block
        if s.shape == (-(-out // b0), -(-inp // b1)):
            full = s.repeat_interleave(b0, 0)[:out].repeat_interleave(b1, 1)[:, :inp]
            return w * full
    raise CheckpointError(f"{where}: FP8 weight {list(weight.shape)} with a scale of shape "
                          f"{list(scale.shape)}: neither per tensor, per row nor per block",
                          hint="dequantize the checkpoint to bfloat16 first")


# Far below e4m3fn's largest value (448), which weights quantized with a scale reach (each
# tensor, row or block is divided by amax / 448); a trained draft's float weights stay under it.
_FP8_FULL_RANGE = 32.0


def _unscaled(tensor: "torch.Tensor", where: str) -> "torch.Tensor":
    """An FP8 or int8 weight stored without any scale beside it. A plain cast of a float
    weight keeps its small values and is used as stored; values that fill the quantized range
    (or NaN) mean the scales were dropped (an export that kept only `*.weight`), and every
    weight would be off by its scale."""
    import torch

    values = tensor.float()
    if tensor.dtype == torch.int8 or not bool(torch.isfinite(values).all()) or (
            values.numel() and float(values.abs().max()) > _FP8_FULL_RANGE):
        kind = "int8" if tensor.dtype == torch.int8 else str(tensor.dtype).replace("torch.", "")
        raise CheckpointError(f"{where}: {kind} weight saved without its scale (no "
                              "weight_scale or weight_scale_inv beside it): the values are "
                              "the quantized ones, off by the dropped scale",
                              hint="copy the checkpoint with its *_scale tensors, or use the "
                                   "unquantized draft")
    return tensor


@dataclass
class TensorStore:
    """Names -> lazily read tensors, over one or more safetensors (or torch .bin) files."""

    infos: dict[str, TensorInfo] = field(default_factory=dict)
    _bin_state: dict[str, Any] | None = None
    missing_shards: list[str] = field(default_factory=list)  # only with partial=True
    stale_index: Path | None = None  # an index beside the single file, naming no shard here
    shadowed_single: Path | None = None  # a single file beside a live index (see shadowed_single)
    unindexed: list[str] = field(default_factory=list)  # see unindexed_note
    nested_in: str | None = None  # the pickle's key the state dict was read from (see _tensors)
    engine_pickle: Path | None = None  # a model.pt read as vLLM and SGLang serve it (engine_served_pickle)
    # name -> each copy's (file, stored name), when a tensor is stored more than once (see
    # duplicated_note); `placed` is the index's weight_map for the shards
    duplicated: dict[str, list[tuple[Path, str]]] = field(default_factory=dict)
    placed: dict[str, str] = field(default_factory=dict)

    @classmethod
    def open(cls, directory: Path, normalise=lambda name: name, *,
             partial: bool = False) -> "TensorStore":
        store = cls()
        store.stale_index = next((directory / index for index, single in _SINGLE_FILES
                                  if stale_index(directory / index, directory / single)), None)
        store.shadowed_single = next((directory / single for index, single in _SINGLE_FILES
                                      if shadowed_single(directory / index, directory / single)),
                                     None)
        files = safetensors_files(directory, missing=store.missing_shards if partial else None)
        if files and not any((directory / name).exists() for name in _SINGLE_FILES[0]):
            store.unindexed = [path.name for path in files]
        if files or store.missing_shards:
            store.placed = _index_placement(directory) if len(files) > 1 else {}
            for path in files:
                try:
                    header = read_safetensors_header(path)
                except CheckpointError as exc:
                    if not (partial and len(files) > 1):
                        raise
                    # a target copied to a debug host: one shard cut short (an interrupted
                    # scp) matters only if it holds the embedding or the head, and then the
                    # callers say it is absent and why
                    store.missing_shards.append(f"{path.name} ({exc.message.split(': ', 1)[-1]})")
                    continue
                for stored, meta in header.items():
                    if stored == "__metadata__":
                        continue
                    name = normalise(stored)
                    if name in store.infos and not store._keeps_other(name, stored, path):
                        continue
                    store.infos[name] = TensorInfo(name, stored, path, tuple(meta["shape"]),
                                                   meta["dtype"])
            return store
        binaries = bin_files(directory, missing=store.missing_shards if partial else None)
        if not binaries and not store.missing_shards:
            served = engine_served_pickle(directory)
            if served is not None:
                binaries, store.engine_pickle = [served], served
        if binaries or store.missing_shards:
            store._bin_state = {}
            for binary in binaries:
                state, store.nested_in = _tensors(_load_bin(binary))
                for stored, tensor in state.items():
                    if not hasattr(tensor, "shape"):
                        continue  # extra entries some exporters pickle alongside (step counts)
                    name = normalise(stored)
                    store._bin_state[name] = tensor
                    store.infos[name] = TensorInfo(name, stored, binary, tuple(tensor.shape),
                                                   str(tensor.dtype))
            return store
        raise no_weights_error(directory)

    def _keeps_other(self, name: str, stored: str, path: Path) -> bool:
        """A tensor met again (in another shard, or under a second name that loads as the same
        weight): recorded, and True when this copy replaces the one read so far: the copy the
        index places stays, else the one met last is read, as the engines keep it."""
        earlier = self.infos[name]
        self.duplicated.setdefault(name, [(earlier.file, earlier.stored_name)]).append(
            (path, stored))
        return not self.placed_by_index(earlier)

    def placed_by_index(self, info: "TensorInfo") -> bool:
        return self.placed.get(info.stored_name) == info.file.name

    def __contains__(self, name: str) -> bool:
        return name in self.infos

    def keep_under(self, prefix: str, normalise, also: tuple[str, ...] = ()) -> None:
        """Keep the tensors named `prefix` + name, renamed to normalise(name) (plus the names
        in `also` where the prefix holds none); the rest belongs to another module."""
        infos: dict[str, TensorInfo] = {}
        for name, info in self.infos.items():
            if name.startswith(prefix):
                new = normalise(name[len(prefix):])
                infos[new] = TensorInfo(new, info.stored_name, info.file, info.shape, info.dtype)
        for name in also:
            if name in self.infos and name not in infos:
                infos[name] = self.infos[name]
        if self._bin_state is not None:
            by_stored = {info.stored_name: self._bin_state[old] for old, info in self.infos.items()}
            self._bin_state = {new: by_stored[info.stored_name] for new, info in infos.items()}
        self.infos = infos

    def shape(self, name: str) -> tuple[int, ...] | None:
        info = self.infos.get(name)
        return info.shape if info else None

    def scale_name(self, name: str) -> str | None:
        """The FP8 scale stored beside weight `name`, if any."""
        if not name.endswith("weight"):
            return None
        stem = name[: -len("weight")]
        return next((stem + suffix for suffix in _SCALE_SUFFIXES if stem + suffix in self), None)

    def runtime_scales(self) -> set[str]:
        """Names of the activation / KV-cache scales a float forward does not use."""
        return {name for name in self.infos if name.rsplit(".", 1)[-1] in _RUNTIME_SCALES}

    def weight(self, name: str, block: tuple[int, int] | None = None) -> "torch.Tensor":
        """Tensor `name` as real values: an FP8 weight multiplied by its stored scale (float32);
        any other tensor as stored."""
        import torch

        tensor = self.get(name)
        fp8 = tensor.dtype in fp8_dtypes()
        # int8 weights: compressed-tensors W8A8 / W8A16 ("int-quantized"), real = int8 * scale
        # (symmetric; vLLM compressed_tensors_w8a8_int8.py). A zero point means asymmetric.
        int8 = tensor.dtype == torch.int8 and name.endswith("weight")
        if not (fp8 or int8):
            return tensor
        where = f"{self.infos[name].file}: {name}"
        scale = self.scale_name(name)
        if scale is None:
            return _unscaled(tensor, where)
        if int8 and name[: -len("weight")] + "weight_zero_point" in self:
            raise CheckpointError(f"{where}: int8 weight with a zero point (asymmetric "
                                  "quantization): not supported",
                                  hint="run the unquantized draft, or dequantize it to bfloat16")
        return dequantize_fp8(tensor, self.get(scale), where, block)

    def rows(self, name: str, indices: list[int]) -> "torch.Tensor":
        """Rows `indices` of 2-D tensor `name` [len(indices), ...], read without the rest (a
        sample of a [V, H] embedding, which is GBs at 128k vocabularies)."""
        import torch

        info = self.infos.get(name)
        if info is None:
            raise CheckpointError(f"tensor {name!r} not in checkpoint")
        if self._bin_state is not None:
            return self._bin_state[name][indices]
        from safetensors import safe_open

        try:
            with safe_open(str(info.file), framework="pt") as handle:
                sliced = handle.get_slice(info.stored_name)
                return torch.cat([sliced[i:i + 1] for i in indices])
        except Exception as exc:  # safetensors raises its own error types
            raise CheckpointError(f"{info.file}: cannot read {info.stored_name} ({exc})") from None

    def get(self, name: str) -> "torch.Tensor":
        info = self.infos.get(name)
        if info is None:
            raise CheckpointError(f"tensor {name!r} not in checkpoint")
        if self._bin_state is not None:
            return self._bin_state[name]
        from safetensors import safe_open

        try:
            with safe_open(str(info.file), framework="pt") as handle:
                return handle.get_tensor(info.stored_name)
        except Exception as exc:  # safetensors raises its own error types
            raise CheckpointError(f"{info.file}: cannot read {info.stored_name} ({exc})") from None


@dataclass
class DraftCheckpoint:
    path: Path
    config: DraftConfig
    tensors: TensorStore
    stored_prefix: str | None = None  # e.g. "draft_model.": read without it (see open_draft)

    def has(self, name: str) -> bool:
        return name in self.tensors

    def shape(self, name: str) -> tuple[int, ...] | None:
        return self.tensors.shape(name)

    def get(self, name: str) -> "torch.Tensor":
        return self.tensors.get(name)

    def vocab_maps(self) -> tuple["torch.Tensor | None", "torch.Tensor | None"]:
        """(d2t, t2d) as stored, None where absent. Reads only these two tensors."""
        d2t = self.get("d2t") if self.has("d2t") else None
        t2d = self.get("t2d") if self.has("t2d") else None
        for name, stored in (("d2t", d2t), ("t2d", t2d)):
            if stored is not None:
                self._whole_numbers(name, stored)
        return d2t, t2d

    def _whole_numbers(self, name: str, stored: "torch.Tensor") -> None:
        """A map stored as floats (a whole-state-dict dtype cast) holds whole numbers, or it is
        no map: NaN, Inf or 3.5 (was: "unexpected ValueError: cannot convert float NaN to
        integer" from every command that read it). Engines copy d2t into int64 (vLLM's
        default_weight_loader), where NaN becomes an arbitrary id."""
        if not stored.is_floating_point():
            return
        values = stored.reshape(-1).double()
        finite = values.isfinite()
        bad = ~finite | (values != values.round())
        if not bool(bad.any()):
            return
        first = int(bad.nonzero()[0])
        what = ("NaN or Inf" if not bool(finite.all()) else "values that are not whole numbers")
        where = getattr(self.tensors.infos.get(name), "file", None) or self.path
        raise CheckpointError(
            f"{where}: {name} is stored as {str(stored.dtype).replace('torch.', '')} and holds {what} "
            f"({int(bad.sum())} of {values.numel()} entries, first at index {first}: {values[first].item()!r}): "
            f"it is no vocab map",
            hint=f"save {name} again from the training's vocab map, as int64 (d2t: t2d.nonzero() - arange(DV); "
                 "t2d: a bool mask of one entry per target token)")

    @property
    def embed_rows(self) -> int | None:
        shape = self.shape("embed_tokens.weight")
        return shape[0] if shape else None


# Where an Eagle3 draft's tensors sit inside a larger state dict: `fc` is the one module every
# EAGLE-3 draft has and no target model has (EAGLE3.md section 1).
_FC = "fc.weight"


def draft_prefix(names: list[str]) -> str | None:
    """The prefix the draft's tensors carry when saved from a wrapper: SpecForge's
    OnlineEagle3Model holds it as `draft_model` (specforge/core/eagle3.py), DDP adds `module.`,
    torch.compile `_orig_mod.`. None when fc.weight is at the top or absent."""
    if _FC in names:
        return None
    prefixes = [n[:-len(_FC)] for n in names if n.endswith("." + _FC)]
    if not prefixes:
        return None
    return min(prefixes, key=lambda p: ("draft" not in p, len(p)))


def _layer_indices(names) -> set[int]:
    return {int(m.group(1)) for n in names if (m := re.search(r"(?:^|\.)layers\.(\d+)\.", n))}


_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def looks_like_hub_id(text: str) -> bool:
    """An `org/name` the resolver would look up in the Hugging Face cache, not a path."""
    return bool(_HUB_ID.match(text))


def _hub_cache() -> Path:
    # huggingface_hub constants.py: HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub
    import os

    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface")
    return Path(home).expanduser() / "hub"


def _refuse_dangling_link(path: Path, what: str) -> None:
    """A link to a directory that is not here: speculators' trainer makes
    `<output>/checkpoint_best` a relative link to the best epoch's directory
    (src/speculators/train/checkpointer.py update_best_symlink), and a copy that keeps links
    (rsync -a, tar) of the link alone, or a cleanup of that epoch, leaves it pointing
    nowhere."""
    import os

    try:
        target = os.readlink(path)
    except OSError:
        return
    raise CheckpointError(f"{path}: a link to {target}, which is not here: the {what} "
                          "directory it names was not copied or was deleted (speculators' "
                          "trainer links checkpoint_best to the best epoch's directory)",
                          hint="copy the directory itself (cp -rL, rsync -L) or the epoch "
                               "directory it names, and pass that")


def _is_archive(path: Path) -> bool:
    try:
        return tarfile.is_tarfile(path) or zipfile.is_zipfile(path)
    except OSError:  # unreadable: the plain "a file" message still says what to pass
        return False


def resolve_checkpoint_dir(value: str | Path, role: str, what: str) -> Path:
    """A local checkpoint directory, or a Hub id (`org/name`, as vLLM/SGLang and the
    speculators config's verifier name_or_path write it) found in the local Hub cache:
    `models--org--name/snapshots/<refs/main>` (huggingface_hub file_download.py layout).
    Nothing is downloaded: the hosts this runs on are often offline.

    A leading `~` is the home directory of the user running this, as a shell would have
    made it: a quoted `--model "~/..."` reaches here unexpanded, and read as "directory not
    found" (the drafter_eval probe expands its own vars: probes/hostfiles.py)."""
    path = Path(value).expanduser() if str(value).startswith("~") else Path(value)
    if path.is_dir():
        return path
    text = str(value)
    if path.is_file():
        # a weight file or config.json picked by tab completion: the loaders read a directory
        if (path.parent / "config.json").is_file():
            raise CheckpointError(f"{path}: a file, not the {what} directory",
                                  hint=f"pass the directory that holds it and its config.json as "
                                       f"{role}: {path.parent}")
        # a checkpoint copied as one archive (tar czf draft.tar.gz, a zip download): its
        # parent holds no config.json, so pointing there would only fail again
        if _is_archive(path):
            raise CheckpointError(f"{path}: an archive, not the {what} directory",
                                  hint=f"extract it and pass the directory that holds "
                                       f"config.json as {role}")
        raise CheckpointError(f"{path}: a file, not the {what} directory",
                              hint=f"pass the directory that holds config.json and the "
                                   f"weights as {role}")
    if path.is_symlink():
        _refuse_dangling_link(path, what)
    if not looks_like_hub_id(text) or path.exists():
        raise CheckpointError(f"{path}: {what} directory not found")
    entry = _hub_cache() / ("models--" + text.replace("/", "--"))
    snapshots = entry / "snapshots"
    ref = entry / "refs" / "main"
    revision = ref.read_text().strip() if ref.is_file() else ""
    if revision and (snapshots / revision).is_dir():
        return snapshots / revision
    candidates = sorted((d for d in snapshots.iterdir() if d.is_dir()),
                        key=lambda d: d.stat().st_mtime) if snapshots.is_dir() else []
    if candidates:
        return candidates[-1]
    raise CheckpointError(f"{text}: no local directory of that name, and the Hugging Face cache "
                          f"{_hub_cache()} holds no snapshot of this Hub id",
                          hint=f"download it first (`huggingface-cli download {text}`) or pass "
                               f"the local checkpoint directory as {role}")


def fp8_block_size(raw: Any) -> tuple[int, int] | None:
    """`quantization_config.weight_block_size` ([128, 128] in DeepSeek-V3's config.json)."""
    quant = raw.get("quantization_config") if hasattr(raw, "get") else None
    block = quant.get("weight_block_size") if isinstance(quant, dict) else None
    if isinstance(block, list) and len(block) == 2 and all(isinstance(b, int) and b > 0
                                                           for b in block):
        return block[0], block[1]
    return None


# SpecForge's trainer keeps the draft inside its training state: `{run_id}-step{N}/
# training_state.pt` (a pickle with `draft_state_dict`, the optimizer and RNG state) and
# `{run_id}-latest` links under the run's output_dir, with no config.json
# (sgl-project/SpecForge specforge/training/checkpoint.py CheckpointManager); a draft
# directory comes only from its exporters (specforge/export/to_sglang.py, to_hf.py).
_TRAINING_STATE = "training_state.pt"
_EXPORT_HINT = ("export it first: python -m specforge.export.to_sglang --checkpoint {ckpt} "
                "--draft-config <the draft config the run trained> --output-dir <DIR>, then "
                "pass --model <DIR>")


def _specforge_training_checkpoint(value: str | Path) -> Path | None:
    """The training_state.pt that `value` (the file, a step directory or the run's
    output_dir) stands for, when it is a SpecForge training checkpoint and not a draft."""
    path = Path(value)
    if path.is_file():
        return path if path.name == _TRAINING_STATE else None
    if not path.is_dir() or (path / "config.json").is_file():
        return None
    if (path / _TRAINING_STATE).is_file():
        return path / _TRAINING_STATE
    steps = sorted((int(m.group(1)), d) for d in path.iterdir()
                   if (m := re.search(r"-step(\d+)$", d.name)) and (d / _TRAINING_STATE).is_file())
    return steps[-1][1] / _TRAINING_STATE if steps else None


def _natural_key(name: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _dump_sample(path: Path) -> str | None:
    """The first sample file (relative to path) when the directory is a hidden-state dump:
    speculators' hs_*.safetensors (token_ids + hidden_states) or SpecForge's data_*.ckpt."""
    samples = sorted(path.glob("hs_*.safetensors"), key=lambda p: _natural_key(p.name))[:1]
    if samples:
        try:
            header = read_safetensors_header(samples[0])
        except CheckpointError:
            header = {}
        return samples[0].name if "hidden_states" in header else None
    specforge = sorted([*path.glob("data_*.ckpt"), *path.glob("rows_*/data_*.ckpt")],
                       key=lambda p: _natural_key(str(p)))[:1]
    return str(specforge[0].relative_to(path)) if specforge else None


def _refuse_hidden_state_dump(path: Path, role: str) -> None:
    """A hidden-state dump passed where a checkpoint goes (--model and --data swapped): its
    hs_*.safetensors (speculators, hs_connectors transfer.py: token_ids + hidden_states) read as
    "the draft's weights without config.json", and SpecForge's data_*.ckpt as no checkpoint."""
    if (path / "config.json").is_file() or not path.is_dir():
        return
    sample = _dump_sample(path)
    if sample is not None:
        raise CheckpointError(f"{path}: a hidden-state dump ({sample}), not a checkpoint",
                              hint=f"pass this directory as --data and the {'draft' if role == '--model' else 'target'} "
                                   f"checkpoint as {role}")


# DeepSpeed's checkpoint files in global_step*/ (mp_rank_00_model_states.pt: the model
# wrapped with the run's state; zero_pp_rank_0_mp_rank_00_optim_states.pt and its bf16_
# variant: the optimizer's shards), as EAGLE traineagle3's saves hold them (see below)
_DEEPSPEED_STATES = re.compile(r"(mp_rank|(bf16_)?zero_pp_rank)_.*_(model|optim)_states\.pt")


def _save_with_weights(directory: Path) -> bool:
    """A training save's folder holding the draft's weights: the files from_pretrained reads,
    or one torch.save file the engines serve (epoch_3/model.pt: engine_served_pickle), whose
    output folder was "config.json: not found" with no word of its saves. DeepSpeed's
    global_step*/mp_rank_00_model_states.pt is its own checkpoint (see below)."""
    if has_weight_files(directory):
        return True
    served = _served_pickle_name(directory)
    return served is not None and not _DEEPSPEED_STATES.fullmatch(served)


def _refuse_weights_without_config(path: Path) -> None:
    """A trainer's output folder with the draft's weights but no config.json. EAGLE's
    traineagle3 saves `state_<epoch>/` with deepspeed's save_16bit_model (pytorch_model.bin
    only) and every 10 epochs a DeepSpeed checkpoint beside it (`latest`,
    `global_step*/mp_rank_00_model_states.pt`, `zero_to_fp32.py`) (SafeAILab/EAGLE
    eagle/traineagle3/main.py); accelerate's save_state writes model.safetensors alone."""
    if (path / "config.json").is_file():
        return
    hint = ("put the draft config the run trained with (EAGLE traineagle3: the file its "
            "config_path names) beside the weights as config.json")
    if has_weight_files(path):
        weights = next(p.name for p in sorted(path.iterdir())
                       if p.name.endswith((".safetensors", ".bin", ".index.json")))
        raise CheckpointError(f"{path / 'config.json'}: not found; the draft's weights "
                              f"({weights}) are there without it, as a training run's save "
                              "folder leaves them", hint=hint)
    # a hidden-state dump beside the draft (out/{draft,data}: its hs_*.safetensors are weight
    # files by name) is no training save: named as one, it hid the draft directory below
    saves = sorted((d for d in path.iterdir() if d.is_dir() and _save_with_weights(d)
                    and not (d / "config.json").is_file() and _dump_sample(d) is None),
                   key=lambda d: _natural_key(d.name))
    if saves:
        raise CheckpointError(f"{path}: no config.json; the folder holds training saves with "
                              f"weights but no config below it: "
                              f"{', '.join(d.name for d in saves[-4:])}",
                              hint=f"pass one of them (the newest: {saves[-1]}) as --model once "
                                   "it has the config: " + hint)
    if _dcp_folders(path) == ["."]:
        # accelerate's pytorch_model_fsdp_0/ passed itself: was "config.json: not found" alone
        beside = path.parent if (path.parent / "config.json").is_file() else None
        what, merge = _dcp_note(path, beside or "<the draft folder, with its config.json>")
        raise CheckpointError(f"{path}: no config.json{what}",
                              hint=f"{merge}, and pass that folder as --model" if merge else
                              "pass the draft's folder (config.json and its weights) as --model")
    if any(path.glob("global_step*/mp_rank_*_model_states.pt")):
        raise CheckpointError(f"{path}: a DeepSpeed training checkpoint (global_step*/"
                              "mp_rank_*_model_states.pt), not a draft directory",
                              hint="convert it with the zero_to_fp32.py DeepSpeed saves beside "
                                   "it (or use the pytorch_model.bin save_16bit_model wrote), "
                                   "then " + hint)


def open_draft(model_dir: str | Path) -> DraftCheckpoint:
    state = _specforge_training_checkpoint(model_dir)
    if state is not None:
        raise CheckpointError(
            f"{state}: a SpecForge training checkpoint (the draft's weights inside the "
            "trainer state, with no config.json), not a draft directory",
            hint=_EXPORT_HINT.format(ckpt=state.parent))
    path = resolve_checkpoint_dir(model_dir, "--model", "draft checkpoint")
    _refuse_hidden_state_dump(path, "--model")
    _refuse_weights_without_config(path)
    try:
        config = load_draft_config(path)
    except CheckpointError:
        _refuse_mtp_draft(path)
        _refuse_retyped_decoder(path)
        raise
    tensors = TensorStore.open(path, normalise_draft_name)
    prefix = draft_prefix(list(tensors.infos))
    if prefix is not None:
        tensors.keep_under(prefix, normalise_draft_name, also=("d2t", "t2d"))
    elif _FC not in tensors and len(_layer_indices(tensors.infos)) > 1:
        # a full decoder (most often the target, passed as --model by mistake): without this
        # it loads as an "EAGLE-format" draft and fails on a q_proj shape, or passes `vocab`
        layers = len(_layer_indices(tensors.infos))
        arch = config.raw.get("architectures")
        raise CheckpointError(
            f"{path}: not an EAGLE-3 draft: no fc.weight, and {layers} decoder layers"
            + (f" ({', '.join(map(str, arch))})" if isinstance(arch, list) and arch else ""),
            hint="this looks like a full model, e.g. the target: pass the draft checkpoint as "
                 "--model and the target as --target")
    _refuse_eagle1_draft(path, config, tensors)
    return DraftCheckpoint(path, _speculators_default_vocab(config, tensors), tensors, prefix)


def _refuse_mtp_draft(path: Path) -> None:
    """A multi-token-prediction (NextN) module passed as --model: DeepSeek-V3/R1's layer 61
    split out for SGLang (lmsys/DeepSeek-V3-NextN; its config is the target's, model_type
    deepseek_v3), whose block fuses [enorm(embedding), hnorm(hidden)] with `eh_proj`
    (sglang python/sglang/srt/models/deepseek_nextn.py; vLLM deepseek_mtp.py). Its config
    failed as "draft decoder model_type 'deepseek_v3' is not supported", as if it were an
    EAGLE-3 draft of another decoder."""
    try:
        names = TensorStore.open(path).infos
    except CheckpointError:
        return
    fused = sorted(name for name in names if re.search(r"(^|\.)eh_proj\.weight$", name))
    if fused:
        raise CheckpointError(
            f"{path}: a multi-token-prediction (MTP / NextN) module ({fused[0]}), not an "
            "EAGLE-3 draft: spec-debug's drafter runs EAGLE-3 heads",
            hint="SGLang serves it with --speculative-algorithm NEXTN (or EAGLE) and vLLM with "
                 "speculative_config method \"mtp\" (\"deepseek_mtp\" before); the drafter "
                 "commands need an EAGLE-3 draft as --model")


# A decoder layer's tensors that a Llama layer has none of: projection biases (Qwen2's q/k/v)
# and Qwen3's q_norm/k_norm
_NOT_LLAMA_LAYER = re.compile(r"^layers\.\d+\.(?:self_attn\.(?:[qkvo]_proj\.bias|[qk]_norm\.weight)"
                              r"|mlp\.(?:gate|up|down)_proj\.bias)$")
_LLAMA_Q_PROJ = re.compile(r"^layers\.\d+\.self_attn\.q_proj\.weight$")


def retyped_llama_decoder(raw: Any, names: Iterable[str]) -> str | None:
    """The decoder type a speculators EAGLE-3 config names in transformer_layer_config.model_type
    when speculators builds no EAGLE-3 layer for it ("mistral", "qwen2": the target's type copied
    in by hand) and the weights (normalised names) hold a Llama layer: a q_proj, no projection
    bias, no q_norm/k_norm. None otherwise (another speculators type, a supported decoder, or
    weights of another layer, which the config reader's refusal answers). The one rule behind
    the configs step's SD704 (diagnose.checks.draft_config.check_decoder_model_type) and the
    drafter's ConfigMisfitError (_refuse_retyped_decoder)."""
    if not isinstance(raw, Mapping) or raw.get("speculators_model_type") != "eagle3":
        return None  # vLLM builds another class for the other types (update_mtp: Qwen3NextMTP)
    layer = raw.get("transformer_layer_config")
    model_type = layer.get("model_type") if isinstance(layer, Mapping) else None
    if not isinstance(model_type, str) or model_type in SUPPORTED_DECODERS:
        return None
    names = list(names)
    if (not any(_LLAMA_Q_PROJ.match(name) for name in names)
            or any(_NOT_LLAMA_LAYER.match(name) for name in names)):
        return None
    return model_type


def _refuse_retyped_decoder(path: Path) -> None:
    """A speculators EAGLE-3 config whose transformer_layer_config.model_type names a decoder
    speculators builds no EAGLE-3 layer for ("mistral", "qwen2": the target's type copied in
    by hand) over weights that hold a Llama layer. The config reader refuses the type (a plain
    CheckpointError), which the vocab, eval and layout steps said as a step that could not run
    (SD003) beside the configs step's SD704 for the same key: it is a config that does not
    describe its weights (ConfigMisfitError), so those steps name SD704 as the reason.
    speculators 0.9.0 builds llama and qwen3 draft layers only (models/eagle3/core.py
    `model_classes[tl_config.model_type]`, KeyError otherwise); vLLM builds
    Eagle3LlamaForCausalLM whatever the key says (transformers_utils/configs/speculators/
    algos.py update_eagle3). Weights with biases or q_norm/k_norm keep the reader's refusal."""
    from spec_debug.eagle3.config import ConfigMisfitError, read_json

    try:
        raw = read_json(path / "config.json")
        names = list(TensorStore.open(path, normalise_draft_name).infos)
    except (CheckpointError, OSError):
        return
    model_type = retyped_llama_decoder(raw, names)
    if model_type is None:
        return
    raise ConfigMisfitError(
        f"{path / 'config.json'}: transformer_layer_config.model_type is {model_type!r}, a decoder "
        f"speculators builds no EAGLE-3 layer for (only {', '.join(SUPPORTED_DECODERS)}), and the "
        "weights hold a Llama layer (no projection bias, no q_norm/k_norm)",
        hint='set transformer_layer_config.model_type to "llama" in the draft\'s config.json (the '
             "layer these weights hold, and the one vLLM builds whatever the key says)")


def _refuse_eagle1_draft(path: Path, config: DraftConfig, tensors: "TensorStore") -> None:
    """An EAGLE-1/EAGLE-2 (or HASS) draft passed for an EAGLE-3 one: EAGLE publishes both
    (yuhuili/EAGLE-LLaMA3.1-Instruct-8B beside yuhuili/EAGLE3-LLaMA3.1-Instruct-8B) and runs
    the first only with use_eagle3=False (SafeAILab/EAGLE eagle/model/ea_model.py). Its fc
    fuses [embedding, target feature] (fc.weight [H, 2H]) and its layer 0 attends over H,
    with no hidden_norm (eagle/model/cnets1.py); an EAGLE-3 layer 0 attends over
    [embedding, fc output], 2H wide. Without this, the fc width read as "2 aux states" and
    the message sent the user to eagle_aux_hidden_state_layer_ids."""
    hidden = config.hidden_size
    fc, q_proj = tensors.shape(_FC), tensors.shape("layers.0.self_attn.q_proj.weight")
    if (fc is None or q_proj is None or len(fc) != 2 or len(q_proj) != 2
            or fc[1] != 2 * hidden or q_proj[1] != hidden
            or "layers.0.hidden_norm.weight" in tensors):
        return
    raise CheckpointError(
        f"{path}: an EAGLE-1/EAGLE-2 draft, not an EAGLE-3 one: fc.weight {list(fc)} fuses "
        f"[embedding, target feature] and layer 0 attends over {hidden} (q_proj "
        f"{list(q_proj)}), with no hidden_norm; spec-debug's drafter runs EAGLE-3 drafts",
        hint="serve it as EAGLE, not EAGLE3 (vLLM speculative_config method \"eagle\", SGLang "
             "--speculative-algorithm EAGLE; EAGLE's own code: use_eagle3=False), or pass the "
             "EAGLE-3 draft of this target (yuhuili/EAGLE3-*)")


# speculators' Eagle3SpeculatorConfig.draft_vocab_size default (models/eagle3/config.py
# `Field(default=32000)`): a speculators config.json without the key is read with it.
SPECULATORS_DEFAULT_DRAFT_VOCAB = 32000


def _speculators_default_vocab(config: DraftConfig, tensors: "TensorStore") -> DraftConfig:
    """A speculators config without draft_vocab_size, over a 32000-row lm_head, is the draft
    speculators itself loads (its field default); parse_draft_config assumed the target vocab, as
    vLLM does (llama_eagle3.py: draft_vocab_size None -> vocab_size), which those weights do not
    fit. The vocab check still reports that vLLM sizes lm_head from vocab_size (SD303)."""
    rows = (tensors.shape("lm_head.weight") or (None,))[0]
    if (config.format == "speculators" and not configured_draft_vocab(config.raw)
            and rows == SPECULATORS_DEFAULT_DRAFT_VOCAB != config.draft_vocab_size):
        return replace(config, draft_vocab_size=SPECULATORS_DEFAULT_DRAFT_VOCAB)
    return config


# Target (verifier) tensors the drafter uses: the embedding (drafts may ship without one; the
# engines then use the target's, EAGLE3.md section 2) and the final norm + lm_head (to compute
# the verifier's argmax, i.e. speculators' `verifier_lm_head(verifier_norm(last_hidden))`).
_EMBED_NAMES = ("model.embed_tokens.weight", "embed_tokens.weight",
                "model.language_model.embed_tokens.weight", "language_model.model.embed_tokens.weight")
_NORM_NAMES = ("model.norm.weight", "norm.weight", "model.language_model.norm.weight",
               "language_model.model.norm.weight")
_LM_HEAD_NAMES = ("lm_head.weight", "language_model.lm_head.weight")


@dataclass
class TargetCheckpoint:
    path: Path
    config: TargetConfig
    tensors: TensorStore

    def absent_because(self) -> str:
        """Why a tensor may be absent, for messages: no weights, or shards not copied."""
        if self.tensors.missing_shards:
            unreadable = any(" (" in name for name in self.tensors.missing_shards)
            download = interrupted_hub_download(self.path)
            return (" (shards named in the index but not present"
                    + (" or not readable" if unreadable else "") + ": "
                    f"{', '.join(self.tensors.missing_shards[:3])}"
                    + (" ..." if len(self.tensors.missing_shards) > 3 else "")
                    + (f"; {download}" if download else "") + ")")
        return "" if self.tensors.infos else " (no weight files, only config.json)"

    def _first(self, names: tuple[str, ...], wrapped: str) -> str | None:
        """The first of `names` stored here, else `wrapped` under a wrapper's prefix."""
        found = next((name for name in names if name in self.tensors), None)
        prefix = self._wrapper_prefix() if found is None else None
        if prefix is not None and prefix + wrapped in self.tensors:
            return prefix + wrapped
        return found

    def _wrapper_prefix(self) -> str | None:
        """The prefix of a language model stored inside a wrapper the name lists above do not
        know: MiniCPM-V's `llm.` (openbmb/MiniCPM-V-4 modeling_minicpmv.py `self.llm`),
        Qwen2.5/3-Omni's `thinker.` (vLLM's Qwen3-Omni loaders keep `thinker.model.` and
        `thinker.lm_head`); SpecForge trains drafts for both (configs/minicpm-v4-eagle3.json,
        qwen3-omni-eagle3.json, run with --embedding-key thinker.model.embed_tokens.weight).
        Found as the `<prefix>model.embed_tokens.weight` with one row per target token; of
        several (an audio model's talker), the one with an lm_head beside it."""
        suffix = "model.embed_tokens.weight"
        hits = sorted(name[: -len(suffix)] for name, info in self.tensors.infos.items()
                      if name.endswith(suffix) and info.shape[:1] == (self.config.vocab_size,))
        if len(hits) > 1:
            hits = [p for p in hits if p + "lm_head.weight" in self.tensors]
        return hits[0] if len(hits) == 1 else None

    @property
    def embed_name(self) -> str | None:
        return self._first(_EMBED_NAMES, "model.embed_tokens.weight")

    @property
    def norm_name(self) -> str | None:
        return self._first(_NORM_NAMES, "model.norm.weight")

    @property
    def lm_head_name(self) -> str | None:
        name = self._first(_LM_HEAD_NAMES, "lm_head.weight")
        if name is None and (self.config.tie_word_embeddings or self._tied_by_class_default()):
            return self.embed_name
        return name

    def _tied_by_class_default(self) -> bool:
        """A config without any tie_word_embeddings key, whose class ties by default: every
        shard here and no lm_head among them. transformers 4 saved configs as a diff against
        the class defaults (PretrainedConfig.to_diff_dict), so google/gemma-2-9b and gemma-7b
        omit the key and ship no lm_head.weight; transformers reads them tied."""
        raw = self.config.raw
        text = raw.get("text_config") if isinstance(raw.get("text_config"), dict) else {}
        if ("tie_word_embeddings" in raw or "tie_word_embeddings" in text
                or self.tensors.missing_shards or not self.config.model_type):
            return False
        try:
            from transformers import AutoConfig

            return bool(getattr(AutoConfig.for_model(self.config.model_type),
                                "tie_word_embeddings", False))
        except Exception:  # transformers absent, or a model_type it does not know
            return False

    def embed(self) -> "torch.Tensor | None":
        name = self.embed_name
        return self.tensors.weight(name, fp8_block_size(self.config.raw)) if name else None

    def head(self) -> tuple["torch.Tensor", "torch.Tensor"] | None:
        """(final norm weight [H], lm_head weight [V, H]) when both are present."""
        norm, head = self.norm_name, self.lm_head_name
        if norm is None or head is None:
            return None
        return self.tensors.get(norm), self.tensors.weight(head, fp8_block_size(self.config.raw))


# Draft classes as configs name them: speculators Eagle3DraftModel, EAGLE/SpecForge
# LlamaForCausalLMEagle3, vLLM Eagle3LlamaForCausalLM / EagleLlamaForCausalLM (not NVIDIA's
# Eagle2 VLM family, Eagle2ChatModel, a possible target)
_DRAFT_ARCH = re.compile(r"eagle3|^eagle\w*forcausallm$|forcausallmeagle", re.IGNORECASE)


def load_verifier_config(path: Path) -> TargetConfig:
    """The target's config, refusing a draft's: a draft passed as --target otherwise failed
    on "no 'num_hidden_layers'" (speculators nests it under transformer_layer_config)."""
    from spec_debug.eagle3.config import read_json

    _refuse_hidden_state_dump(path, "--target")
    config_file = path / "config.json"
    raw = read_json(config_file) if config_file.is_file() else {}
    arch = raw.get("architectures")
    names = [str(a) for a in arch] if isinstance(arch, list) else []
    if raw.get("speculators_model_type") or any(_DRAFT_ARCH.search(a) for a in names):
        kind = raw.get("speculators_model_type") or ", ".join(names)
        verifier = (raw.get("speculators_config") or {}).get("verifier") or {}
        named = verifier.get("name_or_path") if isinstance(verifier, dict) else None
        raise CheckpointError(f"{path}: a draft checkpoint ({kind}), not the target model",
                              hint="pass the verifier the draft was trained for as --target"
                                   + (f"; its config names {named}" if named else ""))
    return load_target_config(path)


def open_target(target_dir: str | Path) -> TargetCheckpoint:
    """The target's config (required) and tensors (optional: a directory holding only
    config.json still gives the vocab size and layer count; the embedding and head are then
    absent and the callers say so)."""
    path = resolve_checkpoint_dir(target_dir, "--target", "target checkpoint")
    config = load_verifier_config(path)
    tensors = TensorStore.open(path, partial=True) if has_weight_files(path) else TensorStore()
    return TargetCheckpoint(path, config, tensors)
