"""Host-side helpers shared by the probes: find a model directory, read its config and the
names/shapes of its tensors. Stdlib only (runs inside the bundle on any host Python)."""

from __future__ import annotations

import json
import math
import os
import re
import stat
import struct
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

# A MoE checkpoint's config.json can be megabytes: ModelOpt MIXED_PRECISION exports name every
# expert's projections in quantization_config.quantized_layers (NVIDIA/Model-Optimizer#929,
# vllm-project/vllm#35047), 5.2 MB for DeepSeek-V3's 58 MoE layers x 256 experts x 3 at indent=2,
# about 8 MB for Kimi-K2's 384 experts. The bound leaves room above those and still refuses a
# file no model config is (a disk image or a log saved as config.json).
MAX_CONFIG_BYTES = 32 * 1024 * 1024
# The bound the probes read a config to before round 28, now what launch_flags sends of a server's
# --config flag file.
MAX_SENT_CONFIG_BYTES = 2_000_000
# What one model's config may take of a probe's JSON. model_configs prints the draft's and the
# target's (and the draft's tensor shapes) in one document, and a run keeps 256 KiB of a step's
# output (runner/output.py DEFAULT_CAPTURE_LIMIT): a 1 MB target config that did not fold was
# sent whole, the JSON cut, and the step failed with "output is not JSON", the draft lost with it.
# Past this, the per-expert entries that did not fold keep only expert 0's (trim_expert_layers);
# a config still past it is named in config_error, not sent. A draft's config and tensor shapes
# are a few kilobytes: the target's has the rest (a dense 405B NVFP4/FP8 mix naming its 882
# Linears is about 90 kB).
MAX_SENT_MODEL_CONFIG_BYTES = 200_000


def hf_cache_dirs(environ: dict[str, str] | None = None) -> list[Path]:
    """The Hub caches of a process with this environment (default: ours). huggingface_hub reads
    HF_HUB_CACHE, the older HUGGINGFACE_HUB_CACHE, then HF_HOME/hub, then ~/.cache/huggingface/hub
    (huggingface_hub/constants.py)."""
    env = os.environ if environ is None else environ
    roots = []
    for key in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(key):
            roots.append(Path(env[key]))
    if env.get("HF_HOME"):
        roots.append(Path(env["HF_HOME"]) / "hub")
    home = Path(env["HOME"]) if environ is not None and env.get("HOME") else Path.home()
    roots.append(home / ".cache" / "huggingface" / "hub")
    return roots


def read_environ(pid: int, proc: Path = Path("/proc")) -> dict[str, str] | None:
    """A process's environment (None when it is another user's: /proc/PID/environ is private)."""
    try:
        raw = (proc / str(pid) / "environ").read_bytes()
    except OSError:
        return None
    pairs = (item.decode("utf-8", "replace").partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def readlink(path: Path) -> str | None:
    """A /proc link (cwd, exe, ns/mnt); None when it is another user's process's."""
    try:
        return os.readlink(path)
    except OSError:
        return None


def other_mount_namespace(pid: int, proc: Path = Path("/proc")) -> bool:
    """The process runs in another mount namespace (a container): the paths it names are in
    its own filesystem, not ours."""
    theirs, ours = readlink(proc / str(pid) / "ns" / "mnt"), readlink(proc / "self" / "ns" / "mnt")
    return bool(theirs and ours and theirs != ours)


def resolve_model_dir(name: str | None, extra_caches: list[Path] | None = None) -> Path | None:
    """A local directory with a config.json: the path itself, or a Hub id's newest snapshot
    in the Hugging Face cache (models--ORG--NAME/snapshots/REV), as the engines load it.
    `extra_caches`: more Hub caches to look in first (the server's own, from its environment)."""
    if not name:
        return None
    path = Path(os.path.expanduser(str(name)))
    if (path / "config.json").is_file():
        return path
    if "/" in str(name) and not str(name).startswith(("/", ".", "~")):
        folder = "models--" + str(name).replace("/", "--")
        for root in [*(extra_caches or []), *hf_cache_dirs()]:
            found = _cached_snapshot(root / folder)
            if found is not None:
                return found
    return None


# How a probe says its target is the verifier the draft's config names (the drafter's
# spec_debug.eagle3.api TARGET_FROM_CONFIG; this file stays stdlib-only for the bundle)
FROM_VERIFIER = "speculators_config.verifier"


def verifier_name(draft_config: Any) -> str | None:
    """speculators_config.verifier.name_or_path of a draft's config (a local path or Hub id),
    or None when the config names none."""
    speculators = draft_config.get("speculators_config") if isinstance(draft_config, dict) else None
    verifier = speculators.get("verifier") if isinstance(speculators, dict) else None
    name = verifier.get("name_or_path") if isinstance(verifier, dict) else None
    return name if isinstance(name, str) and name else None


def named_verifier_dir(draft_config: Any) -> Path | None:
    """The verifier the draft's config names (speculators_config.verifier.name_or_path: the
    local path or Hub id training used, which `vllm serve <draft>` takes the verifier from),
    when it is here and as wide as the states the draft takes; None otherwise (a path reused
    for another model must not be compared as this draft's target). The drafter (eval, vocab,
    layout: spec_debug.eagle3.api resolve_target) uses it the same way without a target."""
    speculators = draft_config.get("speculators_config") if isinstance(draft_config, dict) else None
    verifier = speculators.get("verifier") if isinstance(speculators, dict) else None
    name = verifier.get("name_or_path") if isinstance(verifier, dict) else None
    directory = resolve_model_dir(name) if isinstance(name, str) and name else None
    if directory is None:
        return None
    takes = _draft_takes(draft_config)
    if takes is None or _width(read_config(directory)) != takes:
        return None
    # a relative name is read from the current directory, as the drafter and vLLM read it;
    # said absolute, or the report's target_path read "target"
    return directory.absolute()


def _width(config: Any) -> Any:
    """hidden_size of a target config, or of its language model's (multimodal targets)."""
    if not isinstance(config, dict):
        return None
    text = config.get("text_config")
    return (text if isinstance(text, dict) and "hidden_size" in text else config).get("hidden_size")


def _draft_takes(config: dict[str, Any]) -> Any:
    """The width of the target states a speculators draft takes: target_hidden_size, or (null,
    as speculators writes it for a same-width target) its decoder's hidden_size."""
    stated = config.get("target_hidden_size")
    if stated is not None:
        return stated
    layer = config.get("transformer_layer_config")
    return layer.get("hidden_size") if isinstance(layer, dict) else None


def _cached_snapshot(repo: Path) -> Path | None:
    """The snapshot the engines load from a Hub cache repo folder: the commit refs/main names
    (huggingface_hub file_download.py reads refs/<revision> to find the snapshot, offline too),
    else the newest snapshot with a config.json. The newest by mtime alone can be an older
    revision fetched later (`huggingface-cli download --revision`)."""
    snapshots = repo / "snapshots"
    try:
        if not snapshots.is_dir():
            return None
        try:
            main = (repo / "refs" / "main").read_text().strip()
        except OSError:
            main = ""
        if main and "/" not in main and (snapshots / main / "config.json").is_file():
            return snapshots / main
        revs = sorted((p for p in snapshots.iterdir() if (p / "config.json").is_file()),
                      key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None  # a cache this user cannot read: not there, for this probe
    return revs[0] if revs else None


def read_config(directory: Path, name: str = "config.json") -> dict[str, Any] | None:
    return config_and_problem(directory, name)[0]


def config_and_problem(directory: Path, name: str = "config.json") -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object in directory/name, else None and why when the file is there but cannot
    be used: a hand-edited config with a trailing comma or a comment (transformers refuses it
    too: "is not a valid JSON file"), a truncated or empty copy, a link to a file that is gone,
    another user's file. No file: (None, None)."""
    path = directory / name
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(info.st_mode):
            # a FIFO would block the read, /dev/zero would never end it
            return None, f"{path}: not a regular file (a device, pipe or socket), not read"
        if info.st_size > MAX_CONFIG_BYTES:
            return None, _too_large(path)
        raw = _bounded_read(path)
        if raw is None:  # it grew past the bound after stat (a copy still being written)
            return None, _too_large(path)
        if not raw:
            return None, (f"{path}: empty (0 bytes), a copy or download cut short; the engine "
                          "refuses it too: copy the model's config.json again")
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        return None, _dangling(path)
    except IsADirectoryError:
        return None, f"{path}: a directory, not a file; the engine reads no config there: put the model's config.json in its place"
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror or exc})"
    except UnicodeDecodeError as exc:
        return None, f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
    except RecursionError:  # json's decoder recurses per nesting level: no config nests that deep
        return None, f"{path}: JSON nested too deeply to read, not a model config"
    except ValueError as exc:
        return None, _not_json(path, exc)
    if not isinstance(data, dict):
        return None, f"{path}: holds a JSON {type(data).__name__}, not the object of a model config"
    return data, None


