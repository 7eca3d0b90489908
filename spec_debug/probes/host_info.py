"""host_info: what machine is this? Python, OS, GPUs, and which engines are importable."""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys


def _output(command: list[str]) -> str:
    """The command's stdout, "" when it is not installed, fails to start or hangs."""
    if not shutil.which(command[0]):
        return ""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=15, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _gpus_and_error() -> tuple[list[dict], str | None]:
    """NVIDIA GPUs from nvidia-smi, else AMD GPUs from rocm-smi, else from amd-smi (a ROCm host,
    where SGLang and vLLM run as ROCm builds, has no nvidia-smi: its GPUs were reported as none;
    ROCm 6.x and 7.x ship amd-smi to replace the deprecated rocm-smi). And what nvidia-smi said
    besides its GPU rows ("Failed to initialize NVML: Driver/library version mismatch")."""
    nvidia, error = _nvidia_gpus()
    gpus = nvidia or _rocm_gpus() or _amd_smi_gpus()
    return gpus, (error if nvidia or not gpus else None)


def _json_in(out: str) -> object:
    """The JSON document a tool printed after its warning lines ("WARNING: AMD GPU device(s)
    is/are in a low-power state"), from the first line that opens one, whatever follows it;
    None when none parses."""
    import json

    lines = out.splitlines()
    for start, line in enumerate(lines):
        if line.lstrip().startswith(("{", "[")):
            try:
                return json.JSONDecoder().raw_decode("\n".join(lines[start:]).lstrip())[0]
            except ValueError:
                continue
    return None


def _rocm_gpus() -> list[dict]:
    """rocm-smi's JSON: {"card0": {"Card Series": ..., "VRAM Total Memory (B)": "...",
    "VRAM Total Used Memory (B)": "...", "GPU use (%)": "..."}, "system": {...}} (ROCm
    rocm_smi_lib python_smi_tools/rocm_smi.py showProductName / showMemInfo / showGpuUse; the
    product is "Card Series" since ROCm 6.1, commit 4b5ccb5, "Card series" before, and
    "Card Model" became the PCI device id then)."""
    cards = _json_in(_output(["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showuse", "--json"]))
    gpus = []
    for key, card in (cards.items() if isinstance(cards, dict) else ()):
        if not (isinstance(key, str) and key.startswith("card") and isinstance(card, dict)):
            continue
        name = card.get("Card Series") or card.get("Card series") or card.get("Card model") or key
        gpus.append({"index": key[len("card"):], "name": name,
                     "memory_total_mib": _mib(card.get("VRAM Total Memory (B)")),
                     "memory_used_mib": _mib(card.get("VRAM Total Used Memory (B)")),
                     "utilization_pct": card.get("GPU use (%)")})
    return gpus


