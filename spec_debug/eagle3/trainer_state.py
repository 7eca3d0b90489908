"""What a trainer's training_state.pt holds, read without running its pickle.

Trainers name their resume file training_state.pt and put different things in it: SpecForge's
scripts/train_eagle3.py saves epoch, global_step, args and the optimizer's state, the weights
going to model.safetensors beside it; other training scripts add the model's state dict to it
('model', 'model_state_dict', 'draft_model'; e.g. a common pattern's comment "add: 'model':
unwrapped_model.state_dict()"). A checkpoint folder holding only that file is either missing
its weights or holds them in the wrong file, and the fix differs.

The file is a torch.save zip whose data.pkl (or, saved with torch < 1.6 or
_use_new_zipfile_serialization=False, a legacy file whose fourth pickle) is read here with an
unpickler that builds no object it names: every class becomes an inert placeholder and every
tensor its shape, so reading a stranger's file runs none of its code (torch.load with
weights_only=False would)."""

from __future__ import annotations

import io
import pickle
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_MAX_PICKLE_BYTES = 64 << 20  # an optimizer's state pickle is small; its tensors live apart


@dataclass(frozen=True)
class _TensorShape:
    shape: tuple[int, ...]
    dtype: str | None = None  # safetensors' spelling (F32, BF16, F8_E4M3); None: not named


class _TypeName(str):
    """A torch storage class or dtype the pickle names (torch.BFloat16Storage,
    torch.float8_e4m3fn): kept as its name, for the tensor's dtype; nothing is built."""


# torch/serialization.py persistent_id pickles a typed storage's legacy class (the dtype of
# a tensor rebuilt with _rebuild_tensor_v2); _rebuild_tensor_v3 (float8, uint16/32/64: dtypes
# with no legacy class) names its dtype as an argument, over an UntypedStorage.
_STORAGE_DTYPES = {"DoubleStorage": "F64", "FloatStorage": "F32", "HalfStorage": "F16",
                   "BFloat16Storage": "BF16", "CharStorage": "I8", "ByteStorage": "U8",
                   "ShortStorage": "I16", "IntStorage": "I32", "LongStorage": "I64",
                   "BoolStorage": "BOOL"}
_DTYPES = {"float64": "F64", "float32": "F32", "float16": "F16", "bfloat16": "BF16",
           "float8_e4m3fn": "F8_E4M3", "float8_e5m2": "F8_E5M2", "int8": "I8", "uint8": "U8",
           "int16": "I16", "uint16": "U16", "int32": "I32", "uint32": "U32", "int64": "I64",
           "uint64": "U64", "bool": "BOOL"}


def safetensors_dtype(dtype: Any) -> str:
    """The safetensors dtype string ("BF16") of a torch dtype (torch.bfloat16); its own name
    for a dtype safetensors has no string for."""
    name = str(dtype).removeprefix("torch.")
    return _DTYPES.get(name, name)


class _Inert:
    """Any object the pickle names (argparse.Namespace, a scheduler): accepts what the
    pickle does to it and keeps nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __setstate__(self, state: Any) -> None:
        pass

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def append(self, value: Any) -> None:
        pass

    def extend(self, values: Any) -> None:
        pass


class _Dict(dict):
    """collections.OrderedDict: torch's state_dict() sets a _metadata attribute on it."""


def _shape(size: Any, dtype: str | None = None) -> _TensorShape:
    return _TensorShape(tuple(int(n) for n in size), dtype)


def _tensor(storage: Any, offset: Any, size: Any, *rest: Any) -> _TensorShape:
    named = [_DTYPES[value] for value in rest if isinstance(value, _TypeName) and value in _DTYPES]
    if named:  # _rebuild_tensor_v3's dtype argument
        return _shape(size, named[0])
    return _shape(size, _STORAGE_DTYPES.get(storage) if isinstance(storage, _TypeName) else None)


def _storageless(dtype: Any, size: Any, *rest: Any) -> _TensorShape:
    return _shape(size)  # _rebuild_meta_tensor_no_storage(dtype, size, ...)


def _wrapper(cls: Any, dtype: Any, size: Any, *rest: Any) -> _TensorShape:
    return _shape(size)  # _rebuild_wrapper_subclass(cls, dtype, size, ...)


