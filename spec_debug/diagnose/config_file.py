"""`--config FILE.yaml`: the flags a serving engine reads from a YAML file, merged as it merges them.

Both engines turn the file into argv words and put them *before* the command line's own flags,
so argparse's last-wins rule lets the command line override the file:

- vLLM, FlexibleArgumentParser `_pull_args_from_config` / `load_config_file`
  (vllm-project/vllm vllm/utils/argparse_utils.py): the words go after the subcommand and,
  for `vllm serve`, after the positional model; `key: true` -> `--key`, `false` -> `--no-key`
  when that flag exists (else nothing), a list -> `--key a b`, a mapping -> `--key '<json>'`
  (so `speculative-config:` may be a nested YAML mapping), anything else -> `--key str(value)`.
- SGLang, ConfigArgumentMerger (sgl-project/sglang python/sglang/srt/server_args_config_parser.py,
  called by server_args.py `prepare_server_args`): the words go first; a bool is `--key` for a
  store_true flag (nothing for false) and `--key true|false` otherwise, a list `--key a b`,
  a mapping `--key '<json>'` (the 0.5.23 wheel; 0.5.6 str()'d it, a Python repr, not JSON),
  anything else `--key str(value)`.

Both only look for `--config` as a word of its own (`"--config" in args`, `arg == "--config"`):
`--config=file.yaml` reaches argparse as their plain `--config` str option ("Read CLI options from a
config file", vllm/entrypoints/openai/cli_args.py; SGLang server_args.py), which nothing reads:
the server starts and the file's flags never apply.
Pure functions: the probe ships the file's text, the controller parses it.
"""

from __future__ import annotations

import json

import yaml

from spec_debug.diagnose.launch import LaunchParseError, _is_switch, detect_engine

# The vLLM switches whose `no-` form exists (argparse.BooleanOptionalAction on bool config
# fields, vllm/engine/arg_utils.py); the rest of a `false` is dropped, as vLLM drops it.
_VLLM_NO_SWITCHES = ("enable-prefix-caching", "enable-chunked-prefill", "enforce-eager",
                     "trust-remote-code", "async-scheduling", "disable-log-stats")


def config_file_path(argv: list[str]) -> str | None:
    """The file the engine reads: the word after a standalone `--config`."""
    _engine, start = detect_engine(argv)
    args = argv[start:]
    if args.count("--config") > 1:
        # vLLM asserts "More than one config file specified!"; SGLang raises ValueError
        raise LaunchParseError("more than one --config file: the engine refuses to start",
                               hint="merge them into one YAML file")
    if "--config" not in args:
        return None
    index = args.index("--config")
    if index == len(args) - 1:
        raise LaunchParseError("--config has no file after it: the engine refuses to start",
                               hint="--config /path/to/serve.yaml")
    return args[index + 1]


def ignored_config(argv: list[str]) -> str | None:
    """`--config=FILE`: argparse stores it, but neither engine opens it (see the module doc)."""
    _engine, start = detect_engine(argv)
    for tok in argv[start:]:
        if tok.startswith("--config="):
            return tok.partition("=")[2]
    return None


def sglang_words(text: str, path: str) -> list[str]:
    """config_words for SGLang, refusing a key SGLang's argparse refuses (`_refuse_underscore_key`):
    the merger passes such a key on as a word, and the audit names the file's key, not the word."""
    words = config_words("sglang", text, path)
    data = yaml.safe_load(text) or {}
    for key, value in data.items():
        if "_" in str(key):
            _refuse_underscore_key(str(key), value, path)
    return words