def _bounded_read(path: Path) -> bytes | None:
    """The file's bytes, or None past MAX_CONFIG_BYTES: read to the bound, never further,
    whatever stat said."""
    with path.open("rb") as handle:
        raw = handle.read(MAX_CONFIG_BYTES + 1)
    return raw if len(raw) <= MAX_CONFIG_BYTES else None


def _too_large(path: Path) -> str:
    return (f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes, not read as a model config; "
            "check that it is the model's config.json")


def _dangling(path: Path) -> str | None:
    """No config there (None), or a link to a file that is gone: a model folder copied without
    the Hub cache's blobs/ its snapshot links point into (huggingface_hub stores each file
    once in blobs/ and links it from snapshots/REV/), which the engine cannot open either."""
    try:
        target = os.readlink(path)
    except OSError:
        return None
    return f"{path}: a link to {target}, which is not there; copy the model folder with the files its links name (cp -L, rsync -L)"


def _not_json(path: Path, exc: ValueError) -> str:
    """The JSON error with its line and its usual cause: a byte-order mark a Windows editor
    wrote (json refuses it: 'Unexpected UTF-8 BOM', and so does transformers, which reads
    config.json as utf-8 text), else a hand edit's trailing comma or comment."""
    if not isinstance(exc, json.JSONDecodeError):
        return f"{path}: not valid JSON ({exc})"
    where = f"{exc.msg}, line {exc.lineno} column {exc.colno}"
    if "BOM" in exc.msg:
        return f"{path}: not valid JSON ({where}); the engine refuses it too: save it as UTF-8 without the byte-order mark"
    # the two hand-edit faults named where they are: the decoder reports a trailing comma at
    # the '}' after it (the next line), and a comment as a missing property name
    before = exc.doc[:exc.pos].rstrip()
    if before.endswith(",") and exc.doc[exc.pos:exc.pos + 1] in ("}", "]"):
        line = before.count("\n") + 1
        return (f"{path}: not valid JSON ({where}): a trailing comma at the end of line {line}; "
                "the engine refuses it too: remove it")
    if exc.doc[exc.pos:exc.pos + 2] in ("//", "/*") or exc.doc[exc.pos:exc.pos + 1] == "#":
        return (f"{path}: not valid JSON ({where}): a comment, which JSON does not allow; the "
                "engine refuses it too: remove it")
    return (f"{path}: not valid JSON ({where}); the engine refuses it too: fix that "
            "line (a trailing comma or a comment is the usual cause)")


def given_model(name: str | None) -> Path | str | None:
    """The model a drafter probe hands to spec_debug.eagle3: the local directory or cached Hub
    snapshot `name` stands for, else `name` as given, so the drafter's error names what is
    wrong with it (a typo, a run folder above the checkpoint). Resolved to None, a draft
    given was "skipped: pass --var draft_model", and a target given was silently replaced by
    the verifier the draft's config names: another model than the one asked for. A folder
    whose config.json is damaged stays None: the probes say that from folder_with_damaged_config."""
    found = resolve_model_dir(name)
    if found is not None or not name or folder_with_damaged_config(name) is not None:
        return found
    return name


