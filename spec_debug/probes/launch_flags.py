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
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spec_debug.probes import server_log
from spec_debug.probes.hostfiles import MAX_SENT_CONFIG_BYTES, describe_model, hf_cache_dirs, other_mount_namespace, read_environ, readlink

# `python -m MODULE` of each server entry point; sglang_router.launch_server starts the router
# and its SGLang workers from one command line (sgl-project/sglang: sgl-router/py_src/
# sglang_router/launch_server.py), with the same --speculative-* flags.
_SERVER_MARKERS = ("sglang.launch_server", "sglang_router.launch_server", "vllm.entrypoints.openai.api_server",
                   "vllm.entrypoints.api_server",
                   # NVIDIA Dynamo's workers run the engine in-process with its own flags
                   # (spec_debug.diagnose.launch `_DYNAMO_WORKERS`); Dynamo <= 0.4 started SGLang
                   # as `python3 -m dynamo.sglang.worker` / `dynamo.sglang.decode_worker`
                   "dynamo.sglang", "dynamo.vllm", "dynamo.sglang.worker", "dynamo.sglang.decode_worker")


# `python -m vllm.entrypoints.cli.main serve MODEL`: the module behind the `vllm` console script
# (and `sglang.cli.main` behind `sglang`), run with a venv's interpreter by launch scripts.
_CLI_MODULES = ("vllm.entrypoints.cli.main", "sglang.cli.main")

_ENGINE_ENV_PREFIXES = ("SGLANG_", "SGL_", "VLLM_")


def is_server_argv(argv: list[str]) -> bool:
    for i, tok in enumerate(argv):
        base = tok.rsplit("/", 1)[-1]
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if tok in _SERVER_MARKERS or ((base in ("sglang", "vllm") or tok in _CLI_MODULES) and nxt == "serve"):
            return True
        if tok == "huggingfaceserver" and i and argv[i - 1] == "-m":
            # KServe's Hugging Face runtime (`python3 -m huggingfaceserver`, its image's
            # ENTRYPOINT), vLLM's engine args on its command line (spec_debug.diagnose.launch
            # `_KSERVE_HF_SERVER`); as a module only, not a word of `pgrep -af huggingfaceserver`
            return True
        if (base == "trl" and nxt == "vllm-serve") or tok.endswith("sglang/launch_server.py"):
            # servers the audit reads (spec_debug.diagnose.launch `detect_engine`) that were not
            # taken for one here: TRL's vLLM generation server (`trl vllm-serve`, huggingface/trl
            # trl/scripts/vllm_serve.py) and SGLang's launch_server.py run by its path from a
            # source tree (only under a sglang/ folder: another project's launch_server.py is not)
            return True
    return False


def cmdline_argv(raw: bytes | str) -> list[str]:
    """The argv of a /proc/PID/cmdline: each argument ends in a NUL, so an empty argument is an
    empty word between two (`--speculative-config ""` of a launcher whose "$SPEC" was empty, which
    vLLM reads as no config; `--api-key ""`). Only the NUL that ends the last argument is dropped
    (was: every empty word, so the next word became the flag's value: `vllm serve --api-key ""
    MODEL` lost its model, and an empty --speculative-config read as one with no value)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return text[:-1].split("\0") if text.endswith("\0") else text.split("\0") if text else []


# Set by the demo's simulated host (spec_debug.demo): its server is the recorded command line,
# not a process of this machine, so a real (or a test's) SGLang/vLLM process running here must
# not be taken for it (the demo's notes changed with whatever else ran on the machine).
SIMULATED_HOST_ENV = "SPEC_DEBUG_SIMULATED_HOST"


def server_processes(proc: Path = Path("/proc")) -> list[dict[str, Any]]:
    """Server processes, parents first: SGLang and vLLM fork workers whose cmdline repeats the
    parent's, so a process whose parent is also a match is a worker, not the server."""
    if os.environ.get(SIMULATED_HOST_ENV):
        return []
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
        argv = cmdline_argv(raw)
        if not argv or not is_server_argv(argv):
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        found[int(entry.name)] = {"pid": int(entry.name), "ppid": ppid, "argv": argv}
    servers = [p for p in found.values() if p["ppid"] not in found]
    return sorted(servers, key=lambda p: p["pid"])