def config_words(engine: str, text: str, path: str) -> list[str]:
    """The argv words the engine makes of the file's YAML text."""
    if path.rsplit(".", 1)[-1].lower() not in ("yaml", "yml"):
        raise LaunchParseError(f"--config {path}: the engine only reads .yaml/.yml files and refuses to start")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise LaunchParseError(f"--config {path} is not valid YAML ({exc.__class__.__name__}): "
                               "the engine refuses to start") from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise LaunchParseError(f"--config {path} must hold a mapping of flag: value at its top level, "
                               f"got a {type(data).__name__}")
    words: list[str] = []
    for key, value in data.items():
        flag = f"--{key}"
        if isinstance(value, bool):
            if value:
                words.append(flag)
            elif engine == "vllm" and key in _VLLM_NO_SWITCHES:  # `--no-KEY` as written must exist
                words.append(f"--no-{key}")
            elif engine == "sglang" and not _sglang_switch(str(key)):
                words += [flag, "false"]
        elif isinstance(value, list):
            if value:
                words += [flag, *(str(item) for item in value)]
        elif isinstance(value, dict):
            # vLLM, and SGLang's newer merger (the 0.5.23 wheel's `_convert_config_to_args`), write
            # a mapping as JSON; SGLang 0.5.6 str()'d it, a Python repr its json.loads refuses
            words += [flag, json.dumps(value)]
        else:
            words += [flag, str(value)]
    return words


def _refuse_underscore_key(key: str, value: object, path: str) -> None:
    """`speculative_num_steps: 1` in SGLang's file: ConfigArgumentMerger writes the key as it is
    (`--speculative_num_steps 1`; it maps `_` to `-` only to look up store_true flags,
    python/sglang/srt/utils/server_args_config_parser.py in the sglang 0.5.23 wheel, and 0.5.6's
    server_args_config_parser.py does the same without that lookup), and no SGLang option string
    has an underscore (0.5.23 derives each as `"--" + name.replace("_", "-")`, arg_utils.py; none
    in 0.5.6's server_args.py), so argparse refuses the word and the server does not start. A key
    that makes no word (`false` of a switch, an empty list) is dropped before argparse sees it.
    Said as the file's key, with the file's fix (was: the command-line refusal, "write
    --speculative-num-steps", about a word nobody wrote, and only for the flags the audit reads)."""
    if (value is False and _sglang_switch(key)) or value == []:
        return
    dashed = key.replace("_", "-")
    raise LaunchParseError(
        f"sglang: the key {key} of --config {path} becomes --{key}, which is not an SGLang flag "
        f"(SGLang's YAML keys are its flag names with dashes: {dashed}); argparse exits with "
        "'unrecognized arguments' and the server does not start",
        hint=f"write {dashed}: in {path}")


def _sglang_switch(key: str) -> bool:
    """store_true flags of SGLang's ServerArgs (a false one is left out; any other flag set false
    is written ``--KEY false``), judged as the launch parser judges switches: by the name's hint
    and the switches the hints miss (``is-embedding: false`` once became ``--is-embedding
    false``, a stray word after a switch). The file may spell a key with underscores: SGLang's
    parser maps both to the same dest (server_args_config_parser.py, ``key.replace("-", "_")``)."""
    return _is_switch(key.replace("_", "-"))


def merge_config(argv: list[str], text: str, *, refuse: bool = False) -> list[str]:
    """argv with the file's words inserted where the engine inserts them and `--config FILE` removed.
    `refuse`: raise for a key of the file the engine refuses (as the audit does), not merge its word."""
    path = config_file_path(argv)
    if path is None:
        return list(argv)
    engine, start = detect_engine(argv)
    words = sglang_words(text, path) if engine == "sglang" and refuse else config_words(engine, text, path)
    args = argv[start:]
    index = args.index("--config")
    rest = args[:index] + args[index + 2:]
    head = argv[:start]
    if engine == "vllm" and start >= 1 and argv[start - 1] == "serve" and rest and not rest[0].startswith("-"):
        # `vllm serve MODEL --config f.yaml`: the positional model stays first
        return head + rest[:1] + words + rest[1:]
    if engine == "sglang" and start >= 1 and argv[start - 1] == "serve" and rest and not rest[0].startswith("-"):
        # `sglang serve MODEL` becomes `--model-path MODEL` before the file is merged
        # (python/sglang/cli/serve.py), so the positional model beats the file's model-path
        return head + words + ["--model-path"] + rest
    return head + words + rest
