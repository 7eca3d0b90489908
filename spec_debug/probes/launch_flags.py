"""launch_flags (host side): the serving engine's command line, and the configs it names.

Given `server_cmdline` it is used as is; else the host's processes are searched (/proc/PID/
cmdline) for an SGLang or vLLM server. Every argument that names a model directory (or a Hub
id in the HF cache) has its config.json read, so the controller can compare the flags with
the draft. Parsing the flags happens on the controller (spec_debug.diagnose.launch).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

from spec_debug.probes.hostfiles import describe_model, hf_cache_dirs, read_environ

# `python -m MODULE` of each server entry point; sglang_router.launch_server starts the router
# and its SGLang workers from one command line (sgl-project/sglang: sgl-router/py_src/
# sglang_router/launch_server.py), with the same --speculative-* flags.
_SERVER_MARKERS = ("sglang.launch_server", "sglang_router.launch_server", "vllm.entrypoints.openai.api_server",
                   "vllm.entrypoints.api_server")


def is_server_argv(argv: list[str]) -> bool:
    for i, tok in enumerate(argv):
        base = tok.rsplit("/", 1)[-1]
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if tok in _SERVER_MARKERS or (base in ("sglang", "vllm") and nxt == "serve"):
            return True
    return False


def server_processes(proc: Path = Path("/proc")) -> list[dict[str, Any]]:
    """Server processes, parents first: SGLang and vLLM fork workers whose cmdline repeats the
    parent's, so a process whose parent is also a match is a worker, not the server."""
    found: dict[int, dict[str, Any]] = {}
    me = os.getpid()
    for entry in proc.iterdir() if proc.is_dir() else []:
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            raw = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        argv = [a.decode("utf-8", "replace") for a in raw.split(b"\0") if a]
        if not argv or not is_server_argv(argv):
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        found[int(entry.name)] = {"pid": int(entry.name), "ppid": ppid, "argv": argv}
    servers = [p for p in found.values() if p["ppid"] not in found]
    return sorted(servers, key=lambda p: p["pid"])


# Flags that turn speculation on (SGLang --speculative-*, vLLM --speculative-config / -sc and
# its dotted keys, --spec-method/--spec-model/--spec-tokens, the V0 --speculative-model).
_SPECULATIVE_FLAG = re.compile(r"^(--speculative[-_]|-sc(\.|=|$)|--spec-(method|model|tokens)\b)")


def choose_server(processes: list[dict[str, Any]]) -> dict[str, Any]:
    """The server to audit: the first one with speculative flags, else the first. A baseline
    without speculation often runs beside the speculative server (SD501 compares the two)."""
    for process in processes:
        if any(_SPECULATIVE_FLAG.match(tok) for tok in process["argv"]):
            return process
    return processes[0]


def _model_refs(argv: list[str]) -> list[str]:
    """Arguments that may name a model: any token, `--flag=value` values, JSON "model" values."""
    refs: list[str] = []
    for tok in argv:
        value = tok.split("=", 1)[1] if tok.startswith("--") and "=" in tok else tok
        if value.startswith("{"):
            try:
                spec = json.loads(value)
            except ValueError:
                continue
            if isinstance(spec, dict) and isinstance(spec.get("model"), str):
                refs.append(spec["model"])
            continue
        if value.startswith("-") or value in refs:
            continue
        if "/" in value or value.startswith("~"):
            refs.append(value)
    return refs


def _inner_words(argv: list[str]) -> list[str]:
    """Words of the arguments that are themselves command lines: a pasted manifest's
    `sh -c "vllm serve MODEL ..."` string, or a compose `command: >` block."""
    words: list[str] = []
    for tok in argv:
        if any(ch.isspace() for ch in tok) and not tok.lstrip().startswith("{"):
            try:
                words += shlex.split(tok)
            except ValueError:
                words += tok.split()
    return words


def _json_model_refs(text: str) -> list[str]:
    """`"model"` values of the JSON objects written in a command line as it was given.

    A line copied from `ps` has lost its quotes around `--speculative-config {"model": ...}`,
    and shlex would strip the JSON's own quotes; the objects are read from the raw text."""
    refs: list[str] = []
    if '\\"' in text:
        # JSON inside a double-quoted string (a k8s `args: ["vllm serve ... '{\\"model\\": ...}'"]`,
        # the vLLM k8s docs' `/bin/sh -c` form) has its quotes escaped
        text = text + "\n" + text.replace('\\"', '"')
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start >= 0:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict) and isinstance(value.get("model"), str):
            refs.append(value["model"])
        start = text.find("{", end)
    return refs


def run(args: dict) -> dict:
    cmdline = args.get("server_cmdline") or ""
    result: dict[str, Any] = {"args": args, "source": None, "cmdline": None, "argv": None,
                              "processes": [], "models": {}}
    if cmdline:
        result["source"] = "server_cmdline var"
        result["cmdline"] = cmdline
        try:
            argv = shlex.split(cmdline.replace("\\\n", " "))
        except ValueError:
            argv = cmdline.split()
        argv += _inner_words(argv)
    else:
        processes = server_processes()
        result["processes"] = [{"pid": p["pid"], "argv": p["argv"][:64]} for p in processes]
        if not processes:
            return result
        chosen = choose_server(processes)
        argv = chosen["argv"]
        result["source"] = f"/proc/{chosen['pid']}/cmdline"
        result["argv"] = argv
    refs = _model_refs(argv)
    if cmdline:
        refs += [ref for ref in _json_model_refs(cmdline) if ref not in refs]
    cwd = None if cmdline else _server_cwd(chosen["pid"])
    environ = None if cmdline else read_environ(chosen["pid"])
    # the server's Hub cache (HF_HOME=/data/hf in its unit file or tmux session, not in ours)
    caches = [root for root in hf_cache_dirs(environ) if root not in hf_cache_dirs()] if environ else []
    if cwd:
        # a bare directory name (`--model-path Qwen3-8B`, run from /models) is a model too
        refs += [tok for tok in argv if tok not in refs and not tok.startswith("-") and "/" not in tok
                 and tok not in (".", "..") and os.path.isfile(os.path.join(cwd, tok, "config.json"))]
    for ref in refs:
        local = os.path.join(cwd, ref) if cwd and not os.path.isabs(os.path.expanduser(ref)) else None
        if local and os.path.isfile(os.path.join(local, "config.json")):
            # the engines load a relative path (and a Hub id that names a local directory) from
            # their own working directory, which is not the probe's
            info = {**describe_model(local), "name": ref}
        else:
            info = describe_model(ref, extra_caches=caches)
        if info.get("found"):
            result["models"][ref] = info
    return result


def _server_cwd(pid: int, proc: Path = Path("/proc")) -> str | None:
    try:
        return os.readlink(proc / str(pid) / "cwd")
    except OSError:  # another user's process: not readable
        return None