# Flags that turn speculation on (SGLang --speculative-*, vLLM --speculative-config / -sc and
# its dotted keys, --spec-method/--spec-model/--spec-tokens, the V0 --speculative-model), and
# `--speculative '{...}'`: vLLM's argparse keeps allow_abbrev on, and --speculative-config is the one
# option of `vllm serve` that starts with it (spec_debug.diagnose.launch `_VLLM_OTHER_OPTIONS`)
SPECULATIVE_FLAG = re.compile(r"^(--speculative([-_.=]|$)|-sc(\.|=|$)|--spec-(method|model|tokens)\b)")


def choose_server(processes: list[dict[str, Any]]) -> dict[str, Any]:
    """The server to audit: the first one with speculative flags, else the first. A baseline
    without speculation often runs beside the speculative server (SD501 compares the two)."""
    for process in processes:
        if any(SPECULATIVE_FLAG.match(tok) for tok in process["argv"]):
            return process
    return processes[0]


_SHELL_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# `--flag=value`, and vLLM's one-dash short options in the same form: argparse splits `-sc={...}`
# and `-sc.model=/models/d` at the `=` as it splits `--speculative-config=...` (CPython
# Lib/argparse.py `_parse_optional`; FlexibleArgumentParser reads `-sc.KEY` as a dotted key)
_FLAG_WITH_VALUE = re.compile(r"--?[A-Za-z][\w.-]*=")


def model_refs(argv: list[str]) -> list[str]:
    """Arguments that may name a model: any token, `--flag=value` values, JSON "model" values."""
    refs: list[str] = []
    for tok in argv:
        # `--flag=value`, and a script's `MODEL=org/name` line, which the controller reads into
        # the `$MODEL` of the server command (spec_debug.diagnose.launch `_with_script_variables`)
        value = tok.split("=", 1)[1] if (_FLAG_WITH_VALUE.match(tok) or _SHELL_ASSIGNMENT.match(tok)) else tok
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
    listed = _listed_model_path(argv)
    if listed is not None and listed not in refs:
        refs.insert(0, listed)
    return refs


_INTERPRETER = re.compile(r"(\S*/)?python(\d+(\.\d+)*)?")


def listed_serve_at(argv: list[str], i: int) -> bool:
    """Whether ``argv[i]`` is the `serve` of a process listing's `vllm serve`: the interpreter,
    then the console script's full path (`/usr/bin/python3 /usr/local/bin/vllm serve ...`), as
    `ps -o args` or /proc/PID/cmdline show a running server (the kernel puts the interpreter
    before the script: execve(2), "Interpreter scripts"); no one types it so. One rule for this
    probe and the controller's reading (spec_debug.diagnose.launch `_listed_model_words_joined`)."""
    return (2 <= i < len(argv) and str(argv[i]) == "serve" and str(argv[i - 1]).startswith("/")
            and str(argv[i - 1]).rsplit("/", 1)[-1] == "vllm" and _INTERPRETER.fullmatch(str(argv[i - 2])) is not None)


def _listed_model_path(argv: list[str]) -> str | None:
    """The model path of a `ps` line of `vllm serve` whose path holds a space: `/usr/bin/python3
    /usr/local/bin/vllm serve /mnt/AI Models/Qwen3-8B --port 8000` (ps joins the argv words by
    spaces; the interpreter before the script's full path marks a listing, as the controller
    reads it, spec_debug.diagnose.launch `_listed_model_words_joined`): the words up to the
    first flag, joined."""
    for i in range(2, len(argv) - 1):
        if listed_serve_at(argv, i):
            words = []
            for word in argv[i + 1:]:
                if word.startswith("-"):
                    break
                words.append(word)
            return " ".join(words) if len(words) > 1 and not any("$" in word for word in words) else None
    return None


_QUOTED_PATH = re.compile(r"""["']((?:~|/|[\w.-]+/)[^"'\s,]*)["']""")


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