def engine_weights_refusal(draft: Path | str | None, error: Any = None) -> dict[str, Any] | None:
    """{"message", "hint"} where the drafter refused a checkpoint folder (config.json there)
    that vLLM and SGLang find no weight file in (eagle3.checkpoint.engines_find_no_weights,
    the configs step's SD710), for the drafter probes to hand to their steps as SD710 rather
    than fail as a step that could not run (SD003); with "unreadable_weight_files" where a
    weight file they load has a safetensors header that cannot be read (a git-lfs pointer, an
    empty file: the configs step's other SD710, from the same list_weights), the message and
    hint the drafter's `error` gave for it; with "denied_weight_files" (and "folder") where
    the probe's user may not open one (permission denied: the configs step's SD710 warning);
    with "missing_shards" where the drafter stopped at a shard the folder's index
    names that is not here; None otherwise (a run folder above the draft keeps the drafter's
    own error)."""
    if draft is None:
        return None
    folder = Path(draft)
    if not _is_file(folder / "config.json"):
        return None
    from spec_debug.eagle3.checkpoint import engines_find_no_weights

    refused = engines_find_no_weights(folder)
    if refused is not None:
        return {"message": refused.message, "hint": refused.hint}
    try:
        listing = list_weights(folder)
    except OSError:
        return None
    if listing.missing_shards and error is not None and _names_a_file(error, listing.missing_shards):
        # a shard the index names is not here (a copy or download that lost one): vLLM loads
        # the shards that are, then stops ("Following weights were not initialized from
        # checkpoint", model_loader/default_loader.py); it was a step that could not run (SD003)
        return {"message": str(getattr(error, "message", None) or error),
                "hint": getattr(error, "hint", None), "missing_shards": listing.missing_shards}
    unreadable = listing.unreadable_weight_files
    if not unreadable and listing.denied and error is not None and not _names_a_file(error, listing.denied):
        # the drafter stopped at something else before the file it may not open (a config
        # key of the wrong type, a shape): its own error stands, which the step says (SD003);
        # it was said as "may not open model.safetensors", and the real fault was not named
        return None
    if not unreadable and listing.denied:
        # a file the probe's user may not open (the drafter: "cannot read safetensors header
        # ([Errno 13] Permission denied)"), which a server running as another user may load:
        # the configs step's SD710 warning, not a step that could not run (SD003)
        user = next((entry.get("user") for entry in listing.denied.values()
                     if isinstance(entry, dict) and entry.get("user") is not None), None)
        return {"message": f"{folder}: the probe's user{f' ({user})' if user else ''} may not "
                           f"open {', '.join(listing.denied)} (permission denied)",
                "hint": None, "denied_weight_files": listing.denied, "folder": str(folder)}
    if not unreadable:
        return None
    said = str(getattr(error, "message", None) or error or "")
    if not any(name in said for name in unreadable):  # the drafter stopped at something else
        said = ""
    return {"message": said or f"{folder}: the safetensors header of {', '.join(unreadable)} cannot be read",
            "hint": getattr(error, "hint", None) if said else None, "unreadable_weight_files": unreadable}


def _names_a_file(error: Any, names: Any) -> bool:
    """Whether the drafter's error names one of the files `names` (as "DIR/model.safetensors:
    cannot read safetensors header ([Errno 13] Permission denied: ...)"), a whole name: not
    model.safetensors inside model.safetensors.index.json."""
    said = str(getattr(error, "message", None) or error or "")
    return any(re.search(rf"(?<![\w.-]){re.escape(str(name))}(?![\w.-])", said) for name in names)


def folder_with_damaged_config(name: str | None) -> Path | None:
    """A local model folder whose config.json is there but is no readable file (a link to a
    missing blob, a directory), which resolve_model_dir passes by as no model: named so its
    config_error can say why, not 'not found'."""
    if not name:
        return None
    path = Path(os.path.expanduser(str(name)))
    entry = path / "config.json"
    try:
        return path if os.path.lexists(entry) and not entry.is_file() else None
    except OSError:
        return None


class HeaderJSONError(ValueError):
    """A safetensors header whose JSON safetensors' reader refuses; the message says what,
    with no file name (the callers put theirs before it). `rewritten`: JSON that Python's json
    reads (or bytes after the object), as another tool writes a header it rewrote; otherwise
    no JSON at all (a file of zeros, a header cut or overwritten), said as before."""

    def __init__(self, message: str, rewritten: bool = True):
        super().__init__(message)
        self.rewritten = rewritten


# The fields safetensors reads from a tensor's entry (safetensors/src/tensor.rs TensorInfo, a
# serde struct: a second `dtype` is "duplicate field `dtype`"), and the key its header struct
# reads __metadata__ from (HashMetadata, flattened beside the tensors: the same error)
_ENTRY_FIELDS = frozenset(("dtype", "shape", "data_offsets"))


class _Duplicated(dict):
    """A JSON object in which a key came more than once (the last value kept, as json does)."""
    duplicated: set[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) == len(pairs):
        return made
    seen: set[str] = set()
    marked = _Duplicated(made)
    marked.duplicated = set()
    for key, _ in pairs:
        (marked.duplicated if key in seen else seen).add(key)
    return marked


def _no_constant(name: str) -> Any:
    raise HeaderJSONError(f"the safetensors header holds {name}, which JSON does not allow "
                          f"(Python's json.dumps writes it for a float {'nan' if name == 'NaN' else 'inf'})")


