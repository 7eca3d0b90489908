"""Vocab maps kept beside a draft rather than inside it (`--vocab-mapping`).

Training writes the maps to files of their own before they reach the checkpoint:
- SpecForge: `torch.save({"d2t": d2t, "t2d": t2d})` to `<cache_dir>/vocab_mapping/<key>.pt`,
  or `<output_path>/vocab_mapping/vocab_mapping.pt` in offline preparation
  (sgl-project/SpecForge specforge/data/preprocessing.py generate_vocab_mapping_file,
  scripts/prepare_hidden_states.py); the draft loads it with `load_vocab_mapping`
  (specforge/modeling/draft/base.py) and saves the buffers with its weights.
- speculators: `np.save` of each map, `d2t.npy` / `t2d.npy` given to training as
  --d2t-path / --t2d-path, or cached as `<data_path>/d2t-<DV>.npy` and `t2d-<DV>.npy`
  (vllm-project/speculators src/speculators/train/cli.py _load_mappings,
  _generate_vocab_mappings).

An export that keeps only the `*.weight` tensors drops d2t and t2d, and so do SpecForge's
"legacy checkpoints that predate the mapping buffers", which its exporter restores from this
file (specforge/export/checkpoint_io.py materialize_draft, --vocab-mapping); an engine then
reads draft id i as target id i (vocab.py). With the training's map file the drafter measures the
draft as trained, and tells whether a checkpoint's d2t is the one its lm_head rows follow
(a map regenerated on resume is not: sgl-project/SpecForge#534).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from torch import Tensor

from spec_debug.eagle3.config import CheckpointError
from spec_debug.eagle3.vocab import maps_swapped_issue

_HINT = ("pass the map the draft was trained with: SpecForge's vocab_mapping/<key>.pt (a "
         "torch.save of d2t and t2d), or speculators' d2t.npy / d2t-<draft vocab>.npy with "
         "its t2d beside it")


@dataclass(frozen=True)
class VocabMapping:
    d2t: Tensor  # [DV] int64 offsets: target id = i + d2t[i]
    t2d: Tensor | None  # [V] bool, None when the file has none
    source: Path
    d2t_dtype: str | None = None
    """The type d2t was stored in (torch's name: "torch.uint16"): read as int64 above, so a
    file cast to a type too narrow for the offsets is named by it (vocab.narrow_d2t_issue)."""


def _not_torch_save(path: Path) -> str:
    """Why a file is no torch.save output at all, or "": torch.save writes a zip archive
    (b"PK") or, with _use_new_zipfile_serialization=False, a pickle (protocol byte 0x80).
    torch.load's own error for anything else is its weights_only advice ("Weights only load
    failed. In PyTorch 2.6, ..."), which points at the wrong fix."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError:
        return ""
    if head[:2] == b"PK" or head[:1] == b"\x80":
        return ""
    return f"not a torch.save file (it starts with {head!r})"


def _load_torch(path: Path) -> tuple[object, object]:
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - zip, pickle and unpickler errors have no common base
        from spec_debug.eagle3.checkpoint import torch_save_cut

        why = "truncated (a zip archive without its end)" if torch_save_cut(path) else (
            _not_torch_save(path) or (str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
        raise CheckpointError(f"{path}: cannot read the vocab mapping: {why}",
                              hint=_HINT) from None
    if not isinstance(data, dict) or "d2t" not in data:
        found = sorted(map(str, data)) if isinstance(data, dict) else type(data).__name__
        raise CheckpointError(f"{path}: not a vocab mapping (expected a dict with d2t and "
                              f"t2d, as SpecForge saves it; found {found})", hint=_HINT)
    return data["d2t"], data.get("t2d")


def _is_safetensors(path: Path) -> bool:
    """A safetensors file whatever its name: an 8-byte header length, then the JSON header."""
    import struct

    try:
        with path.open("rb") as handle:
            head = handle.read(9)
        return len(head) == 9 and head[8:9] == b"{" and (
            struct.unpack("<Q", head[:8])[0] < path.stat().st_size)
    except OSError:
        return False


def _load_safetensors(path: Path) -> tuple[object, object]:
    """d2t and t2d from a checkpoint's safetensors file: the training's own checkpoint still
    holds them when an export kept only the `*.weight` tensors (SpecForge and speculators save
    both buffers with the weights), and a file saved with save_file has the same names. Under
    a wrapper's prefix (`draft_model.d2t`) they are found by their last name part."""
    from safetensors import safe_open

    from spec_debug.eagle3.checkpoint import read_safetensors_header

    header = read_safetensors_header(path)  # a clear message for cut, empty or LFS files
    by_tail: dict[str, str] = {}
    for name in sorted(header, key=len):
        tail = name.rsplit(".", 1)[-1]
        if tail in ("d2t", "t2d"):
            by_tail.setdefault(tail, name)
    if "d2t" not in by_tail:
        raise CheckpointError(f"{path}: a safetensors file without d2t (its tensors: "
                              f"{', '.join(sorted(n for n in header if n != '__metadata__')[:4])}"
                              " ...): not a vocab mapping", hint=_HINT)
    try:
        with safe_open(str(path), framework="pt") as handle:
            return (handle.get_tensor(by_tail["d2t"]),
                    handle.get_tensor(by_tail["t2d"]) if "t2d" in by_tail else None)
    except Exception as exc:  # noqa: BLE001 - safetensors raises its own error types
        raise CheckpointError(f"{path}: cannot read the vocab mapping ({exc})",
                              hint=_HINT) from None


def _load_npy(path: Path) -> Tensor:
    try:
        import numpy as np
    except ImportError:
        raise CheckpointError(f"{path}: reading .npy vocab maps needs numpy, which is not "
                              "installed", hint="pip install numpy") from None

    try:
        return torch.from_numpy(np.load(path, allow_pickle=False))
    except Exception as exc:  # noqa: BLE001 - truncated files, pickled objects, not an .npy
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CheckpointError(f"{path}: cannot read ({text})", hint=_HINT) from None


def _npy_pair(path: Path) -> tuple[Tensor, Tensor | None, Path]:
    """d2t from `path` (or from the d2t file beside a t2d one), t2d from beside it."""
    name = path.name
    if name.startswith("t2d"):
        partner = path.with_name("d2t" + name[3:])
        if not partner.is_file():
            raise CheckpointError(f"{path}: a t2d map; its d2t ({partner.name}) is not beside "
                                  "it, and d2t is the map engines read", hint=_HINT)
        path, name = partner, partner.name
    t2d_path = path.with_name("t2d" + name[3:]) if name.startswith("d2t") else None
    t2d = _load_npy(t2d_path) if t2d_path is not None and t2d_path.is_file() else None
    return _load_npy(path), t2d, path


def _candidates(directory: Path, draft_vocab_size: int) -> list[Path]:
    """The map files a training output directory may hold, most specific first."""
    named = [directory / "vocab_mapping.pt", directory / "vocab_mapping" / "vocab_mapping.pt",
             directory / "d2t.npy", directory / f"d2t-{draft_vocab_size}.npy"]
    found = [p for p in named if p.is_file()]
    if found:
        return found[:1]
    # SpecForge's cache: vocab_mapping/<cache key>.pt, one per dataset and vocab size
    folder = directory if directory.name == "vocab_mapping" else directory / "vocab_mapping"
    return sorted(folder.glob("*.pt")) if folder.is_dir() else []


def _checkpoint_with_maps(directory: Path) -> list[Path]:
    """The directory's model.safetensors when it holds d2t: the training checkpoint given as
    the map of an export that dropped it (only for --vocab-mapping DIR, never searched for
    beside a draft, whose own maps these would be)."""
    from spec_debug.eagle3.checkpoint import read_safetensors_header

    single = directory / "model.safetensors"
    try:
        names = read_safetensors_header(single) if single.is_file() else {}
    except CheckpointError:
        return [single]  # read below, for its own clear message
    return [single] if any(n.rsplit(".", 1)[-1] == "d2t" for n in names) else []


def _as_offsets(d2t: object, where: Path) -> Tensor:
    if not isinstance(d2t, Tensor):
        raise CheckpointError(f"{where}: d2t is a {type(d2t).__name__}, not a tensor", hint=_HINT)
    d2t = d2t.reshape(-1)
    if d2t.is_floating_point():
        d2t = d2t.double()  # torch has no round() for FP8
        if not bool((d2t == d2t.round()).all()):
            raise CheckpointError(f"{where}: d2t holds non-integer values", hint=_HINT)
        d2t = d2t.round()
    return d2t.long()


def read_vocab_mapping(path: str | Path, *, draft_vocab_size: int,
                       vocab_size: int) -> VocabMapping:
    """The maps in `path` (a file, or a directory holding one), checked against the draft:
    d2t has one entry per lm_head row, t2d one per target token."""
    # a playbook's vocab_mapping var reaches the host's probe shell-quoted and unexpanded
    # (probes/drafter_eval.py passes it on as given), and so does a quoted --vocab-mapping
    path = Path(path).expanduser()
    if path.is_dir():
        files = _candidates(path, draft_vocab_size) or _checkpoint_with_maps(path)
        if not files:
            raise CheckpointError(f"{path}: no vocab_mapping.pt, vocab_mapping/*.pt, d2t.npy, "
                                  f"d2t-{draft_vocab_size}.npy or model.safetensors with d2t",
                                  hint=_HINT)
        if len(files) > 1:
            # several cached maps: the one of this draft vocab size, if only one fits
            fitting = [p for p in files if _as_offsets(_load_torch(p)[0], p).numel()
                       == draft_vocab_size]
            if len(fitting) != 1:
                raise CheckpointError(
                    f"{path}: {len(files)} vocab mappings ({', '.join(p.name for p in files[:4])}"
                    + (" ..." if len(files) > 4 else "") + f"), {len(fitting)} of them for "
                    f"{draft_vocab_size} draft tokens", hint="pass the file itself")
            files = fitting
        path = files[0]
    elif not path.is_file():
        raise CheckpointError(f"{path}: vocab mapping not found", hint=_HINT)
    t2d_where = path  # the file t2d was read from, for its errors
    if path.suffix == ".npy":
        d2t, t2d, path = _npy_pair(path)
        t2d_where = path.with_name("t2d" + path.name[3:])  # speculators saves it beside d2t.npy
    elif path.suffix == ".safetensors" or _is_safetensors(path):
        d2t, t2d = _load_safetensors(path)
    else:
        d2t, t2d = _load_torch(path)
    if isinstance(d2t, Tensor) and isinstance(t2d, Tensor) and maps_swapped_issue(
            d2t.reshape(-1), t2d.reshape(-1), vocab_size):
        # was: "d2t has 256 entries ... a map built for another draft vocab size" of a map
        # whose two tensors fit this draft exactly, under each other's names
        raise CheckpointError(
            f"{path}: d2t and t2d are saved under each other's names: d2t is a bool "
            f"[{d2t.numel()}] mask and t2d holds {t2d.numel()} offsets that map draft ids onto "
            "exactly the ids that mask selects",
            hint="save them again under their own names (d2t = the int64 offsets, t2d = the "
                 "bool mask)")
    stored_dtype = str(d2t.dtype) if isinstance(d2t, Tensor) else None
    d2t = _as_offsets(d2t, path)
    if d2t.numel() != draft_vocab_size:
        raise CheckpointError(f"{path}: d2t has {d2t.numel()} entries, the draft's lm_head has "
                              f"{draft_vocab_size} rows: a map built for another draft vocab "
                              "size", hint=_HINT)
    if t2d is not None:
        if not isinstance(t2d, Tensor):
            raise CheckpointError(f"{t2d_where}: t2d is a {type(t2d).__name__}, not a tensor",
                                  hint=_HINT)
        t2d = t2d.reshape(-1)
        if t2d.numel() != vocab_size and _holds_ids(t2d, vocab_size):
            # was: "a map built for another target", for a t2d of the draft's ids themselves
            raise CheckpointError(f"{t2d_where}: t2d holds {t2d.numel()} target ids (ascending), not a mask of one "
                                  f"entry per target token ({vocab_size})",
                                  hint=f"save t2d as the mask: t2d = torch.zeros({vocab_size}, dtype=torch.bool); "
                                       "t2d[ids] = True")
        if t2d.numel() != vocab_size:
            raise CheckpointError(f"{t2d_where}: t2d has {t2d.numel()} entries, the target vocab is "
                                  f"{vocab_size}: a map built for another target", hint=_HINT)
        t2d = t2d.bool()
    return VocabMapping(d2t, t2d, path, stored_dtype)


def _holds_ids(t2d: Tensor, vocab_size: int) -> bool:
    """t2d holds the selected target ids rather than a [V] mask (vocab.t2d_as_ids)."""
    from spec_debug.eagle3.vocab import t2d_as_ids

    if t2d.is_floating_point():
        t2d = t2d.double()  # torch has no isfinite() or round() for FP8
    if t2d.is_floating_point() and not bool((t2d.isfinite() & (t2d == t2d.round())).all()):
        return False
    return t2d_as_ids(t2d.long().tolist(), vocab_size)


def differs_at(stored: Tensor, mapping: VocabMapping) -> int | None:
    """The first draft id whose stored d2t offset differs from the map file's, or None."""
    stored = stored.reshape(-1).double().round().long() if stored.is_floating_point() else (
        stored.reshape(-1).long())
    if stored.numel() != mapping.d2t.numel():
        return min(stored.numel(), mapping.d2t.numel())
    diff = (stored != mapping.d2t).nonzero()
    return int(diff[0]) if diff.numel() else None


def mapping_note(stored: Tensor | None, mapping: VocabMapping, scored: bool = True) -> str:
    """What scoring with the map file instead of the checkpoint's d2t means (`scored`
    False: the vocab check, which only compares them)."""
    source = mapping.source
    if stored is None:
        return ("the checkpoint has no d2t" + (f": scored with the maps of {source}" if scored
                                                  else f"; {source} holds the training's")
                + "; engines read draft id i as target id i until d2t (and t2d) from it are "
                "saved into the checkpoint")
    first = differs_at(stored, mapping)
    if first is None:
        return f"the checkpoint's d2t equals the one in {source}"
    if not scored:
        return f"the checkpoint's d2t differs from {source} first at draft id {first}"
    return (f"the checkpoint's d2t differs from {source} first at draft id {first}: scored with "
            f"{source}; engines read the checkpoint's d2t (run without --vocab-mapping to "
            "measure what they serve)")


def mapping_issue(stored: Tensor | None, mapping: VocabMapping):
    """A d2t_not_training_map issue when the checkpoint's d2t is not the map file's (a
    checkpoint without d2t is reported as d2t_missing already)."""
    from spec_debug.eagle3.vocab import VocabIssue

    first = None if stored is None else differs_at(stored, mapping)
    if first is None:
        return None
    return VocabIssue(
        "d2t_not_training_map",
        f"the checkpoint's d2t differs from the training's map {mapping.source} first at draft "
        f"id {first}: its lm_head rows follow one of them only (a map regenerated when training "
        "resumed, sgl-project/SpecForge#534); compare `drafter eval` with and without "
        "--vocab-mapping and save the better one into the checkpoint",
        {"first_difference": first, "vocab_mapping": str(mapping.source)})


def find_beside(directories, draft_vocab_size: int) -> Path | None:
    """A training map file in one of `directories` (the draft's, the dump's and its parent:
    SpecForge writes <output_path>/vocab_mapping/vocab_mapping.pt beside its hidden states,
    speculators d2t-<DV>.npy in the dataset directory above `hidden_states/`)."""
    for directory in directories:
        directory = Path(directory)
        if not directory.is_dir():
            continue
        found = _candidates(directory, draft_vocab_size)
        if len(found) == 1:
            return found[0]
    return None