# What chat and document editors (Slack, Confluence, Word) make of a pasted command: `--` turned
# into an em or en dash, straight quotes into curly ones, spaces into no-break spaces. No engine
# can have run such a line (argparse reads `—speculative-num-steps` as a stray positional and
# exits), so the command meant is the one with the plain characters back.
_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                             "\u00a0": " ", "\u2009": " ", "\u202f": " "})
_DASHED_FLAG = re.compile(r"(?:(?<=\s)|^)[\u2013\u2014]{1,2}(?=[A-Za-z])")


def plain_typography(text: str) -> str:
    """A pasted command line with the editor's typography undone (see above)."""
    return _DASHED_FLAG.sub("--", text.translate(_TYPOGRAPHY))


def run(args: dict) -> dict:
    cmdline = plain_typography(args.get("server_cmdline") or "")
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
    refs = model_refs(argv)
    if cmdline:
        refs += [ref for ref in _json_model_refs(cmdline) if ref not in refs]
        # an offline engine's Python call (`LLM(model="org/name", speculative_config={"model":
        # "org/draft", ...})`): its path-like string literals, trailing commas and all
        refs += [ref for ref in _QUOTED_PATH.findall(cmdline) if ref not in refs]
    view = None if cmdline else server_view(chosen["pid"])
    if view is not None and view.environ:
        # the engines read speculative switches from their environment (SGLANG_ENABLE_SPEC_V2,
        # VLLM_USE_V1, ...): only those prefixes travel, never the rest (tokens, keys)
        result["server_env"] = {key: value for key, value in view.environ.items()
                                if key.startswith(_ENGINE_ENV_PREFIXES)}
    config = read_config_file(argv, view)
    if config is not None:
        result["config_file"] = config
        refs += [ref for ref in _yaml_model_refs(config.get("text") or "") if ref not in refs]
    result["models"] = find_models(refs, argv, view)
    if args.get("server_log"):
        # the startup line of the server log says what that server runs; the controller
        # compares it with this command (spec_debug.diagnose.steps.launch_step)
        log = server_log.run({"server_log": args["server_log"]})
        result["server_log"] = {"path": log.get("path"), "found": log.get("found"),
                                "lines": [line for line in log.get("lines", []) if "server_args=" in line
                                          or "speculative_config=" in line]}
    return result


def read_config_file(argv: list[str], view: "ServerView | None") -> dict[str, Any] | None:
    """The text of the YAML file a standalone `--config FILE` names, opened where the server
    opens it (its cwd, its container's root). Both engines merge it into their argv
    (spec_debug.diagnose.config_file says how); the controller parses it."""
    if "--config" not in argv or argv.index("--config") == len(argv) - 1:
        return None
    written = argv[argv.index("--config") + 1]
    local = view.local_path(written) if view is not None else os.path.expanduser(written)
    info: dict[str, Any] = {"path": written, "text": None, "error": None}
    if local is None or (view is None and not os.path.isabs(local)):
        info["error"] = "a relative path, and the server's working directory is unknown"
        return info
    try:
        status = os.stat(local)
        if not stat.S_ISREG(status.st_mode):
            # `--config <(...)`, /dev/stdin: a pipe blocks the read, /dev/zero never ends it
            info["error"] = f"not a regular file (a pipe or a device), not read ({local})"
            return info
        # the text is sent in the probe's JSON: the bound of what a probe sends, not the
        # 32 MiB a MoE config.json is read to (its expert entries are folded, a flag file's not)
        if status.st_size > MAX_SENT_CONFIG_BYTES:
            info["error"] = f"larger than {MAX_SENT_CONFIG_BYTES} bytes"
            return info
        with open(local, encoding="utf-8", errors="replace") as handle:
            text = handle.read(MAX_SENT_CONFIG_BYTES + 1)  # to the bound, whatever stat said
        if len(text) > MAX_SENT_CONFIG_BYTES:
            info["error"] = f"larger than {MAX_SENT_CONFIG_BYTES} bytes"
            return info
    except OSError as exc:
        info["error"] = f"{exc.strerror or exc} ({local})"
        return info
    sent, size = text, len(json.dumps(text))
    if size > MAX_SENT_FLAG_TEXT:
        sent = flag_lines(text)
        size = len(json.dumps(sent))
    if size > MAX_SENT_FLAG_TEXT:
        info["error"] = (f"{len(text):,} characters, {size:,} as JSON once its comment and "
                         f"blank lines are dropped, more than a probe sends of a flag file ({MAX_SENT_FLAG_TEXT:,})")
        return info
    if sent is not text:
        info["dropped_comment_lines"] = text.count("\n") - sent.count("\n")
    info["text"] = sent
    return info