def load_header_json(raw: bytes) -> Any:
    """The JSON of a safetensors header (the `length` bytes after its 8-byte length), read as
    safetensors reads it: UTF-8 (std::str::from_utf8), then serde_json, which Python's json
    is laxer than. json.loads(bytes) takes a UTF-8 byte-order mark and UTF-16 text, NaN and
    Infinity, a field of a tensor's entry (or __metadata__) given twice, and a lone surrogate
    escape ("\\ud800"), each of which safetensors 0.8.0's safe_open refuses ("invalid JSON in
    header: expected value at line 1 column 1", "duplicate field `dtype`", "invalid UTF-8 in
    header", "unexpected end of hex escape"), so vLLM and SGLang load no tensor of the file:
    those files were listed as loadable. HeaderJSONError says what is wrong. Taken as
    safetensors takes them: spaces, tabs and newlines around the object (its writer pads with
    spaces), a tensor named twice and a __metadata__ key given twice (the last one counts), and
    unknown fields in an entry."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise HeaderJSONError("the safetensors header begins with a UTF-8 byte-order mark (ef bb "
                              "bf), which an editor or tool that rewrote it added")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or raw[:2] in (b"{\x00", b"\x00{"):
        raise HeaderJSONError("the safetensors header is UTF-16 text, not UTF-8, as a tool that "
                              "rewrote it writes (Windows PowerShell's Out-File)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HeaderJSONError(f"the safetensors header is not UTF-8 text ({exc.reason} at byte "
                              f"{exc.start})", rewritten=False) from None
    decoder = json.JSONDecoder(object_pairs_hook=_object_pairs, parse_constant=_no_constant)
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        header, end = decoder.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise HeaderJSONError(f"{exc.msg}: line {exc.lineno} column {exc.colno} (char {exc.pos})",
                              rewritten=False) from None
    except RecursionError:  # serde_json stops at 128 levels: no header nests past 3
        raise HeaderJSONError("JSON nested too deeply to read", rewritten=False) from None
    rest = text[end:]
    if rest.strip(" \t\n\r"):
        shown = rest.encode("utf-8")[:8].hex(" ")
        raise HeaderJSONError(f"the safetensors header has {len(rest.encode('utf-8'))} byte(s) "
                              f"after its JSON object inside its length ({shown}"
                              f"{' ...' if len(rest.encode('utf-8')) > 8 else ''}): safetensors' "
                              "writer pads a header with spaces only, another writer padded it "
                              "with other bytes")
    if isinstance(header, dict):
        _refuse_duplicated(header)
    if "\\u" in text:  # a lone surrogate escape: serde_json refuses it, json keeps it
        try:
            json.dumps(header, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise HeaderJSONError("the safetensors header holds a lone surrogate escape (\\ud800 "
                                  "to \\udfff with no pair)") from None
    return header


def _refuse_duplicated(header: dict[str, Any]) -> None:
    twice = getattr(header, "duplicated", set()) & {"__metadata__"}
    if twice:
        raise HeaderJSONError("the safetensors header gives __metadata__ twice (safetensors: "
                              "\"duplicate field `__metadata__`\")")
    for name, info in header.items():
        twice = getattr(info, "duplicated", set()) & _ENTRY_FIELDS if name != "__metadata__" else set()
        if twice:
            field_ = sorted(twice)[0]
            raise HeaderJSONError(f"the safetensors header gives {field_!r} twice in entry {name!r} "
                                  f"(safetensors: \"duplicate field `{field_}`\")")


def safetensors_header(path: Path) -> dict[str, Any]:
    """The tensors a safetensors file's header describes; ValueError where safetensors'
    safe_open, which vLLM and SGLang load every weight file with, refuses the file over it:
    besides a header that cannot be read, a file whose size is not the header's (a copy or
    download cut short after the header, or a copy written over a longer file):
    safetensors/src/tensor.rs read_metadata wants the data to end exactly where the last
    tensor's data_offsets do ("incomplete metadata, file not fully covered"). The size is
    compared from the header alone: no tensor data is read."""
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        if length > 100_000_000:
            raise ValueError(f"{path}: not a safetensors file")
        raw = handle.read(length)
        size = os.fstat(handle.fileno()).st_size
    if len(raw) < length:  # cut short inside its header: no JSON to judge
        raise ValueError(f"{path}: cut short inside its safetensors header")
    try:
        header = load_header_json(raw)
    except HeaderJSONError as exc:
        if not exc.rewritten:  # no JSON: said as a header that cannot be read
            raise
        raise RefusedHeader(f"{path.name}: {exc}; {_REFUSED_FILE}") from None
    if not isinstance(header, dict):
        # JSON, but not a safetensors header (a renamed file of another format)
        raise ValueError(f"{path}: not a safetensors file (its header is no JSON object)")
    # safetensors refuses the whole file over one entry: none of its tensors is loadable
    problem = header_problem(header)
    if problem:
        raise RefusedHeader(f"{path.name}: {problem}; {_REFUSED_FILE}")
    header.pop("__metadata__", None)
    described = described_size(length, header)
    if described > size:
        raise RefusedHeader(f"{path.name}: truncated ({size} bytes, its header describes {described}: "
                            "a copy or download cut short)")
    if described < size:
        raise RefusedHeader(f"{path.name}: {size - described} byte(s) past the tensors its header "
                            f"describes ({size} bytes, the header describes {described}), which "
                            "safetensors refuses: a copy written over a longer file, or appended to")
    return header


_REFUSED_FILE = "safetensors refuses the whole file over it (a header edited by hand or written by another writer)"


class RefusedHeader(ValueError):
    """A safetensors file whose header reads, and which safetensors' safe_open refuses; the
    message says why, after the file's name."""