def _from_type(func: Any, new_type: Any, args: Any, state: Any) -> Any:
    """torch._tensor._rebuild_from_type_v2: a tensor carrying Python attributes (or of a
    subclass) is pickled as its plain rebuild (func, args) plus the type and the state."""
    return func(*args) if func in _TENSOR_REBUILDS else None


def _first(value: Any, *rest: Any) -> Any:
    return value  # torch._utils._rebuild_parameter(data, requires_grad, hooks): the data


# The rebuild functions torch's Tensor.__reduce_ex__ names (torch/_tensor.py
# _reduce_ex_internal): v3 for the dtypes in torch.storage._new_dtypes(), float8 (a ModelOpt
# FP8 draft's weights) and uint16/32/64 among them; meta tensors and wrapper subclasses hold
# no storage.
_TENSOR_REBUILDS = (_tensor, _storageless, _wrapper)
_KNOWN = {("torch._utils", "_rebuild_tensor_v2"): _tensor,
          ("torch._utils", "_rebuild_tensor_v3"): _tensor,
          ("torch._utils", "_rebuild_tensor"): _tensor,
          ("torch._utils", "_rebuild_qtensor"): _tensor,
          ("torch._utils", "_rebuild_meta_tensor_no_storage"): _storageless,
          ("torch._utils", "_rebuild_wrapper_subclass"): _wrapper,
          ("torch._tensor", "_rebuild_from_type_v2"): _from_type,
          ("torch._utils", "_rebuild_parameter"): _first,
          ("torch._utils", "_rebuild_parameter_with_state"): _first,
          ("collections", "OrderedDict"): _Dict,
          ("builtins", "set"): set, ("builtins", "frozenset"): frozenset,
          ("builtins", "tuple"): tuple, ("builtins", "list"): list, ("builtins", "dict"): dict}


class _ShapeUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "torch" and (name in _STORAGE_DTYPES or name in _DTYPES):
            return _TypeName(name)
        return _KNOWN.get((module, name), _Inert)

    def persistent_load(self, pid: Any) -> Any:
        # a storage ('storage', its class, key, location, numel): its bytes are not read, its
        # class names the dtype of a tensor rebuilt over it
        if isinstance(pid, tuple) and len(pid) > 1 and isinstance(pid[1], _TypeName):
            return pid[1]
        return None


# torch/serialization.py: a legacy (non-zip) torch.save file opens with pickles of this
# number, the protocol version and sys_info, then the object's pickle, then the storages.
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


def read_structure(path: Path) -> Any | None:
    """The pickled object with tensors as _TensorShape, or None for a file that is not a
    readable torch.save file (zip or legacy)."""
    try:
        if zipfile.is_zipfile(path):
            return _read_zip(path)
        return _read_legacy(path)
    except Exception:  # noqa: BLE001 - any unreadable file only loses this description
        return None


def _read_zip(path: Path) -> Any | None:
    with zipfile.ZipFile(path) as archive:
        pickles = [info for info in archive.infolist() if info.filename.endswith("/data.pkl")
                   or info.filename == "data.pkl"]
        if len(pickles) != 1 or pickles[0].file_size > _MAX_PICKLE_BYTES:
            return None
        with archive.open(pickles[0]) as handle:
            return _ShapeUnpickler(handle).load()


def _read_legacy(path: Path) -> Any | None:
    """The object's pickle of a legacy file; only its first _MAX_PICKLE_BYTES are read, so a
    length field in a hostile pickle cannot ask for more memory than that."""
    with open(path, "rb") as handle:
        head = io.BytesIO(handle.read(_MAX_PICKLE_BYTES))
    unpickler = _ShapeUnpickler(head)
    if unpickler.load() != _LEGACY_MAGIC:
        return None
    unpickler.load()  # the protocol version
    unpickler.load()  # sys_info: byte order and type sizes
    return unpickler.load()


def top_level_tensors(path: Path) -> dict[str, list[Any]]:
    """{name: [shape, dtype]} of the tensors at the top of a torch.save file's dict (what vLLM
    and SGLang load from a .bin: weight_utils.py pt_weights_iterator iterates its items), read
    without running its pickle or reading a tensor's bytes; {} for any other file."""
    state = read_structure(path)
    if not isinstance(state, dict):
        return {}
    return {key: [list(value.shape), value.dtype] for key, value in state.items()
            if isinstance(key, str) and isinstance(value, _TensorShape)}


def _is_weight_name(key: Any) -> bool:
    return isinstance(key, str) and (key.endswith((".weight", ".bias"))
                                     or key.rsplit(".", 1)[-1] in ("d2t", "t2d"))


