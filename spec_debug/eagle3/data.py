"""Hidden-state samples, streamed one file at a time (memory bounded by one sample).

Formats (EAGLE3.md section 5):
- speculators / vLLM extraction: `hs_{i}.safetensors` with `token_ids [T]` and
  `hidden_states [T, S, Ht]`, the last slot being the final layer (pre-norm)
  (vllm-project/speculators hs_connectors transfer.py; train/data.py strips the last slot).
  Optional: `loss_mask [T]`, and a `layer_ids` entry in the safetensors metadata (JSON list,
  one target layer id per slot, input-to-layer convention). A "wide" dump holds many slots
  (e.g. every layer) and names them there.
- SpecForge offline: `data_{i}.ckpt` (torch.save dict; read with weights_only=True):
  `input_ids [T]`, `loss_mask [T]`, `aux_hidden_state [1, T, A*Ht]`, `hidden_state [1, T, Ht]`
  (sgl-project/SpecForge scripts/prepare_hidden_states.py). `.ckpt.gz` is read too.
"""

from __future__ import annotations

import gzip
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

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

    @property
    def length(self) -> int:
        return int(self.token_ids.shape[0])


@dataclass(frozen=True)
class DataInfo:
    """What a dump holds, from its first file's header (no tensor data read for safetensors)."""

    format: str  # "speculators" | "specforge"
    files: int
    num_slots: int  # slots per position including the final one (speculators: S)
    hidden_size: int
    layer_ids: tuple[int, ...] | None
    has_final: bool
    has_loss_mask: bool


_NUMBER = re.compile(r"(\d+)")


def _natural_key(path: Path) -> list:
    return [int(p) if p.isdigit() else p for p in _NUMBER.split(str(path))]


def list_sample_files(data_dir: str | Path) -> list[Path]:
    root = Path(data_dir)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise DataError(f"{root}: data directory not found")
    files = [p for pattern in ("hs_*.safetensors", "data_*.ckpt", "data_*.ckpt.gz")
             for p in root.rglob(pattern)]
    if not files:
        raise DataError(f"{root}: no hs_*.safetensors or data_*.ckpt files",
                        hint="point --data at the hidden-state dump directory")
    return sorted(files, key=_natural_key)


def _layer_ids_from_metadata(metadata: dict | None) -> tuple[int, ...] | None:
    if not metadata or "layer_ids" not in metadata:
        return None
    try:
        return tuple(int(i) for i in json.loads(metadata["layer_ids"]))
    except (ValueError, TypeError) as exc:
        raise DataError(f"layer_ids metadata is not a JSON list of ints ({exc})") from None


def describe_data(data_dir: str | Path) -> DataInfo:
    files = list_sample_files(data_dir)
    first = files[0]
    if first.suffix == ".safetensors":
        from spec_debug.eagle3.checkpoint import read_safetensors_header

        header = read_safetensors_header(first)
        if "hidden_states" not in header or "token_ids" not in header:
            raise DataError(f"{first}: expected token_ids and hidden_states tensors")
        shape = header["hidden_states"]["shape"]
        return DataInfo("speculators", len(files), int(shape[1]), int(shape[2]),
                        _layer_ids_from_metadata(header.get("__metadata__")), True,
                        "loss_mask" in header)
    sample = read_sample(first)
    return DataInfo("specforge", len(files), sample.num_file_slots, int(sample.slots.shape[-1]),
                    None, sample.final is not None, True)


def _read_speculators(path: Path, slots: Sequence[int] | None, final: bool) -> Sample:
    from safetensors import safe_open

    try:
        with safe_open(str(path), framework="pt") as handle:
            keys = set(handle.keys())
            if not {"token_ids", "hidden_states"} <= keys:
                raise DataError(f"{path}: expected token_ids and hidden_states, found "
                                f"{sorted(keys)}")
            layer_ids = _layer_ids_from_metadata(handle.metadata())
            token_ids = handle.get_tensor("token_ids").long()
            states = handle.get_slice("hidden_states")
            T, S, _ = states.get_shape()
            wanted = tuple(range(S)) if slots is None else tuple(slots)
            if any(not 0 <= s < S for s in wanted):
                raise DataError(f"{path}: slot out of range {wanted} (file has {S} slots)")
            if slots is None:
                chosen = states[:]
            else:
                # one contiguous read when the slots are a range, else slot by slot
                lo, hi = min(wanted), max(wanted) + 1
                block = states[:, lo:hi]
                chosen = block[:, [s - lo for s in wanted]]
            final_state = states[:, S - 1] if final else None
            loss_mask = (handle.get_tensor("loss_mask").bool() if "loss_mask" in keys
                         else torch.ones(T, dtype=torch.bool))
    except SpecDebugError:
        raise
    except Exception as exc:  # safetensors raises its own error types
        raise DataError(f"{path}: cannot read ({exc})") from None
    if token_ids.shape[0] != T:
        raise DataError(f"{path}: token_ids has {token_ids.shape[0]} entries, hidden_states {T}")
    if layer_ids is not None and len(layer_ids) != S:
        raise DataError(f"{path}: layer_ids metadata names {len(layer_ids)} slots, file has {S}")
    return Sample(path.name, token_ids, chosen, wanted, final_state, loss_mask, layer_ids, S)


def _read_specforge(path: Path, slots: Sequence[int] | None, final: bool) -> Sample:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as handle:
                data = torch.load(io.BytesIO(handle.read()), map_location="cpu",
                                  weights_only=True)
        else:
            data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise DataError(f"{path}: cannot read ({exc})") from None
    missing = {"input_ids", "aux_hidden_state"} - set(data)
    if missing:
        raise DataError(f"{path}: missing {sorted(missing)}")
    token_ids = data["input_ids"].reshape(-1).long()
    aux = data["aux_hidden_state"]
    T = token_ids.shape[0]
    aux = aux.reshape(T, aux.shape[-1])  # [T, A*Ht]
    last = data.get("hidden_state")
    Ht = last.shape[-1] if last is not None else aux.shape[-1] // 3
    A = aux.shape[-1] // Ht
    all_slots = aux.view(T, A, Ht)
    if last is not None:
        all_slots = torch.cat([all_slots, last.reshape(T, 1, Ht)], dim=1)  # final = last slot
    S = all_slots.shape[1]
    wanted = tuple(range(S)) if slots is None else tuple(slots)
    loss_mask = data.get("loss_mask")
    loss_mask = (loss_mask.reshape(-1).bool() if loss_mask is not None
                 else torch.ones(T, dtype=torch.bool))
    return Sample(path.name, token_ids, all_slots[:, list(wanted)], wanted,
                  last.reshape(T, Ht) if (final and last is not None) else None,
                  loss_mask, None, S)


def read_sample(path: Path, slots: Sequence[int] | None = None, final: bool = True) -> Sample:
    if path.name.endswith(".safetensors"):
        return _read_speculators(path, slots, final)
    return _read_specforge(path, slots, final)


def iter_samples(data_dir: str | Path, *, slots: Sequence[int] | None = None, final: bool = True,
                 max_samples: int | None = None) -> Iterator[Sample]:
    """Yield samples one at a time; only the requested slots (and the final one) are read."""
    for count, path in enumerate(list_sample_files(data_dir)):
        if max_samples is not None and count >= max_samples:
            return
        yield read_sample(path, slots, final)


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