# What a probe sends of a --config flag file's text, as JSON. The probe's whole output must fit the
# 256 KiB a run keeps of a step's output (runner/output.py DEFAULT_CAPTURE_LIMIT) beside the model
# configs it carries: a 430 kB flag file (its flags, then 10,000 comment lines) made 440 kB of
# JSON, cut, and the launch step failed with "output is not JSON", the audit lost. A flag file
# of a few dozen flags is a few kilobytes.
MAX_SENT_FLAG_TEXT = 100_000
# A block scalar's header: its indicator (`|`, `>-`, `|2`) ends the line's code, after `key:`, `- `, a
# tag or an anchor (`chat-template: !!str |`); a line taken for one by mistake only keeps more lines.
_BLOCK_SCALAR = re.compile(r"(?:^|[\s:])[|>][-+0-9]*$")
# A key or item line whose value is below it: `key:`, `- `, or only a tag or an anchor (`key: &a`)
_OPENS_BLOCK = re.compile(r"(?::|(?:^|\s)[?-])(?:\s+[!&]\S*)*$")


def flag_lines(text: str) -> str:
    """A YAML flag file without the comment-only and blank lines that make no flag (the engines
    read the file with yaml.safe_load: spec_debug.diagnose.config_file). A line is kept where
    dropping it could change a value: in a block scalar (`chat-template: |`, `!!str |`, `&t >-`:
    a `#` line there is the value's text); in a quoted scalar or a flow collection that spans
    lines (a blank line there is a line break, a `#` line text); and before a line more indented
    than the key or item line above it where that line holds a value (a plain scalar's next
    line: a blank line between them is a line break), not a block (`speculative-config:`)."""
    kept: list[str] = []
    held: list[str] = []  # the blank and comment lines since the last line kept
    block_indent = None  # the indent of the line that opened the block scalar being read
    key_indent, opens_block, state = -1, True, ""  # the document is a block
    for line in text.splitlines(keepends=True):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None and (not line.strip() or indent > block_indent):
            kept.append(line)
            continue
        block_indent = None
        if not state and (not line.strip() or line.lstrip().startswith("#")):
            held.append(line)
            continue
        # more indented than a key or item line that holds a value: that value's next line
        continues = not state and indent > key_indent and not opens_block
        if held and continues:
            kept.extend(held)
        held = []
        kept.append(line)
        # a plain scalar's next line opens no quote or flow ('k: v' then '  - "q' is 'v - "q')
        state, code, is_key = _open_at_end(line.rstrip("\r\n"), state, opens=not continues)
        code = code.rstrip()
        if not continues and is_key:  # (is_key only where no quote or flow was open before the line)
            # `key:`, or only a tag or an anchor after it (`key: &a`): a block follows
            key_indent, opens_block = indent, not state and bool(_OPENS_BLOCK.search(code))
        else:  # a scalar's line (or a flow's): what follows more indented may be its next line
            opens_block = False
        if not state and _BLOCK_SCALAR.search(code):
            block_indent = indent
    return "".join(kept)


def _open_at_end(line: str, state: str, opens: bool = True) -> tuple[str, str, bool]:
    """The quote and flow brackets still open at the end of a YAML `line`, given those open
    before it (`state`: brackets, then a quote); the line without its comment; and whether it
    holds a key or an item (`key:`, `- `, `? ` outside quotes and flows). A quote or a bracket
    opens only where a value starts (after the indent, `: `, `- `, `? `, `,`, a bracket, or a `:`
    in a flow), and none where `opens` is false; `#` after a space starts a comment; `''` and
    `\\"` close nothing."""
    quote = state[-1] if state[-1:] in ("'", '"') else ""
    flows = state[:len(state) - len(quote)]
    start, is_key, i = opens and not quote, False, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote and quote == "'" and line[i + 1:i + 2] == "'":
                i += 1
            elif c == quote:
                quote, start = "", False
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return flows, line[:i], is_key
        elif c in "\"'[{" and start:
            quote, flows = (c, flows) if c in "\"'" else ("", flows + c)
        elif c in "]}" and flows:
            flows, start = flows[:-1], False
        elif c in ",?-:":
            spaced = line[i + 1:i + 2] in ("", " ", "\t")
            is_key = is_key or (spaced and not flows and not state and (c == ":" or (c in "-?" and start)))
            start = opens and (c == "," or spaced or (c == ":" and bool(flows)))
        elif c not in " \t":
            start = False
        i += 1
    return flows + quote, line, is_key