def state_dicts(value: Any, where: str = "", depth: int = 0,
                seen: set[int] | None = None) -> list[tuple[str, list[str]]]:
    """(where, tensor names) of every state dict (parameter names to tensors) inside value;
    where is the key path ('' for the file itself). An optimizer's per-parameter state
    (exp_avg, exp_avg_sq) has no parameter names and is not one. Each dict is visited once:
    a pickle can name one dict from many keys at every level (its memo), which walked as a
    tree is exponential in the depth."""
    seen = set() if seen is None else seen
    if not isinstance(value, dict) or depth > 4 or id(value) in seen:
        return []
    seen.add(id(value))
    names = [key for key, item in value.items()
             if _is_weight_name(key) and isinstance(item, _TensorShape)]
    if names:
        return [(where, names)]
    found = []
    for key, item in value.items():
        if isinstance(key, (str, int)):
            found += state_dicts(item, f"{where}[{key!r}]", depth + 1, seen)
    return found


def is_draft(names: list[str]) -> bool:
    """An EAGLE-3 draft's weights: its fc (the aux states' projection) is what no other
    model has (speculators: fc.weight; SpecForge/EAGLE: fc.weight too)."""
    return any(name == "fc.weight" or name.endswith(".fc.weight") for name in names)


def _draft_prefix(names: list[str]) -> str:
    """What the draft's names carry before fc.weight ('' for none): ModelOpt's EAGLE model
    keeps the draft as eagle_module.* inside the base model's state dict; a trainer that
    saves its wrapped model's state_dict() puts DDP's module. (torch.compile's _orig_mod.)
    before every name, which no loader strips."""
    return next((name[:-len("fc.weight")] for name in names if name.endswith(".fc.weight")), "")


def _mixed_prefix(names: list[str]) -> str | None:
    """The draft's prefix when a state dict holds the draft beside other weights."""
    prefix = _draft_prefix(names)
    return prefix if prefix and not all(name.startswith(prefix) for name in names) else None


def _chosen(found: list[tuple[str, list[str]]]) -> tuple[str, list[str]]:
    """The state dict to speak of: a draft's before any other, then the largest."""
    return max(found, key=lambda item: (is_draft(item[1]), len(item[1])))


def describe(path: Path) -> str | None:
    """One sentence on the weights a training_state.pt (or modelopt_state.pth) holds; None
    when it holds none (or cannot be read), so the caller keeps its 'weights missing' line."""
    structure = read_structure(path)
    found = state_dicts(structure) if structure is not None else []
    if not found:
        return None
    where, names = _chosen(found)
    place = f"under {where}" if where else "as its top-level dict"
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    prefix = _mixed_prefix(names)
    if prefix:
        own = sum(name.startswith(prefix) for name in names)
        return (f"{path.name} holds an EAGLE-3 draft's weights {place}: {own} tensors named "
                f"{prefix}*, beside {len(names) - own} of the model it drafts for, where no "
                "loader looks")
    if is_draft(names):
        wrapped = _draft_prefix(names)
        named = f", every name under {wrapped}*" if wrapped else ""
        return (f"{path.name} holds an EAGLE-3 draft's weights {place} ({len(names)} tensors: "
                f"{shown}){named}, where no loader looks")
    return (f"{path.name} holds weights {place} ({len(names)} tensors: {shown}) but no "
            "fc.weight: not an EAGLE-3 draft's (the target's or another model's)")


def save_hint(path: Path) -> str | None:
    """The fix for a file holding a draft's weights: save that dict (only the draft's part
    of a state dict that also holds the base model's, without the prefix its names carry)."""
    structure = read_structure(path)
    found = [item for item in (state_dicts(structure) if structure is not None else [])
             if is_draft(item[1])]
    if not found:
        return None
    where, names = _chosen(found)
    state = f"torch.load('{path.name}', weights_only=False){where}"
    prefix = _draft_prefix(names)
    if prefix:  # the draft's part, its names as the loaders read them (fc.weight, d2t)
        state = (f"{{k[{len(prefix)}:]: v for k, v in {state}.items() "
                 f"if k.startswith('{prefix}')}}")
    return (f"save them as model.safetensors: safetensors.torch.save_file({state}, "
            "'model.safetensors') beside the draft's config.json (only for a file you trust: "
            "torch.load runs its pickle)")