# Bits per element of each safetensors dtype (huggingface/safetensors safetensors/src/
# tensor.rs Dtype::bitsize); a name outside it is refused when the header is parsed.
SAFETENSORS_DTYPE_BITS = {
    "BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8,
    "F8_E5M2FNUZ": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "I16": 16, "U16": 16, "F16": 16,
    "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64}


def header_problem(header: dict[str, Any]) -> str | None:
    """Why safetensors refuses a header's tensor entries, None when it takes them: each entry
    an object of a known dtype, a shape and two data_offsets that are JSON whole numbers
    (safetensors/src/tensor.rs TensorInfo, read with serde: "invalid type: floating point
    `8.0`, expected usize"), whose dtype x shape size is its span, the spans tiling the data
    from byte 0 without gap or overlap (Metadata::validate: "invalid offset for tensor"); and
    __metadata__, where there is one, a map of strings. safetensors 0.8.0's safe_open refuses
    the whole file over one such entry, so vLLM and SGLang load none of its tensors. The size
    of the file is described_size's."""
    metadata = header.get("__metadata__")
    if metadata is not None and not (isinstance(metadata, dict)
                                     and all(isinstance(v, str) for v in metadata.values())):
        return "the safetensors header's __metadata__ is not a map of strings"
    entries = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        shape = info.get("shape") if isinstance(info, dict) else None
        offsets = info.get("data_offsets") if isinstance(info, dict) else None
        if not (isinstance(shape, list) and all(_whole(n) for n in shape) and isinstance(offsets, list)
                and len(offsets) == 2 and all(_whole(n) for n in offsets)
                and isinstance(info.get("dtype"), str)):
            return (f"safetensors header entry {name!r} is malformed (not {{\"dtype\", \"shape\", "
                    "\"data_offsets\": [begin, end]}} of whole numbers)")
        entries.append((offsets[0], offsets[1], name, info["dtype"], shape))
    expected_start = 0
    for start, stop, name, dtype, shape in sorted(entries):
        bits = SAFETENSORS_DTYPE_BITS.get(dtype)
        if bits is None:
            return f"safetensors header entry {name!r} has dtype {dtype!r}, which safetensors does not know"
        if start != expected_start:
            return (f"safetensors header entry {name!r} starts at data byte {start}, the tensor "
                    f"before it ends at {expected_start}")
        size = math.prod(shape) * bits / 8
        if size != stop - start:
            return (f"safetensors header entry {name!r} says {dtype} {shape} ({size:g} bytes), its "
                    f"data_offsets span {stop - start} bytes")
        expected_start = stop
    return None


def _whole(number: Any) -> bool:
    """A JSON whole number >= 0 (serde's usize): not 8.0, "8", true or -1."""
    return isinstance(number, int) and not isinstance(number, bool) and number >= 0


def described_size(length: int, header: dict[str, Any]) -> int:
    """The size of the safetensors file whose header is `length` bytes of JSON reading
    `header`: the 8-byte length, the header, then the data up to where its last tensor's
    data_offsets end (0 for none). safetensors opens only a file of exactly this size
    (safetensors/src/tensor.rs read_metadata, "incomplete metadata, file not fully covered"),
    so vLLM and SGLang do not either. An entry without whole-number data_offsets counts for
    nothing here: header_problem, which the listing and eagle3.checkpoint ask first, refuses it."""
    end = 0
    for info in header.values():
        offsets = info.get("data_offsets") if isinstance(info, dict) else None
        if isinstance(offsets, list) and len(offsets) == 2 and isinstance(offsets[1], int):
            end = max(end, offsets[1])
    return 8 + length + end


# At most this many tensors are described per model (a draft has a few dozen)
TENSOR_SHAPES_LIMIT = 400


# What the listing says of the weight files safetensors refuses: a draft has one file or a few
# shards, and a tensor name edited into a header may be long; the probe's JSON stays small
MAX_REFUSAL_REASONS = 8
MAX_REFUSAL_CHARS = 400

_SAFETENSORS_INDEX = "model.safetensors.index.json"
_TORCH_INDEX = "pytorch_model.bin.index.json"


@dataclass
class WeightListing:
    """What a model folder's weight files say, each file and index read once: the listing
    the engines load, and what stops them loading it."""

    tensors: dict[str, list[Any]]
    """{tensor name: [shape, dtype]}, at most TENSOR_SHAPES_LIMIT."""
    missing_shards: list[str]
    index_error: str | None
    unreadable_weight_files: list[str]
    unreadable_reasons: dict[str, str] = field(default_factory=dict)
    """{file name: why safetensors refuses it}, for the files of unreadable_weight_files
    whose header reads (RefusedHeader), at most MAX_REFUSAL_REASONS."""
    unindexed_files: list[str] = field(default_factory=list)
    """The *.safetensors files listed although the folder's index names none that is here,
    which vLLM and SGLang therefore do not load (stale_index_refusal)."""
    denied: dict[str, dict[str, Any]] = field(default_factory=dict)
    """{file name: denied_access(file)} for the weight files the probe's user may not open
    (permission denied): not unreadable_weight_files, since a server running as another
    user may read them."""


def denied_access(path: Path) -> dict[str, Any]:
    """Who the probe ran as, and the file's owner, group and mode as `ls -l` shows them, for a
    weight file it may not open. The probe runs as the playbook's ssh user, the server often
    as another (a service account, root in a container): the file was said as "the header
    cannot be read (a copy cut short, a git-lfs pointer)", an SD710 error, for weights the
    server may well load."""
    uid = os.geteuid()
    access: dict[str, Any] = {"user": _account(uid, "pwd"), "uid": uid}
    try:
        status = path.stat()
    except OSError:
        return access
    access.update(owner=_account(status.st_uid, "pwd"), group=_account(status.st_gid, "grp"),
                  mode=stat.filemode(status.st_mode))
    return access


def _account(number: int, module: str) -> str:
    """The user (pwd) or group (grp) name of a number, the number itself where none is known
    (an id from another machine's or container's accounts, as `ls -l` prints it)."""
    try:
        if module == "pwd":
            import pwd

            return pwd.getpwuid(number).pw_name
        import grp

        return grp.getgrgid(number).gr_name
    except (ImportError, KeyError):
        return str(number)


def list_weights(directory: Path, limit: int = TENSOR_SHAPES_LIMIT) -> WeightListing:
    """The folder's weights from the headers of the files the engines load (no tensor data is
    read); of a draft saved as torch pickles only, from their structure: the configs step
    compared nothing of a .bin draft's weights (SD204, SD704) without it. Each safetensors
    header is read once: its tensors go to the listing, a header that cannot be read to
    unreadable_weight_files."""
    index, problem = config_and_problem(directory, _SAFETENSORS_INDEX)
    files = _weight_files(directory, _shard_names(index))
    shapes: dict[str, list[Any]] = {}
    unreadable, reasons, denied = [], {}, {}
    for file in files:
        try:
            _add_shapes(shapes, safetensors_header(file), limit)
        except RefusedHeader as exc:
            unreadable.append(file.name)
            if len(reasons) < MAX_REFUSAL_REASONS:
                reasons[file.name] = str(exc)[:MAX_REFUSAL_CHARS]
        except PermissionError:
            denied[file.name] = denied_access(file)
        except (OSError, ValueError, struct.error):
            unreadable.append(file.name)
    if files:
        names = _shard_names(index)
    else:
        names = _shard_names(read_config(directory, _TORCH_INDEX))
        _add_torch_shapes(shapes, _torch_weight_files(directory, names), limit)
    missing = [name for name in names if not _is_file(directory / name)]
    unindexed = [file.name for file in files] if names and len(missing) == len(names) else []
    return WeightListing(tensors=shapes, missing_shards=missing if len(missing) < len(names) else [],
                         index_error=_index_problem(directory, index, problem), unreadable_weight_files=unreadable,
                         unreadable_reasons=reasons, unindexed_files=unindexed, denied=denied)


def stale_index_refusal(directory: Path, unindexed: list[str]) -> dict[str, str]:
    """{"message", "hint"} for a folder whose model.safetensors.index.json names no shard that
    is here, beside safetensors files it does not name: what save_pretrained leaves when a
    sharded save is saved again unsharded into the same folder (eagle3.checkpoint.stale_index),
    or a download of the single file beside the index. vLLM and SGLang keep only the files an
    index names (model_loader/weight_utils.py filter_duplicate_safetensors_files), find none
    and stop ("Cannot find any model weights with <dir>": vLLM default_loader.py, SGLang
    loader.py _prepare_weights). The listing read the unnamed files, and the configs step said
    nothing of a draft no engine starts with (`drafter vocab`, which needs torch, said it)."""
    files = ", ".join(unindexed[:4]) + (f" and {len(unindexed) - 4} more" if len(unindexed) > 4 else "")
    return {"message": (f"{directory / _SAFETENSORS_INDEX} names no weight file that is here, and "
                        f"{files} beside it {'is' if len(unindexed) == 1 else 'are'} not named "
                        "there: vLLM and SGLang load only the safetensors files an index names, "
                        f"find none and stop (\"Cannot find any model weights with {directory}\")"),
            "hint": "delete the stale index (or save the draft again into an empty folder)"}


def _add_shapes(shapes: dict[str, list[Any]], header: dict[str, Any], limit: int) -> None:
    for name, info in header.items():
        if len(shapes) >= limit:
            return
        if isinstance(info, dict):
            shapes[name] = [info.get("shape"), info.get("dtype")]


def _add_torch_shapes(shapes: dict[str, list[Any]], files: list[Path], limit: int) -> None:
    """The torch pickles' structure, read with trainer_state's unpickler, which builds no
    object the pickle names (torch.load would run a stranger's pickle, and needs torch); one
    file at a time, none past the limit."""
    from spec_debug.eagle3.trainer_state import top_level_tensors

    for file in files:
        if len(shapes) >= limit:
            return
        _add_shapes(shapes, {name: {"shape": shape, "dtype": dtype}
                             for name, (shape, dtype) in top_level_tensors(file).items()}, limit)


def _weight_files(directory: Path, shard_names: list[str]) -> list[Path]:
    """The safetensors files the engines load from a model folder: those its
    model.safetensors.index.json names, when it names any that are here (vLLM and SGLang
    model_loader/weight_utils.py filter_duplicate_safetensors_files drop the rest, such as a
    single file a retrained draft was uploaded as beside the old shards); else every one."""
    named = [directory / name for name in shard_names if _is_file(directory / name)]
    return named or sorted(directory.glob("*.safetensors"))


def _shard_names(index: dict[str, Any] | None) -> list[str]:
    """The shard files an index's weight_map names, relative to the folder (an absolute name
    is no shard of this folder), sorted; [] when there is no readable index."""
    weight_map = (index or {}).get("weight_map")
    if not isinstance(weight_map, dict):
        return []
    return sorted({name for name in weight_map.values() if isinstance(name, str) and not os.path.isabs(name)})


def _index_problem(directory: Path, index: dict[str, Any] | None, problem: str | None) -> str | None:
    """Why the folder's model.safetensors.index.json cannot be used by an engine, None when it
    can or there is none: vLLM and SGLang read `json.load(f)["weight_map"]` before loading any
    shard (model_loader/weight_utils.py filter_duplicate_safetensors_files), so invalid JSON or
    an index without a weight_map object stops the server, while the listing here fell back to
    every *.safetensors file and the configs step compared the config without a word."""
    if problem:
        return problem
    if index is not None and not isinstance(index.get("weight_map"), dict):
        return (f"{directory / _SAFETENSORS_INDEX}: no \"weight_map\" object (the shard "
                "file of each tensor); vLLM and SGLang read it before loading any shard and do not "
                "start (KeyError)")
    return None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # unreadable folder, a NUL in a hand-edited index
        return False


def _torch_weight_files(directory: Path, shard_names: list[str]) -> list[Path]:
    """A folder's torch pickles of weights, as the drafter reads them (checkpoint.bin_files):
    the shards pytorch_model.bin.index.json names, else pytorch_model.bin (transformers <
    4.35, and save_pretrained(safe_serialization=False), save so)."""
    named = [directory / name for name in shard_names if _is_file(directory / name)]
    single = directory / "pytorch_model.bin"
    return named or ([single] if _is_file(single) else [])


def looks_like_draft(config: dict[str, Any]) -> bool:
    archs = " ".join(config.get("architectures") or [])
    return bool(config.get("speculators_model_type") or config.get("eagle_config") or "Eagle" in archs
                or "EAGLE" in archs or "draft_vocab_size" in config)


def describe_model(name: str | None, *, with_tensors: bool | None = None,
                   extra_caches: list[Path] | None = None) -> dict[str, Any]:
    """What a probe reports about one model: where it is, its config, its tensor shapes."""
    directory = resolve_model_dir(name, extra_caches) or folder_with_damaged_config(name)
    if directory is None:
        return {"name": name, "found": False}
    config, problem = config_and_problem(directory)
    info: dict[str, Any] = {"name": name, "found": config is not None, "path": str(directory),
                            "config": config}
    if problem:
        info["config_error"] = problem  # the folder is there, its config.json is not usable
    folded = fold_expert_layers(config.get("quantization_config") if config is not None else None)
    if folded:
        info["quantized_layers_folded"] = folded
    sent, trimmed, differ = (_trim_to_bound(config, config.get("quantization_config")) if config is not None
                             else (0, 0, None))
    if sent > MAX_SENT_MODEL_CONFIG_BYTES:
        info.update(found=False, config=None, config_error=(
            _too_large_to_send(directory / "config.json", sent, folded, trimmed) + " (a MoE export's per-expert "
            "quantization entries fold into one per experts block only where every expert has the same)"))
        config = None
    else:
        _say_trimmed(info, trimmed, differ)
    if config is not None and (with_tensors or (with_tensors is None and looks_like_draft(config))):
        weights = list_weights(directory)
        info["tensors"] = weights.tensors
        if weights.missing_shards:
            info["missing_shards"] = weights.missing_shards
        if weights.index_error:
            info["index_error"] = weights.index_error
        if weights.unreadable_weight_files:
            info["unreadable_weight_files"] = weights.unreadable_weight_files
        if weights.unreadable_reasons:
            info["unreadable_weight_reasons"] = weights.unreadable_reasons
        if weights.denied:
            info["denied_weight_files"] = weights.denied
        if weights.unindexed_files and not weights.index_error:
            info["no_engine_weights"] = stale_index_refusal(directory, weights.unindexed_files)
        elif not weights.tensors:
            # a folder vLLM and SGLang load no weight file from (an empty save, only a .pth,
            # a Lightning .ckpt, FSDP's DCP shards): the server stops with "Cannot find any
            # model weights", and the configs step compared nothing without a word
            from spec_debug.eagle3.checkpoint import engines_find_no_weights

            refused = engines_find_no_weights(directory)
            if refused is not None:
                info["no_engine_weights"] = {"message": refused.message, "hint": refused.hint}
    if config is not None and "quantization_config" not in config:
        # ModelOpt 0.29 and before wrote the quantization beside config.json, in
        # hf_quant_config.json, and vLLM reads it from there (vllm/transformers_utils/config.py
        # get_config); without it an NVFP4/FP8 export reads as a bf16 model
        quant = read_config(directory, "hf_quant_config.json")
        if quant is not None:
            folded = fold_expert_layers(quant.get("quantization"))
            sent, trimmed, differ = _trim_to_bound(quant, quant.get("quantization"))
            if sent > MAX_SENT_MODEL_CONFIG_BYTES:
                # not sent, and said: without it the throughput model counts the weights as bf16
                info["hf_quant_config_error"] = (
                    _too_large_to_send(directory / "hf_quant_config.json", sent, folded, trimmed)
                    + ", the model's quantization unknown here (its weights are counted at bf16's 2 bytes)")
            else:
                if folded:
                    info["quantized_layers_folded"] = folded
                _say_trimmed(info, trimmed, differ)
                info["hf_quant_config"] = quant
    return info


def _trim_to_bound(whole: dict[str, Any], quant: Any) -> tuple[int, int, str | None]:
    """(bytes as JSON, entries trimmed, the experts-differ note) of a config whose quantization
    block `quant` (a part of `whole`) is trimmed to expert 0's entries in place, only where
    the whole is over what a probe sends."""
    sent = len(json.dumps(whole))
    if sent <= MAX_SENT_MODEL_CONFIG_BYTES:
        return sent, 0, None
    differ = experts_differ_note(quant)
    trimmed = trim_expert_layers(quant)
    return (len(json.dumps(whole)) if trimmed else sent), trimmed, differ


def _say_trimmed(info: dict[str, Any], trimmed: int, differ: str | None) -> None:
    """The entries trimmed from a config that is sent, and what they hid."""
    if trimmed:
        info["quantized_layers_trimmed"] = trimmed
        if differ:
            info["quantized_experts_differ"] = differ


def _too_large_to_send(path: Path, sent: int, folded: int, trimmed: int) -> str:
    """Why a config is not sent, its size measured after folding and trimming its expert entries."""
    done = [word for word, did in (("folded", folded), ("trimmed to expert 0's", trimmed)) if did]
    reduced = f" once its experts are {' and '.join(done)}" if done else ""
    return f"{path}: {sent:,} bytes as JSON{reduced}, more than a probe sends ({MAX_SENT_MODEL_CONFIG_BYTES:,}): not read"


# The projections of one expert, as ModelOpt names them (Llama/DeepSeek/Qwen, vLLM's fused
# gate_up_proj, Mixtral's w1/w2/w3). A block folds only when each expert names one whole set:
# a projection left out is unquantized (the throughput model reads it at 2 bytes), and the
# block's entry would give it the experts' format.
_WHOLE_EXPERT = ({"gate_proj", "up_proj", "down_proj"}, {"gate_up_proj", "down_proj"}, {"w1", "w2", "w3"})


def fold_expert_layers(quant: Any) -> int:
    """Fold, in place, a ModelOpt MIXED_PRECISION `quantized_layers` that names every expert's
    projections into one entry per experts block ("model.layers.3.mlp.experts": {...}) where that
    loses nothing: experts 0..E-1 all there, each with the same projections (a whole expert:
    gate, up and down), all with the same entry ("model.layers.3.mlp.experts.17.down_proj",
    Mixtral's "...block_sparse_moe.experts.5.w1").
    vLLM looks a fused MoE layer up by that block name first, then by its children's
    (vllm model_executor/layers/quantization/modelopt.py, ModelOptMixedPrecisionConfig
    `_resolve_quant_algo`), and the throughput model the same way (diagnose/quantization.py).
    Without it the probe's JSON for a DeepSeek-V3 NVFP4 export is 5 MB, past what a run keeps of
    a step's output (--capture-limit, 256 KiB), and the probe's result is lost. Returns how many
    entries were folded away (0: none)."""
    layers = quant.get("quantized_layers") if isinstance(quant, dict) else None
    if not isinstance(layers, dict):
        return 0
    # per experts block: the expert indices, the projections, and [first entry, count, all equal]
    blocks: dict[str, tuple[set[str], set[str], list[Any]]] = {}
    block_of: dict[str, str] = {}
    for name, entry in layers.items():
        block, index, leaf = _expert_entry(name)
        if block:
            block_of[name] = block
            if block not in blocks:
                blocks[block] = (set(), set(), [entry, 0, True])
            indices, leaves, tally = blocks[block]
            indices.add(index)
            leaves.add(leaf)
            tally[1] += 1
            if tally[2] and entry != tally[0]:
                tally[2] = False
    whole = {block: tally[0] for block, (indices, leaves, tally) in blocks.items()
             if tally[2] and block not in layers and tally[1] == len(indices) * len(leaves)
             and indices == {str(i) for i in range(len(indices))}
             and any(whole_expert <= leaves for whole_expert in _WHOLE_EXPERT)}
    if not whole:
        return 0
    folded: dict[str, Any] = {}
    for name, entry in layers.items():
        block = block_of.get(name)
        if block in whole:
            folded.setdefault(block, whole[block])  # where its first expert was
        else:
            folded[name] = entry
    quant["quantized_layers"] = folded
    return len(layers) - len(folded)


def _expert_entry(name: str) -> tuple[str, str, str]:
    """("model.layers.3.mlp.experts", "17", "down_proj") for one expert's projection
    ("model.layers.3.mlp.experts.17.down_proj"); ("", "", "") for any other module."""
    head, _, leaf = name.rpartition(".")
    block, _, index = head.rpartition(".")
    return (block, index, leaf) if index.isdigit() and block.endswith(".experts") else ("", "", "")


def trim_expert_layers(quant: Any) -> int:
    """Drop, in place, the per-expert `quantized_layers` entries of every expert but expert 0
    (those fold_expert_layers could not fold: the experts' formats differ, as ModelOpt
    auto_quantize picks them), and keep how many experts take each format of each projection
    whose experts differ under EXPERT_FORMATS_KEY (expert_formats). The throughput model counts a
    MoE layer's experts as one module named by expert 0 (diagnose/target_weights.py _mlp:
    "...mlp.experts.0.gate_proj", Mixtral's "...block_sparse_moe.experts.0.w1") at the experts'
    mean bytes per weight (diagnose/quantization.py), which the counts give as the whole list
    did. Returns how many entries were dropped (0: none)."""
    layers = quant.get("quantized_layers") if isinstance(quant, dict) else None
    if not isinstance(layers, dict):
        return 0
    kept = {name: entry for name, entry in layers.items() if _expert_entry(name)[1] in ("", "0")}
    if len(kept) < len(layers):
        mixed = expert_formats(layers)
        quant["quantized_layers"] = kept
        if mixed:
            quant[EXPERT_FORMATS_KEY] = mixed
    return len(layers) - len(kept)


# Where a trimmed quantization block keeps its experts' formats: spec-debug's key, no loader's
# (vLLM reads quantized_layers and never this), so a reader of the config sent can tell it apart.
EXPERT_FORMATS_KEY = "spec_debug_expert_formats"
# An expert that names no entry for a projection its block's other experts name: left unquantized
UNQUANTIZED = "unquantized (not listed)"


def _algo(entry: Any) -> str:
    return str(entry.get("quant_algo")) if isinstance(entry, dict) else json.dumps(entry)


def expert_formats(layers: Any) -> dict[str, dict[str, int]]:
    """For each projection of an experts block whose experts are not all in one format, how many
    experts take each quant_algo ({"model.layers.3.mlp.experts.down_proj": {"NVFP4": 51, "FP8": 13}});
    an expert of the block with no entry for the projection counts as UNQUANTIZED, one with no entry
    at all below the last one listed included (ModelOpt left it bf16: experts 0..E-1 are there).
    Projections whose experts all agree are left out (expert 0's entry says theirs)."""
    return {projection: tally for projection, tally in expert_tallies(layers).items() if len(tally) > 1}


def expert_tallies(layers: Any) -> dict[str, dict[str, int]]:
    """For each projection of an experts block, how many experts take each quant_algo, as
    expert_formats counts them (UNQUANTIZED included), projections whose experts agree too
    ({"model.layers.3.mlp.experts.gate_proj": {"FP8": 64}})."""
    if not isinstance(layers, dict):
        return {}
    tallies: dict[tuple[str, str], dict[str, int]] = {}
    indices: dict[str, set[str]] = {}
    for name, entry in layers.items():
        block, index, leaf = _expert_entry(name)
        if block:
            indices.setdefault(block, set()).add(index)
            tally, algo = tallies.setdefault((block, leaf), {}), _algo(entry)
            tally[algo] = tally.get(algo, 0) + 1
    counted: dict[str, dict[str, int]] = {}
    for (block, leaf), tally in tallies.items():
        unlisted = _expert_count(indices[block]) - sum(tally.values())
        if unlisted:
            tally[UNQUANTIZED] = unlisted
        counted[f"{block}.{leaf}"] = tally
    return counted


def _expert_count(indices: set[str]) -> int:
    """How many experts a block has by the indices listed: to the last one, those between with
    no entry at all included."""
    return max(int(index) for index in indices) + 1


def experts_differ_note(quant: Any) -> str | None:
    """What trim_expert_layers hides, said before it drops the entries: experts whose
    `quantized_layers` entries differ from expert 0's for the same projection of the same block
    (ModelOpt auto_quantize picks each expert's format), which the trimmed config's expert 0 does
    not stand for, only the counts kept beside it (expert_formats) ("14,688 of 18,432
    expert projections ... (NVFP4 on 14,688, FP8 on 3,744)"). None when every expert's entries are
    expert 0's (a block whose gate and down projections differ alike in every expert included)."""
    layers = quant.get("quantized_layers") if isinstance(quant, dict) else None
    if not isinstance(layers, dict):
        return None
    experts = [(*_expert_entry(name), entry) for name, entry in layers.items()]
    experts = [expert for expert in experts if expert[0]]
    first = {(block, leaf): entry for block, index, leaf, entry in experts if index == "0"}
    formats: dict[str, int] = {}
    differ = 0
    for block, _, leaf, entry in experts:
        differ += (block, leaf) not in first or entry != first[block, leaf]
        algo = _algo(entry)
        formats[algo] = formats.get(algo, 0) + 1
    # a projection expert 0 names and another expert of its block does not is unquantized there
    named = {(block, index, leaf) for block, index, leaf, _ in experts}
    indices: dict[str, set[str]] = {}
    for block, index, _, _ in experts:
        indices.setdefault(block, set()).add(index)
    unlisted = sum((block, str(index), leaf) not in named
                   for block, leaf in first for index in range(_expert_count(indices[block])))
    if unlisted:
        formats[UNQUANTIZED] = unlisted
    differ += unlisted
    total = len(experts) + unlisted
    if not differ:
        return None
    mix = ", ".join(f"{algo} on {count:,}" for algo, count in sorted(formats.items(), key=lambda kv: -kv[1]))
    return (f"{differ:,} of {total:,} expert projections are quantized otherwise than expert 0's ({mix}): "
            f"the config sent keeps expert 0's entries and, in {EXPERT_FORMATS_KEY}, how many experts take "
            "each format, and the throughput model counts the experts at their mean bytes per weight")