# `key: value` lines of a YAML flag file (the nested `speculative-config:` block's `model:` too);
# the probe has no YAML parser (stdlib only), so values that look like paths are taken as is.
_YAML_VALUE = re.compile(r"^\s*[\w.-]+\s*:\s*([\"']?)([^\"'#\s]+)\1\s*(#.*)?$", re.M)


def _yaml_model_refs(text: str) -> list[str]:
    refs = [m.group(2) for m in _YAML_VALUE.finditer(text)]
    refs = [ref for ref in refs if "/" in ref or ref.startswith("~")]
    return list(dict.fromkeys(refs + _json_model_refs(text)))


@dataclass(frozen=True)
class ServerView:
    """How the server process names files: its working directory and environment, and the
    root its paths hang from as seen here ("" in our own mount namespace, /proc/PID/root when
    it runs in a container's)."""

    cwd: str | None
    environ: dict[str, str] | None
    root: str = ""

    def here(self, path: str) -> str:
        return self.root + path if self.root else path

    def local_path(self, ref: str) -> str | None:
        """Where the server opens `ref` as a local directory, as a path the probe can open."""
        home = (self.environ or {}).get("HOME")
        if (ref == "~" or ref.startswith("~/")) and home:
            ref = home + ref[1:]
        elif ref.startswith("~") and not self.root:
            ref = os.path.expanduser(ref)
        if not os.path.isabs(ref):
            if not self.cwd:
                return None
            ref = os.path.join(self.cwd, ref)  # the engines resolve it from their own cwd
        return self.here(ref)


def server_view(pid: int, proc: Path = Path("/proc")) -> ServerView:
    base = proc / str(pid)
    # a containerised server (docker run lmsysorg/sglang ..., vllm/vllm-openai): its paths are in
    # its own filesystem, which root can read through /proc/PID/root (proc(5))
    root = str(base / "root") if other_mount_namespace(pid, proc) and os.path.isdir(base / "root") else ""
    return ServerView(readlink(base / "cwd"), read_environ(pid, proc), root)


def find_models(refs: list[str], argv: list[str], view: ServerView | None, *,
                with_tensors: bool | None = None) -> dict[str, Any]:
    """describe_model of each ref that names a model, looked up where the server looks: its
    working directory, its Hub cache (HF_HOME=/data/hf in its unit file, not in our session),
    its container's filesystem. `with_tensors=False`: configs only (no checkpoint headers read)."""
    refs = list(refs)
    caches: list[Path] = []
    if view is not None:
        caches = [Path(view.here(str(root))) for root in hf_cache_dirs(view.environ)] if view.environ else []
        caches = [root for root in caches if root not in hf_cache_dirs()]
        if view.cwd:
            # a bare directory name (`--model-path Qwen3-8B`, run from /models) is a model too
            cwd = view.here(view.cwd)
            refs += [tok for tok in argv if tok not in refs and not tok.startswith("-") and "/" not in tok
                     and tok not in (".", "..") and os.path.isfile(os.path.join(cwd, tok, "config.json"))]
    models: dict[str, Any] = {}
    for ref in refs:
        local = view.local_path(ref) if view is not None else None
        try:
            if local and os.path.isfile(os.path.join(local, "config.json")):
                info = {**describe_model(local, with_tensors=with_tensors), "name": ref}
            else:
                info = describe_model(ref, with_tensors=with_tensors, extra_caches=caches)
        except OSError:
            continue  # a folder this user may not read (another user's 0700 draft): the other models still count
        if info.get("found"):
            models[ref] = info
    return models
