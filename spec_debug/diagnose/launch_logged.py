"""A server's startup log line pasted instead of its command (`server_args=ServerArgs(...)`,
vLLM's `non-default args: {...}`), read as the command it stands for."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from spec_debug.diagnose.launch_errors import LaunchParseError
from spec_debug.diagnose.launch_scan import REPR_BRACKETS, REPR_QUOTES, bracket_end


# The settings a server logs at startup, pasted instead of its command:
# - SGLang: `server_args=ServerArgs(model_path='...', ..., speculative_num_steps=3, ...)` (0.4.6 ..
#   0.5.3: http_server.py/engine.py `logger.info(f"{server_args=}")`, after __post_init__ has
#   applied its own rules) or `server_args={'model_path': ..., ...}` (0.5.23 engine.py
#   `_server_args_for_logging`);
# - vLLM: `non-default args: {'model_tag': '...', 'speculative_config': {...}, ...}` (the CLI
#   arguments that differ from their defaults, vllm/entrypoints/utils.py `log_non_default_args`).
# - vLLM 0.4 .. 0.8: `args: Namespace(host=None, port=8000, ..., model='...', speculative_model=...)`
#   (vllm/entrypoints/openai/api_server.py `logger.info("args: %s", args)`: every CLI argument).
_LOGGED_ARGS = re.compile(r"\bserver_args=(?=ServerArgs\(|\{)|\bnon-default args:[ \t]*(?=\{)|\bargs:[ \t]*(?=Namespace\()")
# Namespace entries that are vLLM's CLI plumbing, not server flags; keys only vLLM's server has
# tell its Namespace from any other argparse program's.
_NAMESPACE_PLUMBING = ("subparser", "dispatch_function", "model_tag")
_VLLM_NAMESPACE_KEYS = ("gpu_memory_utilization", "max_num_seqs", "speculative_model", "speculative_config")


def logged_server_args(text: str) -> list[str] | None:
    """The argv equivalent to the last startup line of a pasted server log (was: 'not an SGLang
    or vLLM server command'), or None. Values that are no Python literal are left out."""
    found = None
    for found in _LOGGED_ARGS.finditer(text):
        pass
    if found is None:
        return _engine_config_argv(text)
    sglang = found.group(0).startswith("server_args")
    end = bracket_end(text, found.end(), REPR_QUOTES, REPR_BRACKETS)
    if end is None:
        return None
    logged = text[found.end():end]
    try:
        node = ast.parse(logged, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        # a value printed as no Python expression (`<Enum.X: 1>`): the plain ones, one by one
        node = ast.Dict(keys=[], values=[])
        for m in _LOGGED_PLAIN.finditer(logged):
            node.keys.append(ast.Constant(m.group(1) or m.group(2)))
            node.values.append(ast.parse(m.group(3), mode="eval").body)
    if isinstance(node, ast.Call):
        pairs = [(kw.arg, kw.value) for kw in node.keywords if kw.arg]
    elif isinstance(node, ast.Dict):
        pairs = [(k.value, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    else:
        return None
    if found.group(0).startswith("args"):
        if not any(name in _VLLM_NAMESPACE_KEYS for name, _ in pairs):
            return None
        # (every argument is logged, defaults too: `config=''` and the like are no setting)
        pairs = [(name, value) for name, value in pairs if name not in _NAMESPACE_PLUMBING
                 and not (isinstance(value, ast.Constant) and value.value == "")]
    if any(isinstance(value, _CODE_VALUES) and not (isinstance(value, ast.Name) and value.id in ("inf", "nan"))
           for _, value in pairs):
        # `Engine(server_args=ServerArgs(speculative_algorithm=ALG, ...))` in a script: code, whose
        # values are names the text does not hold (a log prints values, never a name); read by the
        # Python reader, which says so (was: the names dropped, a server with no speculation)
        return None
    argv = ["python3", "-m", "sglang.launch_server"] if sglang else ["vllm", "serve"]
    model = None
    for name, value_node in pairs:
        try:
            value = ast.literal_eval(value_node)
        except (ValueError, SyntaxError, TypeError, RecursionError):
            continue
        if name in ("model_tag", "model") and not sglang and value not in (None, ""):
            # vLLM's model, written first as the positional: `vllm serve`'s cmd copies model_tag
            # into model (both are logged), and a server that logged its start was not refused the
            # --model some releases refuse (the api_server module's own way to give it)
            model = str(value) if name == "model_tag" or model is None else model
            continue
        argv += _logged_flag(name, value)
    if model is not None:
        argv[2:2] = [model]
    return argv


# Values only code has: a name, `os.environ["X"]`, `args.model`, an f-string, `a + b`.
_CODE_VALUES = (ast.Name, ast.Attribute, ast.Subscript, ast.JoinedStr, ast.BinOp)
# `name=value` / `'name': value` with a plain value (a quoted string, a number, True/False/None)
_LOGGED_PLAIN = re.compile(r"(?:(?<![\w'])(\w+)=|'(\w+)':\s*)('(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?(?![\w.])|True|False|None)")


def _logged_flag(name: str, value: Any) -> list[str]:
    """One logged setting as the command-line words that set it."""
    flag = "--" + name.replace("_", "-")
    if value is None or value is False or value == [] or value == {}:
        return []
    if value is True:
        return [flag]
    if isinstance(value, dict):
        return [flag, json.dumps(value)]
    if isinstance(value, (list, tuple)):
        return [flag, *(str(v) for v in value)]
    return [flag, str(value)]


# vLLM's engine start line, in every server log (the one an issue pastes most): `Initializing a V1
# LLM engine (v0.10.1) with config: model='...', speculative_config=SpeculativeConfig(method='eagle3',
# model='...', num_spec_tokens=3), tokenizer=..., tensor_parallel_size=1, ...` (V0: `Initializing an
# LLM engine (v0.6.6) with config: ...`; vllm/v1/engine/core.py, SpeculativeConfig.__repr__ in
# vllm/config). Its values are no Python (`dtype=torch.bfloat16`, `tokenizer_mode=auto`): the
# settings the audit reads are taken one by one.
_ENGINE_CONFIG = re.compile(r"Initializing an? (?:V1 )?LLM engine \(v[^)]*\) with config: model='((?:[^'\\]|\\.)*)'(.*)")
_SPEC_REPR = re.compile(r"speculative_config=SpeculativeConfig\(method='([^']*)', model=(?:'((?:[^'\\]|\\.)*)'|None), "
                        r"num_spec_tokens=(\d+)\)")
# V0 (vLLM 0.4 .. 0.7, vllm/config.py SpeculativeConfig.__repr__) logged the draft alone:
# `SpeculativeConfig(draft_model='...', num_spec_tokens=5)`, `draft_model='[ngram]'` for n-gram,
# the values of that era's --speculative-model / --num-speculative-tokens.
_V0_SPEC_REPR = re.compile(r"speculative_config=SpeculativeConfig\(draft_model='((?:[^'\\]|\\.)*)', num_spec_tokens=(\d+)\)")
_LOGGED_INTS = (("tensor_parallel_size", "--tensor-parallel-size"), ("max_seq_len", "--max-model-len"))


def _engine_config_argv(text: str) -> list[str] | None:
    """The `vllm serve` command the last engine start line of a pasted vLLM log stands for (was:
    'not an SGLang or vLLM server command'), or None."""
    found = None
    for found in _ENGINE_CONFIG.finditer(text):
        pass
    if found is None:
        return None
    rest = found.group(2)
    argv = ["vllm", "serve", found.group(1)]
    for key, flag in _LOGGED_INTS:
        value = re.search(rf"(?<![\w.]){key}=(\d+)(?![\w.])", rest)
        if value:
            argv += [flag, value.group(1)]
    spec = _SPEC_REPR.search(rest)
    v0_spec = _V0_SPEC_REPR.search(rest)
    if spec:
        config = {"method": spec.group(1), **({"model": spec.group(2)} if spec.group(2) else {}),
                  "num_speculative_tokens": int(spec.group(3))}
        argv += ["--speculative-config", json.dumps(config)]
    elif v0_spec:
        argv += ["--speculative-model", v0_spec.group(1), "--num-speculative-tokens", v0_spec.group(2)]
    elif re.search(r"speculative_config=(?!None\b)", rest):
        # (a form not read here: a server without speculation would be the wrong answer)
        raise LaunchParseError(
            "the vLLM engine start line's speculative_config is in a form this audit does not read",
            hint="paste the server's command line (`ps -ww -o args -p PID`) or its 'non-default args:' line")
    return argv