def _amd_smi_entries(command: str, *flags: str) -> dict[str, dict]:
    """amd-smi's per-GPU JSON entries by their "gpu" index: a list of them (amd-smi of ROCm
    6.0-6.3), or {"gpu_data": [...]} (later releases' combined output) (ROCm amdsmi
    amdsmi_cli/amdsmi_logger.py)."""
    data = _json_in(_output(["amd-smi", command, *flags, "--json"]))
    if isinstance(data, dict):
        # one GPU's entry alone: amd-smi of ROCm 6.0 on a host with one GPU (amdsmi_helpers.py
        # handle_gpus prints a list only for several)
        data = data.get("gpu_data") if "gpu_data" in data else [data] if "gpu" in data else None
    entries = [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []
    if not entries:
        # no JSON document: read the human-readable form, amd-smi's default output
        return _amd_smi_text(_output(["amd-smi", command, *flags]))
    return {_gpu_index(entry, n): entry for n, entry in enumerate(entries)}


def _amd_smi_text(out: str) -> dict[str, dict]:
    """amd-smi's human-readable output as its JSON entries: "GPU: 0", then 4-space "SECTION:"
    lines and 8-space "KEY: value unit" lines under them ("ASIC:" / "MARKET_NAME: MI300A",
    "MEM_USAGE:" / "TOTAL_VRAM: 196592 MB", "USAGE:" / "GFX_ACTIVITY: 0 %"): the JSON keys
    upper-cased, values with their unit (ROCm amdsmi amdsmi_cli/amdsmi_logger.py
    `_convert_json_to_human_readable`, amdsmi_helpers.py `unit_format`; examples in its
    README.md and CHANGELOG.md). Lines wrapped deeper (a long VCN_ACTIVITY list) are skipped."""
    entries: dict[str, dict] = {}
    entry: dict | None = None
    section: dict | None = None
    for line in out.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        key, colon, value = line.strip().partition(":")
        if not colon or not key.replace("_", "").isalnum():
            continue
        key, value = key.lower(), value.strip()
        if indent == 0:
            entry = entries.setdefault(value, {"gpu": int(value)}) if key == "gpu" and value.isdigit() else None
            section = None
        elif entry is not None and indent == 4:
            section = entry.setdefault(key, {}) if not value else None
            if value:
                entry[key] = value
        elif section is not None and indent == 8:
            section[key] = value
    return entries


def _gpu_index(entry: dict, position: int) -> str:
    index = entry.get("gpu")
    return str(index) if isinstance(index, (int, str)) else str(position)


def _amd_smi_gpus() -> list[dict]:
    """amd-smi static --asic (asic.market_name) and metric --usage --mem-usage
    (usage.gfx_activity, mem_usage.total_vram / used_vram: {"value": N, "unit": "MB"}, where
    amd-smi's MB is bytes // 2**20, nvidia-smi's MiB) (ROCm amdsmi amdsmi_cli/amdsmi_commands.py)."""
    static = _amd_smi_entries("static", "--asic")
    metric = _amd_smi_entries("metric", "--usage", "--mem-usage")
    gpus = []
    for index in sorted(set(static) | set(metric), key=lambda i: (len(i), i)):
        asic = _field(static.get(index), "asic")
        usage, memory = _field(metric.get(index), "usage"), _field(metric.get(index), "mem_usage")
        gpus.append({"index": index, "name": asic.get("market_name") or f"gpu{index}",
                     "memory_total_mib": _amount(memory.get("total_vram")),
                     "memory_used_mib": _amount(memory.get("used_vram")),
                     # ROCm 6.0 amd-smi named it gfx_usage (a bare number in its JSON);
                     # gfx_activity since 6.1 (ROCm amdsmi commit 4575990)
                     "utilization_pct": _amount(usage.get("gfx_activity", usage.get("gfx_usage")))})
    return gpus


def _field(entry: object, key: str) -> dict:
    value = entry.get(key) if isinstance(entry, dict) else None
    return value if isinstance(value, dict) else {}


def _amount(value: object) -> str | None:
    """amd-smi's {"value": N, "unit": U} (JSON) or "N U" (human-readable) as nvidia-smi's bare
    number ("N/A": None)."""
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, str):
        number = value.split()[0] if value.split() else ""
        return number if number.replace(".", "", 1).isdigit() else None
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _mib(value: object) -> str | None:
    """Bytes as rocm-smi prints them ("206141652992") in MiB, the unit nvidia-smi reports."""
    try:
        return str(int(str(value)) // (1024 * 1024))
    except ValueError:
        return None


# uuid: what CUDA_VISIBLE_DEVICES=GPU-... names; mig.mode.current: "Enabled" on a GPU split into
# MIG instances (the engine then sees a slice, not the GPU), "[N/A]" on GPUs without MIG
_NVIDIA_QUERY = ("index", "name", "memory.total", "memory.used", "utilization.gpu", "uuid", "mig.mode.current")
_NVIDIA_QUERY_BEFORE_MIG = _NVIDIA_QUERY[:5]  # what every nvidia-smi answers


def _nvidia_gpus(fields: tuple[str, ...] = _NVIDIA_QUERY) -> tuple[list[dict], str | None]:
    """nvidia-smi's GPUs, and its own words when it lists none: it prints "Failed to initialize
    NVML: Driver/library version mismatch" (a driver upgraded under a loaded kernel module) or
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver" on stdout
    and exits non-zero, which read as a host without GPUs."""
    if not shutil.which("nvidia-smi"):
        return [], None
    try:
        done = subprocess.run(["nvidia-smi", f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"],
                              capture_output=True, text=True, timeout=15, check=False)
    except subprocess.TimeoutExpired:
        return [], "nvidia-smi did not answer in 15 s (a GPU after an Xid error, or a hung driver)"
    except OSError as exc:
        return [], f"nvidia-smi could not start: {exc.strerror or exc}"
    gpus, other = [], []
    for line in done.stdout.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == len(fields) and parts[0].isdigit():
            values = dict(zip(fields, (_nvidia_value(p) for p in parts)))
            gpus.append({"index": parts[0], "name": parts[1], "memory_total_mib": values["memory.total"],
                         "memory_used_mib": values["memory.used"], "utilization_pct": values["utilization.gpu"],
                         "uuid": values.get("uuid"), "mig_mode": values.get("mig.mode.current")})
        elif line.strip():
            other.append(line.strip())
    if not gpus and fields != _NVIDIA_QUERY_BEFORE_MIG and "not a valid field" in done.stdout + done.stderr:
        # a driver before R450 knows no mig.mode.current ('Field "mig.mode.current" is not a
        # valid field to query.'): asked again without the fields it names, keeping uuid,
        # which CUDA_VISIBLE_DEVICES=GPU-... needs and every driver answers
        refused = set(re.findall(r'Field "([^"]+)" is not a valid field', done.stdout + done.stderr))
        fewer = tuple(f for f in fields if f not in refused or f in _NVIDIA_QUERY_BEFORE_MIG)
        if len(fewer) < len(fields) and fewer != _NVIDIA_QUERY_BEFORE_MIG:  # else the same query as below
            answer = _nvidia_gpus(fewer)
            if answer[0]:
                return answer
        return _nvidia_gpus(_NVIDIA_QUERY_BEFORE_MIG)
    said = other or ([] if gpus else done.stderr.strip().splitlines())
    if said:  # a GPU it cannot reach ("Unable to determine the device handle for GPU0000:41:00.0")
        return gpus, "nvidia-smi: " + "; ".join(said[:2])
    return gpus, (f"nvidia-smi: exit code {done.returncode}, no GPU listed" if done.returncode and not gpus else None)


def _nvidia_value(text: str) -> str | None:
    """A field as nvidia-smi prints it, None where it has none: "[N/A]" (GPU use on a MIG GPU,
    MIG mode on a GPU without MIG), "[Not Supported]", "[Unknown Error]"."""
    return None if not text or (text.startswith("[") and text.endswith("]")) or text == "N/A" else text


def visible_gpus(value: str, gpus: list[dict], mig_devices: dict[str, str] | None = None) -> list[str]:
    """The nvidia-smi indices of the GPUs CUDA_VISIBLE_DEVICES=`value` lets CUDA use, in CUDA's
    order. Entries are indices or GPU UUIDs, a UUID's first characters enough when they name one
    GPU ("GPU-8932f937"), or MIG devices: "MIG-<uuid>" (R470 on; `mig_devices` maps those UUIDs,
    from `nvidia-smi -L`, to their GPU's index) or "MIG-GPU-<uuid>/1/0" (before R470). CUDA stops
    at the first entry that names no GPU ("0,2,-1,1": 0 and 2) (CUDA C Programming Guide, CUDA
    Environment Variables), and as PyTorch reads it (torch/cuda/__init__.py
    `_parse_visible_devices`, `_transform_uuid_to_ordinals`): the first entry's form (index,
    GPU-, MIG-) is the list's, an entry of another form ends it ("0,GPU-..." is 0 alone); an
    index is read as strtoul reads it ("1gpu2" is 1); a device named twice leaves CUDA none
    ("0,1,0": no GPU). An index is taken as nvidia-smi's, which it is unless
    CUDA_DEVICE_ORDER=FASTEST_FIRST reorders GPUs of different models."""
    entries = [part.strip() for part in value.split(",")]
    form = next((f for f in ("MIG-", "GPU-") if entries[0].startswith(f)), "")
    devices: list[str] = []
    chosen: list[str] = []
    for entry in entries:
        number = re.match(r"[+-]?[0-9]+", entry)  # CUDA reads ASCII digits (\d took "١" for 1)
        if not form and number and int(number.group()) >= 0:
            device = str(int(number.group()))
            found = [gpu["index"] for gpu in gpus if gpu["index"] == device]
        elif form == "GPU-" and entry.startswith(form):
            found = [gpu["index"] for gpu in gpus if (gpu.get("uuid") or "").startswith(entry)]
            device = found[0] if len(found) == 1 else entry
        elif entry.startswith("MIG-GPU-") and form == "MIG-":
            # MIG-GPU-<uuid>/<GPU instance>/<compute instance>: a slice of that GPU, which
            # has none unless MIG mode is on
            found = [gpu["index"] for gpu in gpus if gpu.get("mig_mode") == "Enabled"
                     and (gpu.get("uuid") or "").startswith(entry[4:].split("/")[0])]
            device = entry
        elif form == "MIG-" and entry.startswith(form):
            named = [uuid for uuid in (mig_devices or {}) if uuid.startswith(entry)]
            found = [(mig_devices or {})[uuid] for uuid in named]
            device = named[0] if named else entry
        else:
            break
        if len(found) != 1:
            break
        if device in devices:
            return []
        devices.append(device)
        if found[0] not in chosen:  # two MIG slices of one GPU
            chosen.append(found[0])
    return chosen


def rocr_uuids() -> tuple[dict[str, str], bool]:
    """The UUID ROCR_VISIBLE_DEVICES names each AMD GPU by ("GPU-" and KFD's unique_id as 16 hex
    digits, upper-cased: ROCR-Runtime src/core/runtime/amd_filter_device.cpp BuildDeviceUuidList,
    what rocminfo prints as "Uuid"), by amd-smi / rocm-smi index, and whether it is KFD's own.
    amd-smi list -e gives it as hip_uuid ("GPU-de8287300da37c72", ROCm/rocm-systems#3614: HIP's
    UUID is KFD's unique_id), taken for KFD's where every GPU has one of its own (an amd-smi
    before #3614 gave the ASIC serial there). Else the ASIC serial stands for it, which is KFD's
    unique_id on a whole bare-metal GPU but not on a partition or a VF (ROCm/container-toolkit#116): from
    amd-smi list's uuid, which amdsmi_uuid_gen (amdsmi src/amd_smi/amd_smi_uuid.cc) builds around
    it ("deff740f-0000-1000-8082-87300da37c72": serial de, 82, 8730, 0da37c72), or rocm-smi
    --showuniqueid ("Unique ID", the sysfs unique_id)."""
    listed = _amd_smi_entries("list", "-e")
    kfd = {index: str(entry["hip_uuid"]).upper() for index, entry in listed.items()
           if re.fullmatch(r"GPU-[0-9a-fA-F]{16}", str(entry.get("hip_uuid") or ""))}
    if kfd:
        # KFD's only where every GPU has one of its own: one GPU without a hip_uuid, or two with
        # one, is an amd-smi before rocm-systems#3614, whose hip_uuid was the ASIC serial (a
        # partitioned GPU's partitions all shared it), not KFD's
        return kfd, len(kfd) == len(listed) and len(set(kfd.values())) == len(kfd)
    serials: dict[str, str] = {}
    for index, entry in (listed or _amd_smi_entries("list")).items():
        parts = re.fullmatch(r"([0-9a-f]{2})[0-9a-f]{6}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{2}([0-9a-f]{2})-([0-9a-f]{12})",
                             str(entry.get("uuid") or "").lower())
        if parts:
            serials[index] = "GPU-" + "".join(parts.groups()).upper()
    if not serials:
        cards = _json_in(_output(["rocm-smi", "--showuniqueid", "--json"]))
        for key, card in (cards.items() if isinstance(cards, dict) else ()):
            unique = str(card.get("Unique ID") or "") if isinstance(card, dict) else ""
            if str(key).startswith("card") and re.fullmatch(r"(0x)?[0-9a-fA-F]{1,16}", unique):
                serials[str(key)[len("card"):]] = f"GPU-{int(unique, 16):016X}"
    return serials, False


def rocm_visible_gpus(rocr: str | None, hip: str | None, gpus: list[dict],
                      uuids: tuple[dict[str, str], bool] | None = None) -> list[str] | None:
    """The indices (as amd-smi / rocm-smi list them) of the AMD GPUs a ROCm process started with
    ROCR_VISIBLE_DEVICES=`rocr` and HIP_VISIBLE_DEVICES (else CUDA_VISIBLE_DEVICES) = `hip` uses,
    in HIP's order; None when it cannot be told here. The ROCr runtime applies
    ROCR_VISIBLE_DEVICES first, over all GPUs; HIP's list then indexes the GPUs ROCr left (ROCm
    docs, HIP reference/env_variables.html "GPU isolation"; PyTorch on ROCm, torch/cuda/__init__.py
    `_parse_visible_devices`, pytorch/pytorch#142292). Each list is read as its runtime reads it
    (_rocr_indexed, _hip_indexed), not as CUDA's. amd-smi's order is taken for ROCr's, which it is
    on the usual host (both enumerate by PCI bus). `uuids`: rocr_uuids(), for entries that name
    a GPU by UUID."""
    ordered = sorted((gpu["index"] for gpu in gpus if str(gpu.get("index", "")).isdigit()), key=int)
    pool = _rocr_indexed(rocr, ordered, uuids) if rocr is not None else ordered
    if pool is None or hip is None:
        return pool
    return _hip_indexed(hip, pool)


def _rocr_indexed(value: str, pool: list[str], uuids: tuple[dict[str, str], bool] | None = None) -> list[str] | None:
    """The GPUs ROCR_VISIBLE_DEVICES=`value` leaves, as ROCr reads it (ROCR-Runtime
    core/runtime/amd_filter_device.cpp RvdFilter: set and empty is no GPU; each entry trimmed and
    upper-cased; an index read by strtol base 0 to its end ("0x2" is 2, "010" is 8); an entry
    that starts with G a UUID of 5 to 20 characters, the start of one GPU's "GPU-<unique_id>"
    (ProcessUuidToken: "GPU-18e5" names the GPU whose UUID begins so, if it is the only one); the
    first entry that names no GPU, or one named before, ends the list: "0,1,0" is 0 and 1).
    None where that cannot be told here: a UUID entry without `uuids` (rocr_uuids), or one that
    names none of the ASIC serials that stood in for KFD's UUIDs, and an empty entry ("0,,1"),
    on which ROCr throws."""
    chosen: list[str] = []
    # getline's tokens: none after a last comma; and ROCr reads no more of them than there are GPUs
    entries = value.removesuffix(",").split(",") if value else []
    for entry in entries[:len(pool)]:
        entry = entry.strip().upper()
        if not entry:
            return None
        if entry.startswith("G"):
            if uuids is None:
                return None
            if not 5 <= len(entry) <= 20:
                break
            named = [index for index in pool if (uuids[0].get(index) or "Invalid-UUID").startswith(entry)]
            # UUIDs that only stand for KFD's: none named may be a GPU whose KFD UUID differs, and
            # two named by one UUID (a GPU's partitions sharing its serial) may be told apart by KFD's
            if not uuids[1] and (not named or len({uuids[0][index] for index in named}) < len(named)):
                return None
            if len(named) != 1 or named[0] in chosen:
                break
            chosen.append(named[0])
            continue
        if not re.fullmatch(r"[+-]?(0X[0-9A-F]+|0[0-7]*|[1-9][0-9]*)", entry):
            break
        number = int(entry, 16 if "X" in entry else 8 if entry.lstrip("+-").startswith("0") else 10)
        if not 0 <= number < len(pool) or pool[number] in chosen:
            break
        chosen.append(pool[number])
    return chosen


def _hip_indexed(value: str, pool: list[str]) -> list[str] | None:
    """The GPUs of `pool` HIP_VISIBLE_DEVICES (else CUDA_VISIBLE_DEVICES) = `value` names, as the
    HIP runtime reads it (ROCm/clr rocclr/device/rocm/rocdevice.cpp Device::init): an entry is
    a decimal index as written ("1", not " 1", "+1" nor "1gpu2"), the first that is not, or
    names no GPU, ends the list. None where that cannot be told here or where PyTorch, which
    the engines ask how many GPUs there are, reads it otherwise: an empty value (HIP then uses
    every GPU, torch counts none), an entry naming a GPU by UUID ("GPU-...": the HSA agent's,
    not in amd-smi's listing), a GPU named twice (HIP skips it, torch counts none)."""
    if not value:
        return None
    chosen: list[str] = []
    for entry in value.split(","):
        if "GPU-" in entry:
            return None
        # ASCII digits only: "²".isdigit() is True and int("²") raises (the runtime reads 0-9)
        if not (entry.isascii() and entry.isdigit()) or entry != str(int(entry)) or int(entry) >= len(pool):
            break
        if pool[int(entry)] in chosen:
            return None
        chosen.append(pool[int(entry)])
    return chosen


_ROCM_VISIBLE = ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")


def _mig_devices() -> dict[str, str]:
    """MIG device UUID -> its GPU's index, from `nvidia-smi -L`: "GPU 0: NVIDIA A100-SXM4-40GB
    (UUID: GPU-...)" then "  MIG 1g.5gb     Device  0: (UUID: MIG-...)" under it."""
    devices: dict[str, str] = {}
    gpu = None
    for line in _output(["nvidia-smi", "-L"]).splitlines():
        head = re.match(r"GPU (\d+):", line)
        if head:
            gpu = head.group(1)
        uuid = re.search(r"\(UUID: (MIG-[^)\s]+)\)", line)
        if uuid and gpu is not None and line.lstrip().startswith("MIG"):
            devices[uuid.group(1)] = gpu
    return devices


def _version_of(package: str) -> str | None:
    """The version of the code `import package` runs (engine_info.installed_version: a source
    checkout on PYTHONPATH ahead of a pip-installed copy reports its own version)."""
    from spec_debug.probes.engine_info import package_info

    info = package_info(package)
    if info is None:
        return None
    return info["version"] or "unknown"


def run(args: dict) -> dict:
    from spec_debug.probes.engine_info import python_executable

    gpus, gpu_error = _gpus_and_error()
    result = {
        "hostname": platform.node(),
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "python_executable": python_executable(),
        "cpu_count": os.cpu_count(),
        "gpus": gpus,
        # whose tool listed them: nvidia-smi's rows have a uuid field, rocm-smi's and amd-smi's
        # none; a step that runs nvidia-smi (host_smoke's gpu_busy) runs where it is "nvidia"
        # (on a ROCm host it failed with exit code 127, an SD001 error on a healthy MI300X)
        "gpu_vendor": ("nvidia" if any("uuid" in gpu for gpu in gpus) else "amd") if gpus else None,
        **({"gpu_error": gpu_error} if gpu_error else {}),
        "packages": {name: _version_of(name) for name in ("torch", "sglang", "vllm", "speculators", "safetensors", "transformers")},
    }
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if gpus and not any("uuid" in gpu for gpu in gpus) and any(key in os.environ for key in _ROCM_VISIBLE):
        # AMD GPUs (from rocm-smi / amd-smi: no uuid field): the engines' ROCm builds honour
        # ROCR_VISIBLE_DEVICES, then HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES
        result.update({key.lower(): os.environ[key] for key in _ROCM_VISIBLE if key in os.environ})
        # HIP reads CUDA_VISIBLE_DEVICES when HIP_VISIBLE_DEVICES is unset or empty (rocdevice.cpp)
        values = (os.environ.get("HIP_VISIBLE_DEVICES"), visible)
        hip = next((v for v in values if v), next((v for v in values if v is not None), None))
        rocr = os.environ.get("ROCR_VISIBLE_DEVICES")
        # GPUs named by UUID ("GPU-..."): their UUIDs, asked for only then (one more amd-smi call)
        uuids = rocr_uuids() if rocr and any(e.strip().upper().startswith("G") for e in rocr.split(",")) else None
        chosen = rocm_visible_gpus(rocr, hip, gpus, uuids)
        if chosen is not None:
            result["visible_gpus"] = chosen
    elif visible is not None and any("uuid" in gpu for gpu in gpus):
        # this shell's CUDA_VISIBLE_DEVICES (a scheduler's often names UUIDs): the GPUs a
        # server started from it would use, by nvidia-smi index (NVIDIA GPUs: those with a
        # uuid field, None where a driver before R450 was asked without it)
        mig = _mig_devices() if re.search(r"(^|,)\s*MIG-(?!GPU-)", visible) else None
        result["cuda_visible_devices"] = visible
        result["visible_gpus"] = visible_gpus(visible, gpus, mig)
    return result
