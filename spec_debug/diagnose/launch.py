"""Parse SGLang and vLLM launch commands into the speculative settings the server runs with.

Two layers: `parse_launch_command` reads what was *written* (flags as typed, JSON inside
`--speculative-config`), and `effective_spec` applies the engine's own rules to get what
actually *runs* (SGLang rewrites draft tokens for topk 1, auto-chooses when nothing is set).
Pure functions: no I/O, unit-testable on command lines copied from docs and issues.
"""

from __future__ import annotations

import ast
import bisect
import difflib
import functools
import itertools
import json
import re
import shlex
import textwrap
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from spec_debug.diagnose.launch_errors import LaunchParseError
from spec_debug.diagnose.launch_logged import logged_server_args
from spec_debug.diagnose.launch_pastes import (COMPOSE_SERVICES, ENGINE_ENV_PREFIXES, ArgvReader, dstack_unvalued_env,
                                               llm_config_argv, markdown_table_argv, notebook_code, only_sglang_flags,
                                               only_vllm_flags, pasted_argv, task_script)
from spec_debug.diagnose.launch_scan import split_keeping_json
from spec_debug.diagnose.launch_services import service_command, service_environment, without_unit_unset
from spec_debug.diagnose.sglang_options import (SGLANG_OPTIONS, SGLANG_OPTIONS_BY_RELEASE, SGLANG_OPTIONS_RELEASES,
                                               SGLANG_REFUSED_OPTIONS_BY_RELEASE, SGLANG_RETIRED_OPTIONS)
from spec_debug.diagnose.vllm_options import VLLM_OPTIONS_BY_RELEASE, VLLM_OPTIONS_READ, VLLM_OPTIONS_RELEASES
from spec_debug.eagle3.config import use_aux_hidden_state
from spec_debug.eagle3.engines import (SGLANG_EAGLE3, VLLM_EAGLE3, capture_failure, parse_version, release_surely_before,
                                      speculators_flag, version_key, vllm_refused_target,
                                      VLLM_NO_EAGLE3_INTERFACE, vllm_no_interface_fix, vllm_no_interface_reason,
                                      vllm_interface_late, vllm_late_interface_failure)
from spec_debug.probes.launch_flags import SPECULATIVE_FLAG, cmdline_argv, listed_serve_at, plain_typography

EngineName = Literal["sglang", "vllm"]


# SGLang flags we read, by canonical name -> aliases (server_args.py `add_cli_args`:
# `--model` is an alias of `--model-path`, `--tensor-parallel-size` of `--tp-size`,
# `--speculative-draft-model` of `--speculative-draft-model-path`; `--tp` is an argparse prefix).
_SGLANG_ALIASES: dict[str, tuple[str, ...]] = {
    "model-path": ("model-path", "model"),
    "speculative-algorithm": ("speculative-algorithm",),
    "speculative-draft-model-path": ("speculative-draft-model-path", "speculative-draft-model"),
    "speculative-num-steps": ("speculative-num-steps",),
    "speculative-eagle-topk": ("speculative-eagle-topk",),
    "speculative-num-draft-tokens": ("speculative-num-draft-tokens",),
    "dtype": ("dtype",),
    "context-length": ("context-length",),
    "tp-size": ("tp-size", "tensor-parallel-size", "tp"),
    "page-size": ("page-size",),
    "attention-backend": ("attention-backend",),
}
# vLLM (vllm/engine/arg_utils.py): `-tp` is `--tensor-parallel-size`, `-sc` is
# `--speculative-config`; the positional MODEL of `vllm serve` equals `--model`.
_VLLM_ALIASES: dict[str, tuple[str, ...]] = {
    "model": ("model",),
    "speculative-config": ("speculative-config", "sc"),
    "dtype": ("dtype",),
    "max-model-len": ("max-model-len",),
    "tensor-parallel-size": ("tensor-parallel-size", "tp"),
    "pipeline-parallel-size": ("pipeline-parallel-size", "pp"),
    # vLLM <= 0.7 (V0) spelled the draft and K as separate flags (docs/features/spec_decode.md
    # at v0.7.1); --speculative-config replaced them.
    "speculative-model": ("speculative-model",),
    "num-speculative-tokens": ("num-speculative-tokens",),
}
# Flags that never take a value (so the next token is not swallowed as their value).
_BOOLEAN_HINTS = re.compile(r"^(enable|disable|no|trust|skip|enforce|use|allow|log|show)-")
# Switches (argparse store_true, or BooleanOptionalAction, which vLLM gives every bool config field)
# whose names the hints above miss. argparse takes a positional after options too, so the word after
# one is no value of it: `vllm serve --async-scheduling Qwen/Qwen3-8B` serves Qwen/Qwen3-8B (was: no
# model, and 'Qwen/Qwen3-8B' read as the value of --async-scheduling). Each is a switch in every
# release that has it, in both engines.
_UNHINTED_SWITCHES = frozenset({
    # vLLM vllm/entrypoints/openai/cli_args.py: make_arg_parser's store_true --headless, --grpc, and
    # FrontendArgs bool fields (BooleanOptionalAction through get_kwargs)
    "headless", "grpc", "return-tokens-as-token-ids", "exclude-tools-when-tool-choice-none", "tokens-only",
    # vLLM vllm/engine/arg_utils.py EngineArgs.add_cli_args: store_true in 0.7's hand-written parser
    # (--ray-workers-use-nsight, --fully-sharded-loras, --speculative-disable-mqa-scorer,
    # --calculate-kv-scales), bool fields of the config classes since (SchedulerConfig.async_scheduling,
    # ParallelConfig.data_parallel_hybrid_lb / data_parallel_external_lb)
    "async-scheduling", "data-parallel-hybrid-lb", "data-parallel-external-lb", "ray-workers-use-nsight",
    "fully-sharded-loras", "speculative-disable-mqa-scorer", "calculate-kv-scales",
    # SGLang python/sglang/srt/server_args.py ServerArgs.add_cli_args: action="store_true"
    "is-embedding", "stream-output", "sleep-on-idle", "delete-ckpt-after-loading",
    "triton-attention-reduce-in-fp32", "weight-loader-disable-mmap", "keep-mm-feature-on-device",
})


def _is_switch(name: str) -> bool:
    """`--NAME` (dashes, as read_flags canonicalises it) takes no value: a hinted name that is not
    valued despite its hint, or a switch the hints miss."""
    return name in _UNHINTED_SWITCHES or (
        _BOOLEAN_HINTS.match(name) is not None and name not in _VALUED_DESPITE_HINT)


@dataclass(frozen=True)
class LaunchConfig:
    """What a launch command says, as written (see `effective_spec` for what runs)."""

    engine: EngineName
    argv: tuple[str, ...]
    target_model: str | None
    draft_model: str | None
    algorithm: str | None
    """Normalised upper case: EAGLE3, EAGLE, NEXTN, MTP, NGRAM, ... (vLLM `method` upper-cased)."""
    num_steps: int | None
    """SGLang `--speculative-num-steps`; vLLM `num_speculative_tokens` (a chain of K drafts)."""
    topk: int | None
    num_draft_tokens: int | None
    dtype: str | None
    context_length: int | None
    tp: int | None = None
    pp: int | None = None
    """vLLM `--pipeline-parallel-size` / `-pp` (None: not written, or a shell variable)."""
    page_size: int | None = None
    attention_backend: str | None = None
    speculative_config: dict[str, Any] | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    """Every `--flag` as written, canonicalised to dashes; value True for bare switches."""
    env: dict[str, str] = field(default_factory=dict)
    """`VAR=value` assignments that preceded the command (e.g. SGLANG_ENABLE_SPEC_V2)."""
    ambiguous_from: dict[str, str] = field(default_factory=dict)
    """SGLang abbreviations read as older releases read them, by the first release that
    refuses them as ambiguous (`speculative-draft` -> 0.5.2)."""
    unexpanded: tuple[str, ...] = ()
    """Serving sizes (tensor parallel, page size, context length) written as a shell variable
    (`--tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE`): unknown, and left None."""
    replaced_dotted: tuple[str, ...] = ()
    """vLLM: the spellings of --speculative-config (`--speculative-config`, `-sc`, `--speculative`)
    given dotted keys, in the order vLLM adds them, where more than one is: the last one's run."""
    replaced_json: tuple[str, ...] = ()
    """vLLM: --speculative-config given as a whole JSON value more than once, as written, in order;
    argparse keeps the last one whole (no merge), so the earlier ones are gone."""
    python_call: str | None = None
    unexported: tuple[str, ...] = ()
    """Engine variables of `env` set on a line of their own above the server without `export`
    (`SGLANG_ENABLE_SPEC_V2=1` then the server): read as meant for it, though bash passes such a
    variable to the server only if it is exported (bash(1) ENVIRONMENT)."""
    earlier_calls: tuple[tuple[int, LaunchConfig], ...] = ()
    """A Python script's engine calls run before the speculative one (their line, what they set):
    one the engine refuses stops the script before the speculative engine is built."""
    """The Python engine call the settings were read from as keyword arguments (`LLM`, `Engine`,
    `EngineArgs`, ...; None: a command line), whose refusal of a name is Python's TypeError, not
    argparse's exit."""

    @property
    def speculative(self) -> bool:
        return self.algorithm is not None or self.draft_model is not None


# A Markdown code fence line (```bash, ~~~): an issue body or a README pasted whole. The fence
# is no command, and its backquotes would open a command substitution (bash(1), "Command
# Substitution") that hides the command inside, up to the closing fence.
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[\w+.-]*[ \t]*$", re.M)


# A notebook cell's `!vllm serve ...` / `!nohup python -m sglang.launch_server ... &` (IPython runs
# a line that starts with `!` as a shell command: IPython docs, "System shell access"); bash
# would read `!word` as a history expansion, and `! cmd` (a negated pipeline) keeps its space.
_IPYTHON_BANG = re.compile(r"^([ \t]*)!(?=[A-Za-z_./~$])", re.M)


def split_command(command: str | list[str] | tuple[str, ...]) -> list[str]:
    """argv from a shell line, a /proc/PID/cmdline (NUL-separated) or an argv list.

    Line continuations (`\\` + newline) and multi-line JSON inside quotes are handled by
    shlex, as a shell would.
    """
    if isinstance(command, (list, tuple)):
        return _unwrap_shell([str(a) for a in command])
    if "\0" in command:
        return _unwrap_shell(cmdline_argv(command))
    if "\n" not in command.strip() and command.count("^@") >= 2:
        # `cat -v /proc/PID/cmdline` prints each argument's NUL as ^@ (cat(1) -v: "use ^ and M-
        # notation"): the same argv (was: not a server command)
        return split_command(command.strip().replace("^@", "\0"))
    command = _FENCE.sub("", plain_typography(command))
    command = _IPYTHON_BANG.sub(r"\1", notebook_code(command) or command)
    table = markdown_table_argv(command)
    if table is not None:
        return _server_argv(table)
    embedded = _python_string_command(command)
    if embedded is not None:
        return split_command(embedded)
    engine_call = _python_engine_call(command)
    if engine_call is not None:
        return engine_call
    exec_form = pasted_argv(command, _ARGV_READER)
    if exec_form is not None:
        call = getattr(exec_form, "call", None)
        return _EngineCallArgv(_server_argv(exec_form), call) if call else _server_argv(exec_form)
    command = task_script(command) or command
    # A backslash followed by spaces before the newline (a copy from a web page or an editor that
    # pads lines) escapes a space instead of the newline: bash would end the command there and
    # hand the server a lone " " argument, which vLLM would read as the model. The command meant
    # is the continued one. Other newlines end a command, as in a script.
    # Comments go first: a quote or a backquote in one opens nothing, and the variables and
    # substitutions below are read on the commands alone.
    if "ExecStart" in command and _UNIT_EXEC_START_SPACED.search(command):
        command = _UNIT_KEY_SPACED.sub(r"\1\2=", command)
    if "ExecStart" in command and _UNIT_RESET.search(command):
        command = _without_reset_unit_settings(command)
    text = _with_script_variables(_with_unit_environment(_without_comments(command)))
    text, substitutions = _hide_substitutions(text)
    # (`\\` + newline is an escaped backslash and a newline, not a continuation: inside a
    # double-quoted `bash -c "... \\` string it becomes the inner command's continuation)
    if ("\\\n" in text or "\\\r\n" in text) and not _not_read_by_a_shell(text):
        # (Docker joins a continuation across an empty line, with a warning)
        text = _CONTINUED_ONTO_EMPTY_LINE.sub(lambda m: f"{m.group(1)} {_BLANK_CUT} ", text)
    text = _with_script_arrays(re.sub(r"(?<!\\)((?:\\\\)*)\\[ \t]*\r?\n", lambda m: m.group(1) + " ", text))
    text = _newlines_as_separators(text)
    text = _hide_long_single_quotes(text, substitutions)
    try:
        argv = shlex.split(text, comments=False, posix=True)
    except ValueError as exc:  # unbalanced quotes
        raise LaunchParseError(f"cannot split the launch command: {exc}",
                               hint="quote JSON values with single quotes: --speculative-config '{...}'"
                                    f"; {_PS_HINT}") from exc
    return _server_argv([_SUBSTITUTION_MARK.sub(lambda m: substitutions[int(m.group(1))], tok) for tok in argv])


# shlex builds each word a character at a time (`self.token = self.token + nextchar`, which
# CPython cannot grow in place on an attribute), so one long word costs the square of its length:
# a launch command with a 300,000-character quoted --json-model-override-args took 6.8 s to
# analyze, 1 MB 64 s, 3 MB over five minutes. Single quotes hold their text as written (bash(1)
# QUOTING), so a long one is put aside while the line is split and given back whole after, as
# the substitutions are (_hide_substitutions: the same placeholders and list).
_LONG_QUOTE_CHARS = 4096


def _hide_long_single_quotes(text: str, found: list[str]) -> str:
    """The line with the text of each single-quoted string longer than _LONG_QUOTE_CHARS put
    aside in ``found`` (a _SUBSTITUTION_MARK placeholder inside the same quotes)."""
    if len(text) <= _LONG_QUOTE_CHARS or "'" not in text:
        return text
    out: list[str] = []
    reader = _ShellReader(text)
    for i, step, quote in reader:
        if step == "'" and quote is None:  # an opening quote: its text runs to the next one
            end = text.find("'", i + 1)
            if end - i - 1 > _LONG_QUOTE_CHARS:
                out.append(f"'@@spec-debug-substitution-{len(found)}@@'")
                found.append(text[i + 1:end])
                reader.at, reader.quote = end + 1, None
                continue
        out.append(step)
    return "".join(out)


# `NAME=(` / `NAME+=(` opening a bash array assignment at the start of a word, and an expansion
# of the whole array (`"${NAME[@]}"`, `${NAME[*]}`).
_ARRAY_OPEN = re.compile(r"(?:(?<=^)|(?<=[\s;&|(]))([A-Za-z_][A-Za-z0-9_]*)(\+?)=\(")
# (`"${NAME[*]}"` is one word, and `echo "cmd: ${NAME[@]}"` part of another: only the
# expansions that give the server one word per element are read)
_ARRAY_USE = re.compile(r"\"\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}\"|(?<![\"\w])\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}(?![\"\w])")


def _with_script_arrays(text: str) -> str:
    """A script that builds the server command in a bash array and runs it (`command=(python3
    -m sglang.launch_server ...)`, `command+=(--speculative-algorithm EAGLE3 ...)` under an `if`,
    then `"${command[@]}"`): the line that runs it gets the array's words, as bash expands them
    (bash(1) "Arrays": `+=` appends, `${name[@]}` expands to each element). Each `NAME=(...)`
    starts one value and `+=` extends the latest one; an array given two values (the branches
    of an `if`: one engine or another) runs one of them, so the line is written once per value
    and the server that speculates is the one audited (as for several servers in one script).
    Continuation lines are already joined here."""
    if not _ARRAY_USE.search(text):
        return text
    values: dict[str, list[list[str]]] = {}
    spans: list[tuple[int, int, str]] = []
    reader = _ShellReader(text)
    for i, _, quote in reader:
        opened = _ARRAY_OPEN.match(text, i) if quote is None else None
        end = _array_end(text, opened.end()) if opened else None
        words = _array_words(text[opened.end():end - 1]) if opened and end is not None else None
        if words is None:
            continue
        name = opened.group(1)
        given = _with_arrays_in_words(words, values)
        if opened.group(2) and values.get(name):
            values[name][-1:] = [values[name][-1] + more for more in given]
        else:
            values.setdefault(name, []).extend(given)
        spans.append((i, end, name))
        reader.at = end
    used = {m.group(1) or m.group(2) for m in _ARRAY_USE.finditer(text)} & set(values)
    if not used:
        return text
    for start, end, name in reversed(spans):
        if name in used:
            # the assignment itself runs nothing; the line that expands it does
            text = text[:start] + text[end:]
    lines = []
    for line in text.split("\n"):
        lines += _with_array_words(line, values, used)
    return "\n".join(lines)


def _with_array_words(line: str, values: dict[str, list[list[str]]], used: set[str]) -> list[str]:
    """The line with each array it expands replaced by the array's words, once per value: a line
    may expand several (`"${LAUNCHER[@]}" "${ARGS[@]}"`, `"${COMMON[@]}" "${SPEC[@]}"`)."""
    for m in _ARRAY_USE.finditer(line):
        name = m.group(1) or m.group(2)
        if name in used:
            rest = _with_array_words(line[m.end():], values, used)
            return [line[:m.start()] + " ".join(shlex.quote(w) for w in value) + tail
                    for value in values[name] for tail in rest]
    return [line]


def _with_arrays_in_words(words: list[str], values: dict[str, list[list[str]]]) -> list[list[str]]:
    """An array's words with the arrays it holds (`args+=(--entrypoint vllm "$IMAGE"
    "${serve_args[@]}")`) given their words, once per value of each."""
    for k, word in enumerate(words):
        m = re.fullmatch(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}", word)
        if m and values.get(m.group(1)):
            return [words[:k] + value + rest for value in values[m.group(1)]
                    for rest in _with_arrays_in_words(words[k + 1:], values)]
    return [words]


def _array_end(text: str, start: int) -> int | None:
    """Index just past the `)` closing an array assignment's words (outside quotes)."""
    for i, step, quote in _ShellReader(text, at=start):
        if quote is None and step == ")":
            return i + 1
    return None


def _array_words(inside: str) -> list[str] | None:
    try:
        return shlex.split(inside, posix=True)
    except ValueError:
        return None


class _ShellReader:
    """One pass over a shell text that knows its quotes as bash reads them (bash(1) QUOTING): a
    backslash outside single quotes escapes the next character (the pair is one step), single
    quotes hold everything up to the next one, double quotes up to the next unescaped one. Each
    step is (index, the step's text, the quote it is read in: None, "'" or '"'); a quote
    character is read in the quote before it. A caller that reads a longer construct at a step
    (a command substitution, a comment, a variable) sets `at` past it, and the pass goes on from
    there with the quote unchanged. The scanners below are all this one pass."""

    def __init__(self, text: str, quote: str | None = None, at: int = 0) -> None:
        self.text, self.quote, self.at = text, quote, at

    def __iter__(self) -> Iterator[tuple[int, str, str | None]]:
        text = self.text
        while self.at < len(text):
            i, ch, quote = self.at, text[self.at], self.quote
            if ch == "\\" and quote != "'":
                self.at = i + 2
                yield i, text[i:i + 2], quote
                continue
            if quote is None and ch in "'\"" or ch == quote:
                self.quote = None if ch == quote else ch
            self.at = i + 1
            yield i, ch, quote


# A placeholder no command contains, standing for one hidden substitution while the line is split.
_SUBSTITUTION_MARK = re.compile(r"@@spec-debug-substitution-(\d+)@@")


def _hide_substitutions(text: str) -> tuple[str, list[str]]:
    """The line with each command substitution and arithmetic expansion (`$(seq -s ' ' 1 64)`,
    `$(hostname -I | awk '{print $1}')`, `$((8100 + idx))`, backquotes) put aside as one word:
    bash(1) expands it before splitting the server's words, so its quotes, spaces and `|` are no
    words or pipelines of the server command (read word by word, `-s` became an ambiguous flag and
    a `|` ended the server command before its speculative flags). Not inside single quotes, where
    bash leaves `$(` as written."""
    out: list[str] = []
    found: list[str] = []
    reader = _ShellReader(text)
    for i, step, quote in reader:
        # (`>(tee log)`, `<(cmd)`: a process substitution is one word too, outside quotes)
        if quote != "'" and (text.startswith("$(", i) or step == "`") or quote is None and (
                text.startswith(("<(", ">("), i)) or quote is None and _operator_in_parameter(text, i):
            end = _substitution_end(text, i)
            if end is not None:
                out.append(f"@@spec-debug-substitution-{len(found)}@@")
                found.append(text[i:end])
                reader.at = end
                continue
        out.append(step)
    return "".join(out), found


def _operator_in_parameter(text: str, start: int) -> bool:
    """A parameter expansion at `start` whose word holds an operator character (`${KEY:-a|b}`,
    `${CMD%%;*}`): bash reads it to its closing brace as one expansion (bash(1) Parameter
    Expansion), so its `|`, `&`, `;`, `<`, `>` end no word and no command (the word-ending rule
    for control operators gave the server '${KEY:-a' and a pipeline). Other expansions stay
    visible, for the script's arrays (`"${ARGS[@]}"`) read after this."""
    if not text.startswith("${", start):
        return False
    end = _substitution_end(text, start)
    return end is not None and bool(re.search(r"[|&;<>]", text[start:end]))


def _substitution_end(text: str, start: int) -> int | None:
    """Index just past the `)` (or backquote, or the `}` of a `${...}`) closing the
    substitution at `start`; None when it never closes (then it is split as written)."""
    if text[start] == "`":
        end = text.find("`", start + 1)
        return None if end < 0 else end + 1
    opening, closing = ("{", "}") if text.startswith("${", start) else ("(", ")")
    depth = 0
    for i, step, quote in _ShellReader(text, at=start + 1):
        if quote is None and step == opening:
            depth += 1
        elif quote is None and step == closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _newlines_as_separators(text: str) -> str:
    """A pasted script's lines are separate commands (bash(1): a newline ends a command like
    `;`), so a baseline and a speculative server written one per line are two commands, not one
    word list with both servers' flags. A newline inside quotes (a JSON value spread over lines,
    as the speculators docs write --speculative-config) stays part of its word."""
    out: list[str] = []
    subshells = 0  # `(` opened at the start of a word: a subshell, which `)` closes
    reader = _ShellReader(text)
    for i, step, quote in reader:
        if quote is None and (step == "(" and _starts_word(text, i) or step == ")" and subshells):
            # `(python3 -m sglang.launch_server ... --speculative-num-draft-tokens 4)&`: the
            # parentheses are metacharacters around the server command, not part of its first
            # and last words (was: 'expects an integer, got 4)'); bash(1) "Compound Commands"
            subshells += 1 if step == "(" else -1
            out.append(" ; ")
            continue
        if step == "\n" and quote is None:
            # a line that starts with a flag, or follows one waiting for its value, continues the
            # command above: its `\` was lost in the copy (no command starts with a dash); so does
            # a flag line after empty or comment lines (comments are gone here), which split such a
            # paste in two and lost every flag below them
            last = "".join(out[-200:]).rsplit(None, 1)[-1:] or [""]
            waiting = last[0].startswith("--") and "=" not in last[0] and not _is_switch(last[0][2:])
            out.append(" " if waiting or _FLAG_LINE_NEXT.match(text, i + 1) else " ; ")
            continue
        if step == ";" and quote is None:
            # `;` ends a word and a command with no space before it (bash(1) DEFINITIONS: a
            # metacharacter): `--speculative-num-draft-tokens 4; tail -f log` gives the server 4
            out.append(" ; ")
            continue
        if step in "&|" and quote is None and not _in_redirection(text, i):
            # `&&`, `||`, `|` and `&` are metacharacters too: `--port 30000&& curl ...` gives
            # the server 30000, and curl's words are another command (was: '30000&&', then
            # curl's words read as the server's)
            operator = text[i:i + 2] if text[i:i + 2] in ("&&", "||", "|&") else step
            out.append(f" {operator} ")
            reader.at = i + len(operator)
            continue
        placeholder = _PLACEHOLDER.match(text, i) if quote is None and step == "<" else None
        if placeholder:
            # `vllm serve <model> --speculative-config '...'` (the vLLM docs' Configuration
            # Reference), `--model-path=<your-model>`: a docs placeholder, which bash would refuse
            # (`>` with no file), not two redirections taking the next flag as their file (was:
            # the speculative config read as the model, or every flag after it lost)
            out.append(placeholder.group())
            reader.at = placeholder.end()
            continue
        if quote is None and (step in "<>" and _ends_a_word(out) or
                              text.startswith("&>", i) and _ends_a_word(out, fd_digits=False)):
            # `--trust-remote-code>server.log`: the redirection starts a word of its own; a word
            # of digits right before it is its file descriptor (`2>&1`; bash(1) REDIRECTION)
            out.append(" ")
        out.append(step)
    return "".join(out)


# After a newline: a line starting with a dash, or empty lines (a comment line is one once comments
# are removed) and then a line starting with a flag (`-tp`, `--port`; not a Markdown bullet's "- " or
# a rule's "---")
_FLAG_LINE_NEXT = re.compile(r"[ \t]*-|(?:[ \t\r]*\n)+[ \t]*--?[A-Za-z]")


# A documentation placeholder written where a word goes: `<model>`, `<path-to-draft>`, ending a
# word (bash(1) would read `<` and `>` as redirections and refuse the `>` with no file).
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w.:/-]*>(?![^\s;&|])")


def _ends_a_word(out: list[str], fd_digits: bool = True) -> bool:
    """The text read so far ends in a word that a redirection next to it ends: not the start of
    the redirection (`>>`, `<<`), nor, before `<` or `>`, a file descriptor's digits (`&>`
    takes none)."""
    tail = "".join(out[-64:])
    word = tail.split()[-1] if tail.strip() and not tail[-1].isspace() else ""
    return bool(word) and not (fd_digits and word.isdigit()) and word[-1] not in "&<>"


def _in_redirection(text: str, i: int) -> bool:
    """The `&` or `|` at `i` is part of a redirection word (`2>&1`, `>&2`, `&>log`, `&>>log`,
    `>|file`; bash(1) REDIRECTION), which _REDIRECT reads whole, not a control operator."""
    return text[i - 1:i] in (">", "<") or text[i] == "&" and text[i + 1:i + 2] == ">"


def _without_comments(text: str) -> str:
    """The text with its comments removed, newlines kept. bash(1) COMMENTS: a word starting
    with `#` begins a comment to the end of the line, so a note such as `# ^ the recipe's
    EVAL_ONLY arm` opens no quote, and a commented-out command ending in `\\` does not continue
    onto the command below it (a comment has no line continuation).

    A comment line inside a continued command (`--tp 1 \\` then `# --speculative-algorithm EAGLE \\`),
    or a comment after a command's words that ends in `\\` (`--tp 2  # two GPUs \\`), ends that
    command: the newline after the comment is no continuation, so bash runs the server with the
    words above it and the flag lines below are a command of their own ("command not found"). It
    leaves _COMMENT_CUT there, a command separator to _server_argv (was: nothing, and the flag
    lines below, read as a paste that lost its backslashes, were given to the server, which never
    gets them)."""
    out: list[str] = []
    skips_comments = _not_read_by_a_shell(text)
    reader = _ShellReader(text)
    cut_line = False  # the line holds `\ #`: its newline ends the command (_ESCAPED_BLANK_CUT)
    for i, step, quote in reader:
        if cut_line and step == "\n" and quote is None:
            out.append(f" {_ESCAPED_BLANK_CUT} ")
            cut_line = False
        if quote is None and step == "#" and not skips_comments and _ESCAPED_BLANK_BEFORE.search("".join(out[-64:])):
            # `--tp 2 \ # two GPUs`: the `\` escapes the space after it, not the newline, so the
            # newline ends the command (bash hands the server a " " word, or " #" and the note's
            # words when no blank parts the `#` from that space: then it starts no comment)
            cut_line = True
            if out[-1] in ("\\ ", "\\\t"):
                out.append(step)
                continue
        if quote is None and step == "#" and _starts_word(text, i):
            end = text.find("\n", i)
            reader.at = len(text) if end < 0 else end
            continued = _CONTINUED_LINE_END.search("".join(out[-64:]))
            if skips_comments and continued:
                # a systemd unit skips a comment line after a `\\` line and goes on with the line
                # after it (systemd.syntax(7): "the comment block is ignored, so the continued line
                # is concatenated with whatever follows the comment block"): no shell reads it; so
                # does a Dockerfile, before its shell form reaches a shell (Dockerfile reference,
                # "Format": "Comment lines are removed before the Dockerfile instructions are
                # executed", its example `RUN echo hello \\` / `# comment` / `world`)
                reader.at = len(text) if end < 0 else end + 1
                continue
            if continued or text[i:reader.at].rstrip().endswith("\\"):
                # (a comment ending in `\\`, `--tp 2  # two GPUs \\`, meant the command to go on too)
                out.append(f" {_COMMENT_CUT} ")
            continue
        out.append(step)
    return "".join(out)


# A Dockerfile's instruction line (upper case, as Dockerfiles write them; leading blanks allowed)
_DOCKERFILE_INSTRUCTION = re.compile(r"^[ \t]*(?:FROM|RUN|CMD|ENTRYPOINT)[ \t]", re.M)


def _not_read_by_a_shell(text: str) -> bool:
    """A systemd unit or a Dockerfile: their own parser joins the `\\` lines first, across comment
    lines (and, Docker's, empty ones), before any shell sees the command."""
    return _UNIT_EXEC_START.search(text) is not None or _DOCKERFILE_INSTRUCTION.search(text) is not None


# A word no command holds, left where a comment line ends a continued command (_without_comments)
_COMMENT_CUT = "@@spec-debug-comment-cut@@"
# ... and where an empty line does: `\\` + newline continues onto the empty line, whose newline ends
# the command (bash(1): the escaped newline is removed, nothing else)
_BLANK_CUT = "@@spec-debug-blank-cut@@"
_CONTINUED_ONTO_EMPTY_LINE = re.compile(r"(?<!\\)((?:\\\\)*)\\\r?\n[ \t]*(?=\r?\n)")
# ... and where a `\` escaping a blank comes before a comment on the line (`--tp 2 \ # note`)
_ESCAPED_BLANK_CUT = "@@spec-debug-escaped-blank-cut@@"
# the text before a `#`: an escaped blank (not itself escaped), then blanks or nothing
_ESCAPED_BLANK_BEFORE = re.compile(r"(?<!\\)(?:\\\\)*\\[ \t][ \t]*$")
# what each cut says of the line that made it
_CUT_BY = {_ESCAPED_BLANK_CUT: "a `\\` followed by a space escapes the space, not the newline, so a comment after "
                               "it (`\\ # ...`) ends the continued server command (bash gives the server the "
                               "escaped space as a word and reads no line continuation)",
           _COMMENT_CUT: "a comment inside the continued server command ends it (bash reads no line "
                         "continuation after a comment, not even a `\\` at its end)",
           _BLANK_CUT: "an empty line after a `\\` line ends the continued server command (the `\\` continues "
                       "the command onto the empty line, whose newline ends it)"}
# The text before a comment: a line the line above continued (`\\` + newline, bash reads an escaped
# newline as nothing), the comment the first word on it
_CONTINUED_LINE_END = re.compile(r"(?<!\\)(?:\\\\)*\\[ \t]*\r?\n[ \t]*$")


def _starts_word(text: str, i: int) -> bool:
    return i == 0 or text[i - 1] in " \t\n;&|("


# A line that is a Python comment alone (PEP 8 block comments; the tokenizer drops it whole).
_PYTHON_COMMENT_LINE = re.compile(r"^[ \t]*#.*(?:\n|$)", re.M)


def _python_string_command(text: str) -> str | None:
    """The server command inside a Python triple-quoted string: the SGLang docs' notebook cells
    start every server as `launch_server_cmd(\"\"\"python3 -m sglang.launch_server ...\"\"\")`
    (sgl-project/sglang docs/advanced_features/speculative_decoding.ipynb). A call commented out
    line by line (`# server_process, port = launch_server_cmd(` / `#     \"\"\"` / `# python3 -m
    sglang.launch_server ...`, as the docs' exported .py keeps the EAGLE-2 example above the one
    run) starts nothing, and is passed by (was: the commented quotes paired, the commented command
    found first and read with its `#` words: 'not an SGLang or vLLM server command')."""
    if "#" in text:
        text = _PYTHON_COMMENT_LINE.sub("", text)
    for m in re.finditer(r'("""|\'\'\')(.*?)\1', text, re.S):
        inner = m.group(2)
        if re.search(r"sglang\.launch_server|sglang_router\.launch_server|\b(sglang|vllm)\s+serve\b"
                     r"|vllm\.entrypoints\.", inner):
            return inner
    return None


# The offline engines take the server's flags as keyword arguments: the vLLM docs show
# speculative decoding as `LLM(model=..., speculative_config={...})` (docs/features/spec_decode.md:
# LLM and EngineArgs share the CLI's fields), SGLang as `sgl.Engine(model_path=...,
# speculative_algorithm="EAGLE3", ...)` (ServerArgs fields, python/sglang/srt/entrypoints/engine.py).
_ENGINE_CALLS = {"LLM": "vllm", "EngineArgs": "vllm", "AsyncEngineArgs": "vllm",
                 "Engine": "sglang", "ServerArgs": "sglang"}


def _python_engine_call(text: str) -> list[str] | None:
    """The server argv equivalent to an offline engine constructed in pasted Python code.

    A benchmark script often builds a baseline engine before the speculative one: the
    speculative call is audited (as `_server_argv` picks the speculating server of a script).
    Values named by a plain assignment in the same text (`TARGET = "Qwen/Qwen3-1.7B"` above
    `LLM(model=TARGET, ...)`, `cls.model = "..."` in a test class) are read through the name."""
    calls_engine = re.search(r"\b(" + "|".join((*_ENGINE_CALLS, _SGLANG_TEST_LAUNCHER, _RAY_LLM_CONFIG)) + r")\s*\(", text)
    if not calls_engine and not re.search(r"\bsubprocess\.|\bPopen\s*\(|\bos\.(?:exec|system|popen)|create_subprocess_shell", text):
        return None
    try:
        tree = ast.parse(textwrap.dedent(text))
    except SyntaxError as exc:
        if calls_engine and _python_engine_code(text) and _inside_the_call(textwrap.dedent(text), calls_engine.group(1), exc):
            raise _engine_code_unparsed(calls_engine.group(1), exc) from exc
        return None
    except ValueError:
        return None
    names = _literal_bindings(tree)
    calls: list[tuple[bool, list[str] | LaunchParseError]] = []
    engine_nodes: list[tuple[ast.Call, tuple[bool, list[str] | LaunchParseError]]] = []
    run_calls: list[tuple[bool, list[str] | LaunchParseError]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List):
            argv_list = _python_argv_list(node, names)
            if argv_list is not None:
                calls.append(argv_list)
            continue
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == _SGLANG_TEST_LAUNCHER:
            calls.append(_sglang_test_launch(node, names))
        elif name in _ENGINE_CALLS:
            calls.append(_engine_call_argv(node, name, names))
            engine_nodes.append((node, calls[-1]))
        elif name == _RAY_LLM_CONFIG:
            calls.append(_ray_llm_config_argv(node, names))
            engine_nodes.append((node, calls[-1]))
        elif ast.unparse(func) in _SHELL_STRING_CALLS and node.args:
            shell_string = _python_shell_string(node, names)
            if shell_string is not None:
                # (the command a call runs is whole: before the list literals it may be made of,
                # `spec_args = ["--speculative-config", ...]` of `Popen(base + spec_args)`)
                calls.insert(len(run_calls), shell_string)
                run_calls.append(shell_string)
    if not calls:
        return None
    for call in calls:
        speculative, result = call
        if speculative:
            if len(engine_nodes) > 1:
                _earlier_engine_calls(tree, call, engine_nodes)
            if isinstance(result, LaunchParseError):
                raise result
            _refuse_joined_for_a_shell(tree, result)
            return result
    for _, result in calls:
        if not isinstance(result, LaunchParseError):
            return result
    raise calls[0][1]


def _earlier_engine_calls(tree: ast.AST, chosen: tuple[bool, Any],
                          engine_nodes: list[tuple[ast.Call, tuple[bool, Any]]]) -> None:
    """The engine calls a script runs before its speculative one, which the audit reads: a
    baseline `sgl.Engine("meta-llama/...")` or `LLM(..., tp=2)` raises TypeError, and the script
    stops before the speculative engine is built (was: only the speculative call was read, and
    passed). Only a call in a statement of the same block as the speculative call's, and before
    it, or one at the top of a module-level function that a statement of that block calls alone
    before it (`run_baseline()` above `run_speculative()` under `if __name__ == "__main__":`, where
    the speculative call is at the top of run_speculative; was: not read): one in a function
    not called first, or in another branch, need not run first. Raises the
    earlier call's TypeError (Engine's positional argument); records the others' argv on the
    speculative call's (`earlier`, with their line), for effective_spec to judge their keywords."""
    parents: dict[int, ast.AST] = {}
    blocks: dict[int, tuple[int, str, int]] = {}
    located: list[tuple[ast.stmt, tuple[int, str, int]]] = []
    for node in ast.walk(tree):
        for name, value in ast.iter_fields(node):
            for i, child in enumerate(value if isinstance(value, list) else [value]):
                if isinstance(child, ast.AST):
                    parents[id(child)] = node
                    if isinstance(value, list) and isinstance(child, ast.stmt):
                        blocks[id(child)] = (id(node), name, i)
                        located.append((child, blocks[id(child)]))

    def statement_of(call: ast.AST) -> tuple[int, str, int] | None:
        # the innermost statement holding the call: (its block's owner, the block, its index)
        node: ast.AST | None = call
        while node is not None and not isinstance(node, ast.stmt):
            node = parents.get(id(node))
        return blocks.get(id(node)) if node is not None else None

    node = next(n for n, call in engine_nodes if call is chosen)
    where = statement_of(node)
    if where is None:
        return
    # module-level functions whose body holds an engine call at its top: `def run_baseline(): llm =
    # LLM(...)`, run by a bare `run_baseline()` statement (or `x = run_baseline()`)
    functions = {id(f): f.name for f in getattr(tree, "body", []) if isinstance(f, ast.FunctionDef)}

    def runs(stmt: ast.AST | None) -> str | None:
        # the name of the module-level function a statement calls alone
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in functions.values():
            return value.func.id
        return None

    anchor = where
    if where[0] in functions and where[1] == "body":
        # the speculative call runs where its function is first called alone
        callers = [at for stmt, at in located if runs(stmt) == functions[where[0]]]
        anchor = callers[0] if len({at[:2] for at in callers}) == 1 else where  # (called in one block)
    called_before = {runs(stmt) for stmt, at in located if at[:2] == anchor[:2] and at[2] < anchor[2]} - {None}
    earlier: list[tuple[int, Any]] = []
    for other, (_, result) in sorted(engine_nodes, key=lambda pair: (pair[0].lineno, pair[0].col_offset)):
        if other is node:
            continue
        at = statement_of(other)
        if at is None:
            continue
        if at[:2] == where[:2] and at[2] < where[2]:
            pass  # the same block, before it
        elif not (at[1] == "body" and functions.get(at[0]) in called_before and at[0] != where[0]):
            continue
        if isinstance(result, _EngineTypeError):
            raise LaunchParseError(f"line {other.lineno}, before the speculative engine is built: {result.message} "
                                   "(the script stops there)", hint=result.hint)
        if not isinstance(result, LaunchParseError):
            earlier.append((other.lineno, result))
    if earlier and not isinstance(chosen[1], LaunchParseError):
        chosen[1].earlier = tuple(earlier)


def _python_engine_code(text: str) -> bool:
    """Python that builds an engine with keyword settings (`LLM(model=..., speculative_config=...)`)
    and holds no shell server command a shell reading of the text could find instead."""
    calls = "|".join(_ENGINE_CALLS)
    return (re.search(rf"\b(?:{calls})\s*\(\s*(?:\w+\s*=|\*\*)", text) is not None
            and re.search(rf"^\s*(?:from\s+\S+\s+import\b|import\s+\w|def\s+\w+\s*\(|class\s+\w+"
                          rf"|\w+\s*=\s*(?:\w+\.)?(?:{calls})\s*\()", text, re.M) is not None
            and not re.search(r"\b(?:vllm|sglang)\s+serve\b|launch_server|api_server", text))


def _inside_the_call(code: str, call: str, exc: SyntaxError) -> bool:
    """The syntax error is on a line of the engine call (from its name to its closing parenthesis),
    not in code around it: a shell line `python -c "` above the call is shell, not Python with a
    fault. The call and its brackets are Python's tokens: a `LLM(...)` in a comment or docstring
    above the call (`# build an LLM(...) with EAGLE-3`) is not the call, and a bracket inside a
    string or a comment of the call (`# 1) the target`, `served_model_name="llama (eagle3"`) does
    not close or open it (was: every bracket character counted from the first `LLM(` in the text,
    so such a call was cut short or ran on to the end). Lines are counted as Python counts them
    (`\r\n`, `\r` and `\n` end one; a form feed or U+2028 does not), the numbering of
    `exc.lineno`. Where the tokenizer stops before it reaches a call (an unterminated string above
    it), the first `call(` of the text is the call."""
    if not exc.lineno:
        return False
    code = code.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line + "\n" for line in code.split("\n")]  # not splitlines: it also splits at \f, \x85, U+2028
    span = _call_lines(lines, call)
    if span is None:
        start = re.search(rf"\b{call}\s*\(", code)
        if start is None:
            return False
        first = code.count("\n", 0, start.start()) + 1
        column = start.end() - 1 - (code.rfind("\n", 0, start.end() - 1) + 1)
        span = first, _closing_line(lines[first - 1:], first, column, len(lines))
    return span[0] <= exc.lineno <= span[1]


def _call_lines(lines: list[str], call: str) -> tuple[int, int] | None:
    """The first and last line of the first `call(` among Python's tokens of `lines` (the last line
    of the code when it never closes); None when the tokenizer stops before it finds one."""
    previous = None
    try:
        for token in tokenize.generate_tokens(iter(lines).__next__):
            if token.exact_type == tokenize.LPAR and previous is not None and (previous.type, previous.string) == (
                    tokenize.NAME, call):
                return previous.start[0], _closing_line(lines[token.start[0] - 1:], token.start[0], token.start[1],
                                                        len(lines))
            previous = token
    except (tokenize.TokenError, SyntaxError):
        pass
    return None


def _closing_line(lines: list[str], first: int, column: int, last: int) -> int:
    """The line of the bracket closing the one at `column` of `lines[0]` (line `first` of the
    code), read with Python's tokenizer; `last` when it never closes or the tokenizer stops first
    (an unterminated string)."""
    depth = 0
    try:
        for token in tokenize.generate_tokens(iter(lines).__next__):
            if token.type != tokenize.OP or token.start < (1, column):
                continue
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(token.string, 0)
            if depth == 0:
                return token.start[0] + first - 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return last


def _engine_code_unparsed(call: str, exc: SyntaxError) -> LaunchParseError:
    """The engine's code as Python meets it: a script that does not parse stops before any engine
    is built (the vLLM-Ascend PR #4521 example's speculative_config misses a comma between two
    entries). Was: 'not an SGLang or vLLM server command'."""
    shown = (exc.text or "").strip()
    at = f" at line {exc.lineno}" + (f" ({shown})" if shown else "") if exc.lineno else ""
    return LaunchParseError(
        f"python: the code that builds {call}(...) does not parse ({exc.msg}{at}): Python stops with "
        "SyntaxError before the engine is built, so no server runs from it",
        hint="fix that line (a missing comma between two entries of a dict or call is the usual cause) and "
             "audit the code again")


def _refuse_joined_for_a_shell(tree: ast.AST, argv: list[str]) -> None:
    """`subprocess.Popen(" ".join(cmd), shell=True)` (Modal's vLLM example starts its server so)
    hands /bin/sh one string: a word with spaces or quotes in it, the `json.dumps` of a
    speculative config, is split and unquoted there, so vLLM's json.loads refuses it and the
    server does not start. Raised when the shell's words differ from the list's.
    Only the shell=True call's own command counts: a `print(" ".join(cmd))` of a list run as a
    list, or `" ".join(shlex.quote(w) for w in cmd)`, hands the server its words as written."""
    if not _runs_joined_in_a_shell(tree):
        return
    try:
        same = shlex.split(" ".join(argv)) == argv
    except ValueError:
        same = False
    if not same:
        changed = next((w for w in argv if re.search(r"[\s\"'{}$`\\]", w)), "")
        raise LaunchParseError(
            f"the script joins the server's argument list into one string for a shell (\" \".join(...) with "
            f"shell=True): the shell splits and unquotes {changed!r}, so the server does not get it as written "
            "(a JSON --speculative-config is refused and the server does not start)",
            hint="run the list itself (subprocess.Popen(cmd)) or join it with shlex.join(cmd)")


def _runs_joined_in_a_shell(tree: ast.AST) -> bool:
    """A `shell=True` call whose command is the server's words joined by spaces, as they are:
    written in the call (`Popen(" ".join(cmd), shell=True)`) or through a name bound to that join."""
    servers = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _names_a_server(node.value)
               for target in node.targets if isinstance(target, ast.Name)}
    joined = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _raw_join(node.value, servers)
              for target in node.targets if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not any(
                kw.arg == "shell" and isinstance(kw.value, ast.Constant) and kw.value.value is True
                for kw in node.keywords):
            continue
        command = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "args"), None)
        if _raw_join(command, servers) or (isinstance(command, ast.Name) and command.id in joined):
            return True
    return False


def _names_a_server(node: ast.expr) -> bool:
    """A list literal that starts a server (`["vllm", "serve", ...]`, `[sys.executable, "-m",
    "sglang.launch_server", ...]`), not another program's (`["nvidia-smi", "-L"]`)."""
    return isinstance(node, (ast.List, ast.Tuple)) and any(
        isinstance(e, ast.Constant) and isinstance(e.value, str) and re.search(r"vllm|sglang|--speculative", e.value)
        for e in node.elts)


def _raw_join(node: ast.expr | None, servers: set[str]) -> bool:
    """`" ".join(cmd)` of the server's words themselves (its list, by name or written out), not of
    words each quoted for the shell first (a comprehension, `map(shlex.quote, cmd)`)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant) and node.func.value.value == " " and len(node.args) == 1):
        return False
    words = node.args[0]
    while isinstance(words, ast.BinOp):  # (`cmd + extra_args`)
        words = words.left
    return _names_a_server(words) or (isinstance(words, ast.Name) and words.id in servers)


# Python calls that run a command line given as one string (a shell reads it: os.system(3),
# subprocess with shell=True, asyncio's create_subprocess_shell), or split as a shell would
# (`subprocess.Popen(shlex.split(cmd))`).
_SHELL_STRING_CALLS = ("os.system", "os.popen", "subprocess.run", "subprocess.Popen", "subprocess.call",
                       "subprocess.check_call", "subprocess.check_output", "Popen", "asyncio.create_subprocess_shell",
                       "create_subprocess_shell")


# subprocess's calls take a string as one program's name unless shell=True (Python docs,
# subprocess "Frequently Used Arguments": "If passing a single string, either shell must be True
# or else the string must simply name the program to be executed without specifying any arguments")
_SUBPROCESS_CALLS = ("subprocess.run", "subprocess.Popen", "subprocess.call", "subprocess.check_call",
                     "subprocess.check_output", "Popen")


def _python_shell_string(call: ast.Call, names: dict[str, Any]) -> tuple[bool, list[str] | LaunchParseError] | None:
    """The server a script starts from a command string (`os.system("vllm serve ...")`,
    `subprocess.run(CMD, shell=True)` with `CMD = "python3 -m sglang.launch_server ..."`, an f-string
    of names bound in the text); None when the string starts no server. Was: 'not an SGLang or vLLM
    server command'."""
    arg = call.args[0]
    split_by_shlex = isinstance(arg, ast.Call) and ast.unparse(arg.func) == "shlex.split" and len(arg.args) == 1
    if split_by_shlex:
        arg = arg.args[0]
    unknown: list[str] = []
    if isinstance(arg, ast.JoinedStr):
        parts = []
        for part in arg.values:
            if isinstance(part, ast.FormattedValue):
                try:
                    parts.append(str(_literal(part.value, names)))
                except ValueError:
                    unknown.append(ast.unparse(part.value))
                    parts.append("{" + ast.unparse(part.value) + "}")
            else:
                parts.append(str(_literal(part, names)))
        string: Any = "".join(parts)
    else:
        try:
            string = _literal(arg, names)
        except ValueError:
            return None
    as_one_string = isinstance(string, str)
    if isinstance(string, list) and string and all(isinstance(w, (str, int, float)) for w in string):
        string = shlex.join(str(w) for w in string)  # (an argv list: `subprocess.Popen(base + spec)`)
    if not isinstance(string, str):
        return None
    try:
        argv = split_command(string)
        detect_engine(argv)
    except (LaunchParseError, ValueError):
        return None
    if _asks_for_help(argv):
        # (`subprocess.check_output("vllm serve --help=speculative", shell=True)`, `os.system("vllm
        # --version")`: the script reads the CLI's help or version; it starts no server)
        return None
    speculative = any(SPECULATIVE_FLAG.match(w) for w in argv)
    if as_one_string and _runs_string_as_program(call, split_by_shlex):
        return speculative, LaunchParseError(
            f"the script runs the server's command line as one string without shell=True "
            f"({ast.unparse(call.func)}(\"{argv[0]} ...\")): Python takes the whole string for a program's name, "
            "so the server does not start (FileNotFoundError)",
            hint="pass shell=True, or shlex.split(command), or the argument list")
    if unknown:
        return speculative, LaunchParseError(
            f"the server's command is an f-string: {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} "
            "not in this text", hint="paste the command with its values written out")
    return speculative, argv


def _runs_string_as_program(call: ast.Call, split_by_shlex: bool) -> bool:
    """A subprocess call given its command line as one string, without shell=True."""
    if ast.unparse(call.func) not in _SUBPROCESS_CALLS or split_by_shlex:
        return False
    shell = next((kw.value for kw in call.keywords if kw.arg == "shell"), None)
    # (`shell=use_shell`: a value this text does not show is not taken for False)
    return shell is None or (isinstance(shell, ast.Constant) and not shell.value)


def _python_argv_list(node: ast.List, names: dict[str, Any]) -> tuple[bool, list[str] | LaunchParseError] | None:
    """A server argv written as a Python list for subprocess (`cmd = ["python", "-m",
    "vllm.entrypoints.openai.api_server", "--model", "Qwen/Qwen3-8B", ..., "--speculative-config",
    '{...}']; subprocess.run(cmd)`); None when the list starts no server. An element computed
    elsewhere stays its expression's text, unless it is a speculative setting or the model."""
    words: list[str] = []
    unknown: list[tuple[int, str]] = []
    for element in node.elts:
        try:
            value = _literal(element, names)
        except ValueError:
            if isinstance(element, ast.Starred):
                continue  # `*extra_args`: words this text does not show
            unknown.append((len(words), ast.unparse(element)))
            words.append(ast.unparse(element))
            continue
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            return None
        words.append(str(value))
    try:
        argv = _server_argv(words)
        detect_engine(argv)
    except LaunchParseError:
        return None
    speculative = any(SPECULATIVE_FLAG.match(w) for w in argv)
    for at, expr in unknown:
        flag = words[at - 1] if at else ""
        if SPECULATIVE_FLAG.match(flag) or flag in ("--model", "--model-path"):
            return speculative, LaunchParseError(
                f"the server's argument list: {flag} is the Python expression {expr!r}, whose value is not in this text",
                hint="paste the list with its values written out")
    return speculative, argv


# SGLang's test harness (python/sglang/test/test_utils.py `popen_launch_server(model, base_url,
# timeout, ..., other_args=[...])`) starts `python3 -m sglang.launch_server --model-path MODEL
# *other_args`; SGLang's own tests and the issues quoting them launch speculative servers this way.
_SGLANG_TEST_LAUNCHER = "popen_launch_server"


def _sglang_test_launch(node: ast.Call, names: dict[str, Any]) -> tuple[bool, list[str] | LaunchParseError]:
    keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
    model_expr = node.args[0] if node.args else keywords.get("model")
    other = keywords.get("other_args", node.args[5] if len(node.args) > 5 else None)
    words: list[str] = []
    unread: list[str] = []
    if isinstance(other, (ast.List, ast.Tuple)):
        for element in other.elts:
            try:
                words.append(str(_literal(element, names)))
            except ValueError:
                # `*[str(i) for i in range(...)]`: computed sizes, no speculative setting. A flag's
                # value computed elsewhere (`"--speculative-draft-model-path", DEFAULT_EAGLE3_DRAFT`,
                # a constant imported from sglang.test.test_utils) takes its flag along, kept as a
                # word where flags go, as an Engine(...)'s `**settings` is: the flag has a value, one
                # this text does not show (left bare, it read as a flag written with no value, which
                # argparse refuses; see names_no_draft_path)
                if (words and words[-1].startswith("--") and "=" not in words[-1] and not isinstance(element, ast.Starred)
                        and not _is_switch(words[-1][2:].replace("_", "-"))):
                    unread.append(f"**{{{words.pop()!r}: {ast.unparse(element)}}}")
    speculative = any(SPECULATIVE_FLAG.match(w) for w in words + unread)
    argv = ["python3", "-m", "sglang.launch_server"]
    if model_expr is not None:
        try:
            argv += ["--model-path", str(_literal(model_expr, names))]
        except ValueError:
            return speculative, LaunchParseError(
                f"{_SGLANG_TEST_LAUNCHER}(...): the model is the Python expression {ast.unparse(model_expr)!r}, "
                "whose value is not in this text", hint="paste the test with its model name written out")
    return speculative, argv + words + unread


# Ray Serve LLM's `LLMConfig(model_loading_config=dict(...), engine_kwargs=dict(...))`: vLLM with
# engine_kwargs as its engine arguments (docs.ray.io serve/llm user-guides/configuration.html).
_RAY_LLM_CONFIG = "LLMConfig"


def _ray_llm_config_argv(node: ast.Call, names: dict[str, Any]) -> tuple[bool, list[str] | LaunchParseError]:
    """The vLLM server a Ray Serve `LLMConfig(...)` call configures (was: not a server command,
    the speculative_config in its engine_kwargs unseen)."""
    kwargs = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
    config: dict[str, Any] = {}
    for key in ("model_loading_config", "engine_kwargs"):
        try:
            value = _literal(kwargs[key], names) if key in kwargs else {}
        except ValueError:
            value = None
        if not isinstance(value, dict):
            return "engine_kwargs" in kwargs and "speculative" in ast.unparse(kwargs["engine_kwargs"]), LaunchParseError(
                f"LLMConfig(...): {key} is the Python expression {ast.unparse(kwargs[key])!r}, whose value is "
                "not in this text", hint="paste the LLMConfig(...) call with its values written out as dict(...)")
        config[key] = value
    return "speculative_config" in config["engine_kwargs"], _EngineCallArgv(llm_config_argv(config), _RAY_LLM_CONFIG)


def _engine_call_argv(node: ast.Call, name: str, names: dict[str, Any]) -> tuple[bool, list[str] | LaunchParseError]:
    engine = _ENGINE_CALLS[name]
    kwargs: dict[str, Any] = {}
    if node.args:
        kwargs["model" if engine == "vllm" else "model_path"] = node.args[0]
    unread: list[str] = []
    for kw in node.keywords:
        if kw.arg is not None:
            kwargs[kw.arg] = kw.value
        else:
            spread = _spread_keywords(kw.value, names)
            kwargs.update(spread or {})
            if spread is None:
                unread.append("**" + ast.unparse(kw.value))
    speculative = any(key.startswith("speculative") for key in kwargs)
    if name == "Engine" and any(not isinstance(arg, ast.Starred) for arg in node.args):
        return speculative, _engine_positional(node)
    argv = ["vllm", "serve"] if engine == "vllm" else ["python3", "-m", "sglang.launch_server"]
    for key, expr in kwargs.items():
        try:
            value = expr.value if isinstance(expr, _Spread) else _literal(expr, names)
        except ValueError:
            if key.startswith("speculative") or key in ("model", "model_path"):
                return speculative, LaunchParseError(
                    f"{name}(...): {key} is the Python expression {ast.unparse(expr)!r}, whose value is "
                    "not in this text",
                    hint=f"paste the {name}(...) call with its values written out")
            continue  # another setting, computed: not one the audit reads
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif isinstance(value, (dict, list, tuple)):
            argv += [flag, json.dumps(value)]
        else:
            argv += [flag, str(value)]
    if engine == "sglang":
        # (kept as a word where flags go: the settings it holds are not in this text, so no
        # check reads "no draft path" from their absence; see names_no_draft_path)
        argv += unread
    return speculative, _EngineCallArgv(argv, name)


def _engine_positional(node: ast.Call) -> LaunchParseError:
    """SGLang's Engine takes keyword arguments only: `Engine.__init__(self, **kwargs)` builds
    ServerArgs(**kwargs) (python/sglang/srt/entrypoints/engine.py, from the release that moved it
    there to the newest), so `sgl.Engine("meta-llama/...")` raises TypeError before anything
    starts. ServerArgs itself, vLLM's LLM and EngineArgs take the model as their first
    positional argument."""
    given = [arg for arg in node.args if not isinstance(arg, ast.Starred)]
    first = ast.unparse(given[0])
    return _EngineTypeError(
        f"Engine({first}, ...): SGLang's Engine takes keyword arguments only (Engine.__init__(self, **kwargs)): "
        f"Python raises TypeError (Engine.__init__() takes 1 positional argument but {len(given) + 1} were given) "
        "and the engine does not start",
        hint=f"name it: Engine(model_path={first}, ...)" if len(given) == 1
        else "name each setting: Engine(model_path=..., ...)")


class _EngineTypeError(LaunchParseError):
    """An engine call that raises TypeError whatever its settings (Engine's positional argument)."""


class _EngineCallArgv(list):
    """The server argv an engine call's keyword arguments amount to, naming the call (`LLM`,
    `Engine`): parse_launch_command records it as the LaunchConfig's python_call."""

    def __init__(self, argv: list[str], call: str | None) -> None:
        super().__init__(argv)
        self.call = call
        self.earlier: tuple[tuple[int, _EngineCallArgv], ...] = ()
        """The engine calls the script runs before this one (their line, their argv)."""


@dataclass(frozen=True)
class _Spread:
    """A keyword argument's value given by `**settings`, already read."""
    value: Any


def _spread_keywords(expr: ast.expr, names: dict[str, Any]) -> dict[str, _Spread] | None:
    """`Engine(model_path=..., **settings)`: a dict written in the text, or a name bound to one,
    gives its keys as keyword arguments, as Python passes them (was: dropped, so a draft path
    held there read as none). Another (`**vars(args)`) is not in this text: None."""
    try:
        spread = _literal(expr, names)
    except ValueError:
        return None
    if not isinstance(spread, dict) or not all(isinstance(key, str) for key in spread):
        return None
    return {key: _Spread(value) for key, value in spread.items()}


def _literal_bindings(tree: ast.AST) -> dict[str, Any]:
    """Names (and attributes, `cls.model`) bound once in the text to a literal value, in the
    order they are written (a later one may use an earlier one). A name bound to two different
    values is left out: which one the call sees depends on the flow."""
    names: dict[str, Any] = {}
    seen_twice: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], (ast.Name, ast.Attribute))):
            continue
        key = ast.unparse(node.targets[0])
        try:
            value = _literal(node.value, names)
        except ValueError:
            seen_twice.add(key)  # bound to something computed too: not one value
            continue
        if key in names and names[key] != value:
            seen_twice.add(key)
        names[key] = value
    return {k: v for k, v in names.items() if k not in seen_twice}


def _literal(expr: ast.expr, names: dict[str, Any]) -> Any:
    """A literal's value, with the names bound in the text read through (ValueError otherwise)."""
    key = ast.unparse(expr)
    if key in names:
        return names[key]
    if isinstance(expr, ast.Dict) and all(k is not None for k in expr.keys):
        return {_literal(k, names): _literal(v, names) for k, v in zip(expr.keys, expr.values)}  # type: ignore[arg-type]
    if isinstance(expr, (ast.List, ast.Tuple)):
        items = [_literal(e, names) for e in expr.elts]
        return items if isinstance(expr, ast.List) else tuple(items)
    if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "str"
            and len(expr.args) == 1 and not expr.keywords):
        return str(_literal(expr.args[0], names))  # `"--speculative-num-steps", str(3)`
    if (isinstance(expr, ast.Call) and ast.unparse(expr.func) == "json.dumps" and len(expr.args) == 1
            and not expr.keywords):
        # `"--speculative-config", json.dumps(SPECULATIVE_CONFIG)` (a Modal serve script's way):
        # the JSON text of a literal, with json.dumps' default ", " / ": " separators
        return json.dumps(_literal(expr.args[0], names))
    if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "dict"
            and not expr.args and all(kw.arg is not None for kw in expr.keywords)):
        # `speculative_config=dict(method="eagle3", model=..., num_speculative_tokens=3)`
        return {kw.arg: _literal(kw.value, names) for kw in expr.keywords}
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        # `base_cmd + spec_args`, `"vllm serve " + MODEL`: two lists or two strings joined
        left, right = _literal(expr.left, names), _literal(expr.right, names)
        if isinstance(left, type(right)) and isinstance(left, (list, str)):
            return left + right
        raise ValueError(f"{ast.unparse(expr)} joins no two lists or strings")
    try:
        return ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


# A `--help` text's value of a flag: argparse's choice list (`{EAGLE,EAGLE3,NEXTN}`).
_HELP_CHOICES = re.compile(r"\{[^{}:\"']*,[^{}:\"']*\}")


def _flags_alone(words: list[str]) -> bool:
    """Words that are flags and their values only. A sentence that starts with a flag
    (`--speculative-num-steps 0 drafts nothing: ...`) has words no flag takes (SGLang's server
    has no positional argument, and vLLM's model comes right after `serve`), and a `--help`
    text gives each flag its metavar (`--speculative-num-steps SPECULATIVE_NUM_STEPS`, followed
    by a comma where an alias comes next) or its choices as the value (argparse, "metavar": the
    dest in upper case by default)."""
    if not words[0].startswith("--"):
        return False
    # a dotted key followed by a flag takes that flag as its value (vllm_dotted_flags), which
    # leaves the flag's own value a stray word: still flags, which the parse refuses by name
    words = [word for i, word in enumerate(words) if not (
        word.startswith("-") and "=" not in word and "." in word
        and i + 1 < len(words) and words[i + 1].startswith("-") and not _is_number(words[i + 1]))]
    flags, positionals = _read_flags(words)
    return not positionals and not any(
        isinstance(value, str) and (value.rstrip(",") == name.split(".", 1)[0].replace("-", "_").upper()
                                    or _HELP_CHOICES.fullmatch(value.rstrip(",")))
        for name, value in flags.items())


# `ps` cuts each line at the terminal width unless told not to (procps ps(1): "-w  Wide
# output. Use this option twice for unlimited width").
_PS_HINT = ("a line copied from `ps` may be cut at the terminal width: take it from "
            "`ps -ww -o args -p PID` or `tr '\\0' ' ' < /proc/PID/cmdline`")


class _ServerArgv(list):
    """A server's argv with the engine variables it was given on a line of their own above it,
    without `export` (`SGLANG_ENABLE_SPEC_V2=1` then the server on the next line)."""

    def __init__(self, words: list[str], unexported: tuple[str, ...]) -> None:
        super().__init__(words)
        self.unexported = unexported


def _server_argv(argv: list[str]) -> list[str]:
    """The server command of the words (see _server_argv_of), with the names of the engine
    variables read from bare assignment lines kept on it (`unexported`)."""
    unexported: list[str] = []
    server = _server_argv_of(argv, unexported)
    given = {word.partition("=")[0] for word in server if "=" in word}
    kept = tuple(name for name in dict.fromkeys(unexported) if name in given)
    return _ServerArgv(server, kept) if kept else server


def _server_argv_of(argv: list[str], unexported: list[str]) -> list[str]:
    """The server's own argv out of a pasted shell line. `cd /srv && python -m ... 2>&1 | tee
    log &` is several commands: keep the one that starts the server (else the first), and
    drop redirections (`> log`, `2>&1`), which are not arguments."""
    commands: list[list[str]] = [[]]
    skip_target = False
    cut_at: list[tuple[int, str]] = []  # the commands a comment or empty line cut off a continued one
    for tok in argv:
        if skip_target:
            skip_target = False
            continue
        if tok in ("|", "|&", "||", "&&", ";", "&", _COMMENT_CUT, _BLANK_CUT, _ESCAPED_BLANK_CUT):  # (`|&`: bash(1) Pipelines)
            if tok in _CUT_BY and commands[-1]:
                cut_at.append((len(commands), tok))
            commands.append([])
            continue
        redirect = _REDIRECT.fullmatch(tok)
        if redirect:
            # `> file` names its target in the next word; `>file` and `2>&1` do not
            skip_target = not redirect.group(3)
            continue
        commands[-1].append(tok)
    commands_before = commands
    # (`bash -c ''` unwraps to no words at all)
    commands = [c for c in (_unwrap_shell(_without_reserved_words(c)) for c in commands if c) if c]
    exported: list[str] = []
    servers: list[list[str]] = []
    own_env: dict[int, set[str]] = {}  # (by id of a server in `servers`: the names its own words assign)
    unit_env = service_environment(commands)
    allexport = False
    # (one look over the words: a log of thousands of lines is thousands of "commands")
    slime = any(tok.startswith("--sglang-") for tok in argv)
    for command in commands:
        command = (_slime_rollout_server(command) if slime else None) or command
        try:
            detect_engine(command)
        except LaunchParseError:
            remote = _server_in_a_string(command)
            if remote is not None:
                servers.append(remote)
                continue
            # `export SGLANG_ENABLE_SPEC_V2=1 && python -m sglang.launch_server ...`: the
            # server inherits what the shell exported before it (bash(1), "export"); the engine's
            # own switches are the ones that change what it runs
            if command[0].startswith("Environment="):
                # a systemd unit's `Environment="SGLANG_ENABLE_SPEC_V2=1" "B=2"` line
                # (systemd.exec(5)): the service's ExecStart runs with them
                words = [command[0][len("Environment="):], *command[1:]]
                exported += without_unit_unset(
                    [tok for tok in words if re.fullmatch(r"(SGLANG_|SGL_|VLLM_)[A-Za-z0-9_]*=.*", tok)], commands)
            elif command[0] == "unset" or command[:2] == ["export", "-n"]:
                # `unset SGLANG_ENABLE_SPEC_V2` (or `export -n`) between the export and the server:
                # the server does not get it (bash(1) SHELL BUILTIN COMMANDS)
                names = {word for word in command[1:] if not word.startswith("-")}
                exported = [tok for tok in exported if tok.partition("=")[0] not in names]
            elif command[0] == "set" and any(w == "-a" or (w.startswith("-") and not w.startswith("--") and "a" in w)
                                             or w == "allexport" for w in command[1:]):
                # `set -a` / `set -o allexport`: every assignment after it is exported (bash(1), set)
                allexport = True
            elif command[0] == "export" or all(_ASSIGNMENT.fullmatch(tok) for tok in command):
                # a pasted snippet's `SGLANG_ENABLE_SPEC_V2=1` line above the server is read as
                # meant for it, as `export` would make it; bash itself passes such a variable to
                # the server only if it is exported (bash(1) ENVIRONMENT), so its name is kept
                # for the audit to say so (`export NAME` later, or `set -a` before, exports it)
                found = [tok for tok in command if re.fullmatch(r"(SGLANG_|SGL_|VLLM_)[A-Za-z0-9_]*=.*", tok)]
                if command[0] == "export":
                    names = {word.partition("=")[0] for word in command[1:]}
                    unexported[:] = [name for name in unexported if name not in names]
                elif not allexport:
                    unexported += [tok.partition("=")[0] for tok in found]
                exported += found
            continue
        command = service_command(command, unit_env)
        # (a unit's Environment= above its ExecStart= is in both: once is what runs)
        inherited = [word for word in exported if word not in command]
        # what the shell exported comes first: an `env -i`, `env -u` or a `sudo` in the command
        # applies to it (_launch_environment)
        servers.append(inherited + command if inherited else command)
        own_env[id(servers[-1])] = _own_env_names(command)
    # A prefill/decode pair started from one script (`... --disaggregation-mode prefill & ...
    # --disaggregation-mode decode --speculative-algorithm EAGLE ... &`; DeepSeek MTP deployments
    # put the speculative flags on the decode server): the one that speculates is audited, as
    # the /proc probe chooses among running servers.
    # (`vllm serve --help | grep speculative` above the real command prints help and exits: no
    # server, unless it is all the text has)
    servers = [s for s in servers if not _asks_for_help(s)] + [s for s in servers if _asks_for_help(s)]
    picked = next((server for server in servers if any(SPECULATIVE_FLAG.match(tok) for tok in server)), None)
    if picked is None and servers:
        _refuse_flags_cut_by_a_comment(servers[0], [(commands_before[i], by) for i, by in cut_at
                                                    if i < len(commands_before)])
        picked = servers[0]
    if picked is not None:
        # a name the server's own command assigns (`SGLANG_ENABLE_SPEC_V2=1 python -m ...`, `env
        # A=1 ...`, `docker run -e A=1 ...`) reaches it whether or not a bare line above exported it
        own = own_env.get(id(picked), set())
        unexported[:] = [name for name in unexported if name not in own]
        return picked
    for command in commands:
        # the "key launch parameters" of an issue report: the server's flags alone, one per line
        # (sgl-project/sglang#25673), named by the flags only one engine has, as a container's
        # `args:` pasted without its image is
        if not _flags_alone(command):
            continue
        if only_vllm_flags(command):
            return ["vllm", "serve", *command]
        if only_sglang_flags(command):
            return ["python3", "-m", "sglang.launch_server", *command]
    for command in commands:
        # the same fragment taken from the line after `vllm serve \`: its first word is the
        # model (`  meta-llama/Llama-3.1-8B-Instruct \` then the flags), vLLM's one positional
        if len(command) > 1 and _MODEL_WORD.fullmatch(command[0]) and _flags_alone(command[1:]) and (
                only_vllm_flags(command[1:])):
            return ["vllm", "serve", *command]
    return commands[0] if commands else []


# slime (THUDM/slime) and its forks train with SGLang rollout engines started from the trainer's
# own flags: every SGLang server flag prefixed `--sglang-` (slime/backends/sglang_utils/
# arguments.py `add_sglang_arguments`: `--foo` -> `--sglang-foo`), the model from `--hf-checkpoint`
# and tp from `--rollout-num-gpus-per-engine` (`validate_args`: sglang_tp_size =
# rollout_num_gpus_per_engine). Its own `--sglang-router-*` and `--sglang-server-concurrency` are
# no server flags.
_SLIME_TRAINERS = ("train.py", "train_async.py")
_SLIME_OWN = ("sglang-router-", "sglang-server-concurrency")


def _own_env_names(command: list[str]) -> set[str]:
    """The variables a server command's own words give the server: its leading `A=1` words, `env
    A=1`, `sudo A=1`, a container runtime's `-e A=1` (_launch_environment, _given_env). bash passes
    a prefix assignment to that command's environment (bash(1) SIMPLE COMMAND EXPANSION), export or
    not."""
    try:
        _, start = detect_engine(command)
    except LaunchParseError:
        return set()
    words = command[:start]
    names = set(_launch_environment(words))
    if _in_container(words):
        names |= {word.partition("=")[0] for word in _given_env(words)}
    return names


class _CommentCut(LaunchParseError):
    """A server command a comment or an empty line cut before its speculative flags; `server`: the
    words bash starts the server with."""

    def __init__(self, server: list[str], message: str, *, hint: str) -> None:
        super().__init__(message, hint=hint)
        self.server = server


def _refuse_flags_cut_by_a_comment(server: list[str], cut_off: list[tuple[list[str], str]]) -> None:
    """A server with no speculative flag whose command a comment line cut (`--tp 1 \\`, then
    `# --speculative-algorithm EAGLE \\`, then the flags it was meant to get): bash ends the command
    at the comment, starts the server with the words above it, and runs the flag lines below as a
    command of their own ("--speculative-algorithm: command not found", bash(1) COMMENTS: a comment
    has no line continuation). The server serves without the speculative flags it was written with.
    The same for an empty line after a `\\` line (_BLANK_CUT)."""
    if not server or not _is_server(server):
        return
    lost = [(tok, by) for words, by in cut_off if words and words[0].startswith("-")
            for tok in words if SPECULATIVE_FLAG.match(tok)]
    if lost:
        by = lost[0][1]
        lost = [tok for tok, _ in lost]
        raise _CommentCut(server,
            f"{_CUT_BY[by]}: the server starts with the words above it, and the lines below it ({', '.join(lost[:4])}"
            f"{', ...' if len(lost) > 4 else ''}) run as a command of their own that bash cannot find, so "
            + RUNS_WITHOUT_SPECULATION,
            hint=("delete the comment (or move it below the command)" if by == _COMMENT_CUT else
                  "end the line with the `\\` alone (move the comment above the command)" if by == _ESCAPED_BLANK_CUT
                  else "delete the empty line") + " so the flags after it reach the server")


def _asks_for_help(server: list[str]) -> bool:
    """A server command that only prints its help or version (`--help`, `-h`, vLLM's
    `--help=speculative`, `--version`) and exits."""
    try:
        _engine, start = detect_engine(server)
    except LaunchParseError:
        return False
    return any(w in ("--help", "-h", "--version") or w.startswith("--help=") for w in server[start:])


def _slime_rollout_server(words: list[str]) -> list[str] | None:
    """The SGLang server a slime `train.py ... --sglang-speculative-algorithm EAGLE ...` starts
    for its rollouts (a public slime script, scripts/run-mimo-7B-rl-eagle.sh: was not a server
    command), or None."""
    at = next((i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] in _SLIME_TRAINERS), None)
    if at is None or not any(w.startswith("--sglang-") and not w[2:].startswith(_SLIME_OWN) for w in words[at:]):
        return None
    flags, _ = _read_flags(words[at + 1:])
    argv = ["python3", "-m", "sglang.launch_server"]
    for own, server in (("hf-checkpoint", "model-path"), ("rollout-num-gpus-per-engine", "tp-size")):
        if isinstance(flags.get(own), str):
            argv += [f"--{server}", flags[own]]
    for name, value in flags.items():
        if not name.startswith("sglang-") or name.startswith(_SLIME_OWN):
            continue
        argv.append(f"--{name[len('sglang-'):]}")
        if value is not True:
            argv += value if isinstance(value, list) else [value]
    return argv


# A word that names a model as `vllm serve` takes it: a Hugging Face repo id (`org/name`) or a
# local directory, not a program or script (`python3`, `./run.sh`, `bench.py`).
_MODEL_WORD = re.compile(r"(?:[\w.-]+/[\w.-]+|(?:/|\./|~/)[\w./-]+)(?<!\.py)(?<!\.sh)")


# bash(1) RESERVED WORDS that may come before a command on its line: `{ cmd; }`, `if ...; then
# cmd`, `while ...; do cmd`, `! cmd`, `time cmd`.
_RESERVED_BEFORE_COMMAND = ("{", "}", "!", "then", "do", "else", "time")


def _without_reserved_words(command: list[str]) -> list[str]:
    """The command without the reserved words before it, so that its own leading assignments
    (`{ SGLANG_ENABLE_SPEC_V2=1 python3 -m sglang.launch_server ...; }`) are read as its
    environment."""
    at = 0
    while at < len(command) - 1 and command[at] in _RESERVED_BEFORE_COMMAND:
        at += 1
    return command[at:]


# Programs that run a command given to them as one string, by a shell of their own: ssh(1) (the
# remote shell runs the words after the host), tmux(1) new-session/new-window (a shell-command
# argument), su(1)/runuser(1) -c, pdsh, and gcloud compute ssh --command (over ssh too). (screen
# and kubectl exec run an argv, no shell: a string there is a program name that does not exist,
# and `bash -c` inside them is read already.)
_STRING_RUNNERS = ("ssh", "tmux", "su", "runuser", "pdsh", "gcloud")


def _server_in_a_string(command: list[str]) -> list[str] | None:
    """`ssh gpu01 "cd /srv && python3 -m sglang.launch_server ..."`, `tmux new-session -d -s
    sglang 'vllm serve ...'`: the server is the command in the string argument (was: no server
    command at all). Only for the programs above, so that `echo "starting vllm serve ..."` stays
    a message."""
    if command[0].rsplit("/", 1)[-1] not in _STRING_RUNNERS:
        return None
    for word in reversed(command[1:]):
        # (`gcloud compute ssh VM --command="vllm serve ..."`, `gcloud compute tpus tpu-vm ssh VM
        # --worker=all --command=...` as the vLLM TPU docs start it: the string is the flag's value)
        word = word[len("--command="):] if word.startswith("--command=") else word
        if " " not in word:
            continue
        try:
            argv = split_command(word)
            detect_engine(argv)
        except (LaunchParseError, ValueError):
            continue
        return argv
    return None


_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_ASSIGNMENT_LINE = re.compile(r"\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=")


# A unit's key written with blanks around its `=` (`ExecStart = /usr/bin/python3 ...`): systemd strips
# them (systemd.syntax(7): "Whitespace immediately before or after the "=" is ignored"; src/shared/
# conf-parser.c parse_line strstrip()s the key and the value). Was: `ExecStart` and `=` read as words,
# and `Environment = SGLANG_ENABLE_SPEC_V2=1` as no setting.
_UNIT_KEY_SPACED = re.compile(r"^([ \t]*)(ExecStart|Environment)[ \t]*=[ \t]*", re.M)
_UNIT_EXEC_START_SPACED = re.compile(r"^[ \t]*ExecStart[ \t]+=|^[ \t]*ExecStart=[ \t]", re.M)
_UNIT_ENVIRONMENT = re.compile(r"^[ \t]*Environment=(.*)$", re.M)
# An empty ExecStart= or Environment= (a drop-in's override, as `systemctl cat` prints it below the unit)
_UNIT_RESET = re.compile(r"^[ \t]*(ExecStart|Environment|UnsetEnvironment)=[ \t]*\r?$", re.M)
_UNIT_SETTING = re.compile(r"[ \t]*(ExecStart|Environment|UnsetEnvironment)=[ \t]*(\S?)")


def _without_reset_unit_settings(text: str) -> str:
    """A unit (and its drop-ins, as `systemctl cat` prints them) without the ExecStart= and
    Environment= settings an empty assignment below them resets: systemd.service(5), ExecStart=:
    "If the empty string is assigned to this option, the list of commands to start is reset, prior
    assignments of this option will have no effect"; systemd.exec(5), Environment=: "If the empty
    string is assigned to this option, the list of environment variables is reset". An override
    (`ExecStart=` then `ExecStart=... --speculative-num-steps 5`) is what runs. Was: the first
    server command of the text, the base unit's, audited with the variables the override drops."""
    lines = text.splitlines(keepends=True)
    keep = [True] * len(lines)
    earlier: dict[str, list[tuple[int, int]]] = {"ExecStart": [], "Environment": [], "UnsetEnvironment": []}
    i = 0
    while i < len(lines):
        m = _UNIT_SETTING.match(lines[i])
        if not m:
            i += 1
            continue
        end = i
        while lines[end].rstrip("\r\n").endswith("\\") and end + 1 < len(lines):
            end += 1  # (a `\`-ended line goes on)
        if not m.group(2):  # the empty assignment: what came before it is gone, and so is it
            for start, stop in earlier[m.group(1)]:
                keep[start:stop + 1] = [False] * (stop + 1 - start)
            earlier[m.group(1)] = []
            keep[i] = False
        else:
            earlier[m.group(1)].append((i, end))
        i = end + 1
    return "".join(line for line, kept in zip(lines, keep) if kept)
_UNIT_EXEC_START = re.compile(r"^[ \t]*ExecStart=", re.M)
_UNIT_BARE_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)(?=\s|$)")


def _with_unit_environment(text: str) -> str:
    """A systemd unit's ExecStart= with the variables its Environment= lines set read through.
    systemd expands them itself, no shell involved (systemd.service(5), "Command lines"):
    `${FOO}` anywhere in a word becomes FOO's exact value, one argument whatever blanks it holds,
    and `$FOO` as a word of its own becomes the value split at whitespace; every Environment= of
    the unit applies wherever it stands, a later setting of a name overriding an earlier one
    (systemd.exec(5), "Environment="). Was: `Environment=STEPS=1` and `--speculative-num-steps
    ${STEPS}` read as an unexpanded shell expression, and the unit's SD101 lost. A name no
    Environment= line sets (EnvironmentFile=, the manager's own) stays as written."""
    if not _UNIT_EXEC_START.search(text):
        return text
    assigned: dict[str, str] = {}
    for line in _UNIT_ENVIRONMENT.findall(text):
        try:
            words = shlex.split(line)  # systemd.exec(5): quoted with "" or '', split at blanks
        except ValueError:
            continue
        for word in words:
            name, eq, value = word.partition("=")
            if eq and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                assigned[name] = value
    if not assigned:
        return text
    out: list[str] = []
    in_exec = False
    for line in text.splitlines(keepends=True):
        continued = in_exec and out[-1].rstrip("\r\n").endswith("\\")  # (a `\`-ended line goes on)
        in_exec = bool(_UNIT_EXEC_START.match(line)) or continued
        out.append(_unit_expanded(line, assigned) if in_exec else line)
    return "".join(out)


def _unit_expanded(line: str, assigned: dict[str, str]) -> str:
    """One ExecStart= line with its `${NAME}` and lone `$NAME` replaced as systemd replaces them."""
    out: list[str] = []
    reader = _ShellReader(line)
    for i, step, quote in reader:
        m = _VARIABLE.match(line, i) if step == "$" else None
        name = m and (m.group(1) or m.group(2))
        lone = m is not None and m.group(2) is not None and quote is None and (
            i == 0 or line[i - 1].isspace()) and _UNIT_BARE_VARIABLE.match(line, i) is not None
        if m and name in assigned and (m.group(1) is not None or lone):
            value = assigned[name]
            if lone:
                out.append(_as_expanded(value, None))
            elif quote == '"':
                out.append(re.sub(r'([\\"$`])', r"\\\1", value))
            elif quote == "'" and "'" not in value:
                out.append(value)
            elif quote is None:
                out.append(shlex.quote(value))
            else:
                out.append(step)
                continue
            reader.at = m.end()
            continue
        out.append(step)
    return "".join(out)


def _with_script_variables(text: str) -> str:
    """A pasted script with the variables it assigns itself read through: a line
    `MODEL="meta-llama/Meta-Llama-3.1-8B-Instruct"`, then `--model "$MODEL"` below it
    (ai-dynamo/dynamo examples/backends/vllm/launch/agg_spec_decoding.sh), as bash expands them.
    Only a plain value assigned on lines of its own is read, and only outside single quotes
    (where bash leaves `$NAME` as written); `${NAME:-default}`, a computed value, or a name the
    text never assigns stays as written, since the environment decides it. A quoted value written
    over lines (`EXTRA="--speculative-algorithm EAGLE3 \\` then more lines, the way launch scripts
    keep their flags in one variable) is read once its quote closes."""
    assigned: dict[str, str] = {}
    unknown: set[str] = set()
    out: list[str] = []
    quote = None
    pending: list[str] = []  # the lines of an assignment whose quoted value is still open
    for line in text.splitlines(keepends=True):
        at_start = quote  # inside a quote opened on a line above: no assignment starts here
        if assigned:
            line, quote = _expand_outside_single_quotes(line, assigned, quote)
        else:
            _, quote = _expand_outside_single_quotes(line, assigned, quote)
        out.append(line)
        if at_start is None and _ASSIGNMENT_LINE.match(line) or pending:
            pending.append(line)
            if quote is None:
                _read_assignment("".join(pending), assigned, unknown)
                pending = []
    if pending:
        # a quote that never closes: the name has no value this text gives
        unknown.update(_ASSIGNED_NAMES.findall(pending[0]))
        for name in unknown:
            assigned.pop(name, None)
    return "".join(out)


def _read_assignment(lines: str, assigned: dict[str, str], unknown: set[str]) -> None:
    """Record the plain values an assignment line (or a quoted value continued over lines) gives."""
    try:
        # bash removes a backslash-newline outside single quotes, also inside double quotes
        # (bash(1) QUOTING: "A non-quoted backslash ... <newline> ... is treated as a line
        # continuation"; within double quotes "\\<newline>" is removed too); shlex keeps it there
        words = shlex.split(_without_continuations(lines), comments=True)
    except ValueError:
        unknown.update(_ASSIGNED_NAMES.findall(lines))
        words = []
    words = words[1:] if words[:1] == ["export"] else words
    if words and all(_ASSIGNMENT.fullmatch(w) for w in words):
        for word in words:
            name, _, value = word.partition("=")
            if value.startswith("(") or "$" in value or "`" in value or name in unknown or (
                    assigned.get(name, value) != value):
                # (`NAME=(...)` is an array, read by _with_script_arrays)
                # computed, or given two values (the branches of an `if`/`case`: which one
                # runs is decided when the script runs): not a value this text gives
                unknown.add(name)
            else:
                assigned[name] = value
    for name in unknown:
        assigned.pop(name, None)


def _without_continuations(text: str) -> str:
    """The text with each backslash-newline outside single quotes removed, as bash reads it."""
    return "".join("" if step == "\\\n" else step for _, step, _ in _ShellReader(text))


# The names a line assigns (`NAME=`, `export NAME=`), read where the line cannot be split.
_ASSIGNED_NAMES = re.compile(r"(?:^|[\s;])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=")


def _expand_outside_single_quotes(line: str, assigned: dict[str, str], quote: str | None) -> tuple[str, str | None]:
    out: list[str] = []
    reader = _ShellReader(line, quote)
    for i, step, quote_here in reader:
        if step == "$" and quote_here != "'":
            m = _VARIABLE.match(line, i)
            if m and (m.group(1) or m.group(2)) in assigned:
                out.append(_as_expanded(assigned[m.group(1) or m.group(2)], quote_here))
                reader.at = m.end()
                continue
        out.append(step)
    return "".join(out), reader.quote


def _as_expanded(value: str, quote: str | None) -> str:
    """The value written back so that splitting the line gives the words bash gives: an
    expansion's result is not re-parsed for quotes (bash(1) "Quote Removal" applies only to the
    quotes written in the line), so `SPEC_CONFIG='{"method":"dspark",...}'` then
    `--speculative-config "$SPEC_CONFIG"` hands vLLM the JSON with its double quotes. Inside
    double quotes the value is one word (backslash, double quote, dollar and backquote escaped);
    unquoted it is split at blanks (word splitting), each word kept literally."""
    if quote == '"':
        return re.sub(r'([\\"$`])', r"\\\1", value)
    return " ".join(shlex.quote(word) for word in value.split())


def _unwrap_shell(argv: list[str]) -> list[str]:
    """`bash -c 'python -m sglang.launch_server ...'`: the server command is the string, run
    with the environment given before the shell (`A=1 bash -c ...`, `docker run -e A=1 IMAGE
    sh -c ...`, a container's env)."""
    for i, tok in enumerate(argv[:-2]):
        if re.fullmatch(r"python[\d.]*", tok.rsplit("/", 1)[-1]) and argv[i + 1] == "-c":
            # `python -c "from vllm import LLM; llm = LLM(model=..., speculative_config={...})"`:
            # the engine the code builds, with the environment given before the interpreter
            engine_call = _python_engine_call(argv[i + 2])
            if engine_call is not None:
                outer = _given_env(argv[:i])
                return _EngineCallArgv(["env", *outer, *engine_call], getattr(engine_call, "call", None)) if outer \
                    else engine_call
        if tok.rsplit("/", 1)[-1] in _SHELLS and re.fullmatch(r"-[a-z]*c", argv[i + 1]):
            return _shell_string_server(argv[:i], _with_shell_arguments(argv[i + 2], argv[i + 3:]))
    at = _entrypoint_shell_string(argv)
    if at is not None:
        return _shell_string_server(argv[:at], _with_shell_arguments(argv[at + 1], argv[at + 2:]))
    return argv


# `"$@"`, `$@`, `"${@}"`, `$*`: a `sh -c` string's own arguments (bash(1) "Special Parameters").
_ALL_ARGUMENTS = re.compile(r'"\$(?:@|\{@\})"|\$(?:@|\{@\}|\*|\{\*\})(?![\w"])')


def _with_shell_arguments(string: str, words: list[str]) -> str:
    """The `-c` string with the words after it put in for `"$@"`: `sh -c STRING NAME A B` runs
    STRING with $0=NAME and "$@"=A B (bash(1) OPTIONS, -c). A compose service's `entrypoint:
    [/bin/sh, -c, 'unset X && exec vllm serve "$@"', --]` gets its `command:` list so (compose
    spec: command is appended to the entrypoint): the server's model and flags (was: `vllm
    serve '$@'`, a server with no flags and no finding)."""
    if len(words) < 2 or not _ALL_ARGUMENTS.search(string):
        return string
    given = " ".join(shlex.quote(word) for word in words[1:])
    return _ALL_ARGUMENTS.sub(lambda _: given, string)


def _shell_string_server(outer_words: list[str], string: str) -> list[str]:
    """The command a shell runs from its `-c` string, with the environment the words before the
    shell give it. In a container (`docker run -e A=1 lmsysorg/sglang:v0.5.6 bash -c "..."`)
    the server is kept behind the container's words, so that its image still names the engine
    release (image_release) and its `-e` variables still reach the server (was: the image dropped,
    the release read from the host)."""
    inner = split_command(string)
    if _in_container(outer_words) and _is_server(inner):
        # the string's own assignments as -e words given after the container's own, which they
        # override (_given_env reads them in order)
        own, server = _own_environment(inner)
        return [*outer_words, *(w for tok in own for w in ("-e", tok)), *server]
    outer = _given_env(outer_words)
    # a manifest container's argv starts with its image (_container_argv): kept before the
    # string's server, where image_release reads it
    image = [w for w in _image_words(outer_words) if _RELEASE_IMAGE.fullmatch(w) or _ROLLING_VLLM_IMAGE.fullmatch(w)
             ] if _is_server(inner) else []
    if not image and _is_server(inner) and any(w.rsplit("/", 1)[-1] in ("sudo", "env") for w in outer_words):
        # `sudo bash -c "..."`, `env -i bash -c "..."`: the launcher's words stay before the server, so
        # that what they do to the environment (sudo's env_reset, env -i / -u) applies to what the
        # shell exported above them too (_launch_environment; was: dropped with the shell's words)
        return [*outer_words, *inner]
    if not outer and not image:
        return inner
    # the string's own assignments run after the container's: they come last
    own, server = _own_environment(inner)
    return ["env", *outer, *own, *image, *server]


def _own_environment(inner: list[str]) -> tuple[list[str], list[str]]:
    """A shell string's own environment and its server: `env A=1 python3 -m ...`, `A=1 python3
    ...`, an `export A=1;` line (read as a leading assignment), `exec env A=1 ...`. Only the
    assignments before the server: a later `name=path` word is a flag's value (vLLM's
    `--lora-modules my_lora=/loras/a`). Left after the container's image, they were no
    environment at all (was: SGLANG_ENABLE_SPEC_V2=1 lost, so no SD102)."""
    words = _without_exec(inner)
    words = words[1:] if words and words[0].rsplit("/", 1)[-1] == "env" else words
    own = list(itertools.takewhile(_ASSIGNMENT.fullmatch, words))
    return own, _without_exec(words[len(own):])


def _without_exec(words: list[str]) -> list[str]:
    """The words after a leading `exec`, which runs them in the shell's place (bash(1) SHELL
    BUILTIN COMMANDS)."""
    return words[1:] if words[:1] == ["exec"] and len(words) > 1 else words


def _in_container(words: list[str]) -> bool:
    """The words start a container runtime (`docker run`, `sudo docker run`, `sudo -E podman run`)."""
    programs = [w.rsplit("/", 1)[-1] for w in words if not w.startswith("-")][:2]
    return bool(programs) and (programs[0] in _CONTAINER_RUNTIMES or
                               programs[0] == "sudo" and programs[1:] and programs[1] in _CONTAINER_RUNTIMES)


def _is_server(argv: list[str]) -> bool:
    try:
        detect_engine(argv)
    except LaunchParseError:
        return False
    return True


# The argv reader as the paste readers see it (launch_pastes.ArgvReader).
_ARGV_READER = ArgvReader(server_argv=lambda argv: _server_argv(argv), is_server=lambda argv: _is_server(argv),
                           script_argv=lambda text: split_command(text))


def _entrypoint_shell_string(argv: list[str]) -> int | None:
    """`docker run --entrypoint bash IMAGE -c "python3 -m sglang.launch_server ..."`: the
    entrypoint replaces the image's and is given the words after the image (docker run
    reference, "--entrypoint"), so a shell entrypoint runs the `-c` string that follows the image.
    The index of that `-c` word, or None."""
    if not _in_container(argv):
        return None
    for i, tok in enumerate(argv):
        program = argv[i + 1] if tok == "--entrypoint" and i + 1 < len(argv) else (
            tok[len("--entrypoint="):] if tok.startswith("--entrypoint=") else "")
        if program.rsplit("/", 1)[-1] not in _SHELLS:
            continue
        # (the image comes after the program: the next word, or the one after with `--entrypoint=bash`)
        for j in range(i + (3 if tok == "--entrypoint" else 2), len(argv) - 1):
            # the first `-c` right after a word that is no option (the image)
            if re.fullmatch(r"-[a-z]*c", argv[j]) and not argv[j - 1].startswith("-"):
                return j
        return None
    return None


def _given_env(words: list[str]) -> list[str]:
    """`KEY=value` words a command's environment gets from the words before it: leading
    assignments (`env A=1`, `A=1`), and a container runtime's `-e/--env KEY=value` (docker
    run(1); the engines' own variables only, as for a manifest's env)."""
    env: list[str] = []
    for tok in words[1:] if words and words[0].rsplit("/", 1)[-1] == "env" else words:
        if tok != "export" and not _ASSIGNMENT.fullmatch(tok):
            break
        if tok != "export":
            env.append(tok.rstrip(";"))
    if _in_container(words):
        for i, tok in enumerate(words):
            if tok in ("-e", "--env") and i + 1 < len(words):
                value = words[i + 1]
            elif tok.startswith("--env="):
                value = tok[len("--env="):]
            elif tok.startswith("-e") and len(tok) > 2 and not tok.startswith("--"):
                value = tok[2:]
            else:
                continue
            if _ASSIGNMENT.fullmatch(value) and value.startswith(ENGINE_ENV_PREFIXES):
                env.append(value)
    return env


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)
_CONTAINER_RUNTIMES = ("docker", "podman", "nerdctl")


_REDIRECT = re.compile(r"(\d*|&)(>>?|<)(&\d+|\S+)?")
_SHELLS = ("bash", "sh", "dash", "zsh")


# The engines' release images (SGLang docs, get_started/install.md: `lmsysorg/sglang:latest`,
# tags like v0.5.6.post2-cu129; vLLM docs, deployment/docker.md: `vllm/vllm-openai:v0.10.1.1`):
# a release tag names the engine release inside the container.
_RELEASE_IMAGE = re.compile(r"(?:\S+/)?(lmsysorg/sglang|vllm/vllm-openai)"
                            r":v?(\d+\.\d+(?:\.\d+)*(?:(?:\.post|rc)\d+)?)(?:[-_][\w.-]*)?"
                            # a tag pinned to its digest (`IMAGE:TAG@sha256:...`): docker runs the
                            # digest, and the tag still names the release it was pushed as
                            r"(?:@[a-z0-9]+:[0-9a-fA-F]+)?")


def image_release(argv: list[str] | tuple[str, ...], engine: str) -> str | None:
    """The engine release a `docker run IMAGE ...` command, or a Kubernetes/compose container
    of that image, runs, from the image's release tag (None for latest/nightly/dev tags, digests,
    other images, or no container): the host's own Python knows nothing of what is installed in
    the container."""
    for tok in _image_words(argv):
        m = _RELEASE_IMAGE.fullmatch(tok)
        if m and (m.group(1) == "lmsysorg/sglang") == (engine == "sglang"):
            return m.group(2)
    return None


# vLLM's rolling image tags (vLLM docs, deployment/docker.md: `vllm/vllm-openai:latest`, and the
# nightly builds pushed as `:nightly`); no tag at all is docker's `latest`.
_ROLLING_VLLM_IMAGE = re.compile(r"(?:\S+/)?vllm/vllm-openai(?::(latest|nightly))?(?:@[a-z0-9]+:[0-9a-fA-F]+)?")


def image_rolling_tag(argv: list[str] | tuple[str, ...], engine: str) -> str | None:
    """`latest` or `nightly` when the container runs vLLM's image by a rolling tag: a release
    from after the flags vLLM dropped long ago (the V0 --speculative-model, gone in 0.8.3), read
    as the newest release (spec_debug.eagle3.engines.parse_version reads both names so)."""
    if engine != "vllm":
        return None
    for tok in _image_words(argv):
        m = _ROLLING_VLLM_IMAGE.fullmatch(tok)
        if m:
            return m.group(1) or "latest"
    return None


def _image_words(argv: list[str] | tuple[str, ...]) -> list[str]:
    """The words that may name the image: a container runtime's whole line (`docker run ...
    IMAGE ...`), or the first word of a manifest container's argv (`_container_argv` puts the
    image first, after `env` and the engine variables of its environment)."""
    words = list(argv)
    # (a script's `export VLLM_...=` lines above `sudo docker run ...` come first, as `env`
    # words or bare assignments: the container line follows them)
    words = words[1:] if words[:1] == ["env"] else words
    while words and _ASSIGNMENT.fullmatch(words[0]):
        words = words[1:]
    if words and words[0].rsplit("/", 1)[-1] in (*_CONTAINER_RUNTIMES, "sudo"):
        return words
    if words and words[0].rsplit("/", 1)[-1] in _IMAGE_RUNNERS:
        # `kubectl run NAME --image=IMAGE`, Slurm pyxis `srun --container-image=IMAGE` (NVIDIA/pyxis
        # README), `apptainer run docker://IMAGE` / `singularity exec docker://IMAGE`: the image
        # is a flag's value or a docker:// URI
        return [re.sub(r"^(?:--(?:container-)?image=)?(?:docker://)?", "", w) for w in words]
    return words[:1]


# Programs that run a container image named in their own flags or arguments.
_IMAGE_RUNNERS = ("kubectl", "srun", "apptainer", "singularity")


# Programs that name the server's module without running it: a search for its process or its
# text (`ps aux | grep sglang.launch_server`, `pgrep -af vllm.entrypoints.openai.api_server`,
# `ssh gpu01 "pkill -f sglang.launch_server"`), or a print of the command (`echo vllm serve M
# ...`, a notebook's `!echo ...`: the words are echo's arguments, no server starts).
_SEARCHES = ("grep", "egrep", "fgrep", "rg", "pgrep", "pkill", "pidof", "killall", "which", "whereis", "echo", "printf")


def detect_engine(argv: list[str]) -> tuple[EngineName, int]:
    """Which engine the argv starts, and the index of the first engine argument."""
    # (argparse's `usage: launch_server.py [-h] --model-path MODEL_PATH ...` line of `--help`
    # names the server's script too)
    # (a notebook's `!echo ...`: IPython's shell escape before the program)
    searched = bool(argv) and (argv[0].lstrip("!").rsplit("/", 1)[-1] in _SEARCHES or argv[0] == "usage:")
    for i, tok in enumerate([] if searched else argv):
        base = tok.rsplit("/", 1)[-1]
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if tok in _SGLANG_MODULES or base in ("launch_server.py", _SPECFORGE_BENCH):
            return "sglang", i + 1
        if (base in ("sglang", "sglang.exe") or tok == _SGLANG_CLI) and nxt == "serve":
            return "sglang", i + 2
        if tok in ("vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server"):
            return "vllm", i + 1
        if tok in _DYNAMO_WORKERS:
            return _DYNAMO_WORKERS[tok], i + 1
        if (base in ("vllm", "vllm.exe") or tok == _VLLM_CLI) and nxt == "serve":
            return "vllm", i + 2
        if tok == _KSERVE_HF_SERVER and i and argv[i - 1] == "-m":
            return "vllm", i + 1
        if base == "trl" and nxt == "vllm-serve":
            # TRL's generation server for GRPO/RLOO: a vLLM LLM built from its own flags, which
            # are vLLM's names (--model, --tensor_parallel_size, --speculative_config JSON since
            # huggingface/trl#5605; trl/scripts/vllm_serve.py ScriptArguments)
            return "vllm", i + 2
    entrypoint = None if searched else _entrypoint_serve(argv)
    if entrypoint is not None:
        return entrypoint
    kubectl_run = None if searched else _kubectl_run_args(argv)
    if kubectl_run is not None:
        return "vllm", kubectl_run
    for i, tok in enumerate([] if searched or _handles_an_image(argv) or _runs_another_program(argv) else argv):
        # `docker run ... vllm/vllm-openai:TAG --model M ...`: the image's entrypoint is the
        # server (vLLM docs, deployment/docker.md), so the words after the image are its flags.
        if re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", tok):
            return "vllm", i + 1
        if re.fullmatch(r"(\S+/)?kserve/huggingfaceserver(:\S+|@\S+)?", tok):
            # its ENTRYPOINT is ["python3", "-m", "huggingfaceserver"] (kserve/kserve
            # python/huggingface_server.Dockerfile)
            return "vllm", i + 1
    raise LaunchParseError(
        "not an SGLang or vLLM server command",
        hint="expected `python -m sglang.launch_server ...`, `sglang serve ...`, `vllm serve MODEL ...`"
             " or `python -m vllm.entrypoints.openai.api_server ...`",
    )


# Container subcommands that handle an image without running it (`docker pull IMAGE`, `docker image
# inspect IMAGE`, `enroot import docker://IMAGE`, `apptainer pull ... docker://IMAGE`).
_IMAGE_SUBCOMMANDS = ("pull", "push", "image", "images", "tag", "inspect", "save", "load", "rmi", "import",
                      "build", "manifest")


def _handles_an_image(argv: list[str]) -> bool:
    """A container tool's command that names the image without starting its server (was: `docker
    pull vllm/vllm-openai:TAG && docker run ...` read as a vLLM server with no model or flags,
    chosen over the `docker run` after it)."""
    at = next((i for i, w in enumerate(argv) if w.rsplit("/", 1)[-1] in
               (*_CONTAINER_RUNTIMES, "enroot", "apptainer", "singularity")), None)
    return at is not None and at + 1 < len(argv) and argv[at + 1] in _IMAGE_SUBCOMMANDS


def _runs_another_program(argv: list[str]) -> bool:
    """A container started with another program in place of the image's entrypoint: `docker run
    --entrypoint python3 vllm/vllm-openai:TAG -c '...'` (docker run reference, "--entrypoint":
    the words after the image are that program's), `apptainer exec docker://vllm/vllm-openai:TAG
    python3 ...` (apptainer exec runs the command given, `run` the image's runscript: Apptainer
    docs, "exec"). (`--entrypoint vllm ... IMAGE serve` is read before, by _entrypoint_serve.)
    Was: a vLLM server whose model was `python3`."""
    at = next((i for i, w in enumerate(argv) if w.rsplit("/", 1)[-1] in
               (*_CONTAINER_RUNTIMES, "apptainer", "singularity")), None)
    if at is None:
        return False
    if argv[at].rsplit("/", 1)[-1] in ("apptainer", "singularity"):
        return at + 1 < len(argv) and argv[at + 1] in ("exec", "shell")
    image = next((i for i, w in enumerate(argv) if re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", w)), len(argv))
    return any(w == "--entrypoint" or w.startswith("--entrypoint=") for w in argv[at:image])


def _kubectl_run_args(argv: list[str]) -> int | None:
    """`kubectl run NAME --image=vllm/vllm-openai:TAG -- --model M ...`: the words after `--` are
    the image's arguments, its entrypoint the vLLM server (kubectl run --help: "kubectl run NAME
    --image=image -- <arg1> <arg2> ... <argN>"; with `--command` they are the command, read as
    any command line). The index of the first of them, or None (was: 'not a server command', the
    kubectl flags before `--` read as the server's)."""
    at = next((i for i, w in enumerate(argv[:-1]) if w.rsplit("/", 1)[-1] == "kubectl" and argv[i + 1] == "run"), None)
    if at is None or "--" not in argv[at:] or "--command" in argv[at:]:
        return None
    dashes = argv.index("--", at)
    images = [w[len("--image="):] for w in argv[at:dashes] if w.startswith("--image=")] + [
        argv[i + 1] for i in range(at, dashes - 1) if argv[i] == "--image"]
    if not any(re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", image) for image in images):
        return None
    return dashes + 1


def _entrypoint_serve(argv: list[str]) -> tuple[EngineName, int] | None:
    """`docker run --entrypoint vllm ... IMAGE serve MODEL ...`: the entrypoint replaces the
    image's and runs with the words after the image (docker run reference, "--entrypoint"), so
    `serve` right after the image starts the server (a public Nemotron serve script runs
    `docker run ... --entrypoint vllm "$IMAGE" serve "$MODEL_ID" ...`)."""
    for i, tok in enumerate(argv):
        program = argv[i + 1] if tok == "--entrypoint" and i + 1 < len(argv) else (
            tok[len("--entrypoint="):] if tok.startswith("--entrypoint=") else "")
        engine = program.rsplit("/", 1)[-1]
        if engine not in ("vllm", "sglang"):
            continue
        for j in range(i + 2, len(argv)):
            if argv[j] == "serve" and not argv[j - 1].startswith("-"):
                return ("vllm" if engine == "vllm" else "sglang"), j + 1
    return None


# KServe's Hugging Face runtime (`python -m huggingfaceserver`, the kserve/huggingfaceserver
# image): vLLM's engine args are added to its parser (huggingfaceserver/vllm/utils.py
# `maybe_add_vllm_cli_parser` = vLLM's `make_arg_parser`), and the model it serves is its own
# `--model_id`, else `--model_dir` (default /mnt/models, where KServe's storage initializer puts
# the model): `args.model = args.model_id or args.model_dir` (huggingfaceserver/__main__.py),
# whatever --model says.
_KSERVE_HF_SERVER = "huggingfaceserver"
# How a LaunchParseError says the server starts and serves, but without the speculative decoding
# the command asks for (launch_step reports it as SD102, a warning: not a check left undone).
RUNS_WITHOUT_SPECULATION = "the server runs without speculative decoding"
_KSERVE_MODEL_DIR = "/mnt/models"


def _refuse_kserve_underscore_flags(args: list[str]) -> None:
    """huggingfaceserver's parser is a plain argparse.ArgumentParser that vLLM's options are added
    to under their dashed names (vLLM's FlexibleArgumentParser, which also takes `_`, is not
    used), and it reads them with `parse_known_args()`, which drops a word it does not know
    (huggingfaceserver/__main__.py): `--speculative_config '{...}'`, as vllm-ascend's docs write
    it, starts the server without speculative decoding and says nothing."""
    for tok in args:
        name = tok[2:].partition("=")[0].partition(".")[0] if tok.startswith("--") else ""
        if "_" in name and SPECULATIVE_FLAG.match("--" + name.replace("_", "-")):
            raise LaunchParseError(
                f"KServe huggingfaceserver: --{name} is not one of its options (vLLM's are added under their "
                f"dashed names, and its parse_known_args drops the words it does not know): "
                + RUNS_WITHOUT_SPECULATION,
                hint=f"write --{name.replace('_', '-')}")


def _kserve_model(flags: dict[str, Any]) -> str | None:
    """The model KServe's huggingfaceserver hands vLLM: --model_id, else --model_dir."""
    for name in ("model-id", "model-dir"):
        value = flags.get(name)
        if isinstance(value, str) and value:
            return value
    return None


# `python -m sglang_router.launch_server` starts the router and the workers from the same
# flags: its parser is SGLang's ServerArgs.add_cli_args plus --router-* flags
# (sgl-project/sglang sgl-router/py_src/sglang_router/launch_server.py).
_SGLANG_MODULES = ("sglang.launch_server", "sglang.launch_server.py", "sglang_router.launch_server")
# NVIDIA Dynamo's engine workers take the engine's own server flags: `python -m dynamo.sglang`
# adds SGLang's ServerArgs options to its parser, `python -m dynamo.vllm` vLLM's engine args
# (the model as --model); its speculative example is `python -m dynamo.vllm --model "$MODEL"
# --speculative_config '{...}'` (ai-dynamo/dynamo examples/backends/vllm/launch/agg_spec_decoding.sh).
# Dynamo <= 0.4 started SGLang as `python3 -m dynamo.sglang.worker` / `dynamo.sglang.decode_worker`,
# each parsing SGLang's flags into ServerArgs (components/backends/sglang/src/dynamo/sglang/worker/
# main.py: `server_args = parse_sglang_args_inc(sys_argv)`).
_DYNAMO_WORKERS: dict[str, EngineName] = {"dynamo.sglang": "sglang", "dynamo.vllm": "vllm",
                                          "dynamo.sglang.worker": "sglang", "dynamo.sglang.decode_worker": "sglang"}
# The modules behind the `vllm` and `sglang` console scripts (vllm-project/vllm pyproject.toml
# `vllm = "vllm.entrypoints.cli.main:main"`; sgl-project/sglang python/pyproject.toml
# `sglang = "sglang.cli.main:main"`): scripts that pin a venv's interpreter start the server as
# `"$PYTHON_BIN" -m vllm.entrypoints.cli.main serve MODEL ...`.
_VLLM_CLI, _SGLANG_CLI = "vllm.entrypoints.cli.main", "sglang.cli.main"


def _read_flags(args: list[str]) -> tuple[dict[str, Any], list[str]]:
    """`--a b`, `--a=b`, `-tp 8`, bare switches -> {canonical name: value}; positionals.

    The dict is in order of each flag's *last* occurrence, so `_lookup` can apply argparse's
    rule that the last of repeated flags (or of two aliases of one flag) wins.
    """
    flags: dict[str, Any] = {}
    positionals: list[str] = []
    i = 0
    while i < len(args):
        tok = args[i]
        if tok == "--":
            # argparse's end of options: the words after it are positionals
            positionals.extend(args[i + 1:])
            break
        if tok.startswith("-") and len(tok) > 1 and not _is_number(tok):
            name, eq, value = tok.lstrip("-").partition("=")
            # vLLM's FlexibleArgumentParser turns `_` into `-` only up to the first `.`
            # (`--speculative-config.num_speculative_tokens` keeps the JSON key as written).
            head, dot, tail = name.partition(".")
            name = head.replace("_", "-") + dot + tail
            # (a dotted key's value here is its last word only: vllm_dotted_flags reads their values)
            flags.pop(name, None)
            if eq:
                flags[name] = value
                i += 1
                continue
            nxt = args[i + 1] if i + 1 < len(args) else None
            valued = nxt is not None and (not nxt.startswith("-") or _is_number(nxt)) and not _is_switch(name)
            # vLLM's dotted key takes the next word whatever it is, a flag too (vllm_dotted_flags)
            if valued or (nxt is not None and dot and head):
                # Some flags take several values (`--precompile-bs-paddings 1 4 8`): keep a list.
                values = [nxt]
                j = i + 2
                while j < len(args) and not args[j].startswith("-") and name in _MULTI_VALUE:
                    values.append(args[j])
                    j += 1
                flags[name] = values[0] if len(values) == 1 else values
                i = j
            else:
                flags[name] = True
                i += 1
        else:
            positionals.append(tok)
            i += 1
    return flags, positionals


def read_flags(args: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The server's arguments as the audit reads them: ({flag: value}, positionals)."""
    return _read_flags(args)


# Value-taking flags whose names look like switches (SGLang `--log-level warning`, in the docs'
# own speculative-decoding commands; vLLM `--allowed-origins`).
_VALUED_DESPITE_HINT = {"log-level", "log-level-http", "log-requests-level", "log-requests-format",
                        "log-requests-target", "allowed-origins", "allowed-methods", "allowed-headers",
                        "allowed-local-media-path"}
_MULTI_VALUE = {"cuda-graph-bs", "precompile-bs-paddings", "precompile-token-paddings",
                "config-list", "benchmark-list"}  # the last two: SpecForge bench_eagle3.py


def _is_number(tok: str) -> bool:
    return re.fullmatch(r"-?\d+(\.\d+)?", tok) is not None


def _lookup(flags: dict[str, Any], aliases: tuple[str, ...]) -> Any:
    """The value of the last flag that argparse would store into this option.

    argparse stores each occurrence in turn, so `--model-path a --model b` runs `b`
    (a later alias wins, not the canonical name). It also accepts unambiguous prefixes
    (`--mem-fraction` for `--mem-fraction-static`); the docs' own examples rely on it.
    """
    for name in reversed(flags):
        if name in aliases or (len(name) >= 6 and any(a.startswith(name) for a in aliases)):
            return flags[name]
    return None


def _int_flag(flags: dict[str, Any], aliases: tuple[str, ...], engine: str) -> int | None:
    value = _lookup(flags, aliases)
    if value is None:
        return None
    if value is True:
        raise _no_value(engine, aliases[0])
    try:
        return int(str(value))
    except ValueError as exc:
        if "$" in str(value):
            raise _unexpanded(engine, aliases[0], str(value)) from exc
        if re.search(r"\{\{\s*(?:inputs|workflow)\.parameters\.", str(value)):
            # an Argo Workflow's parameter the file gives no value (launch_pastes._argo_filled)
            raise LaunchParseError(
                f"{engine}: --{aliases[0]} holds the Argo parameter {value!r}, which Argo fills in when the "
                "workflow is submitted, and this file gives it no value: the value the server runs with is "
                "not in this text",
                hint="give it a value (spec.arguments.parameters or the template's inputs default), or paste "
                     "the pod's command line (kubectl get pod POD -o yaml)") from exc
        # both servers declare these options with argparse type=int, which exits on such a value
        # (sglang python/sglang/srt/server_args.py add_cli_args; vllm/engine/arg_utils.py): was an
        # SD004 asking for --var server_cmdline, the command the user had just given
        raise LaunchParseError(f"{engine}: --{aliases[0]} expects an integer, got {value!r}",
                               hint=f"write a whole number: the server's own parser refuses {value!r} too "
                                    f"(argparse: \"argument --{aliases[0]}: invalid int value\") and it does not "
                                    "start") from exc


def _size_flag(flags: dict[str, Any], aliases: tuple[str, ...], engine: str,
               unexpanded: list[str]) -> int | None:
    """`_int_flag` for a serving size the speculative checks only consult: a shell variable
    there (`--tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE`, SkyPilot's serve.yaml) makes it
    unknown, not the whole command unreadable (the speculative values still have to be written)."""
    value = _lookup(flags, aliases)
    if isinstance(value, str) and "$" in value:
        unexpanded.append(aliases[0])
        return None
    return _int_flag(flags, aliases, engine)


class _UnexpandedValue(LaunchParseError):
    """A flag value that holds a variable reference (what `_unexpanded` raises)."""

    def __init__(self, message: str, *, hint: str, engine: str, flag: str, value: str) -> None:
        super().__init__(message, hint=hint)
        self.engine, self.flag, self.value = engine, flag, value


def _unexpanded(engine: str, flag: str, value: str) -> LaunchParseError:
    """A launch script's `--speculative-num-steps ${SPEC_STEPS:-3}` or `$((K + 1))`: the shell
    computes the value when the server starts (its environment may override the default), so
    the text does not say what runs."""
    return _UnexpandedValue(
        f"{engine}: --{flag} holds the shell expression {value!r}, which the shell expands when the server "
        "starts: the value the server runs with is not in this text",
        hint="audit the running server's own command line: leave server_cmdline unset so the probe reads "
             "/proc/PID/cmdline, or paste `tr '\\0' ' ' < /proc/PID/cmdline`", engine=engine, flag=flag, value=value)


def _compose_unexpanded(error: _UnexpandedValue) -> LaunchParseError:
    """The same value in a compose file: compose fills `${VAR}` in when it starts the service,
    from the shell's environment, else the `.env` file in the project directory (the compose
    file's own folder), and `docker compose config` prints the file with the values filled in
    (docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/)."""
    return LaunchParseError(
        f"{error.engine}: --{error.flag} holds {error.value!r}, which docker compose fills in from the shell's "
        "environment or the .env file beside the compose file when it starts the service: the value the server "
        "runs with is not in this text",
        hint="paste what `docker compose config` prints beside the compose file (the file with those values "
             "filled in), or the .env file's lines above the compose file")


def _dstack_unvalued(error: LaunchParseError, command: Any) -> str | None:
    """The dstack `env:` name with no value that the unexpanded flag value uses, or None."""
    if not isinstance(error, _UnexpandedValue) or not isinstance(command, str):
        return None
    used = set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", error.value))
    return next((name for name in dstack_unvalued_env(command) if name in used), None)


def _dstack_unexpanded(error: _UnexpandedValue, name: str) -> LaunchParseError:
    """The same value in a dstack configuration whose `env:` lists the variable with no value:
    dstack fills it in from `dstack apply -e NAME=value` or the environment `dstack apply` runs in
    (dstack docs, "Environment variables"), not from this file (was: said as a shell expansion of
    the server's start, and to read /proc of a server dstack runs in its own container)."""
    return LaunchParseError(
        f"{error.engine}: --{error.flag} holds {error.value!r}, and the dstack configuration's env: lists {name} "
        f"with no value: dstack takes it from `dstack apply -e {name}=...` or the environment dstack apply runs in, "
        "so the value the server runs with is not in this text",
        hint=f"write the value in the configuration (env: - {name}=VALUE), or paste the -e {name}=... "
             "the run was applied with")


def _no_value(engine: str, name: str) -> LaunchParseError:
    # argparse exits with "expected one argument"; in a pasted `ps` line the value is
    # usually what the terminal width cut off
    return LaunchParseError(f"{engine}: --{name} has no value", hint=_PS_HINT)


def _str_flag(flags: dict[str, Any], aliases: tuple[str, ...], engine: str | None = None) -> str | None:
    """The value of a flag that takes one. With `engine`, one written without a value (read as
    True: the last word, or a `--flag` next) is refused as the engine's argparse refuses it
    ("expected one argument"), not read as unset: `--speculative-algorithm` cut off at the end of
    a `ps` line was audited as a server without speculation, and the server does not start."""
    value = _lookup(flags, aliases)
    if value is True and engine is not None:
        raise _no_value(engine, aliases[0])
    return None if value is None or value is True else str(value)


def parse_launch_command(command: str | list[str] | tuple[str, ...]) -> LaunchConfig:
    """Parse an SGLang or vLLM server launch command (shell line, argv or /proc cmdline)."""
    try:
        argv = split_command(command)
        cfg = _parse_argv(argv)
        if getattr(argv, "unexported", ()):
            cfg = replace(cfg, unexported=argv.unexported)
        call = getattr(argv, "call", None)
        if call and (calls_before := getattr(argv, "earlier", ())):
            earlier = []
            for line, words in calls_before:
                try:
                    earlier.append((line, replace(_parse_argv(words), python_call=words.call)))
                except LaunchParseError:
                    continue  # (a baseline the audit cannot read: not judged)
            cfg = replace(cfg, earlier_calls=tuple(earlier))
        return replace(cfg, python_call=call) if call else cfg
    except LaunchParseError as shell_error:
        if isinstance(shell_error, _UnexpandedValue) and isinstance(command, str) and COMPOSE_SERVICES.search(command):
            raise _compose_unexpanded(shell_error) from None
        unvalued = _dstack_unvalued(shell_error, command)
        if unvalued is not None:
            raise _dstack_unexpanded(shell_error, unvalued) from None
        logged = logged_server_args(command) if isinstance(command, str) else None
        if logged is not None:
            return _parse_argv(logged)
        # `ps -o args` prints each argv word as is, joined by spaces: a JSON value keeps its
        # double quotes and is split at its spaces, which a shell reading would mangle.
        if not isinstance(command, str) or "\0" in command or "{" not in command or _is_script(command) or (
                _CONTINUATION.search(command)):
            # (`ps` prints no line continuation: a command written over `\`-ended lines is what
            # a shell runs, which hands the server an unquoted JSON without its quotes, so vLLM
            # refuses it; read as `ps` shows it, a fragment of such a script was a valid config)
            raise
        try:
            argv = _server_argv(split_keeping_json(command))
            meant = _parse_argv(argv)
            if getattr(argv, "unexported", ()):
                meant = replace(meant, unexported=argv.unexported)
        except (LaunchParseError, ValueError):  # ValueError: shlex on unbalanced quotes
            raise shell_error from None
        if _typed_console_script(argv) and not any(re.search(r"\{\S*\s", word) for word in argv):
            raise
        return meant


def _typed_console_script(argv: list[str]) -> bool:
    """`vllm serve ...` / `sglang serve ...` with the bare script name: a command as typed,
    never a `ps` copy. Both are Python console scripts whose `#!` line makes the kernel start
    the interpreter with the script's full path (execve(2), "Interpreter scripts"; a shell or
    docker resolves the name in PATH first), so `ps` shows `/usr/bin/python3
    /usr/local/bin/vllm serve ...`. A one-line `vllm serve M --speculative-config {"method":...}`
    is what the shell runs: without its quotes, and refused by vLLM. (A JSON with spaces,
    `{"method": "eagle3", ...}`, stays a listing of the argv: a shell would have split it into
    words no server takes, and a log or a `ps` of a server started some other way prints it so.)"""
    try:
        _engine, start = detect_engine(argv)
    except LaunchParseError:
        return False
    return start >= 2 and argv[start - 1] == "serve" and argv[start - 2] in ("vllm", "sglang")


_CONTINUATION = re.compile(r"\\[ \t]*\r?\n")


def _parse_argv(argv: list[str]) -> LaunchConfig:
    engine, start = detect_engine(argv)
    env = _launch_environment(argv[:start])
    if _in_container(argv[:start]):
        # `docker run -e SGLANG_ENABLE_SPEC_V2=1 IMAGE python3 -m sglang.launch_server ...`
        env.update(word.split("=", 1) for word in _given_env(argv[:start]))
    if engine == "sglang" and start and argv[start - 1] == "serve" and start < len(argv) and (
            not argv[start].startswith("-")):
        # `sglang serve MODEL` is `--model-path MODEL` put first, so a later --model-path wins
        # (sgl-project/sglang python/sglang/cli/serve.py `_normalize_positional_model_path`)
        argv = argv[:start] + ["--model-path"] + argv[start:]
    if engine == "vllm":
        argv = _listed_model_words_joined(argv, start)
    server = _vllm_one_dash_prefixes(argv[start:]) if engine == "vllm" else argv[start:]
    _refuse_flags_after_end_marker(engine, server)
    flags, positionals = _read_flags(server)
    if start and argv[start - 1].rsplit("/", 1)[-1] == _SPECFORGE_BENCH:
        return _parse_argv(_specforge_server_argv(flags))
    if engine == "sglang":
        _refuse_launch_server_positional(argv, start)
        _refuse_underscore_flags(argv[start:])
        _refuse_sglang_one_dash(argv[start:])
        cfg = _sglang_config(tuple(argv), flags, env)
        # (after the readers' own refusals, which name the fault more closely)
        _refuse_stray_word(engine, argv, start, server)
        return cfg
    if start and (argv[start - 1] == _KSERVE_HF_SERVER or re.search(r"kserve/huggingfaceserver(:|@|$)", argv[start - 1])):
        backend = flags.get("backend")
        if isinstance(backend, str) and backend not in ("vllm", "auto"):
            # `--backend huggingface` (transformers) or `triton`: vLLM is not started, so its
            # speculative flags are parsed and never used (huggingfaceserver/__main__.py load_model)
            raise LaunchParseError(
                f"KServe huggingfaceserver --backend {backend} does not serve with vLLM: "
                f"{RUNS_WITHOUT_SPECULATION}, whatever --speculative-config says",
                hint="--backend vllm (or auto, its default, which picks vLLM for the models it supports)")
        _refuse_kserve_underscore_flags(argv[start:])
        flags = {**flags, "model": _kserve_model(flags) or _KSERVE_MODEL_DIR}
    keywords = getattr(argv, "call", None) is not None
    if start and argv[start - 1] == "serve" and start < len(argv) and not argv[start].startswith("-"):
        # `vllm serve MODEL`: the positional is the model even when a --config file also says
        # `model:` (vllm/entrypoints/cli/serve.py: args.model = args.model_tag when given)
        cfg = _vllm_config(tuple(argv), {**flags, "model": argv[start]}, positionals, env, argv[start:], keywords)
    else:
        cfg = _vllm_config(tuple(argv), flags, positionals, env, argv[start:], keywords)
    if not keywords:
        _refuse_stray_word(engine, argv, start, server)
    return cfg


def _listed_model_words_joined(argv: list[str], start: int) -> list[str]:
    """`/usr/bin/python3 /usr/local/bin/vllm serve /mnt/f/AI/AI Models/Qwen3-8B --port 8000`: the
    argv of a running server as `ps -o args` (or `tr '\\0' ' ' < /proc/PID/cmdline`) prints it,
    each word joined to the next by a space, so a model path holding one is cut in two. No one
    types the interpreter and the script's full path (a shell resolves `vllm` in PATH, and the
    kernel puts the interpreter before it: execve(2), "Interpreter scripts"), and a server whose
    argv held two positionals would have exited at startup ('unrecognized arguments',
    _refuse_second_positional) and left no process to list: the words up to the first flag are
    the one model path. Was: refused as a second positional, a running server said not to start."""
    if getattr(argv, "call", None) or not (start < len(argv) and listed_serve_at(argv, start - 1)):
        return argv
    words = list(itertools.takewhile(lambda word: not str(word).startswith("-"), argv[start:]))
    if len(words) < 2 or any(_EXPANDED_FLAGS.search(str(word)) for word in words):
        return argv
    return [*argv[:start], " ".join(str(word) for word in words), *argv[start + len(words):]]


_SPECFORGE_BENCH = "bench_eagle3.py"
# sudo(8)'s options that take a value as the next word (`-u svc`, `-g gpu`, `-D /srv`, ...)
_SUDO_VALUED = {"-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-p", "--prompt",
                "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user", "-R", "--chroot"}


def _launch_environment(words: list[str]) -> dict[str, str]:
    """The environment the words before the server give it. `A=B cmd` sets A (a pasted script's
    `export A=1` line above the server reaches here as words too); `exec` runs the words after it in
    the shell's place (bash(1) SHELL BUILTIN COMMANDS); `env` applies its options in order (coreutils
    env(1): `-i`/`-` starts from an empty environment, `-u NAME` removes NAME, then its `A=B`
    words), and `sudo` keeps the caller's variables only with `-E`/`--preserve-env[=LIST]` (sudo(8),
    sudoers(5) env_reset, on by default, keeps no SGLANG_/VLLM_ variable) while its own `A=B` words
    set them. Was: the words up to the first that is no assignment, so `env -i SGLANG_ENABLE_SPEC_V2=1
    ...` and `sudo SGLANG_ENABLE_SPEC_V2=1 ...` set nothing, and `export ...` then `sudo ...` or
    `env -i ...` kept what those drop."""
    env: dict[str, str] = {}
    i = 0
    while i < len(words):
        tok = words[i]
        name = tok.rsplit("/", 1)[-1]
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(.*?);?", tok, re.S)
        if m:
            env[m.group(1)] = m.group(2)
        elif tok in ("export", "exec") or (tok == "nohup" and i + 1 < len(words)):
            pass
        elif name == "env":
            while i + 1 < len(words) and words[i + 1].startswith("-"):
                i += 1
                option = words[i]
                if option in ("-i", "--ignore-environment", "-"):
                    env.clear()
                elif option in ("-u", "--unset") and i + 1 < len(words):
                    i += 1
                    env.pop(words[i], None)
                elif option.startswith("--unset=") or (option.startswith("-u") and not option.startswith("--")):
                    env.pop(option.partition("=")[2] if option.startswith("--") else option[2:], None)
                elif option in ("-C", "--chdir"):
                    i += 1
                elif option == "--":
                    break
        elif name == "sudo":
            kept: set[str] | None = set()  # None: all of them
            while i + 1 < len(words) and words[i + 1].startswith("-"):
                i += 1
                option = words[i]
                if option in ("-E", "--preserve-env"):
                    kept = None
                elif option.startswith("--preserve-env="):
                    if kept is not None:
                        kept |= set(option.partition("=")[2].split(","))
                elif option in _SUDO_VALUED:
                    i += 1
                elif option == "--":
                    break
            env = env if kept is None else {key: value for key, value in env.items() if key in kept}
        else:
            break
        i += 1
    return env


def models_named(command: str | list[str] | tuple[str, ...]) -> dict[str, str]:
    """{"engine", "target_model", "draft_model"}: what a command the audit refuses (the engine's
    parser would stop on it) still names, read word by word; the keys it does not name are left
    out. The later steps check the draft and the target the command was written for: the fix the
    refusal asks for (`-tp 2` -> `--tp-size 2`) does not change them."""
    try:
        try:
            argv = split_command(command)
        except _CommentCut as cut:
            argv = cut.server  # (the server bash starts: the words above the comment)
        engine, start = detect_engine(argv)
    except (LaunchParseError, ValueError):
        return {}
    flags, _ = _read_flags(argv[start:])
    named = {"engine": engine}
    serve_positional = start and argv[start - 1] == "serve" and start < len(argv) and not argv[start].startswith("-")
    target = argv[start] if serve_positional else _lookup(flags, _SGLANG_ALIASES["model-path"])
    draft = _lookup(flags, _SGLANG_ALIASES["speculative-draft-model-path"] + ("speculative-model",))
    for name in ("speculative-config", "sc"):
        spec = flags.get(name)
        try:
            spec = json.loads(spec) if isinstance(spec, str) else None
        except ValueError:
            spec = None
        model = spec.get("model") if isinstance(spec, dict) else flags.get(name + ".model")
        draft = model if isinstance(model, str) else draft
    for key, value in (("target_model", target), ("draft_model", draft)):
        if isinstance(value, str) and value and not value.startswith("-"):
            named[key] = value
    return named


_MODEL_LIKE_WORD = re.compile(r"[A-Za-z0-9_.~/][A-Za-z0-9_.~/:@+-]*")


def _refuse_launch_server_positional(argv: list[str], start: int) -> None:
    """Raises for a word that is no flag right after `python -m sglang.launch_server`
    (`python -m sglang.launch_server meta-llama/Llama-3.1-8B-Instruct --speculative-...`, the model
    written as `vllm serve MODEL` takes it). Only `sglang serve` turns a first word into --model-path
    (python/sglang/cli/serve.py `_normalize_positional_model_path`); launch_server.py hands its argv
    straight to server_args.py `prepare_server_args`, whose `parser.parse_args(argv)` has no
    positional, so argparse exits with "unrecognized arguments" (and, where the model is only there,
    "the following arguments are required: --model-path"). Was: no finding, and no model read. A
    shell expansion there (`$ARGS`, `"$@"`) is flags the text does not show, not a refusal."""
    if not (start and start < len(argv) and argv[start - 1] in ("sglang.launch_server", "sglang.launch_server.py")):
        return
    word = str(argv[start])
    # (only a word that can be a model: not `...` / `…` eliding the flags, `<model>`, `[args]`,
    # `MODEL` placeholders of a doc, nor a shell expansion)
    if not _MODEL_LIKE_WORD.fullmatch(word) or _EXPANDED_FLAGS.match(word) or set(word) <= {"."} or word.isupper():
        return
    raise LaunchParseError(
        f"sglang: '{word}' right after sglang.launch_server is no flag: launch_server takes no positional "
        "argument (only `sglang serve MODEL` reads a first word as the model), so argparse exits with "
        f"'unrecognized arguments: {word}' and the server does not start",
        hint=f"write --model-path {word} (or start it as `sglang serve {word} ...`)")


# Options that take exactly one value in every release of the engine that has them (SGLang
# python/sglang/srt/server_args.py: `type=int` / `type=str` / `type=float` arguments, and since the
# dataclass fields of srt/arg_groups/arg_utils.py `add_cli_args_from_dataclass` a scalar field, which
# gets no nargs; vLLM vllm/engine/arg_utils.py and vllm/entrypoints/openai/cli_args.py: scalar
# fields, --speculative-config one JSON word). A word after such an option's value is no value of it.
_ONE_VALUE: dict[EngineName, frozenset[str]] = {
    "sglang": frozenset({
        "model-path", "model", "speculative-algorithm", "speculative-draft-model-path", "speculative-draft-model",
        "speculative-num-steps", "speculative-eagle-topk", "speculative-num-draft-tokens", "tp-size",
        "tensor-parallel-size", "tp", "dtype", "context-length", "page-size", "attention-backend",
        "mem-fraction-static", "port", "host"}),
    "vllm": frozenset({
        "model", "speculative-config", "sc", "speculative-model", "num-speculative-tokens", "tensor-parallel-size",
        "tp", "pipeline-parallel-size", "pp", "dtype", "max-model-len", "gpu-memory-utilization", "port", "host"}),
}
# What a user writes after a switch meaning to set it (`--trust-remote-code true`, a config file's
# `trust-remote-code: true` turned into flags)
_BOOLEAN_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0"})


def _refuse_stray_word(engine: EngineName, argv: list[str], start: int, server_args: list[str]) -> None:
    """Raises for a word the server's argparse reads as a positional argument where the command
    takes none: a second word after an option of one value (`--speculative-num-steps 3 4`), or a
    true/false word after a switch (`--trust-remote-code true`: SGLang's bool options are
    action="store_true", srt/arg_groups/arg_utils.py "Bool → store_true"; vLLM's are
    BooleanOptionalAction or store_true, vllm/engine/arg_utils.py get_kwargs; neither takes a value).
    sglang.launch_server and `sglang serve` parse with `parser.parse_args` and no positional (the
    model of `sglang serve MODEL` is turned into --model-path first, python/sglang/cli/serve.py);
    `vllm serve` has one positional, the model, which FlexibleArgumentParser fills from `--model`
    when that is given (vllm/utils/argparse_utils.py `parse_args`: "Move <model> to the front"). A
    word left over makes argparse exit with "unrecognized arguments" (CPython Lib/argparse.py
    `parse_args`), and the server does not start. Was: the word was dropped and the command audited
    as if it ran. Only the servers started as themselves are judged (not KServe's parse_known_args,
    Dynamo's or TRL's own parsers), and only where the word cannot be vLLM's model."""
    program = argv[start - 1] if start else ""
    if engine == "sglang":
        if program not in ("sglang.launch_server", "sglang.launch_server.py", "serve"):
            return
    else:
        image = re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", program) is not None
        if program not in ("serve", "vllm.entrypoints.openai.api_server") and not image:
            return
    # (vLLM's positional is taken: the model is first, or --model, which is moved there)
    filled = engine == "sglang" or (bool(server_args) and not str(server_args[0]).startswith("-")) or any(
        str(w) == "--model" or str(w).startswith("--model=") for w in server_args)
    one_value = _ONE_VALUE[engine]
    words = [str(word) for word in server_args]
    if engine == "vllm":
        _refuse_second_positional(words)
    for i, tok in enumerate(words):
        if tok == "--":
            return
        if not tok.startswith("-") or len(tok) < 2 or _is_number(tok):
            continue
        name, eq, given = tok.lstrip("-").partition("=")
        # (`-O.level` is vLLM's -O with a value glued, not a dotted key)
        dotted = "." in name and (tok.startswith("--") or name.startswith("sc."))
        if "." in name and not dotted:
            continue
        if dotted and (engine != "vllm" or eq):
            continue
        name = name if dotted else name.replace("_", "-")
        if eq and not dotted and tok.startswith("--") and _is_switch(name) and given.lower() in _BOOLEAN_WORDS:
            # `--trust-remote-code=true`: a value glued to an option of no value is refused as it is
            # read (CPython Lib/argparse.py `consume_optional`: "ignored explicit argument %r")
            raise LaunchParseError(
                f"{engine}: {tok}: --{name} is a switch and takes no value, so argparse exits with "
                f"\"argument --{name}: ignored explicit argument '{given}'\" and the server does not start",
                hint=_switch_hint(engine, name))
        if not filled:
            continue
        if name in one_value or dotted:
            # (vLLM's dotted key takes the next word whatever it is, and only it: vllm_dotted_flags)
            at = i + 1 if eq else i + 2
            said = f"{tok} {words[i + 1]}" if not eq and i + 1 < len(words) else tok
            if not eq and (i + 1 >= len(words) or (words[i + 1].startswith("-") and not _is_number(words[i + 1])
                                                   and not dotted)):
                continue
            why = f"{tok} takes one value" if dotted else f"--{name} takes one value"
        elif not eq and _is_switch(name):
            at, said, why = i + 1, tok, f"--{name} is a switch and takes no value"
            if at >= len(words) or words[at].lower() not in _BOOLEAN_WORDS:
                continue
        else:
            continue
        if at >= len(words):
            continue
        word = words[at]
        if (word.startswith("-") or not _MODEL_LIKE_WORD.fullmatch(word) or _EXPANDED_FLAGS.match(word)
                or set(word) <= {"."} or (word.isupper() and word.lower() not in _BOOLEAN_WORDS)):
            # (a flag, a placeholder `MODEL` / `...` of a doc, a shell expansion: not a stray word)
            continue
        takes = ("takes no positional argument" if engine == "sglang"
                 else "takes one positional argument, the model, already given")
        if why.endswith("no value"):
            hint = _switch_hint(engine, name)
        else:
            hint = f"keep one value: {said}, or remove '{word}'"
        raise LaunchParseError(
            f"{engine}: '{word}' after {said} is no value of it: {why}, so argparse reads '{word}' as a "
            f"positional argument, and the server {takes}: it exits with 'unrecognized arguments: {word}' and "
            "does not start", hint=hint)


def _refuse_second_positional(words: list[str]) -> None:
    """Raises for a word right after vLLM's model that is no flag (`vllm serve /mnt/f/AI/AI
    Models/Qwen3-8B ...`, a path with a space left unquoted, vllm-project/vllm issue #15439): the
    parser's one positional, model_tag (nargs "?", vllm/entrypoints/openai/cli_args.py
    make_arg_parser), takes the model, and argparse has nothing to give the next word, so
    parse_args exits with "unrecognized arguments: WORD" (CPython Lib/argparse.py `parse_args`).
    Was: the first word read as the model and the rest dropped. Not a shell expansion (`$MODEL
    $ARGS`), nor a doc's placeholder (`MODEL [ARGS]`, `...`)."""
    if len(words) < 2 or words[0].startswith("-") or words[1].startswith("-") or _EXPANDED_FLAGS.search(words[0]):
        return
    model, word = words[0], words[1]
    if (not _MODEL_LIKE_WORD.fullmatch(word) or _EXPANDED_FLAGS.match(word) or set(word) <= {"."}
            or word.isupper() or model.isupper()):
        return
    raise LaunchParseError(
        f"vllm: '{word}' right after the model {model} is a second positional argument: the server takes one, the "
        f"model, so argparse exits with 'unrecognized arguments: {word}' and the server does not start",
        hint=f"quote the model path if it holds a space ('{model} {word}'), or remove '{word}'")


def _switch_hint(engine: EngineName, name: str) -> str:
    """How to write a switch on and off: SGLang's are store_true (off unless written); vLLM's bool
    config fields are BooleanOptionalAction, with a `--no-` twin for those whose default is on."""
    off = ("leave it out to keep it off" if engine == "sglang"
           else f"to turn it off leave it out, or write --no-{name} where the option is on by default")
    return f"write --{name} alone to turn it on ({off})"


def _refuse_flags_after_end_marker(engine: str, server_args: list[str]) -> None:
    """Raises for a flag written after a bare `--` (`launch_server -- --model-path m`,
    `vllm serve m -- --speculative-config ...`): argparse reads every word after `--` as a
    positional, never as an option (CPython Lib/argparse.py `_parse_known_args`: the option
    pattern ends at '--'), and neither server takes positionals to hold them (SGLang none,
    vllm serve only the model), so argparse exits with 'unrecognized arguments' and the server
    does not start; the flags there are not settings the server runs with."""
    if "--" not in server_args:
        return
    after = [str(word) for word in server_args[server_args.index("--") + 1:]]
    flag = next((word for word in after if word.startswith("-") and len(word) > 1 and not _is_number(word)), None)
    if flag is None:
        return
    raise LaunchParseError(
        f"{engine}: {flag} comes after a bare '--', which ends the options: argparse reads every word after "
        "it as a positional, not a flag, so it exits with 'unrecognized arguments' and the server does not "
        "start", hint="drop the '--' and write the flags right after the server's own arguments")


# A shell expansion standing where flags go (`$EXTRA_ARGS`, `${SPEC_ARGS}`, `"$@"`), or the
# `**settings` of an offline engine call not read (_engine_call_argv): the flags it becomes are
# not in the text.
_EXPANDED_FLAGS = re.compile(r"\$(?:[A-Za-z_]|[@*]|\{)|\*\*")  # (`**settings` of an Engine(...) call)


def names_no_draft_path(cfg: LaunchConfig) -> bool:
    """An SGLang command that gives no draft path anywhere one could be: no
    `--speculative-draft-model-path` (its alias `--speculative-draft-model`, a prefix argparse takes
    for it, or the flag with its value lost, as a test's `other_args` with a constant imported
    from elsewhere leaves it), no `--config FILE` (SGLang inserts the file's flags,
    python/sglang/srt/server_args_config_parser.py ConfigArgumentMerger, and the file was not
    read here), and no shell expansion where flags go. Only then is "no draft" what runs. A command
    with no --model-path is a part of one (flags pasted alone, the continuation lines under a cut
    first line, a table of the flags changed): SGLang's parser requires it (server_args.py
    `add_argument("--model-path", "--model", ..., required=True)`), so the lines not shown may
    name the draft too."""
    if cfg.engine != "sglang" or cfg.target_model is None or _lookup(
            cfg.flags, _SGLANG_ALIASES["speculative-draft-model-path"]) is not None:
        return False
    try:
        start = detect_engine(list(cfg.argv))[1]
    except LaunchParseError:
        return False
    args = list(cfg.argv[start:])
    if "--config" in args:
        return False
    return not any(_EXPANDED_FLAGS.match(word) for word in _read_flags(args)[1])


def _specforge_server_argv(flags: dict[str, Any]) -> list[str]:
    """The server SpecForge's bench_eagle3.py starts: SGLang's flags it forwards, plus one
    `--config-list` entry (batch, steps, topk, draft tokens) turned into the speculative flags
    with EAGLE3 (sgl-project/SpecForge benchmarks/bench_eagle3.py `launch_sglang_server`)."""
    if flags.get("skip-launch-server") is True:
        raise LaunchParseError(
            "SpecForge bench_eagle3.py --skip-launch-server benchmarks a server started elsewhere; "
            "its command line has no serving settings",
            hint="audit that server's own command (python3 -m sglang.launch_server ...)")
    entries = flags.get("config-list", ["1,0,0,0", "1,3,1,4"])  # its argparse default
    if entries is True:
        raise LaunchParseError("SpecForge bench_eagle3.py: --config-list has no value (argparse "
                               "exits: expected at least one argument)", hint="--config-list 1,3,1,4")
    entries = [entries] if isinstance(entries, str) else list(entries)
    triples: list[tuple[int, int, int]] = []
    for entry in entries:
        try:
            _batch, steps, topk, tokens = (int(x) for x in str(entry).split(","))
        except ValueError as exc:
            raise LaunchParseError(f"SpecForge --config-list entry {entry!r} is not BATCH,STEPS,TOPK,DRAFT_TOKENS") from exc
        if steps > 0 and (steps, topk, tokens) not in triples:
            triples.append((steps, topk, tokens))
    if len(triples) > 1:
        raise LaunchParseError(
            "SpecForge bench_eagle3.py starts one server per --config-list entry: "
            f"{', '.join(map(str, triples))} (steps, topk, draft tokens)",
            hint="audit one: give --config-list a single speculative entry")
    model = _str_flag(flags, _SGLANG_ALIASES["model-path"])
    argv = ["python3", "-m", "sglang.launch_server"] + (["--model-path", model] if model else [])
    if triples:
        steps, topk, tokens = triples[0]
        argv += ["--speculative-algorithm", "EAGLE3", "--speculative-num-steps", str(steps),
                 "--speculative-eagle-topk", str(topk), "--speculative-num-draft-tokens", str(tokens)]
        draft = _str_flag(flags, _SGLANG_ALIASES["speculative-draft-model-path"])
        if draft:
            argv += ["--speculative-draft-model-path", draft]
    # the flags it forwards to the server (the rest of SGLang's flags stay with the script)
    for canonical in ("tp-size", "attention-backend", "dtype"):
        value = _str_flag(flags, _SGLANG_ALIASES[canonical])
        if value is not None:
            argv += [f"--{canonical}", value]
    for name in ("mem-fraction-static", "quantization", "ep-size"):
        value = _str_flag(flags, (name,))
        if value is not None:
            argv += [f"--{name}", value]
    for switch in ("trust-remote-code", "disable-radix-cache"):
        if flags.get(switch) is True:
            argv.append(f"--{switch}")
    return argv


def _is_script(text: str) -> bool:
    """Several commands on lines of their own: a script, which the shell reads as written (the
    `ps` reading below would take its words apart from the assignments and arrays it reads)."""
    lines = re.sub(r"\\[ \t]*\r?\n", " ", text).strip().splitlines()
    return sum(1 for line in lines if line.strip()) > 1


def _refuse_underscore_flags(args: list[str]) -> None:
    """SGLang's parser is plain argparse: `--speculative_num_steps` is not a spelling of
    `--speculative-num-steps` there (it exits with "unrecognized arguments"), unlike vLLM's
    FlexibleArgumentParser. Checked on the sglang 0.5.6 wheel; 0.5.23 derives every flag as
    `"--" + name.replace("_", "-")` (srt/arg_groups/arg_utils.py) and adds no other."""
    known = {alias for aliases in _SGLANG_ALIASES.values() for alias in aliases}
    for tok in args:
        name = tok[2:].partition("=")[0] if tok.startswith("--") else ""
        if "_" in name and name.replace("_", "-") in known:
            raise LaunchParseError(
                f"sglang: --{name} is not an SGLang flag (SGLang only accepts "
                f"--{name.replace('_', '-')}; with the underscore it exits with "
                "'unrecognized arguments')",
                hint=f"write --{name.replace('_', '-')}")


# vLLM's short options, the spellings copied from vLLM commands onto SGLang's (the long form
# SGLang takes for each).
_VLLM_SHORT_ON_SGLANG = {"tp": "tp-size", "pp": "pp-size", "dp": "dp-size", "ep": "ep-size"}


def _refuse_sglang_one_dash(args: list[str]) -> None:
    """Raises for a one-dash word naming a flag (`-tp 2`, `-tp=2`, `-tp2`, `-model-path m`):
    SGLang defines every option as `--` + its name (srt/arg_groups/arg_utils.py; no short option
    but argparse's own -h), and argparse matches a one-dash word only against one-dash option
    strings (CPython Lib/argparse.py `_get_option_tuples`), so it exits with 'unrecognized
    arguments' and the server does not start (checked against argparse with SGLang's
    --tp-size / --tensor-parallel-size)."""
    known = {alias for aliases in _SGLANG_ALIASES.values() for alias in aliases}
    for tok in args:
        tok = str(tok)
        if not tok.startswith("-") or tok.startswith("--") or _is_number(tok):
            continue
        name = tok[1:].partition("=")[0]
        short = re.fullmatch(r"(tp|pp|dp|ep)\d*", name)
        if name not in known and not short:
            continue
        long = _VLLM_SHORT_ON_SGLANG[short.group(1)] if short else name
        whose = f" (-{short.group(1)} is vLLM's short form)" if short else ""
        raise LaunchParseError(
            f"sglang: {tok} is not an SGLang flag: SGLang has only --long options{whose}, so argparse "
            "exits with 'unrecognized arguments' and the server does not start", hint=f"write --{long} VALUE")


# SGLang option strings that share a prefix with the ones we read (server_args.py
# `add_cli_args`): an abbreviation is only valid when one option string starts with it.
_SGLANG_OTHER_OPTIONS = ("speculative-draft-model-revision", "speculative-accept-threshold-single",
                         "speculative-accept-threshold-acc", "speculative-token-map")
# Option strings added in a later release than the flags they share a prefix with (the PyPI
# wheels' server_args.py): up to 0.5.2rc2 `--speculative-draft-model-path` was the only
# `--speculative-draft*` option, so the `--speculative-draft X` of SGLang's own EAGLE commands
# (SafeAILab/EAGLE PR #173, sgl-project/sglang PR #4716) abbreviated it; 0.5.2 added the alias
# `--speculative-draft-model` and `--speculative-draft-model-revision`, after which argparse
# exits with "ambiguous option" (sgl-project/sglang PR #10161 fixed SGLang's CI for it).
_SGLANG_OPTION_SINCE = {"speculative-draft-model": "0.5.2", "speculative-draft-model-revision": "0.5.2"}


def _ambiguous_abbreviations(flags: dict[str, Any]) -> dict[str, str]:
    """SGLang's parser is argparse with allow_abbrev left on (python/sglang/launch_server.py
    builds `argparse.ArgumentParser()`, and so does `sglang serve`'s prepare_server_args in
    python/sglang/srt/server_args.py, `argparse.ArgumentParser(prog="sglang serve")`):
    `--speculative-num-st 3` is --speculative-num-steps, but a prefix of two option strings
    (`--speculative-num 3`) is an error ("ambiguous option: ... could match ..."; CPython
    Lib/argparse.py `_parse_optional`, also for two aliases of one flag), and the server never
    starts. Raises for a prefix that every release refuses; returns {abbreviation: first release
    that refuses it} for one that older releases read as a flag (a server running with it is
    older, so the command is still read as they read it)."""
    options = {alias for aliases in _SGLANG_ALIASES.values() for alias in aliases} | set(_SGLANG_OTHER_OPTIONS)
    late: dict[str, str] = {}
    for name in flags:
        if name in options:
            continue
        matches = sorted(option for option in options if option.startswith(name))
        if len(matches) < 2:
            continue
        older = [m for m in matches if m not in _SGLANG_OPTION_SINCE]
        if len(older) == 1:
            late[name] = min((_SGLANG_OPTION_SINCE[m] for m in matches if m in _SGLANG_OPTION_SINCE),
                             key=_version_key)
            continue
        raise LaunchParseError(
            f"sglang: --{name} is ambiguous: it could match {', '.join('--' + m for m in matches)} "
            "(argparse exits with 'ambiguous option', the server does not start)",
            hint=f"write the full flag, e.g. --{matches[0]}")
    return late


def _sglang_config(argv: tuple[str, ...], flags: dict[str, Any], env: dict[str, str]) -> LaunchConfig:
    a = _SGLANG_ALIASES
    ambiguous_from = _ambiguous_abbreviations(flags)
    unexpanded: list[str] = []
    algorithm = _str_flag(flags, a["speculative-algorithm"], "sglang")
    return LaunchConfig(
        engine="sglang",
        argv=argv,
        target_model=_str_flag(flags, a["model-path"], "sglang"),
        draft_model=_str_flag(flags, a["speculative-draft-model-path"], "sglang"),
        algorithm=algorithm.upper() if algorithm else None,
        num_steps=_int_flag(flags, a["speculative-num-steps"], "sglang"),
        topk=_int_flag(flags, a["speculative-eagle-topk"], "sglang"),
        num_draft_tokens=_int_flag(flags, a["speculative-num-draft-tokens"], "sglang"),
        dtype=_str_flag(flags, a["dtype"], "sglang"),
        context_length=_size_flag(flags, a["context-length"], "sglang", unexpanded),
        tp=_size_flag(flags, a["tp-size"], "sglang", unexpanded),
        page_size=_size_flag(flags, a["page-size"], "sglang", unexpanded),
        attention_backend=_str_flag(flags, a["attention-backend"], "sglang"),
        flags=flags,
        env=env,
        ambiguous_from=ambiguous_from,
        unexpanded=tuple(unexpanded),
    )


# vLLM's FlexibleArgumentParser is an argparse.ArgumentParser that never turns allow_abbrev off
# (vllm/utils/argparse_utils.py, 0.9.0 .. 0.33.0), so `--spec-tok 5` is --spec-tokens and
# `--speculative '{...}'` is --speculative-config, while a prefix of two options (`--spec-m`)
# exits with "ambiguous option" (CPython Lib/argparse.py `_parse_optional`). The option strings
# of `vllm serve` that share a prefix with the ones read here (0.33.0 vllm/engine/arg_utils.py,
# vllm/entrypoints/common/cli_args.py), and its short aliases, which are options of their own.
_VLLM_OTHER_OPTIONS = (
    "spec-method", "spec-model", "spec-tokens", "specialize-active-lora", "data-parallel-size",
    "data-parallel-size-local", "data-parallel-address", "data-parallel-backend", "data-parallel-rank",
    "data-parallel-rpc-port", "data-parallel-start-rank", "data-parallel-external-lb", "data-parallel-hybrid-lb",
    "data-parallel-multi-port-external-lb", "data-parallel-supervisor-port", "dp-supervisor-probe-failure-threshold",
    "dp-supervisor-probe-interval-s", "dp-supervisor-probe-timeout-s", "dp-sync-interval",
    "mamba-backend", "mamba-block-size", "mamba-cache-dtype", "mamba-cache-mode", "mamba-cache-philox-rounds",
    "mamba-ssm-cache-dtype", "mamba-ssu-algorithm", "master-addr", "master-port", "max-cpu-loras",
    "max-cudagraph-capture-size", "max-log-len", "max-logprobs", "max-lora-cls-labels", "max-lora-rank",
    "max-loras", "max-num-active-seqs", "max-num-batched-tokens", "max-num-queued-reqs",
    "max-num-queued-tokens", "max-num-scheduled-tokens", "max-num-seqs", "max-parallel-loading-workers",
    "model-class-overrides", "model-impl", "model-loader-extra-config", "moe-backend", "monokernel",
    "num-gpu-blocks-override", "numa-bind", "numa-bind-cpus", "numa-bind-nodes", "scheduler-cls",
    "scheduler-reserve-full-isl", "scheduling-policy", "sparse-indexer-topk-backend",
    "ac", "cc", "dc", "dcp", "dp", "dpa", "dpb", "dpe", "dph", "dpl", "dpm", "dpn", "dpp", "dpr", "ep", "n",
    "pcp", "pp", "q", "r", "sc", "tp",
)


_VLLM_V0_FLAGS = ("speculative-model", "num-speculative-tokens")
# V0's --speculative-model / --num-speculative-tokens are read as written only: the releases
# that had them also had other --speculative-* options, not listed here
_VLLM_OPTIONS = frozenset({alias for key, aliases in _VLLM_ALIASES.items() for alias in aliases
                           if key not in _VLLM_V0_FLAGS} | set(_VLLM_OTHER_OPTIONS))


# vLLM's short aliases (one dash: `-sc`, `-tp`) written with two dashes are no spelling of them:
# argparse reads `--sc` as an abbreviation of the long options that start with it (CPython
# Lib/argparse.py `_get_option_tuples`: a `--` word is matched against `--` option strings only),
# `--scheduler-cls` and `--scheduling-policy` in every vLLM release with a speculative config, so it
# exits with "ambiguous option"; no long option starts with `tp`, so `--tp 2` is "unrecognized
# arguments" (FlexibleArgumentParser keeps allow_abbrev on: vllm/utils/argparse_utils.py,
# vllm/entrypoints/cli/serve.py `subparsers.add_parser("serve", ...)` passes no allow_abbrev).
_VLLM_READ_SHORT = ("sc", "tp")


def _refuse_double_dashed_short(server_args: list[str]) -> None:
    """Raises for a short option of vLLM's written `--sc` / `--tp` (see _VLLM_READ_SHORT), also as
    the key of a --config YAML file (`tp: 2`: vLLM turns each key into `--KEY`)."""
    for word in server_args:
        word = str(word)
        if not word.startswith("--") or word.startswith("---"):
            continue
        head = word[2:].partition("=")[0].partition(".")[0].replace("_", "-")
        if head not in _VLLM_READ_SHORT:
            continue
        matches = sorted(o for o in _VLLM_OPTIONS if len(o) > 3 and o.startswith(head))
        if len(matches) > 1:
            raise LaunchParseError(
                f"vllm: --{head} is not vLLM's -{head} (one dash): argparse reads it as an abbreviation, which is "
                f"ambiguous: it could match {', '.join('--' + m for m in matches)} (argparse exits with "
                "'ambiguous option', the server does not start)", hint=_short_hint(head))
        if not matches:
            raise LaunchParseError(
                f"vllm: --{head} is not vLLM's -{head} (one dash) and abbreviates no option of vllm serve: argparse "
                "exits with 'unrecognized arguments' and the server does not start", hint=_short_hint(head))


def _refuse_glued_short_value(server_args: list[str]) -> None:
    """Raises for a value written against a short option of vLLM's (`-tp2`, `-t2`, `-sc{...}`):
    argparse splits a value off a one-dash word only for a one-letter option (`-x2`) or at an `=`
    (CPython Lib/argparse.py `_get_option_tuples`: `-tp2` is matched as option `-t` with value
    `p2`, and vLLM has no `-t`), so it exits with "unrecognized arguments: -tp2" and the server
    does not start. vLLM's FlexibleArgumentParser rewrites no such word (only `-O3`)."""
    full = _vllm_one_dash_full()
    for word in server_args:
        word = str(word)
        if len(word) < 3 or word[0] != "-" or word[1] == "-" or _is_number(word):
            continue
        short = next((name for name in _VLLM_READ_SHORT if word[1:].startswith(name)), None) or full.get(word[1])
        if short is None:
            continue
        rest = word[1 + len(short):] if word[1:].startswith(short) else word[2:]
        if rest and rest[0] not in "=.":
            raise LaunchParseError(
                f"vllm: {word} is no spelling of -{short} {rest}: argparse takes a value glued to a one-dash "
                f"option only for a one-letter option, so it exits with 'unrecognized arguments: {word}' and the "
                "server does not start",
                hint=f"write -{short} {shlex.quote(rest)} or -{short}={shlex.quote(rest)}")


def _vllm_one_dash_prefixes(words: list[str]) -> list[str]:
    """`words` with a one-dash prefix of -sc / -tp written in full (`-s '{...}'`, `-t=2`, `-s.method`):
    argparse matches a one-dash word against every option string that starts with it (CPython
    Lib/argparse.py `_get_option_tuples`, allow_abbrev on), and among vLLM's one-dash options only
    -sc starts with -s and only -tp with -t."""
    full = _vllm_one_dash_full()
    return ["-" + full[word[1]] + word[2:] if (len(word) > 1 and word[0] == "-" and word[1] in full
                                               and word[2:3] in ("", "=", ".")) else word for word in words]


def _vllm_one_dash_full() -> dict[str, str]:
    """{one-letter prefix: the short option argparse expands it to}: {"s": "sc", "t": "tp"}."""
    short = [option for option in _VLLM_OPTIONS if len(option) <= 3]
    return {name[0]: name for name in _VLLM_READ_SHORT if sum(option.startswith(name[0]) for option in short) == 1}


def _short_hint(head: str) -> str:
    long = next(key for key, aliases in _VLLM_ALIASES.items() if head in aliases)
    return f"write -{head} (one dash) or --{long} (in a --config YAML file: {long}: VALUE)"


def _vllm_full_names(flags: dict[str, Any], keywords: bool = False) -> dict[str, Any]:
    """`flags` with every abbreviation vLLM's argparse expands written in full (the part before a
    dotted key too: `--speculative.method eagle3` becomes one `--speculative '{...}'`, which
    argparse expands). Names under 3 characters are left as written: `-t`-style short words are
    not told apart from `--t` here. Raises for a prefix of two options."""
    full: dict[str, Any] = {}
    for name, value in flags.items():
        head, dot, tail = name.partition(".")
        name = _vllm_full_name(head, keywords) + dot + tail
        full.pop(name, None)  # argparse: the last of two spellings of one option wins
        full[name] = value
    return full


def _vllm_full_name(head: str, keywords: bool = False) -> str:
    """The option argparse expands a flag name (no dashes) to: itself, or the one option it is an
    unambiguous prefix of (see _vllm_full_names). Raises for a prefix of two options, but for a
    keyword argument of a Python call (`keywords`), which no argparse reads: kept as written
    (_keyword_abbreviations says Python's TypeError)."""
    if head in _VLLM_OPTIONS or len(head) < 3:
        return head
    matches = sorted(option for option in _VLLM_OPTIONS if option.startswith(head))
    if len(matches) > 1 and keywords:
        return head
    if len(matches) > 1:
        raise LaunchParseError(
            f"vllm: --{head} is ambiguous: it could match {', '.join('--' + m for m in matches)} "
            "(argparse exits with 'ambiguous option', the server does not start)",
            hint=f"write the full flag, e.g. --{matches[0]}")
    return matches[0] if matches else head


def _vllm_positional_model(positionals: list[str], server_args: list[str]) -> str | None:
    """The positional vLLM reads as its model (model_tag), where the command does not start with
    it. --served-model-name is a list field (nargs "+"): argparse gives it every word up to the
    next flag, so `vllm serve --served-model-name a b --port 8000 Qwen/Qwen3-8B` serves
    Qwen/Qwen3-8B under the names a and b. Was: the flag reader gave the names one word and read
    `b` as the model. Where the names take every positional (`--served-model-name q MODEL`, the
    model eaten: vllm_model_not_first and vllm_default_model_served say what runs), the last word
    they took, the model the command was written for."""
    if not positionals:
        return None
    taken: list[str] = []
    for i, word in enumerate(server_args):
        if re.fullmatch(r"--served[-_]model[-_]name", str(word)):
            taken += [str(w) for w in itertools.takewhile(lambda w: not str(w).startswith("-"), server_args[i + 1:])][1:]
    if not taken:
        return positionals[0]
    left = list(positionals)
    for word in taken:
        if word in left:
            left.remove(word)
    return left[0] if left else taken[-1] if taken[-1] in positionals else positionals[0]


def _vllm_config(argv: tuple[str, ...], flags: dict[str, Any], positionals: list[str],
                 env: dict[str, str], server_args: list[str], keywords: bool = False) -> LaunchConfig:
    """`keywords`: the words are a Python engine call's keyword arguments (`LLM(..., tp=2)`), which
    no argparse reads: a short alias given as one is judged by _keyword_cli_aliases instead."""
    a = _VLLM_ALIASES
    if not keywords:
        _refuse_double_dashed_short(server_args)
    _refuse_glued_short_value(server_args)
    dotted, replaced_dotted = _vllm_dotted_speculative_config(flags, server_args)
    flags = _vllm_full_names(flags, keywords)
    unexpanded: list[str] = []
    # (an InferenceService's `args` alone, with no program: KServe's --model_id / --model_dir,
    # which vLLM's own parser does not have)
    target = _str_flag(flags, a["model"], "vllm") or _vllm_positional_model(positionals, server_args) or (
        _kserve_model(flags))
    spec = _vllm_speculative_config(flags, dotted)
    legacy_draft = _str_flag(flags, a["speculative-model"], "vllm")
    if spec is None and legacy_draft is not None:
        spec = {"model": legacy_draft}
        legacy_k = _int_flag(flags, a["num-speculative-tokens"], "vllm")
        if legacy_k is not None:
            spec["num_speculative_tokens"] = legacy_k
    if spec and spec.get("model") is not None and not isinstance(spec["model"], str):
        # SpeculativeConfig's `model: str | None` (pydantic refuses a number or an object: a
        # `--speculative-config.model.path x` dotted one level too deep makes one)
        raise LaunchParseError(f"vllm: speculative config model must be a string (the draft's path or hub name), "
                               f"got {json.dumps(spec['model'])} (vLLM refuses to start)",
                               hint="\"model\": \"/models/my-eagle3-draft\"")
    method = spec.get("method") if spec else None
    if method is None and spec and isinstance(spec.get("model"), str):
        # A dotted import path (`my_pkg.proposers.MyProposer`) is a custom proposer class:
        # vllm/config/speculative.py `_is_custom_proposer_path` (no `/`, no URL scheme, every
        # dot-separated part an identifier) is asked first (vllm-project/vllm PR #39487).
        # No method: SpeculativeConfig.__post_init__ detects it from the draft's name,
        # "eagle-" -> eagle, "eagle3" -> eagle3 (vllm/config/speculative.py, 0.11.0 and 0.33.0),
        # and the model "[ngram]" (or "ngram") is prompt lookup, as V0's docs spelled it:
        # `--speculative_model "[ngram]" --num_speculative_tokens 5 --ngram_prompt_lookup_max 4`
        # (docs/features/spec_decode.md at v0.7.1)
        # Newer releases go on to "dflash" and "dspark" in the name (vllm/config/speculative.py,
        # after the eagle checks: z-lab/Qwen3-8B-DFlash-b16 is served as dflash)
        name = spec["model"].lower()
        method = ("custom_class" if _is_custom_proposer_path(spec["model"])
                  else "ngram" if name in ("ngram", "[ngram]") else "eagle" if "eagle-" in name
                  else "eagle3" if "eagle3" in name else "dflash" if "dflash" in name
                  else "dspark" if "dspark" in name else None)
    k = _spec_int(spec, "num_speculative_tokens")
    # vLLM EAGLE drafts a chain: K drafted tokens, K+1 positions verified (EAGLE3.md section 4).
    return LaunchConfig(
        engine="vllm",
        argv=argv,
        target_model=target,
        draft_model=(spec or {}).get("model"),
        algorithm=str(method).upper() if method else None,
        num_steps=k,
        topk=1 if spec else None,
        num_draft_tokens=k + 1 if k is not None else None,
        dtype=_str_flag(flags, a["dtype"], "vllm"),
        context_length=None if "$" in str(_lookup(flags, _VLLM_ALIASES["max-model-len"]) or "") else _vllm_model_len(flags),
        tp=_size_flag(flags, a["tensor-parallel-size"], "vllm", unexpanded),
        pp=_size_flag(flags, a["pipeline-parallel-size"], "vllm", unexpanded),
        speculative_config=spec,
        flags=flags,
        env=env,
        unexpanded=tuple(unexpanded),
        replaced_dotted=replaced_dotted,
        replaced_json=_vllm_json_values_given(server_args),
    )


def _vllm_json_values_given(server_args: list[str]) -> tuple[str, ...]:
    """The whole-JSON --speculative-config spellings of a vLLM argument list, in order, where there
    are two or more (`-sc '{...}' ... --speculative-config '{...}'`). FlexibleArgumentParser
    passes a repeated option through to argparse (newer releases only log "Found duplicate keys"),
    whose store action keeps the last value: the earlier JSON values are not merged in
    (vllm/utils/argparse_utils.py `parse_args`, 00da11e)."""
    given = []
    for word in server_args:
        word = str(word)
        if not word.startswith("-") or _is_number(word):
            continue
        name = word.lstrip("-").partition("=")[0].replace("_", "-")
        if "." in name or not name:
            continue
        try:
            full = _vllm_one_dash_full().get(name, name) if not word.startswith("--") else _vllm_full_name(name)
        except LaunchParseError:
            continue  # an ambiguous prefix is refused where the flags are read
        if full in _VLLM_ALIASES["speculative-config"]:
            given.append(_vllm_dashed(name))
    return tuple(given) if len(given) > 1 else ()


def _is_custom_proposer_path(model: str) -> bool:
    """vLLM's test for a custom proposer class path (vllm/config/speculative.py
    `SpeculativeConfig._is_custom_proposer_path`): `pkg.MyProposer` is one, `org/draft.model`,
    `draft.model-v1` and URLs are not."""
    if model.startswith(("http://", "https://", "file://")) or "/" in model:
        return False
    parts = model.split(".")
    return len(parts) >= 2 and all(part.isidentifier() for part in parts)


# `--max-model-len` is `human_readable_int` in vLLM (vllm/engine/arg_utils.py; the parser in
# vllm/utils/argparse_utils.py): lower-case suffixes are decimal (25.6k = 25600), upper-case
# binary (128K = 131072, no decimals); newer releases also take `auto` / -1 (fit to memory).
_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT]?)")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _vllm_model_len(flags: dict[str, Any]) -> int | None:
    value = _lookup(flags, _VLLM_ALIASES["max-model-len"])
    if value is None:
        return None
    if value is True:
        raise LaunchParseError("vllm: --max-model-len has no value", hint=_PS_HINT)
    text = str(value).strip()
    if text.lower() == "auto" or text == "-1":
        return None  # the engine fits it to the KV-cache memory: unknown here
    number = _human_readable_int(text)
    if number is None or number < 0:
        raise LaunchParseError(f"vllm: --max-model-len expects an integer such as 32768, 32k or 32K, got {value!r}")
    return number


def _vllm_dotted_speculative_config(flags: dict[str, Any],
                                    server_args: list[str]) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """The speculative config the dotted keys give (`--speculative-config.method eagle3`) or None,
    and the spellings given dotted keys where more than one is (LaunchConfig.replaced_dotted).

    FlexibleArgumentParser gathers the dotted keys of each flag as written (`-sc`,
    `--speculative-config`, `--speculative`) into a dict of its own and appends each as one JSON
    value, in the order of each one's first dotted key; argparse then maps them to the option and
    the last one wins whole (vllm/utils/argparse_utils.py `parse_args`): so
    `--speculative-config.method eagle3 ... -sc.num_speculative_tokens 2` runs {"num_speculative_tokens": 2}.
    A dotted key's value is the next word whatever it is: a flag there is taken as its value.
    `server_args` are the words as written: `-s.KEY` (argparse's prefix of -sc) is a dict of its own,
    keyed `-s`, apart from `-sc.KEY`'s, and the later of the two wins whole (`flags` names both `sc.KEY`)."""
    found, spellings = None, []
    one_dash = _vllm_one_dash_full()
    for head, keys in vllm_dotted_flags(server_args).items():
        read = one_dash[head] if head in one_dash and any(
            str(word).startswith(f"-{head}.") for word in server_args) else head
        if _vllm_full_name(read) not in _VLLM_ALIASES["speculative-config"]:
            continue
        found = keys
        spellings.append(_vllm_dashed(head))
        for name, value in flags.items():  # _read_flags took the same next word
            if (name.partition(".")[0] == read and isinstance(value, str) and value.startswith("-")
                    and not _is_number(value)):
                raise LaunchParseError(
                    f"vllm: --{name} has no value of its own: vLLM's parser takes the next word, {value}, as its value, "
                    "so the speculative config gets that flag as a value and the server does not start",
                    hint=f"give it one: --{name} VALUE or --{name}=VALUE")
    return found, tuple(spellings) if len(spellings) > 1 else ()


def _json_fault_place(exc: json.JSONDecodeError) -> str:
    """Where json.loads stopped, to find by eye: the line and column in JSON written over several
    lines, else the character, with the text on either side (between `"eagle3"` and `"model"`), or the
    end of the text where it was cut short (a `ps` line cut at the terminal width). Was: "at char
    20" alone, to count by hand in a 100-character value."""
    text, at = exc.doc, exc.pos
    place = f"at line {exc.lineno} column {exc.colno}" if "\n" in text else f"at char {at}"
    if not text[at:].strip():
        return f"{place}, its end: the text stops there"
    # (the lines' breaks and indents read as one space: a comma missing at a line's end shows)
    before = " ".join(text[max(0, at - 48):at].split())[-24:]
    after = " ".join(text[at:at + 48].split())[:24]
    return f"{place}, between {before!r} and {after!r}"


def _vllm_speculative_config(flags: dict[str, Any], dotted: dict[str, Any] | None) -> dict[str, Any] | None:
    """The dict vLLM builds from `--speculative-config` (`-sc`), its dotted keys (`dotted`:
    _vllm_dotted_speculative_config) and the `--spec-*` shorthands, in vLLM's own order of precedence."""
    raw_spec = _str_flag(flags, _VLLM_ALIASES["speculative-config"], "vllm")
    spec: dict[str, Any] | None = None
    # optional_type(json.loads): "" and "None" mean no config (vllm/engine/arg_utils.py)
    if raw_spec is not None and str(raw_spec) not in ("", "None"):
        try:
            spec = json.loads(raw_spec)
        except json.JSONDecodeError as exc:
            if "$" in str(raw_spec):
                raise _unexpanded("vllm", "speculative-config", str(raw_spec)) from exc
            written = _python_dict(str(raw_spec))
            if written is not None:
                # `{'method': 'eagle3', ...}`: Python's dict syntax, which json.loads refuses, so
                # vLLM's argparse exits at startup (optional_type(json.loads), vllm/engine/arg_utils.py)
                raise LaunchParseError(
                    f"vllm: --speculative-config {raw_spec!r} is Python's dict syntax, not JSON (single quotes, "
                    "True/False/None or a trailing comma): vLLM's argparse refuses it and the server does not start",
                    hint=f"write it as JSON: --speculative-config '{json.dumps(written)}'") from exc
            if re.fullmatch(r"(?:~|\.{1,2})?/?[\w.@+/-]*\.json", str(raw_spec)):
                # a file's path where the JSON goes (was: "quote it for the shell ... a line from
                # `ps` may be cut"): optional_type(json.loads) reads the word itself, no file; nor
                # does `@spec.json` (curl's form) name one: vLLM's parsers set no argparse
                # fromfile_prefix_chars (vllm/utils/argparse_utils.py FlexibleArgumentParser, 0.18.0, 0.34.0)
                path = str(raw_spec)[1:] if str(raw_spec).startswith("@") else raw_spec
                raise LaunchParseError(
                    f"vllm: --speculative-config takes the JSON itself, not a file: {raw_spec!r} is not JSON"
                    + (" (vLLM's argparse reads no @file: a leading @ names no file to it)" if path != raw_spec else "")
                    + ", so vLLM's argparse refuses it (json.loads) and the server does not start",
                    hint=f"pass the file's text: --speculative-config \"$(cat {path})\"") from exc
            unquoted = _shell_unquoted_json(str(raw_spec))
            if unquoted is not None:
                raise LaunchParseError(
                    f"vllm: --speculative-config {raw_spec} is not valid JSON: JSON written unquoted in a shell "
                    "command, whose shell removed its double quotes (and bash brace-expands it into one word per key at its "
                    "commas), so vLLM's argparse refuses it (json.loads) and the server does not start",
                    hint=f"quote it for the shell: --speculative-config '{json.dumps(unquoted)}'") from exc
            cut = not str(raw_spec)[exc.pos:].strip()
            raise LaunchParseError(
                f"vllm: --speculative-config is not valid JSON ({exc.msg} {_json_fault_place(exc)}): {raw_spec!r}",
                hint=(f"the JSON stops before it closes: {_PS_HINT}" if cut else
                      "fix the JSON where it breaks (vLLM reads it with json.loads: double-quoted keys and strings, "
                      "a comma between entries and none after the last), and quote it for the shell: "
                      f"--speculative-config '{{\"method\": \"eagle3\", ...}}'; {_PS_HINT}"),
            ) from exc
        if not isinstance(spec, dict):
            raise LaunchParseError(f"vllm: --speculative-config must be a JSON object, got {raw_spec!r}")
    # `--speculative-config.method eagle3`: FlexibleArgumentParser.parse_args appends the dotted
    # keys as a last `--speculative-config`, which replaces an earlier JSON one (argparse: last
    # wins). vllm/utils/__init__.py (0.11.0), vllm/utils/argparse_utils.py (0.33.0).
    if dotted:
        spec = dotted
    # `--spec-method/--spec-model/--spec-tokens` (vLLM PR #42476) fill the same keys;
    # EngineArgs.create_speculative_config refuses a key given both ways.
    for flag, key in (("spec-method", "method"), ("spec-model", "model"),
                      ("spec-tokens", "num_speculative_tokens")):
        value = _str_flag(flags, (flag,), "vllm")
        if value is None:
            continue
        spec = {} if spec is None else spec
        if key in spec:
            raise LaunchParseError(
                f"vllm: --{flag} and --speculative-config['{key}'] are mutually exclusive "
                "(vLLM refuses to start)", hint=f"give {key} once")
        spec[key] = _json_or_str(value) if key == "num_speculative_tokens" else value
    return spec


# What the shell leaves of an unquoted flat JSON object: `{"method":"eagle3","num_speculative_tokens":3}`
# written without single quotes reaches the server as `{method:eagle3,num_speculative_tokens:3}`.
_UNQUOTED_PAIR = re.compile(r"([A-Za-z_][\w.]*):([^,:{}\[\]\s\"']+)")


def _shell_unquoted_json(text: str) -> dict[str, Any] | None:
    """The object an unquoted JSON value meant (its keys and values as written), or None."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")) or '"' in body:
        return None
    pairs = [_UNQUOTED_PAIR.fullmatch(part.strip()) for part in body[1:-1].split(",")]
    if not pairs or not all(pairs):
        return None
    return {m.group(1): _json_or_str(m.group(2)) for m in pairs if m}


def _python_dict(text: str) -> dict[str, Any] | None:
    """The dict a Python literal (`{'method': 'eagle3', 'num_speculative_tokens': 3}`) writes, or None."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):  # TypeError: `{{...}}`, a set of a dict
        return None
    if not isinstance(value, dict):
        return None
    try:
        json.dumps(value)
    except (TypeError, ValueError):  # a set or bytes: no JSON to suggest
        return None
    return value


# vLLM's dotted form of a JSON flag (`--speculative-config.method eagle3`,
# `--hf-overrides.rope_scaling.factor=4`, `--x.list+ a,b`): FlexibleArgumentParser.parse_args
# (vllm-project/vllm vllm/utils/__init__.py in 0.11.0, vllm/utils/argparse_utils.py in 0.33.0)
# turns `_` into `-` up to the first `.`, takes the text after the first `=` or else the next word
# whatever it is (none: the parser fails), splits a `+` key's text at commas into a list, reads
# the text as JSON or else keeps it as a string, and merges every key of one flag into one dict
# (dicts merged key by key, two lists joined, anything else: the later wins), which it appends
# as the flag's JSON value, after (so over) a JSON value the line gives. Newer releases read a
# text that is not JSON as human_readable_int before keeping it (`80g` = 80000000000, `128K` =
# 131072, `1_000` = 1000: vllm-project/vllm PR #40473, opened 2026-04-21, in
# vllm/utils/argparse_utils.py from 0.20.0; 0.19.1's, 0.11.0's and c836a6fe's keep the text, which
# _vllm_dotted_texts_kept says for a release known to be older). That PR also expands such numbers
# inside the JSON value of an option typed as a config dataclass (`'{"cpu_bytes_to_use": 80m}'`,
# vllm/engine/arg_utils.py `_expand_json_human_readable_numbers`), not followed here; the JSON of
# --speculative-config is read by plain json.loads (optional_type(json.loads)), which refuses it.


def add_dotted_key(target: dict[str, Any], path: str, text: str, human_readable: bool = True) -> None:
    """One dotted key (`rope_scaling.factor`, `list+`) with its text merged into `target`; without
    `human_readable` (a vLLM before 0.20.0: vllm_reads_human_ints) `128K` stays the text."""
    if path.endswith("+"):
        path, text = path[:-1], json.dumps(text.split(","))
    value = _json_or_str(text, human_readable=human_readable)
    for key in reversed(path.split(".")[1:]):
        value = {key: value}
    _merge_dotted(target, {path.split(".")[0]: value})


def _merge_dotted(target: dict[str, Any], update: dict[str, Any]) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge_dotted(target[key], value)
        elif isinstance(value, list) and isinstance(target.get(key), list):
            target[key] = target[key] + value
        else:
            target[key] = value


def _vllm_dashed(name: str) -> str:
    """A vLLM flag name (dotted or not) with its dashes: `-sc.KEY` (a short option: a head
    under 3 characters), `--speculative-config.KEY`."""
    return ("-" if len(name.partition(".")[0]) < 3 else "--") + name


def vllm_dotted_flags(args: list[str] | tuple[str, ...], human_readable: bool = True) -> dict[str, dict[str, Any]]:
    """Every dotted flag of a vLLM argument list gathered as vLLM gathers it: {flag name as written,
    without its dashes (`hf-overrides`, `sc`): the dict it stands for}, in the order vLLM appends
    them (each one's first dotted key). The one reading of dotted flags: the launch audit's
    speculative config and the served config's --hf-overrides both come from it (`human_readable`:
    add_dotted_key). A dotted flag
    that ends the line (no value: vLLM's parser fails) is a LaunchParseError."""
    gathered: dict[str, dict[str, Any]] = {}
    i = 0
    while i < len(args):
        word = str(args[i])
        i += 1
        name, eq, text = word.partition("=")
        head, dot, path = name.lstrip("-").partition(".")
        if not word.startswith("-") or _is_number(word) or not dot or not head:
            continue
        if not eq:
            if i >= len(args):
                # (FlexibleArgumentParser reads processed_args[i + 1]: an IndexError at startup)
                raise LaunchParseError(f"vllm: {name} has no value: vLLM's parser fails and the server does not start",
                                       hint=f"give it one: {name} VALUE or {name}=VALUE; {_PS_HINT}")
            text, i = str(args[i]), i + 1
        add_dotted_key(gathered.setdefault(head.replace("_", "-"), {}), path, text, human_readable)
    return gathered


def _json_or_str(value: Any, human_readable: bool = False) -> Any:
    """`value` read as JSON, else (with `human_readable`) as vLLM's human_readable_int, else as written."""
    if value is True:
        return True
    try:
        return json.loads(value)
    except (TypeError, ValueError, RecursionError):  # json recurses per nesting level
        pass
    if human_readable:
        number = _human_readable_int(value)
        if number is not None:
            return number
    return value


def _human_readable_int(text: str) -> int | None:
    """vLLM's human_readable_int (vllm/utils/argparse_utils.py): `25.6k` = 25600 (lower case:
    decimal), `128K` = 131072 (upper case: binary, no decimals), else Python's int() of the text
    (`+5`, `1_000`); None where it raises."""
    m = _HUMAN_INT.fullmatch(text.strip())
    if m and m.group(2):
        number, suffix = m.groups()
        if suffix in _DECIMAL:
            return int(float(number) * _DECIMAL[suffix])
        return int(number) * _BINARY[suffix] if "." not in number else None
    try:
        return int(text)
    except ValueError:
        return None


def _spec_int(spec: dict[str, Any] | None, key: str) -> int | None:
    """A positive integer key of the speculative config, read as vLLM reads it.

    SpeculativeConfig is a pydantic dataclass (`@config`, vllm/config/utils.py: extra="forbid",
    not strict) with `num_speculative_tokens: int = Field(default=None, gt=0)`
    (vllm/config/speculative.py): pydantic's lax mode takes 3, "3", 3.0 and "3.0" (JSON and
    YAML writers often emit floats), and refuses 1.5 ("got a number with a fractional part")
    and 0 ("should be greater than 0") at startup."""
    value = (spec or {}).get(key)
    if value is None:
        return None
    number: float | None
    if isinstance(value, bool):
        number = float(value)  # pydantic lax mode: true -> 1
    elif isinstance(value, (int, float)):
        number = float(value)
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            number = None
    if number is None and "$" in str(value):
        raise _unexpanded("vllm", f"speculative-config {key}", str(value))
    if number is None or number != number or number in (float("inf"), float("-inf")):
        raise LaunchParseError(f"vllm: speculative config {key} must be an integer, got {value!r} "
                               "(vLLM refuses to start)", hint=f'write "{key}": 3 in --speculative-config')
    if not number.is_integer():
        raise LaunchParseError(
            f"vllm: speculative config {key} must be a whole number, got {value!r} (vLLM's config "
            "validation refuses a number with a fractional part, and the server does not start)",
            hint=f'write "{key}": {max(1, int(number))} in --speculative-config')
    if number < 1:
        raise LaunchParseError(
            f"vllm: speculative config {key} must be greater than 0, got {value!r} (vLLM refuses "
            "to start; leave out --speculative-config to serve without speculation)",
            hint=f'write "{key}": 3 in --speculative-config')
    return int(number)


# ---------------------------------------------------------------------------------------------
# Effective settings: the engine's own rules
# ---------------------------------------------------------------------------------------------
# sglang server_args.py `auto_choose_speculative_params` (arg_groups/speculative_hook.py from
# 0.5.16): (steps, topk, draft tokens) by target architecture, read from the PyPI wheels:
# - 0.4.6: (5, 4, 8) for every target;
# - 0.4.7 .. 0.5.7: (3, 1, 4) for an explicit list that grew release by release (below),
#   else (5, 4, 8);
# - 0.5.8 .. 0.5.23: (5, 4, 8) for Llama and Grok only, (3, 1, 4) for everything else.
_SGLANG_AUTO_548 = ("LlamaForCausalLM", "Grok1ForCausalLM", "Grok1VForCausalLM")
_SGLANG_AUTO_314_ADDED = (  # (first release listing them, architectures)
    ("0.4.7", ("DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM")),
    ("0.5.1", ("GptOssForCausalLM",)),
    ("0.5.3", ("DeepseekV32ForCausalLM", "BailingMoeForCausalLM", "BailingMoeV2ForCausalLM")),
    ("0.5.6.post1", ("Glm4MoeForCausalLM", "MistralLarge3ForCausalLM", "PixtralForConditionalGeneration")),
    ("0.5.7", ("MiMoV2FlashForCausalLM",)),
)
_SGLANG_AUTO_BY_ARCH = "0.4.7"
_SGLANG_AUTO_314_DEFAULT = "0.5.8"
# topk > 1 with page_size > 1: the attention backends SGLang accepts (it raises ValueError
# otherwise): no such check before 0.5.2, flashinfer only in 0.5.2 .. 0.5.5, + fa3 in
# 0.5.6 .. 0.5.12.post1, + triton from 0.5.13 (arg_groups/speculative_hook.py
# `_PAGE_TREE_SPEC_BACKENDS`).
_SGLANG_PAGE_TREE_BACKENDS = (("0.5.13", ("flashinfer", "fa3", "triton")),
                              ("0.5.6", ("flashinfer", "fa3")),
                              ("0.5.2", ("flashinfer",)))


# SGLang 0.4.5 .. 0.4.8 served EAGLE with paged KV as a chain: server_args.py set topk to 1 when
# page_size > 1 (sgl-project/sglang#4908 "Support page size > 1 + eagle ... Only support topk = 1";
# #7643 removed the adjustment for 0.4.9). The topk-1 rewrite of the draft tokens to steps + 1
# arrived in 0.4.6; before it the written budget stands (PyPI wheels' server_args.py).
_SGLANG_PAGE_TOPK1_SINCE = "0.4.5"
_SGLANG_PAGE_TOPK1_UNTIL = "0.4.9"
_SGLANG_TOPK1_TOKENS_SINCE = "0.4.6"


_version_key = version_key  # the auto-choose list changed in 0.5.6.post1


def _version_at_least(version: str | None, boundary: str) -> bool:
    try:
        return _version_key(version) >= _version_key(boundary)
    except ValueError:  # an unreadable version: judge as the newest
        return True


def surely_before(version: str, since: str, dev_may_reach: str) -> bool:
    """The engine build `version` certainly predates the release `since`
    (engines.release_surely_before, which the engine table's first-EAGLE-3 check shares)."""
    return release_surely_before(version, since, dev_may_reach)


def _sglang_auto_params(target_architecture: str | None,
                        engine_version: str | None) -> tuple[int, int, int]:
    if not _version_at_least(engine_version, _SGLANG_AUTO_BY_ARCH):
        return 5, 4, 8
    if target_architecture is None or target_architecture in _SGLANG_AUTO_548:
        return 5, 4, 8
    if _version_at_least(engine_version, _SGLANG_AUTO_314_DEFAULT):
        return 3, 1, 4
    listed = {arch for since, archs in _SGLANG_AUTO_314_ADDED
              if _version_at_least(engine_version, since) for arch in archs}
    return (3, 1, 4) if target_architecture in listed else (5, 4, 8)


def _sglang_tree_without_nodes(steps: int, topk: int, tokens: int) -> str:
    """A topk > 1 tree whose verify budget holds no drafted token. SGLang checks nothing here
    (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py `_handle_eagle_family`
    at 004c82e only rewrites the budget for topk 1): `organize_draft_results` (eagle_utils.py)
    keeps `topk(score_list, num_draft_tokens - 1)` nodes, none for 1 draft token, so the target
    verifies the root alone every round while the draft still runs all its steps."""
    if tokens == 1:
        return (f"1 draft token verifies no tree node (the root alone), so the accept length is 1: all "
                f"{steps} draft step(s) of topk {topk} run every round and none can be accepted, slower than "
                f"no speculation (use --speculative-num-draft-tokens {tree_capacity(steps, topk) + 1} or fewer, "
                f"at least {steps + 1})")
    return (f"--speculative-num-draft-tokens {tokens} with topk {topk}: the verify tree has no room even "
            f"for its root, and SGLang's tree selection asks for {tokens - 1} nodes (torch.topk in "
            "organize_draft_results), which no round can run (give at least "
            f"{steps + 1} draft tokens)")


TREE_TOPK_CRASH = "RuntimeError: selected index k out of range"
"""What torch raises in SGLang's tree selection for a draft-token budget beyond the tree."""


def _sglang_budget_beyond_tree(cfg: LaunchConfig, steps: int, topk: int, tokens: int) -> str:
    """More draft tokens than the draft tree holds. SGLang neither checks nor clamps this
    (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py `_handle_eagle_family` at
    004c82e; server_args.py before the split): `EAGLEWorker.draft_forward` (speculative/eagle_worker.py)
    ends with `organize_draft_results` (eagle_utils.py), which asks `torch.topk` for
    `num_draft_tokens - 1` of the `topk + (steps-1)*topk^2` scores and raises TREE_TOPK_CRASH. The
    draft CUDA-graph capture (eagle_draft_cuda_graph_runner.py `run_once`, steps > 1, graphs on) runs
    draft_forward at startup; otherwise the first decode runs it, which the HTTP server's startup
    warmup request makes (`--skip-server-warmup` skips it; `Engine` has none). Was: the budget line
    alone, a warning, on a server that never serves a request."""
    capacity = tree_capacity(steps, topk)
    need = (f"{tokens} draft tokens need {tokens - 1} tree nodes but steps={steps}, topk={topk} "
            f"offer only {capacity} (topk + (steps-1)*topk^2)")
    crash = (f"torch.topk in its tree selection (organize_draft_results) asks for {tokens - 1} of {capacity} "
             f"candidates: \"{TREE_TOPK_CRASH}\"")
    fix = f"use --speculative-num-draft-tokens {capacity + 1} or fewer, or more steps or a larger topk"
    if steps > 1 and cfg.flags.get("disable-cuda-graph") is not True:
        return f"{need}: SGLang crashes at startup, capturing the draft CUDA graph ({crash}; {fix})"
    if cfg.python_call in (None, _SGLANG_TEST_LAUNCHER) and cfg.flags.get("skip-server-warmup") is not True:
        return f"{need}: SGLang crashes at startup, at its warmup request's first decode ({crash}; {fix})"
    return f"{need}: SGLang crashes at the first decode and serves no request ({crash}; {fix})"


def _page_tree_backends(engine_version: str | None) -> tuple[str, ...] | None:
    """None: this release does not check the backend for topk > 1 with paged KV."""
    for since, backends in _SGLANG_PAGE_TREE_BACKENDS:
        if _version_at_least(engine_version, since):
            return backends
    return None


@dataclass(frozen=True)
class EffectiveSpec:
    """The speculative settings the engine runs with after its own rules."""

    num_steps: int | None
    topk: int | None
    num_draft_tokens: int | None
    auto_chosen: bool = False
    overrides: list[str] = field(default_factory=list)
    """Human lines: what the engine changed and why (e.g. draft tokens 8 -> 4)."""
    problems: list[str] = field(default_factory=list)
    """Settings the engine rejects or that cannot work (assertion, tree capacity)."""
    tree_capacity: int | None = None
    """Candidates the draft tree offers: topk + (steps - 1) * topk^2."""
    adaptive: bool = False
    """SGLang `--speculative-adaptive` is on: num_steps is only where it starts; the server
    moves it among the candidate steps as the accept length goes. vLLM's per-batch-size K
    schedule: num_steps is its K at batch size 1, other batch sizes run other K."""


def _env_true(value: str | None) -> bool:
    """A boolean environment switch as SGLang's EnvBool reads it (python/sglang/srt/environ.py:
    "1", "true", "yes", "y", case-insensitive)."""
    return value is not None and value.strip().lower() in ("1", "true", "yes", "y")


def tree_capacity(num_steps: int, topk: int) -> int:
    """Nodes SGLang's `organize_draft_results` can pick from: topk at depth 1, then topk^2 per
    later step (each of topk leaves expands topk). EAGLE3.md section 4 (inferred)."""
    return topk + (num_steps - 1) * topk * topk


def effective_spec(cfg: LaunchConfig, *, target_architecture: str | None = None,
                   engine_version: str | None = None, draft_block_size: int | None = None,
                   draft_config: Any = None) -> EffectiveSpec:
    """What the server runs with. `engine_version` (None = newest) selects SGLang's
    version-dependent rules: the auto-chosen defaults, the page-size backends, and which
    abbreviated flags it still accepts; for vLLM, the speculative options and keys that release
    has (`_vllm_release_problems`). `draft_config` (the draft's config.json, when read) gives
    vLLM's K where the command leaves it out (`_vllm_unwritten_k`)."""
    eff = _effective_rules(cfg, target_architecture, engine_version, draft_block_size, draft_config)
    refused = [_ambiguous_problem(name, since) + ("" if engine_version else RELEASE_UNKNOWN)
               for name, since in cfg.ambiguous_from.items() if _release_at_least(engine_version, since)]
    refused += _unknown_algorithm(cfg) + _other_engines_flags(cfg) + _unknown_sglang_option(cfg, engine_version)
    refused += _unknown_sglang_flag(cfg, engine_version) + _unknown_vllm_flag(cfg, engine_version)
    if cfg.python_call:
        # a command-line alias given as a keyword (`LLM(..., tp=2)`) is said as the field it stands
        # for, not as an unknown name or an abbreviation of others
        aliases = _keyword_cli_aliases(cfg)
        aliased = {line.partition(" ")[0] for line in aliases}
        refused = [line for line in (_as_keyword_refusal(line, cfg.python_call) for line in refused)
                   if line.partition(" ")[0] not in aliased]
        refused += [line for line in _keyword_abbreviations(cfg, engine_version) + aliases
                    if line in aliases or (line.partition(" ")[0] not in aliased
                                           and not any(said.startswith(line.partition(" ")[0]) for said in refused))]
    for line, earlier in reversed(cfg.earlier_calls):
        # a baseline engine built first: its TypeError stops the script (its own problems only),
        # said first, as the script meets it
        refused[:0] = [f"line {line}, {earlier.python_call}(...) before the speculative engine is built (the script "
                    f"stops there): {problem}"
                    for problem in effective_spec(earlier, target_architecture=target_architecture,
                                                  engine_version=engine_version).problems]
    written = _str_flag(cfg.flags, _SGLANG_ALIASES["speculative-algorithm"]) if cfg.engine == "sglang" else None
    # an option refused only on a build that surely predates the release adding it: a source-tree
    # build after the 0.4.4.post2 tag (0.4.4.post3.dev5) has EAGLE-3 (was: told it has none)
    if cfg.engine == "sglang" and cfg.algorithm == "EAGLE3" and engine_version is not None and (
            _sglang_surely_before(engine_version, _SGLANG_EAGLE3_SINCE)):
        refused.append(_sglang_without_eagle3(written or "EAGLE3", engine_version, cfg.python_call))
    elif written and written != written.upper() and engine_version is not None and (
            _sglang_surely_before(engine_version, "0.5.12")):
        # server_args.py up to 0.5.11 declares the option with upper-case `choices`; 0.5.12
        # dropped them and upper-cases the value (PyPI wheels)
        # (a Python call's name the release lacks is said once, below, by the release's names)
        if not (cfg.python_call and _sglang_algorithm_not_a_choice(written.upper(), engine_version)):
            refused.append(_sglang_lower_case_algorithm(written, engine_version, cfg.python_call))
    if written and cfg.algorithm != "EAGLE3" and engine_version is not None:
        refused += _sglang_algorithm_not_a_choice(written.upper(), engine_version, cfg.python_call)
    if cfg.engine == "sglang" and cfg.topk not in (None, *_SGLANG_OLD_TOPK_CHOICES) and engine_version is not None and (
            _sglang_surely_before(engine_version, _SGLANG_ANY_TOPK_SINCE)):
        refused.append(f"--speculative-eagle-topk {cfg.topk}: SGLang {engine_version} only accepts "
                       f"{', '.join(map(str, _SGLANG_OLD_TOPK_CHOICES))}; argparse exits with 'invalid choice' and the "
                       f"server does not start ({_SGLANG_ANY_TOPK_SINCE} and later take any topk)")
    refused += _sglang_options_too_new(cfg, engine_version)
    if refused and (words := _refused_words(cfg, refused)):
        # a word the server refuses (argparse's ambiguous or unknown option, the call's TypeError)
        # sets nothing: the rules read the command without it (was: `--speculative-dflash 512`,
        # ambiguous on 0.5.11 .. 0.5.19, was also read as --speculative-dflash-block-size 512 and
        # said to differ from --speculative-num-draft-tokens)
        eff = _effective_rules(replace(cfg, flags={name: value for name, value in cfg.flags.items()
                                                   if name not in words}),
                               target_architecture, engine_version, draft_block_size, draft_config)
    chain = _multi_layer_eagle_chain(cfg, eff, target_architecture, engine_version)
    beyond = _beyond_any_use(cfg)
    if cfg.engine == "sglang" and cfg.algorithm == "EAGLE3" and "speculative-token-map" in cfg.flags:
        eff = replace(eff, overrides=eff.overrides + [sglang_said_of_call(_SGLANG_EAGLE3_TOKEN_MAP_IGNORED, cfg)])
    if cfg.engine == "sglang":
        chain, beyond = [sglang_said_of_call(line, cfg) for line in chain], [sglang_said_of_call(line, cfg) for line in beyond]
    refused += chain
    return replace(eff, problems=refused + eff.problems + beyond) if refused or beyond else eff



def _sglang_without_eagle3(written: str, engine_version: str, python_call: str | None) -> str:
    """EAGLE3 on a release before 0.4.4.post2. On the command line argparse's `choices` (EAGLE,
    NEXTN) refuse it. A Python call (`sgl.Engine(speculative_algorithm="EAGLE3")`) reads no
    argparse (was: told argparse exits with 'invalid choice'): ServerArgs takes the string, and the
    scheduler's SpeculativeAlgorithm.from_string looks the upper-cased name up in a dict without
    "EAGLE3" (KeyError), so the engine does not start. PyPI wheels 0.4.3.post2 and 0.4.4.post1:
    srt/server_args.py `choices=["EAGLE", "NEXTN"]`, srt/speculative/spec_info.py `name_map[name]`,
    srt/managers/scheduler.py `SpeculativeAlgorithm.from_string(server_args.speculative_algorithm)`."""
    if python_call:
        return (f"speculative_algorithm={written!r}: SGLang {engine_version} has no EAGLE-3 (added in "
                f"{_SGLANG_EAGLE3_SINCE}): SpeculativeAlgorithm.from_string raises (KeyError: 'EAGLE3') and "
                f"{python_call}(...) does not start (upgrade SGLang)")
    return (f"--speculative-algorithm {written}: SGLang {engine_version} has no EAGLE-3 (added in "
            f"{_SGLANG_EAGLE3_SINCE}): argparse exits with 'invalid choice' and the server does not start "
            "(upgrade SGLang)")


def _sglang_lower_case_algorithm(written: str, engine_version: str, python_call: str | None) -> str:
    """A lower-case algorithm name on a release before 0.5.12. On the command line argparse's
    upper-case `choices` refuse it. Given to a Python call (`sgl.Engine(speculative_algorithm=
    "eagle3")`) no argparse reads it (was: told argparse exits): SpeculativeAlgorithm.from_string
    upper-cases it for the worker, but ServerArgs.__post_init__ compares the raw value with
    "EAGLE", "EAGLE3", "STANDALONE" and never upper-cases it, so the speculative set-up
    (auto-chosen steps, topk and draft tokens, overlap scheduler off, max running requests 48) is
    skipped; "nextn" is not mapped to "EAGLE" and the enum has no NEXTN, so from_string raises.
    PyPI wheels 0.5.2 and 0.5.10.post1: srt/speculative/spec_info.py `from_string`,
    srt/server_args.py (`if self.speculative_algorithm in ("EAGLE", "EAGLE3", "STANDALONE"):`)."""
    if python_call and written.upper() == "NEXTN":
        # ServerArgs maps only "NEXTN" to "EAGLE"; the enum has no NEXTN member
        return (f"speculative_algorithm={written!r}: SGLang {engine_version}'s ServerArgs maps only 'NEXTN' to "
                f"'EAGLE' and its SpeculativeAlgorithm has no NEXTN, so from_string raises and {python_call}(...) "
                "does not start: write 'NEXTN' (0.5.12 and later upper-case it)")
    if python_call:
        return (f"speculative_algorithm={written!r}: SGLang {engine_version}'s ServerArgs compares it with upper-case "
                f"names and skips its speculative set-up (auto-chosen steps, topk and draft tokens; overlap "
                f"scheduler off), though its worker upper-cases it: write {written.upper()!r} (0.5.12 and later "
                "upper-case it)")
    return (f"--speculative-algorithm {written}: SGLang {engine_version} only accepts upper case "
            f"({written.upper()}); argparse exits with 'invalid choice' and the server does not start "
            "(0.5.12 and later upper-case it)")

# The algorithms SGLang's argparse `choices` added, up to 0.5.11 (0.5.12 dropped the choices for
# SpeculativeAlgorithm.from_string), read from the PyPI wheels' python/sglang/srt/server_args.py:
# EAGLE, EAGLE3 and NEXTN in 0.4.4.post4 .. 0.5.1.post3; STANDALONE from 0.5.2; NGRAM from 0.5.3
# (0.5.2 lacks it); DFLASH from 0.5.11 (0.5.10.post1 lacks it); 0.5.12 lists them in the help text
# only. DSPARK, UNO and FROZEN_KV_MTP are in no release with choices.
_SGLANG_ALGORITHM_CHOICES_SINCE = {"STANDALONE": "0.5.2", "NGRAM": "0.5.3", "DFLASH": "0.5.11"}
_SGLANG_ALGORITHM_ADDED = {"STANDALONE": "added in 0.5.2", "NGRAM": "added in 0.5.3",
                           "DFLASH": "added in 0.5.11"}
_SGLANG_CHOICES_UNTIL = "0.5.12"


def _sglang_algorithm_not_a_choice(written: str, engine_version: str, python_call: str | None = None) -> list[str]:
    """A --speculative-algorithm (upper-cased) that the release's argparse `choices` lack (a name of
    later releases): argparse exits with 'invalid choice' and the server does not start. Was:
    passed on every release, as the names were checked against the newest release's only. Given
    to a Python call (`sgl.Engine(speculative_algorithm=...)`) no argparse reads it, but the
    release's SpeculativeAlgorithm lacks the same name (spec_info.py in the same wheels): its
    from_string raises (KeyError, later ValueError) and the engine does not start."""
    if (written not in _SGLANG_ALGORITHMS or written in ("EAGLE", "EAGLE3", "NEXTN")
            or not _sglang_surely_before(engine_version, _SGLANG_ALGORITHM_CHOICES_SINCE.get(written,
                                                                                            _SGLANG_CHOICES_UNTIL))):
        return []
    choices = ["EAGLE", "EAGLE3", "NEXTN"] + [name for name, added in _SGLANG_ALGORITHM_CHOICES_SINCE.items()
                                             if not _sglang_surely_before(engine_version, added)]
    added = _SGLANG_ALGORITHM_ADDED.get(written, "only in releases after 0.5.11")
    if python_call:
        return [f"speculative_algorithm={written!r}: SGLang {engine_version} has no such algorithm ({added}; it takes "
                f"{', '.join(choices)}): SpeculativeAlgorithm.from_string raises and {python_call}(...) does not "
                "start (upgrade SGLang)"]
    return [f"--speculative-algorithm {written}: SGLang {engine_version} has no such algorithm ({added}; its argparse "
            f"choices are {', '.join(choices)}): argparse exits with 'invalid choice' and the server does not start "
            "(upgrade SGLang)"]


def refused_draft_word(cfg: LaunchConfig, engine_version: str | None) -> str | None:
    """The abbreviation of `--speculative-draft-model-path` (`--speculative-draft X`, SGLang's own
    early EAGLE commands) that this SGLang release refuses as ambiguous (from 0.5.2, beside
    --speculative-draft-model and --speculative-draft-model-revision; an unknown release is judged
    as the newest, as the refusal is said). argparse exits on it, so no draft is ever loaded: the
    draft checks read no draft path (was: its value still named the draft, and SD103 judged the
    draft or the target named there on a server that never starts)."""
    if cfg.engine != "sglang" or cfg.draft_model is None:
        return None
    aliases = _SGLANG_ALIASES["speculative-draft-model-path"]
    return next((name for name, since in cfg.ambiguous_from.items()
                 if any(alias.startswith(name) for alias in aliases) and _release_at_least(engine_version, since)),
                None)


def _refused_words(cfg: LaunchConfig, refused: list[str]) -> set[str]:
    """The SGLang words of the command that are no option's full name (an abbreviation, or a name
    of no release) and that a refusal names (`--speculative-dflash: ...`, `speculative_dflash=: ...`):
    argparse, or the Python call, stops on them, so they set nothing. The rules' own lookup reads an
    unambiguous prefix as the option it starts (`_lookup`), which the refusal says it is not."""
    if cfg.engine != "sglang":
        return set()
    words = set()
    for name in cfg.flags:
        if name in SGLANG_OPTIONS:
            continue
        heads = (f"--{name}:", f"--{name} ", f"{name.replace('-', '_')}=:")
        if any(line.startswith(heads) for line in refused):
            words.add(name)
    return words


# SGLang's EAGLE worker never loads --speculative-token-map for EAGLE3: the draft's own hot tokens
# (its d2t, `hot_token_id`) map its small vocabulary; the flag only serves EAGLE/NEXTN drafts
# (FR-Spec). sgl-project/sglang python/sglang/srt/speculative/eagle_worker.py `__init__` (0.4.4.post2,
# the first EAGLE3 release, and 0.4.6) and eagle_worker_v2.py `init_token_map` (0.5.23) log the
# warning and set hot_token_id None.
_SGLANG_EAGLE3_TOKEN_MAP_IGNORED = (
    "--speculative-token-map is ignored with EAGLE3: SGLang uses the draft checkpoint's own hot-token map (d2t) "
    "and logs \"Speculative token map specified, but EAGLE3 models already have this. Ignoring the specified token "
    "map.\"; a smaller draft vocabulary needs a draft trained with it")


# Past these, a written setting is a slip (an extra digit, a byte count, a variable filled with
# the wrong value), not a tuning choice. Drafts are trained for a few steps (EAGLE's TTT length
# is 7, eagle/traineagle3/cnets.py; speculators' default is 3); even at 0.95 acceptance per step
# a chain reaches depth 64 in 4% of rounds (0.95 ** 64), while every step costs a draft pass in
# every round. SGLang's EAGLE-2 trees verify about 60 tokens (the EAGLE-2 paper's budget).
MOST_USEFUL_STEPS = 64
_MOST_USEFUL_TOPK = 64
_MOST_USEFUL_DRAFT_TOKENS = 1024


def _beyond_any_use(cfg: LaunchConfig) -> list[str]:
    """Written steps, topk or draft tokens far past any use (was: `--speculative-num-steps
    1000000000` passed the audit silently). Each step is a draft forward pass per round, and
    the engines size per-step buffers by it at startup (SGLang's multi-step draft attention
    backends allocate kv_indptr of [num_steps, max_bs + 1], sgl-project/sglang
    python/sglang/srt/layers/attention/flashinfer_backend.py FlashInferMultiStepDraftBackend),
    so such a server runs out of memory starting, or drafts for nothing."""
    sglang = cfg.engine == "sglang"
    # SGLang NGRAM reads only the draft tokens (ngram_worker.py); vLLM has one number, K
    steps = cfg.num_steps if not (sglang and cfg.algorithm == "NGRAM") else None
    written = [("--speculative-num-steps" if sglang else "num_speculative_tokens", steps, MOST_USEFUL_STEPS,
                "draft passes in every round"),
               ("--speculative-eagle-topk", cfg.topk if sglang else None, _MOST_USEFUL_TOPK,
                "candidates expanded at every step")]
    if not (isinstance(steps, int) and steps > MOST_USEFUL_STEPS):
        # with the steps that far out, the draft tokens are their consequence, said once
        written.append(("--speculative-num-draft-tokens", cfg.num_draft_tokens if sglang else None,
                        _MOST_USEFUL_DRAFT_TOKENS, "tokens verified per request in every round"))
    return [f"{flag} {value} is far past any use (more than {most}): {value} {what}, buffers sized by it at "
            "startup (the server runs out of memory there for a value this large), and no draft is accepted "
            "that deep: a typo? serve the depth the draft was trained for (3 to 8 steps, topk 1 to 8, up to "
            "about 64 draft tokens)"
            for flag, value, most, what in written if isinstance(value, int) and value > most]


# SGLang speculative options by the first release whose argparse has them (python/sglang/srt/
# server_args.py of the PyPI wheels, each the release after the last one read without it; from 0.5.14
# declared as `A[...]` fields, from 0.5.20 in arg_groups/fields/spec.py, all still there in 0.5.23):
# --speculative-attention-mode and --speculative-draft-model-revision 0.5.2 (0.5.1.post3 lacks them),
# --speculative-draft-load-format 0.5.3.post2 (0.5.3.post1 lacks it), --speculative-moe-runner-backend
# 0.5.4.post3 (0.5.4.post2 lacks it), --speculative-moe-a2a-backend 0.5.6.post1 (0.5.6 lacks it),
# --speculative-draft-attention-backend and --speculative-draft-model-quantization 0.5.7 (0.5.6.post2),
# --speculative-adaptive and --speculative-adaptive-config 0.5.11 (0.5.10.post1), and
# --speculative-use-rejection-sampling 0.5.14 (0.5.13.post1). None is a prefix of an older option, so
# an older release cannot read it as an abbreviation: argparse exits with "unrecognized arguments".
# (--enable-multi-layer-eagle: _multi_layer_eagle_chain.)
_SGLANG_SPEC_OPTION_SINCE = {
    "speculative-attention-mode": "0.5.2", "speculative-draft-model-revision": "0.5.2",
    "speculative-draft-load-format": "0.5.3.post2", "speculative-moe-runner-backend": "0.5.4.post3",
    "speculative-moe-a2a-backend": "0.5.6.post1", "speculative-draft-attention-backend": "0.5.7",
    "speculative-draft-model-quantization": "0.5.7", "speculative-adaptive": "0.5.11",
    "speculative-adaptive-config": "0.5.11", "speculative-use-rejection-sampling": "0.5.14"}


def _sglang_has_option(engine_version: str | None, name: str) -> bool:
    """This SGLang release (None: the newest) may have the option; the rules that read it run only
    then (an older release stops at argparse: _sglang_options_too_new)."""
    return engine_version is None or not _sglang_surely_before(engine_version, _SGLANG_SPEC_OPTION_SINCE[name])


def _sglang_options_too_new(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """The speculative options of this command that the running SGLang release does not have yet
    (_SGLANG_SPEC_OPTION_SINCE): argparse stops the server at startup. Nothing when the release is
    unknown (the newest's options) or a source-tree build may hold the option."""
    if cfg.engine != "sglang" or engine_version is None:
        return []
    return [f"--{name}: SGLang {engine_version} has no such option (added in {since}): argparse exits with "
            f"'unrecognized arguments' and the server does not start (upgrade SGLang to {since} or later, or drop "
            "the flag)"
            for name, since in _SGLANG_SPEC_OPTION_SINCE.items()
            if name in cfg.flags and _sglang_surely_before(engine_version, since)]


# SGLang's multi-layer EAGLE by release (the PyPI wheels): 0.5.7 added --enable-multi-layer-eagle
# (0.5.6.post2's server_args.py has no such option); 0.5.7 .. 0.5.12 run the spec-v1
# MultiLayerEagleWorker (multi_layer_eagle_worker.py) or, with overlap, MultiLayerEagleWorkerV2,
# neither of which checks the draft tokens; 0.5.13 dropped the v1 worker, always runs
# MultiLayerEagleWorkerV2 (speculative/spec_info.py `create_worker`) and its draft worker asserts
# draft tokens == steps + 1 (multi_layer_eagle_worker_v2.py, MultiLayerEagleDraftWorker `__init__`;
# the same in 0.5.14 .. 0.5.23).
_SGLANG_MULTI_LAYER_SINCE = "0.5.7"
_SGLANG_MULTI_LAYER_CHAIN_ASSERT_SINCE = "0.5.13"
# Targets SGLang turns multi-layer EAGLE on for itself when the algorithm is EAGLE, flag or not
# (0.5.13-0.5.14 server_args.py `_handle_model_specific_adjustments`, MIMO_V2_MODEL_ARCHS and
# Step3p5ForCausalLM; 0.5.16-0.5.23 arg_groups/overrides.py and model_overrides/mimo_v2.py:
# `enable_multi_layer_eagle = True` when speculative_algorithm == "EAGLE"). 0.5.23 adds GigaChat 3.5
# and Step3p7 targets, not pinned to a release here, so left out.
_SGLANG_MULTI_LAYER_TARGETS = ("MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM", "Step3p5ForCausalLM")


def _sglang_surely_before(version: str, since: str) -> bool:
    """The SGLang build certainly predates the release `since` that added an option: only then is
    the option refused. A pre-release of `since` (0.5.7rc1) counts as it, and a build from the
    source tree (setuptools_scm's 0.5.6.post3.dev120+g...: a build after the 0.5.6.post2 tag) may
    hold what the next release brought: its patch release + 1 is compared (was: both read as
    before 0.5.7, and a tree holding --enable-multi-layer-eagle told the server does not start)."""
    return surely_before(version, since, dev_may_reach="patch")


def _multi_layer_eagle_chain(cfg: LaunchConfig, eff: EffectiveSpec, target_architecture: str | None,
                             engine_version: str | None = None) -> list[str]:
    """SGLang's `--enable-multi-layer-eagle` drafts one linear chain: its draft worker asserts
    `speculative_num_draft_tokens == speculative_num_steps + 1` at startup (sgl-project/sglang
    python/sglang/srt/speculative/multi_layer_eagle_worker_v2.py, MultiLayerEagleDraftWorker
    `__init__`, from 0.5.13, which always runs it; sgl-project/sglang#36536, 0.5.18: the auto-chosen
    (5, 4, 8) of a Llama target fails it). The values checked are the ones that run: topk 1
    already makes the draft tokens steps + 1. A release before 0.5.13 has no such assert and
    starts (its workers draft a tree with topk); one before 0.5.7 has no such option. `engine_version`
    None: the newest releases' rule."""
    if cfg.engine != "sglang":
        return []
    written = bool(_lookup(cfg.flags, ("enable-multi-layer-eagle",)))
    by_target = not written and cfg.algorithm == "EAGLE" and target_architecture in _SGLANG_MULTI_LAYER_TARGETS
    if not (written or by_target):
        return []
    if written and engine_version is not None and _sglang_surely_before(engine_version, _SGLANG_MULTI_LAYER_SINCE):
        return [f"--enable-multi-layer-eagle: SGLang {engine_version} has no such option (added in "
                f"{_SGLANG_MULTI_LAYER_SINCE}): argparse exits with 'unrecognized arguments' and the server does not "
                f"start (upgrade SGLang to {_SGLANG_MULTI_LAYER_SINCE} or later, or drop the flag)"]
    if engine_version is not None and not _release_at_least(engine_version, _SGLANG_MULTI_LAYER_CHAIN_ASSERT_SINCE):
        return []
    steps, tokens = eff.num_steps, eff.num_draft_tokens
    if steps is None or tokens is None or tokens == steps + 1:
        return []
    if eff.auto_chosen and target_architecture is None:
        # SGLang auto-chooses by the target's architecture: (5, 4, 8) for Llama and Grok only,
        # (3, 1, 4), a chain, for the rest from 0.5.8 (_sglang_auto_params), and the MTP targets
        # multi-layer EAGLE is made for are among the rest (MiMo-V2-Flash, Step3.5): with the
        # architecture not read, the (5, 4, 8) assumed is no ground to say the server fails
        return []
    chosen = " (auto-chosen)" if eff.auto_chosen else ""
    asked = (f"--speculative-algorithm EAGLE on a {target_architecture} target (SGLang turns multi-layer EAGLE on "
             "for it)" if by_target else "--enable-multi-layer-eagle")
    return [f"{asked} with {tokens} draft tokens and {steps} steps{chosen}: SGLang's multi-layer "
            f"EAGLE drafts one chain and asserts draft tokens == steps + 1 at startup (\"multi-layer EAGLE requires "
            f"speculative_num_draft_tokens == speculative_num_steps + 1, got {tokens} and {steps}\"): the server does "
            f"not start (set --speculative-eagle-topk 1 and --speculative-num-draft-tokens {steps + 1})"]


# SGLang's algorithm names (sgl-project/sglang python/sglang/srt/speculative/spec_info.py, 0.5.20:
# the SpeculativeAlgorithm members and the NEXTN alias of EAGLE). `from_string` upper-cases the
# name, then looks it up there and among the names plugins register (`SpeculativeAlgorithm.register`),
# else raises "Unknown speculative algorithm name"; releases up to 0.5.11 had argparse `choices`.
_SGLANG_ALGORITHMS = ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM", "DFLASH", "DSPARK", "UNO", "FROZEN_KV_MTP")


def _unknown_algorithm(cfg: LaunchConfig) -> list[str]:
    """An algorithm (SGLang) or method (vLLM) name the engine does not have, with the nearest one
    it has: a typo (`EAGEL3`, `"eagle-3"`) stops the server at startup. Said as what the engine
    does unless a plugin adds the name, since plugins can (SGLang `SpeculativeAlgorithm.register`,
    vLLM platform plugins such as vllm-ascend's methods)."""
    if cfg.engine == "sglang":
        name = cfg.algorithm
        if not name or name in _SGLANG_ALGORITHMS:
            return []
        written = _str_flag(cfg.flags, _SGLANG_ALIASES["speculative-algorithm"]) or name
        hint = ("SGLang serves a model's own MTP layers as NEXTN" if name in ("MTP", "DEEPSEEK_MTP") else
                _did_you_mean(name, _SGLANG_ALGORITHMS))
        return [f"--speculative-algorithm {written} is none of SGLang's algorithms ({', '.join(_SGLANG_ALGORITHMS)}): "
                f"SGLang exits with \"Unknown speculative algorithm name: {written}\" (argparse's 'invalid choice' up "
                f"to 0.5.11) unless a plugin registers that name; {hint}"]
    method = (cfg.speculative_config or {}).get("method")
    if not isinstance(method, str) or not method:
        return []
    lower = method.lower()
    if lower in _VLLM_METHODS or lower.endswith("_mtp") or lower == "[ngram]" or lower in _VLLM_PLUGIN_METHODS:
        return []
    return [f"--speculative-config \"method\": \"{method}\" is none of vLLM's methods ({', '.join(_VLLM_METHODS)}, "
            "or a model's *_mtp name): SpeculativeConfig refuses it at startup unless a platform plugin adds it; "
            + _did_you_mean(lower, _VLLM_METHODS, quoted=True)]


# Methods that a published vLLM plugin registers, served as documented with the plugin installed:
# ArcticInference's LSTM/MLP speculators, `"method": "arctic"` (snowflakedb/ArcticInference
# docs/spec-decode.rst; the `arctic_inference` general plugin patches vLLM's SpeculativeConfig).
# Calling them refused at startup would be a false SD102 on the plugin's own documented command.
_VLLM_PLUGIN_METHODS = ("arctic",)


# vLLM's own `--speculative-*` options besides --speculative-config: V0's (0.6/0.7
# vllm/engine/arg_utils.py), dropped in 0.8.3 with --speculative-model (judged by release above).
_VLLM_V0_SPECULATIVE = ("speculative-model", "speculative-model-quantization", "speculative-disable-mqa-scorer",
                        "speculative-draft-tensor-parallel-size", "speculative-max-model-len",
                        "speculative-disable-by-batch-size")
# vLLM's speculative options that SGLang's parser has no option for (none is a prefix of one of
# SGLang's, so argparse cannot read them as abbreviations either).
_VLLM_ONLY_SPECULATIVE = ("speculative-config", "num-speculative-tokens", "spec-method", "spec-model", "spec-tokens")


# SGLang's parallel sizes, which vLLM spells out (-tp, --tensor-parallel-size ...): none is a
# prefix of a vLLM option (0.33.0 vllm/engine/arg_utils.py), so argparse cannot expand them.
_SGLANG_ONLY_PARALLEL = {"tp-size": "tensor-parallel-size (-tp)", "pp-size": "pipeline-parallel-size (-pp)",
                         "dp-size": "data-parallel-size (-dp)", "ep-size": "enable-expert-parallel"}


def _other_engines_flags(cfg: LaunchConfig) -> list[str]:
    """The other engine's speculative flags (SGLang's --speculative-algorithm on `vllm serve`,
    vLLM's --speculative-config on sglang.launch_server): the parser has no such option and
    exits with "unrecognized arguments", and were it ignored the server would not speculate.
    The audit read them as no speculation at all and said nothing."""
    names = [name for name in cfg.flags if not name.startswith("-")]
    if cfg.engine == "vllm":
        sglang = {alias for aliases in _SGLANG_ALIASES.values() for alias in aliases} | set(_SGLANG_OTHER_OPTIONS)
        foreign = [n for n in names if n.startswith("speculative-") and n.partition(".")[0] != "speculative-config"
                   and n not in _VLLM_V0_SPECULATIVE]
        return [f"--{n}: vLLM has no such option ({'it is SGLang' + chr(39) + 's' if n in sglang else 'not one of its options'}): "
                "argparse exits with 'unrecognized arguments' and the server does not start; vLLM takes its speculative "
                "settings in --speculative-config '{\"method\": ..., \"model\": DRAFT, \"num_speculative_tokens\": K}'"
                for n in foreign] + [
            f"--{n}: vLLM has no such option (it is SGLang's): argparse exits with 'unrecognized arguments' and "
            f"the server does not start; vLLM's is --{long}" for n, long in _SGLANG_ONLY_PARALLEL.items() if n in names]
    foreign = [n for n in names if n.partition(".")[0] in _VLLM_ONLY_SPECULATIVE]
    return [f"--{n} is vLLM's option, and SGLang has none by that name: argparse exits with 'unrecognized arguments' "
            "and the server does not start; SGLang takes --speculative-algorithm, --speculative-draft-model-path, "
            "--speculative-num-steps, --speculative-eagle-topk and --speculative-num-draft-tokens"
            for n in foreign]


# Every `--speculative-*` option string SGLang has had (sglang_options; a name none of them starts
# is one no release read takes).
_SGLANG_SPECULATIVE_OPTIONS = frozenset(option for option in SGLANG_OPTIONS if option.startswith("speculative-"))
# the first release after the newest read, which may add one
_SGLANG_OPTIONS_READ_BEFORE = "0.5.24"


_SGLANG_SPECULATIVE_SUFFIXES = tuple(sorted(option.removeprefix("speculative-")
                                            for option in _SGLANG_SPECULATIVE_OPTIONS))
_SGLANG_HELP = "python -m sglang.launch_server --help"


def _option_names(args: list[str], spelled: Callable[[str], str] = str) -> Iterator[str]:
    """The option names of a server's `--word` / `--word=value` arguments, each once, as the parser
    reads them (`spelled`: vLLM's reads `_` as `-`), up to argparse's end of options `--`
    (_refuse_flags_after_end_marker says what follows). Left out: a word with an unexpanded `$`
    (its name is not known here) and names no parser would take for an option name."""
    seen = set()
    for word in args:
        if word == "--":
            break
        name = spelled(word[2:].partition("=")[0]) if word.startswith("--") else ""
        if not name or name in seen or "$" in word or not re.fullmatch(r"[A-Za-z0-9][\w.-]*", name):
            continue
        seen.add(name)
        yield name


def _unknown_option_hint(name: str, options: tuple[str, ...], help_command: str, prefix: str = "") -> str:
    """How a line refusing an unknown `--{prefix}{name}` ends: the nearest of the sorted `options`
    (compared without `prefix`) as a flag to write, or where the options are listed."""
    nearest = _did_you_mean(name, options)
    if nearest.startswith("did you mean"):
        return nearest.replace("did you mean ", f"did you mean --{prefix}")
    return f"drop it, or write an option `{help_command}` lists"


def _unknown_sglang_option(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """A `--speculative-*` word no SGLang release has, nor abbreviates (argparse's allow_abbrev:
    a prefix of an option is read as it): a typo such as `--speculative-num-stepz 5` makes argparse
    exit with "unrecognized arguments" (CPython Lib/argparse.py parse_args) and the server does not
    start. Was read as a flag of its own and said nothing. A release after the newest read may
    have the option: not judged there."""
    if cfg.engine != "sglang" or (engine_version is not None
                                  and not _sglang_surely_before(engine_version, _SGLANG_OPTIONS_READ_BEFORE)):
        return []
    unknown = [name for name in cfg.flags if name.startswith("speculative-")
               and not any(option.startswith(name) for option in _SGLANG_SPECULATIVE_OPTIONS)
               and name.partition(".")[0] not in _VLLM_ONLY_SPECULATIVE]  # _other_engines_flags says those
    lines = []
    for name in unknown:
        # compared after the shared `speculative-`, which alone would make every option look near
        lines.append(f"--{name}: SGLang has no such option (nor one it abbreviates, in any release from 0.4.4 to "
                     "0.5.23): argparse exits with 'unrecognized arguments' and the server does not start; "
                     + _unknown_option_hint(name.removeprefix("speculative-"), _SGLANG_SPECULATIVE_SUFFIXES,
                                            _SGLANG_HELP, prefix="speculative-"))
    return lines


# vLLM's names for settings SGLang spells its own way, copied from `vllm serve` commands: the
# SGLang option that sets the same thing (server_args.py help: --context-length "The model's
# maximum context length", --mem-fraction-static "The fraction of the memory used for static
# allocation (model weights and KV cache memory pool)", --max-running-requests, --disable-cuda-graph).
_VLLM_NAMES_ON_SGLANG = {"max-model-len": "context-length", "gpu-memory-utilization": "mem-fraction-static",
                         "max-num-seqs": "max-running-requests", "enforce-eager": "disable-cuda-graph"}


def _unknown_sglang_flag(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """A `--word` on `python -m sglang.launch_server` / `sglang serve` that no option of SGLang's
    parser starts with, in any release read (sglang_options: argparse's allow_abbrev reads a
    prefix of an option as it): `--tp-sise 2`, `--mem_fraction_static 0.8` (SGLang takes dashes
    only), vLLM's `--max-model-len`. argparse exits with "unrecognized arguments" (CPython
    Lib/argparse.py parse_args) and the server does not start; the audit read the word as a flag
    of its own and said nothing. The `--speculative-*` words are _unknown_sglang_option's, vLLM's
    speculative ones _other_engines_flags'. Only SGLang's own programs: Dynamo's worker and the
    router add options of their own. A release after the newest read may have the option: not
    judged there, and where the release is not known the line says the newer ones may."""
    if cfg.engine != "sglang" or (engine_version is not None and (
            not _sglang_surely_before(engine_version, _SGLANG_OPTIONS_READ_BEFORE)
            or _sglang_surely_before(engine_version, "0.4.4"))):  # (older ones were not read)
        return []
    program, args = _program_and_args(cfg)
    if not (program in ("sglang.launch_server", "sglang.launch_server.py", "serve")
            or (program.rsplit("/", 1)[-1] == "launch_server.py" and "sglang_router" not in program)):
        return []
    lines = []
    neighbours = _sglang_neighbours(engine_version)
    for name in _option_names(args):
        spelled = name.replace("_", "-")
        if (spelled.partition(".")[0] in _VLLM_ONLY_SPECULATIVE or spelled.startswith("enable-multi-layer-eagle")
                # (said by _multi_layer_eagle_chain; of the speculative ones, a name no release has by
                # _unknown_sglang_option, one a later release added by _sglang_options_too_new, an
                # abbreviation later releases refuse by _ambiguous_problem: the others, an option some
                # releases have, are judged here, as --speculative-dflash-draft-window-size)
                or (spelled.startswith("speculative-") and (
                    name != spelled or name in _SGLANG_SPEC_OPTION_SINCE or name in cfg.ambiguous_from
                    or not _starts_an_option(name, _SGLANG_OPTIONS_SORTED)))):
            continue
        if _starts_an_option(name, _SGLANG_OPTIONS_SORTED):
            fates = {_sglang_fate(name, release) for release in neighbours} if neighbours else {None}
            if None in fates:
                continue
            retired = SGLANG_RETIRED_OPTIONS.get(name)
            replaced = (f"write {retired} instead (SGLang's own deprecation of --{name} names it)"
                        if retired and _starts_an_option(retired.lstrip("-").split()[0].split("=")[0],
                                                         _sglang_release_options(engine_version) or ())
                        else None)
            if fates == {"refused"}:
                lines.append(f"--{name}: SGLang {engine_version} keeps it only to refuse it (a retired option whose "
                             "action stops the parse with its deprecation note): the server does not start; "
                             + (replaced or "drop it"))
                continue
            if len(fates) > 1:
                # a release between two read ones that take it differently: refused either way
                said = {"unknown": "has no such option", "refused": "refuses it as retired",
                        "ambiguous": "reads it as an ambiguous abbreviation"}
                lines.append(f"--{name}: SGLang {engine_version} refuses it at startup ("
                             + ", ".join(f"{release} {said[_sglang_fate(name, release)]}" for release in neighbours)
                             + "): the server does not start; " + (replaced or "drop it"))
                continue
            if fates == {"ambiguous"}:
                matches = ["--" + m for m in dict.fromkeys(sorted(
                    option for release in neighbours for option in SGLANG_OPTIONS_BY_RELEASE[release]
                    if option.startswith(name)))]
                lines.append(f"--{name}: SGLang {engine_version} has no such option"
                             + (" any more" if retired else "") + ", and argparse reads it as an abbreviation of "
                             f"{', '.join(matches[:-1])} and {matches[-1]}: it exits with 'ambiguous option' and the "
                             "server does not start; " + (replaced or "write the option in full"))
                continue
            # an option of other releases: SGLang's docs name the newest release's
            having = [release for release in SGLANG_OPTIONS_RELEASES
                      if any(option.startswith(name) for option in SGLANG_OPTIONS_BY_RELEASE[release])]
            lines.append(f"--{name}: SGLang {engine_version} has no such option (nor one it abbreviates; the "
                         f"releases read that have it: {having[0]} .. {having[-1]}): argparse exits with "
                         "'unrecognized arguments' and the server does not start; "
                         + ("upgrade SGLang, or drop it" if version_key(having[0]) > version_key(engine_version)
                            else replaced or f"drop it, or write the option `{_SGLANG_HELP}` lists"))
            continue
        vllm_name = _VLLM_NAMES_ON_SGLANG.get(name.replace("_", "-"))
        newer = "" if engine_version else (
            f", unless the server runs a release after {SGLANG_OPTIONS_RELEASES[-1]} that added it")
        lines.append(f"--{name}: SGLang has no such option (nor one it abbreviates, in any release from "
                     f"{SGLANG_OPTIONS_RELEASES[0]} to {SGLANG_OPTIONS_RELEASES[-1]}): argparse exits with "
                     f"'unrecognized arguments' and the server does not start{newer}; "
                     + (f"it is vLLM's; SGLang's is --{vllm_name}" if vllm_name
                        else _unknown_option_hint(name, _SGLANG_OPTIONS_SORTED, _SGLANG_HELP)))
    return lines


_SGLANG_OPTIONS_SORTED = tuple(sorted(SGLANG_OPTIONS))


def _program_and_args(cfg: LaunchConfig) -> tuple[str, list[str]]:
    """The word that names the server's program (`serve`, `sglang.launch_server`, an image) and the
    server's own arguments after it; ("", []) where detect_engine finds none."""
    argv = list(cfg.argv)
    try:
        _engine, start = detect_engine(argv)
    except LaunchParseError:
        return "", []
    return (argv[start - 1] if start else ""), argv[start:]


# SGLang's names for settings vLLM spells its own way, copied from SGLang commands (the inverse of
# _VLLM_NAMES_ON_SGLANG; SGLang's --model-path is vLLM's --model or the positional MODEL)
_SGLANG_NAMES_ON_VLLM = {"context-length": "max-model-len", "mem-fraction-static": "gpu-memory-utilization",
                         "max-running-requests": "max-num-seqs", "disable-cuda-graph": "enforce-eager",
                         "model-path": "model"}
# the programs whose parser is `vllm serve`'s (vllm/entrypoints/cli/serve.py, and the OpenAI server's
# own __main__, both `make_arg_parser`); the vllm/vllm-openai image runs `vllm serve`
_VLLM_SERVE_PROGRAMS = ("serve", "vllm.entrypoints.openai.api_server")


def _unknown_vllm_flag(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """A `--word` on `vllm serve` that no option of its parser starts with (vllm_options: the
    options of the releases read; FlexibleArgumentParser keeps argparse's allow_abbrev and reads
    `_` as `-`): `--max-model-lenn 4096`, SGLang's `--context-length`. argparse exits with
    "unrecognized arguments" (CPython Lib/argparse.py parse_args) and the server does not start;
    the audit read the word as a flag of its own and said nothing. An error on a release read (or
    one between two read ones of the same minor line); a warning where the release is not known or
    falls between two releases read further apart, which may have had the option; not judged before
    the oldest read, after the newest, nor for a pre-release or a source build. The speculative
    words and SGLang's parallel sizes are _other_engines_flags'; KServe's, TRL's and Dynamo's
    servers have parsers of their own."""
    if cfg.engine != "vllm":
        return []
    options = _vllm_judged_options(engine_version)
    if options is None or (engine_version is None and any(
            name in _VLLM_V0_SPECULATIVE or name in _VLLM_V0_FLAGS for name in cfg.flags)):
        # (V0's speculative flags: a release before 0.8.3, older than the ones read)
        return []
    known, sorted_options, neighbours = options
    program, args = _program_and_args(cfg)
    if program not in _VLLM_SERVE_PROGRAMS and not re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", program):
        return []
    lines = []
    # FlexibleArgumentParser reads `_` as `-`, and `--NAME.KEY` as a key of --NAME
    for name in _option_names(args, lambda name: name.replace("_", "-").partition(".")[0]):
        if (name.startswith("speculative-") or name in _VLLM_V0_SPECULATIVE or name in _VLLM_V0_FLAGS
                or name in _SGLANG_ONLY_PARALLEL):
            continue
        if _starts_an_option(name, sorted_options):
            # a prefix of several options of the release (`--quant awq`: --quantization and
            # --quantization-config) is argparse's "ambiguous option"; judged where the release is
            matches = [sorted(o for o in VLLM_OPTIONS_BY_RELEASE[release] if o.startswith(name))
                       for release in neighbours] if known else []
            if matches and all(len(each) > 1 and name not in each for each in matches):
                every = ["--" + o for o in dict.fromkeys(sorted(o for each in matches for o in each))]
                lines.append(f"--{name}: vLLM {engine_version} has no such option, and argparse reads it as an "
                             f"abbreviation of {', '.join(every[:-1])} and {every[-1]}: it exits with 'ambiguous "
                             "option' and the server does not start; write the option in full")
            continue
        sglang_name = _SGLANG_NAMES_ON_VLLM.get(name)
        if known:
            release = f"vLLM {engine_version} has no such option (nor one it abbreviates)"
            unless = ""
        else:
            release = (f"vLLM has no such option (nor one it abbreviates, in the releases read: "
                       f"{', '.join(VLLM_OPTIONS_RELEASES)})")
            unless = (f", unless the server runs a release that has it (one before {VLLM_OPTIONS_RELEASES[0]}, or "
                      "after the newest read)" if engine_version is None
                      else f", unless vLLM {engine_version} has it (a release not read)")
        lines.append(f"--{name}: {release}: argparse exits with 'unrecognized arguments' and the server does not "
                     f"start{unless}; "
                     + (f"it is SGLang's; vLLM's is --{sglang_name}" if sglang_name
                        else _unknown_option_hint(name, sorted_options, "vllm serve --help=all")))
    return lines


@functools.lru_cache(maxsize=64)
def _vllm_judged_options(version: str | None) -> tuple[bool, tuple[str, ...], tuple[str, ...]] | None:
    """(whether the release's own options are known, the sorted options a word is judged by, the
    releases read they are the options of) for _unknown_vllm_flag: a release read, or one between
    two read ones of the same minor line (0.33.2), is judged by theirs; the release not known, or
    one further between, by every release read's; None for a release outside them, a pre-release or
    a source build (not judged)."""
    every = (False, tuple(sorted(VLLM_OPTIONS_READ)), VLLM_OPTIONS_RELEASES)
    if version is None:
        return every
    if not re.fullmatch(r"\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?", version):
        return None
    key = version_key(version)
    below = [release for release in VLLM_OPTIONS_RELEASES if version_key(release) <= key]
    above = [release for release in VLLM_OPTIONS_RELEASES if version_key(release) >= key]
    if not below:
        return None
    if not above:
        # a patch of the newest release read (0.34.1) may add an option: said as a warning; a later
        # minor is not judged
        return every if version.split(".")[:2] == below[-1].split(".")[:2] else None
    if below[-1] == above[0] or below[-1].split(".")[:2] == version.split(".")[:2]:
        neighbours = tuple(dict.fromkeys((below[-1], above[0])))
        return True, tuple(sorted(frozenset().union(*(VLLM_OPTIONS_BY_RELEASE[r] for r in neighbours)))), neighbours
    return every


def _starts_an_option(name: str, options: tuple[str, ...]) -> bool:
    """An option of the sorted `options` is `name` or starts with it (argparse's allow_abbrev):
    those sort right at or after `name`."""
    at = bisect.bisect_left(options, name)
    return at < len(options) and options[at].startswith(name)


@functools.lru_cache(maxsize=64)
def _sglang_neighbours(version: str | None) -> tuple[str, ...] | None:
    """For a plain SGLang release (0.5.6, 0.5.6.post2) between the oldest and the newest read: the
    release read at or before it and the one at or after it (one, when it was read); a release
    between two read ones may have either's options. None when that is not known."""
    if version is None or not re.fullmatch(r"\d+\.\d+\.\d+(?:\.post\d+)?", version):
        return None
    key = version_key(version)
    below = [release for release in SGLANG_OPTIONS_RELEASES if version_key(release) <= key]
    above = [release for release in SGLANG_OPTIONS_RELEASES if version_key(release) >= key]
    if not below or not above:
        return None
    return tuple(dict.fromkeys((below[-1], above[0])))


@functools.lru_cache(maxsize=64)
def _sglang_release_options(version: str | None) -> tuple[str, ...] | None:
    """The options a plain SGLang release may have (those of _sglang_neighbours together), sorted;
    None when that is not known."""
    neighbours = _sglang_neighbours(version)
    if neighbours is None:
        return None
    return tuple(sorted(frozenset().union(*(SGLANG_OPTIONS_BY_RELEASE[release] for release in neighbours))))


@functools.lru_cache(maxsize=256)
def _sglang_fate(name: str, release: str) -> str | None:
    """What the parser of an SGLang release read does with `--name` (argparse's allow_abbrev: a
    prefix of one option is read as it, CPython Lib/argparse.py `_parse_optional`): None (taken),
    "unknown" (no option starts with it: 'unrecognized arguments'), "refused" (its option's
    deprecated action stops the server, SGLANG_REFUSED_OPTIONS_BY_RELEASE), "ambiguous" (not an
    option, and two or more start with it: 'ambiguous option', also for two aliases of one option,
    as the retired --cuda-graph-max-bs is a prefix of --cuda-graph-max-bs-decode and -prefill from
    0.5.20, or `--pp` of --pp-size and --pp-max-micro-batch-size)."""
    options = SGLANG_OPTIONS_BY_RELEASE[release]
    matches = [name] if name in options else [option for option in options if option.startswith(name)]
    if not matches:
        return "unknown"
    if len(matches) > 1:
        return "ambiguous"
    return "refused" if matches[0] in SGLANG_REFUSED_OPTIONS_BY_RELEASE.get(release, ()) else None


def _did_you_mean(name: str, known: tuple[str, ...], *, quoted: bool = False) -> str:
    # compared without separators, so `eagle-3` and `EAGLE_3` find eagle3
    bare = {re.sub(r"[-_ ]", "", k.lower()): k for k in known}
    close = difflib.get_close_matches(re.sub(r"[-_ ]", "", name.lower()), list(bare), n=1, cutoff=0.6)
    if not close:
        return "write one of those names"
    best = bare[close[0]]
    return f"did you mean {json.dumps(best) if quoted else best}?"


# SGLang declared --speculative-eagle-topk with `choices=[1, 2, 4, 8]` in every release that had it
# up to 0.4.3.post4 (the option's `--help` reads `{1,2,4,8}`, sgl-project/sglang#3883); sgl-project/sglang#4329
# dropped the choices for 0.4.4 (server_args.py of the PyPI wheels).
_SGLANG_OLD_TOPK_CHOICES = (1, 2, 4, 8)
_SGLANG_ANY_TOPK_SINCE = "0.4.4"


# SGLang's first release with EAGLE-3: sgl-project/sglang#4247 ("Support EAGLE 3": the EAGLE3
# algorithm, aux hidden-state capture, llama_eagle3.py) was merged after 0.4.4.post1 and shipped by
# #4669 ("bump v0.4.4.post2 ... for EAGLE 3"). Before it EAGLE3 was not among the upper-case
# argparse `choices` of --speculative-algorithm (choices kept up to 0.5.11, see below). The engine
# table's constant, so the layer check (engines.eagle3_release_failure) tells the same story.
_SGLANG_EAGLE3_SINCE = SGLANG_EAGLE3


# Said of a refusal that depends on the release when the release is not known: an abbreviation
# older releases read (`--speculative-draft`) starts a server older than the release that refuses it.
RELEASE_UNKNOWN = "; the SGLang release is unknown here (`pip show sglang` where the server runs, or its image tag, says it)"


# The dataclass an engine call hands its keyword arguments to: vLLM's LLM(model, ..., **kwargs)
# builds EngineArgs(model=model, ..., **kwargs) (vllm/entrypoints/llm.py), SGLang's
# Engine(**kwargs) builds ServerArgs(**kwargs) (python/sglang/srt/entrypoints/engine.py
# `Engine.__init__`: `self.server_args_class(**kwargs)`).
# Ray Serve LLM's LLMConfig(engine_kwargs=...) is handed to vLLM when a replica starts:
# `AsyncEngineArgs(**engine_config.get_initialization_kwargs())` (ray python/ray/llm/_internal/
# serve/deployments/llm/vllm/vllm_engine.py `_get_vllm_engine_config`).
_KEYWORDS_TAKEN_BY = {"LLM": "EngineArgs", "Engine": "ServerArgs", _RAY_LLM_CONFIG: "AsyncEngineArgs"}
_KEYWORDS_GIVEN_BY = {_RAY_LLM_CONFIG: "the Ray Serve replica's AsyncEngineArgs(**engine_kwargs)"}
# How the flag checks word argparse's refusal of a word: an unknown one, an abbreviation of several
_ARGPARSE_UNRECOGNIZED = "argparse exits with 'unrecognized arguments' and the server does not start"
_ARGPARSE_AMBIGUOUS = re.compile(r"^--(\S+?):? (?:is ambiguous|\S+ \S+ has no such option).*?exits with "
                                 r"'ambiguous option' and the server does not start")


def _type_error(keyword: str, call: str) -> str:
    given_by = _KEYWORDS_GIVEN_BY.get(call, f"{call}(...)")
    return (f"{given_by} raises TypeError ({_KEYWORDS_TAKEN_BY.get(call, call)}.__init__() got an unexpected "
            f"keyword argument '{keyword}') and the engine does not start")


def _no_such_field(name: str, call: str, starts: list[str] | tuple[str, ...] = ()) -> str:
    """A keyword argument that argparse would read as an abbreviation (`--{name}`): it names a
    field whole, on every release. `starts`: the options it starts (without dashes); where there
    are several, which field was meant is not known here, so they are named (at most six)."""
    keyword = name.replace("-", "_")
    cli_only = _SGLANG_CLI_ONLY_NAMES if _KEYWORDS_TAKEN_BY.get(call) == "ServerArgs" else _VLLM_CLI_ONLY_NAMES
    starts = [option for option in starts if option not in cli_only]
    named = ["--" + option for option in starts[:6]] + ([f"{len(starts) - 6} more"] if len(starts) > 6 else [])
    return (f"{keyword}=: {_KEYWORDS_TAKEN_BY.get(call, call)} has no field by that name (a keyword argument is "
            f"never read as an abbreviation, as argparse reads `--{name}`): {_type_error(keyword, call)}; write the "
            "field's full name" + (f" (it starts the options {', '.join(named[:-1])} and {named[-1]})"
                                   if len(starts) > 1 else ""))


# the options an ambiguous-abbreviation line names: "... an abbreviation of --a, --b and --c: it
# exits" (_unknown_vllm_flag, _unknown_sglang_flag), "(it could match --a, --b)" (_ambiguous_problem)
_AMBIGUOUS_MATCHES = re.compile(r"(?:an abbreviation of|it could match) (--[\w.-]+(?:(?:, | and )--[\w.-]+)*)")


def _as_keyword_refusal(line: str, call: str) -> str:
    """A refusal of a launch word, said of the same name given to a Python engine call as a
    keyword argument (`sgl.Engine(speculative_num_stepz=3)`, `LLM(..., max_model_lenn=4096)`):
    the dataclass the call builds has no field by that name, so Python raises TypeError
    ("... got an unexpected keyword argument") and the engine does not start; no argparse reads
    it, so neither does an abbreviation of a field name stand for the field. Was: "argparse exits
    with 'unrecognized arguments'", which such a script never prints. Other lines unchanged."""
    m = re.match(r"--([A-Za-z0-9][\w.-]*)", line)
    if m is None:
        return line
    name = m.group(1)
    keyword = name.replace("-", "_")
    takes = _KEYWORDS_TAKEN_BY.get(call, call)
    if _ARGPARSE_AMBIGUOUS.match(line):
        matches = _AMBIGUOUS_MATCHES.search(line)
        return _no_such_field(name, call, re.findall(r"--([\w.-]+)", matches.group(1)) if matches else ())
    type_error = _type_error(keyword, call)
    if _ARGPARSE_UNRECOGNIZED not in line:
        return line
    said = re.sub(r"(did you mean |vLLM's is |SGLang's is )--([\w-]+)",
                  lambda w: w.group(1) + w.group(2).replace("-", "_"),
                  line[m.end():].replace(_ARGPARSE_UNRECOGNIZED, type_error))
    said = re.sub(r"drop it, or write (?:an|the) option `([^`]+) --help(?:=all)?` lists",
                  lambda w: f"drop it, or write a field {takes} has (`{w.group(1)} --help` lists them as options)",
                  said)
    if "'s own deprecation of --" in said:
        # the option a retired one's deprecation names, said as the call's keyword (was: "write
        # --speculative-draft-window-size instead", a command-line flag, to a Python call)
        said = re.sub(r"write (--.+?) instead \(SGLang's own", lambda w: f"write {_as_keyword(w.group(1))} instead "
                      "(SGLang's own", said)
    return ((f"{keyword}=" if said.startswith(":") else keyword) + said.replace(" no such option (nor one it abbreviates, ", " no such setting (")
            .replace(" no such option (nor one it abbreviates)", " no such setting")
            .replace(" no such option", " no such setting").replace("unless the server runs", "unless it runs"))


def _as_keyword(replacement: str) -> str:
    """The replacement a deprecation note gives as a command-line option (`--attention-backend
    flashinfer`, `--cuda-graph-backend-prefill=breakable`, `--speculative-draft-window-size`),
    said as an engine call's keyword: `attention_backend="flashinfer"`, `speculative_draft_window_size=`;
    in a longer note (`--ep-size set to the --tp-size value`) the options are said as their fields."""
    whole = re.fullmatch(r"--([a-z0-9-]+)(?:[ =]([\w.-]+))?", replacement)
    if whole is not None:
        field = whole.group(1).replace("-", "_")
        return f'{field}="{whole.group(2)}"' if whole.group(2) else f"{field}="
    return re.sub(r"--([a-z0-9][a-z0-9-]*)", lambda w: w.group(1).replace("-", "_"), replacement)


def _keyword_abbreviations(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """The keyword arguments of a Python engine call that are no option of any release read but
    start one (`sgl.Engine(..., speculative_eagle_top=4)`, `LLM(..., max_model=4096)`): argparse
    would read `--speculative-eagle-top` as --speculative-eagle-topk, but a keyword argument names
    a dataclass field whole, so Python raises TypeError and the engine does not start. Was: read as
    the option it starts, and nothing said. Judged where the flag checks judge a release's words."""
    if not cfg.python_call:
        return []
    if cfg.engine == "sglang":
        if engine_version is not None and (not _sglang_surely_before(engine_version, _SGLANG_OPTIONS_READ_BEFORE)
                                           or _sglang_surely_before(engine_version, "0.4.4")):
            return []
        options: frozenset[str] | tuple[str, ...] = SGLANG_OPTIONS
        ordered = _SGLANG_OPTIONS_SORTED
        # the options a name may have meant: the release's, where it is known
        listed = _sglang_release_options(engine_version) or ordered
    elif (judged := _vllm_judged_options(engine_version)) is not None:
        options = VLLM_OPTIONS_READ
        ordered = _VLLM_OPTIONS_READ_SORTED
        listed = judged[1]
    else:
        # a release not read: only a name that starts several options every release this module
        # spells has (`max_num`: --max-num-seqs, --max-num-batched-tokens), kept as written by
        # _vllm_full_name; it is no field of any release (which ones the release has is not known)
        options, ordered, listed = _VLLM_OPTIONS, _VLLM_OPTIONS_SORTED, ()
    lines = []
    # the names as the call wrote them (cfg.flags holds vLLM's abbreviations already expanded)
    for name in dict.fromkeys(word[2:] for word in _program_and_args(cfg)[1] if word.startswith("--")):
        if name in options or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name) or not _starts_an_option(name, ordered):
            continue
        if not listed and sum(option.startswith(name) for option in ordered) < 2:
            continue
        starts = listed[bisect.bisect_left(listed, name):bisect.bisect_left(listed, name + "\x7f")]
        lines.append(_no_such_field(name, cfg.python_call, starts))
    return lines


_VLLM_OPTIONS_READ_SORTED = tuple(sorted(VLLM_OPTIONS_READ))
_VLLM_OPTIONS_SORTED = tuple(sorted(_VLLM_OPTIONS))


# SGLang options that only the command line has: another name of a ServerArgs field, which a
# keyword argument of Engine(...) / ServerArgs(...) cannot use. server_args.py declares
# `model_path: A[str, Arg(..., aliases=["--model"])]`, `speculative_draft_model_path: ...
# aliases=["--speculative-draft-model"]`, and arg_groups/fields/parallel.py `tp_size` ...
# `aliases=["--tensor-parallel-size"]` (likewise pp_size, dp_size, ep_size with "--ep", dcp_size,
# attn_cp_size, moe_dp_size, dist_init_addr with "--nccl-init-addr"); releases before the
# dataclass-derived parser folded the long names back in ServerArgs.from_cli_args
# (`args.tp_size = args.tensor_parallel_size`, ...), so the fields kept these names throughout.
_SGLANG_CLI_ONLY_NAMES = {
    "model": "model_path", "speculative-draft-model": "speculative_draft_model_path",
    "tensor-parallel-size": "tp_size", "pipeline-parallel-size": "pp_size", "data-parallel-size": "dp_size",
    "expert-parallel-size": "ep_size", "ep": "ep_size", "decode-context-parallel-size": "dcp_size",
    "attention-context-parallel-size": "attn_cp_size", "moe-data-parallel-size": "moe_dp_size",
    "nccl-init-addr": "dist_init_addr",
}


def _keyword_cli_aliases(cfg: LaunchConfig) -> list[str]:
    """The keyword arguments of an SGLang engine call that name a setting by its command-line
    alias (`sgl.Engine(model="meta-llama/...")`): `--model` is --model-path on the command line,
    but Engine(**kwargs) builds ServerArgs(**kwargs), which has no field `model`, so Python raises
    TypeError and the engine does not start. Was: read as --model-path, and nothing said."""
    if not cfg.python_call:
        return []
    names = _SGLANG_CLI_ONLY_NAMES if cfg.engine == "sglang" else _VLLM_CLI_ONLY_NAMES
    lines = []
    for name in dict.fromkeys(word[2:] for word in _program_and_args(cfg)[1] if word.startswith("--")):
        field = names.get(name)
        if field is None:
            continue
        keyword = name.replace("-", "_")
        said = f"-{name}" if cfg.engine == "vllm" else f"--{name}"
        lines.append(f"{keyword}=: {_KEYWORDS_TAKEN_BY.get(cfg.python_call, cfg.python_call)} has no field by that "
                     f"name (`{said}` is only the command line's other name of --{field.replace('_', '-')}): "
                     f"{_type_error(keyword, cfg.python_call)}; write {field}=")
    return lines


# vLLM's one-dash short aliases of the options read here (`-tp`, `-pp`, `-sc`): vllm/engine/
# arg_utils.py EngineArgs.add_cli_args adds them as other option strings of the field's
# `--tensor-parallel-size` ..., while EngineArgs (the dataclass LLM(**kwargs) builds) has only
# the fields `tensor_parallel_size`, `pipeline_parallel_size`, `speculative_config`.
_VLLM_CLI_ONLY_NAMES = {alias: key.replace("-", "_") for key, aliases in _VLLM_ALIASES.items()
                        for alias in aliases if alias != key}


def _ambiguous_problem(name: str, since: str) -> str:
    options = {alias for aliases in _SGLANG_ALIASES.values() for alias in aliases} | set(_SGLANG_OTHER_OPTIONS)
    matches = ", ".join("--" + m for m in sorted(o for o in options if o.startswith(name)))
    return (f"--{name} is ambiguous from SGLang {since} on (it could match {matches}): argparse exits with "
            f"'ambiguous option' and the server does not start; releases before {since} read it as "
            f"--{next(m for m in sorted(options) if m.startswith(name) and m not in _SGLANG_OPTION_SINCE)} "
            f"(write that flag in full)")


# vLLM methods that need no draft model in --speculative-config (vllm/config/speculative.py
# `__post_init__`: mtp and dspark load the target's own layers, the rest draft without weights).
_VLLM_MODEL_FREE_METHODS = ("mtp", "dspark", "ngram", "[ngram]", "ngram_gpu", "suffix", "extract_hidden_states")


def _vllm_json_replaced(cfg: LaunchConfig) -> str:
    """Why a JSON --speculative-config given with dotted keys is gone: FlexibleArgumentParser
    collects every `--speculative-config.KEY value` into one dict and appends it as a last
    `--speculative-config`, and argparse keeps the last one (vllm/utils/argparse_utils.py
    `parse_args`; the option's type is json.loads, vllm/engine/arg_utils.py). A `speculative-config:`
    mapping of a --config YAML file goes in first, so dotted keys on the command line replace it."""
    aliases = _VLLM_ALIASES["speculative-config"]
    whole = any(name in aliases for name in cfg.flags)
    dotted = [name for name in cfg.flags if "." in name and name.partition(".")[0] in aliases]
    said = ""
    if cfg.replaced_dotted:
        # each spelling's dotted keys are a JSON value of their own, added in turn
        # (vllm/utils/argparse_utils.py `parse_args`: dict_args is keyed by the flag as written)
        *dropped, kept = cfg.replaced_dotted
        said = (f"the dotted keys of {', '.join(dropped)} are replaced by those of {kept}, another spelling of "
                "--speculative-config (vLLM adds each spelling's dotted keys as a --speculative-config of its own, "
                "and the last one wins whole): ")
    if cfg.replaced_json:
        *dropped, kept = cfg.replaced_json
        said += (f"the JSON --speculative-config given first ({', '.join(dropped)}) is replaced by the one given last "
                 f"({kept}): argparse keeps the last value whole and merges nothing: ")
    if not whole or not dotted:
        return said
    written = ", ".join(map(_vllm_dashed, dotted))
    return said + (f"the JSON --speculative-config is replaced by the dotted keys {written} "
                   "(vLLM collects them into one --speculative-config added last, and the last one wins): ")


def _release_at_least(version: str | None, boundary: str) -> bool:
    """`_version_at_least`, but a pre-release of the boundary (0.5.2rc2) comes before it: the
    release candidates of 0.5.2 still had one `--speculative-draft*` option."""
    if version is not None and re.search(r"\d(rc|a|b|\.?dev)\d*", version.lower()):
        try:
            if parse_version(version) == parse_version(boundary):
                return False
        except ValueError:
            pass
    return _version_at_least(version, boundary)


# The vLLM release that first has each speculative option or key, read from the PyPI sdists'
# vllm/engine/arg_utils.py and vllm/config.py (vllm/config/speculative.py from 0.10): 0.8.2 adds
# --speculative-config (0.8.0/0.8.1 only have the V0 flags), 0.8.3 drops --speculative-model and
# --num-speculative-tokens, 0.8.5 adds method "eagle3" (0.8.4's SpeculativeConfig knows only
# eagle, medusa, mlp_speculator, draft_model, ngram), 0.19.0 adds -sc, 0.22.0 --spec-method /
# --spec-model / --spec-tokens (PR #42476), 0.24.0 num_speculative_tokens_per_batch_size
# (PR #32374). An option a release lacks makes argparse exit with "unrecognized arguments"; a key
# SpeculativeConfig lacks fails its constructor (`SpeculativeConfig.from_dict(d)` = cls(**d) up to
# 0.10, `SpeculativeConfig(**d)` with extra="forbid" after): either way the server does not start.
_VLLM_SPEC_CONFIG_SINCE = "0.8.2"
_VLLM_V0_FLAGS_REMOVED = "0.8.3"
_VLLM_EAGLE3_SINCE = VLLM_EAGLE3  # the engine table's (engines.eagle3_release_failure)
_VLLM_OPTION_SINCE = {"sc": "0.19.0", "spec-method": "0.22.0", "spec-model": "0.22.0", "spec-tokens": "0.22.0"}
_VLLM_DYNAMIC_K_SINCE = "0.24.0"
# A dotted key's value that is not JSON is read as human_readable_int (`32k` = 32000) from 0.20.0
# (vllm-project/vllm PR #40473; the PyPI wheels' vllm/utils/argparse_utils.py: 0.19.1 keeps the text)
_VLLM_DOTTED_HUMAN_INT_SINCE = "0.20.0"


def vllm_reads_human_ints(engine_version: str | None) -> bool:
    """vLLM reads a dotted value such as `128K` as a number (131072) on this release: from
    _VLLM_DOTTED_HUMAN_INT_SINCE, and on an unknown or unparsable release (the newest's rules)."""
    return engine_version is None or not vllm_surely_before(engine_version, _VLLM_DOTTED_HUMAN_INT_SINCE)
# SpeculativeConfig's number fields (vllm/config/speculative.py, 0.20.0): pydantic reads no "32k" as one
_VLLM_SPEC_NUMBER_KEYS = frozenset((
    "num_speculative_tokens", "draft_tensor_parallel_size", "tensor_parallel_size", "max_model_len",
    "prompt_lookup_max", "prompt_lookup_min", "suffix_decoding_max_tree_depth", "suffix_decoding_max_cached_requests",
    "suffix_decoding_max_spec_factor", "suffix_decoding_min_token_prob", "synthetic_acceptance_length"))
_VLLM_DYNAMIC_K_ON_V2_SINCE = "0.25.0"  # Model Runner V2 runs dynamic SD (0.25.0 vllm/config/vllm.py)


def vllm_surely_before(version: str, since: str) -> bool:
    """The release certainly predates `since`. A nightly (0.23.1.dev3+g...: setuptools_scm's
    name for a build after 0.23.0) may hold anything up to the next minor release, and a
    pre-release of `since` (0.24.0rc2) counts as it: a feature is not refused on a guess."""
    return surely_before(version, since, dev_may_reach="minor")


def _vllm_surely_from(version: str, since: str) -> bool:
    """The release certainly has what `since` brought (or removed): a nightly only when it is
    numbered past `since` (0.8.3.dev5 is a build before 0.8.3)."""
    if re.search(r"dev\d*", version.lower()):
        return parse_version(version) > parse_version(since)
    return _version_at_least(version, since)


def _vllm_target_refused(cfg: LaunchConfig, target_architecture: str | None,
                         engine_version: str | None) -> list[str]:
    """vLLM up to 0.21.0 refuses EAGLE-3 at startup for a target model type off its allowlist
    (engines.vllm_refused_target, the layer check's SD201 says the same); nothing when the
    release or the target is unknown. Not asked before the first EAGLE-3 release, which
    _vllm_release_problems already refuses. A target class without SupportsEagle3
    (engines.VLLM_NO_EAGLE3_INTERFACE) is refused by every release read, so whatever the
    release, and in its own words: the list's "upgrade vLLM to 0.22.0" ends at that refusal."""
    if cfg.algorithm != "EAGLE3" or (engine_version is not None
                                     and vllm_surely_before(engine_version, _VLLM_EAGLE3_SINCE)):
        return []
    if target_architecture in VLLM_NO_EAGLE3_INTERFACE:
        return ["method eagle3: " + vllm_no_interface_reason(str(target_architecture), engine_version)
                + f" ({vllm_no_interface_fix(target_architecture)})"]
    if engine_version is None:
        return []
    refused = vllm_refused_target(engine_version, target_architecture)
    late = vllm_interface_late(target_architecture, engine_version)
    if refused is None and late is not None:
        # a class that gained SupportsEagle3 after this release (engines.VLLM_EAGLE3_INTERFACE_LATE)
        failure = vllm_late_interface_failure(str(target_architecture), engine_version, late)
        return [f"method eagle3: {failure.reason} ({failure.fix})"]
    if refused is None:
        return []
    model_type, first = refused
    return [f"method eagle3: vLLM {engine_version} refuses EAGLE-3 for a {target_architecture} target (model "
            f"type {model_type}): SpeculativeConfig raises \"... is only supported for [...] models\" and the "
            f"server does not start (upgrade vLLM to {first} or later; vllm/config/speculative.py)"]


def _vllm_release_problems(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """What the running vLLM release refuses in this command (nothing when the version is unknown:
    the option list is the newest release's)."""
    if engine_version is None:
        return []
    try:
        parse_version(engine_version)
    except ValueError:
        return []
    before = lambda since: vllm_surely_before(engine_version, since)  # noqa: E731
    since_then = lambda since: _vllm_surely_from(engine_version, since)  # noqa: E731
    unrecognized = ("argparse exits with 'unrecognized arguments' and the server does not start")
    problems = []
    written = {name.partition(".")[0] for name in cfg.flags}
    if written & {"speculative-config", "sc"} and before(_VLLM_SPEC_CONFIG_SINCE):
        problems.append(f"--speculative-config: vLLM {engine_version} does not have it (added in "
                        f"{_VLLM_SPEC_CONFIG_SINCE}; older releases take --speculative-model DRAFT "
                        f"--num-speculative-tokens K): {unrecognized}")
    for flag in _VLLM_V0_FLAGS:
        if flag in written and since_then(_VLLM_V0_FLAGS_REMOVED):
            problems.append(f"--{flag}: vLLM removed it in {_VLLM_V0_FLAGS_REMOVED}; on {engine_version} {unrecognized} "
                            "(write --speculative-config '{\"model\": DRAFT, \"num_speculative_tokens\": K}')")
    for flag, since in _VLLM_OPTION_SINCE.items():
        if flag in written and before(since):
            problems.append(f"{_vllm_dashed(flag)}: vLLM {engine_version} does not have it (added "
                            f"in {since}): {unrecognized} (write --speculative-config '{{...}}')")
    spec = cfg.speculative_config or {}
    if before(_VLLM_DOTTED_HUMAN_INT_SINCE):
        problems += _vllm_dotted_texts_kept(cfg, engine_version)
    if "num_speculative_tokens_per_batch_size" in spec and before(_VLLM_DYNAMIC_K_SINCE):
        # refused from 0.14 and up to 0.8; 0.9-0.13 drop the key and run the fixed K (_vllm_unknown_key_fate)
        problems.append(f"num_speculative_tokens_per_batch_size: vLLM {engine_version} has no dynamic speculative "
                        f"decoding (added in {_VLLM_DYNAMIC_K_SINCE}): SpeculativeConfig has no such key; "
                        + _vllm_unknown_key_fate("num_speculative_tokens_per_batch_size", engine_version))
    if ("num_speculative_tokens_per_batch_size" in spec and cfg.env.get("VLLM_USE_V2_MODEL_RUNNER") == "1"
            and since_then(_VLLM_DYNAMIC_K_SINCE) and before(_VLLM_DYNAMIC_K_ON_V2_SINCE)):
        # 0.24.0 lists dynamic SD among Model Runner V2's unsupported features and, with the V2
        # runner forced on, raises instead of falling back to V1 (vllm/config/vllm.py
        # `_validate_v2_model_runner`); its docs run the example with VLLM_USE_V2_MODEL_RUNNER=0
        problems.append(f"num_speculative_tokens_per_batch_size with VLLM_USE_V2_MODEL_RUNNER=1: vLLM {engine_version} "
                        "refuses to start (\"Model Runner V2 does not yet support: dynamic speculative decoding\"; "
                        f"{_VLLM_DYNAMIC_K_ON_V2_SINCE} supports it); set VLLM_USE_V2_MODEL_RUNNER=0")
    if cfg.algorithm == "EAGLE3" and before(_VLLM_EAGLE3_SINCE):
        # method eagle3, or a draft named like one (V0's --speculative-model, method detection)
        problems.append(f"method eagle3: vLLM {engine_version} has no EAGLE-3 (added in {_VLLM_EAGLE3_SINCE}): the "
                        "head is not run as an EAGLE-3 draft (upgrade vLLM)")
    problems += _vllm_method_release(cfg, engine_version)
    method = (cfg.algorithm or "").lower()
    problems += _vllm_method_options(spec, method, engine_version)
    if (speculators_flag(spec.get("parallel_drafting")) and method and method not in _VLLM_PARALLEL_DRAFTERS
            and since_then(_VLLM_PARALLEL_DRAFTING_BLOCK_ONLY)):
        problems.append(f"--speculative-config \"parallel_drafting\": true with method {method}: vLLM "
                        f"{engine_version} refuses to start (\"parallel_drafting is only supported by the dflash and "
                        f"dspark methods, not '{method}'.\", vllm/config/speculative.py; P-EAGLE's parallel drafting "
                        f"ran on eagle/eagle3 up to {_previous_minor(_VLLM_PARALLEL_DRAFTING_BLOCK_ONLY)}): serve a P-EAGLE "
                        f"draft on vLLM {_previous_minor(_VLLM_PARALLEL_DRAFTING_BLOCK_ONLY)} or older, or drop "
                        "\"parallel_drafting\" for a draft trained to draft one token a pass")
    return problems


# --speculative-config keys that only one method takes -> (first release with the key, that
# method, the ValueError of the releases before 0.34.0), read from the PyPI wheels'
# vllm/config/speculative.py: dspark_draft_topk arrives in 0.28.0 with `if self.dspark_draft_topk
# is not None and self.method != "dspark"`, index_share_for_mtp_iteration in 0.29.0 with `if
# self.index_share_for_mtp_iteration is not None: if self.method != "mtp"` (the *_mtp names are
# mtp by then). 0.34.0 checks both in `_METHOD_SPECIFIC_OPTIONS` against the method's
# SpeculatorConfig.supported_options (v1/worker/gpu/spec_decode/dspark/config.py,
# mtp/config.py): "{option} is not supported with speculative method {method!r}.". Any value but
# null is refused, false included.
_VLLM_METHOD_OPTIONS = {
    "dspark_draft_topk": ("0.28.0", "dspark", "dspark_draft_topk is only supported by DSpark"),
    "index_share_for_mtp_iteration": ("0.29.0", "mtp",
                                      "index_share_for_mtp_iteration is only supported with method='mtp'")}
_VLLM_METHOD_OPTIONS_GENERIC = "0.34.0"


def _vllm_method_options(spec: dict[str, Any], method: str, engine_version: str) -> list[str]:
    """A key of one method written beside another (`"index_share_for_mtp_iteration": true` with
    eagle3): SpeculativeConfig raises ValueError at startup."""
    if not method:
        return []
    served = "mtp" if method.endswith("_mtp") else method
    problems = []
    for key, (since, owner, message) in _VLLM_METHOD_OPTIONS.items():
        if spec.get(key) is None or served == owner or not _vllm_surely_from(engine_version, since):
            continue
        if _vllm_surely_from(engine_version, _VLLM_METHOD_OPTIONS_GENERIC):
            message = f"{key} is not supported with speculative method '{served}'."
        problems.append(f"--speculative-config \"{key}\" with method {served}: vLLM {engine_version} refuses to start "
                        f"(\"{message}\", vllm/config/speculative.py; only method {owner} takes it, any value but "
                        f"null): drop \"{key}\"")
    return problems


# vLLM 0.34.0 (vllm/config/speculative.py `__post_init__`) raises ValueError for
# `parallel_drafting: true` with any method but dflash / dspark (which always draft in parallel;
# the key is deprecated there), and its registry drops the P-EAGLE drafter classes
# (PEagleDraftModel, PeagleLlamaForCausalLM, PeagleQwen3ForCausalLM, all in 0.33.0's).
_VLLM_PARALLEL_DRAFTING_BLOCK_ONLY = "0.34.0"
_VLLM_PARALLEL_DRAFTERS = ("dflash", "dspark")


# vLLM methods that only some releases have -> (first release with it, first without it), read
# from the PyPI wheels' vllm/config/speculative.py `SpeculativeMethod`: "custom_class" (a proposer
# class named by its import path in "model", vllm-project/vllm PR #39487) is in 0.22.0 .. 0.33.0;
# 0.21.0 lacks it and 0.34.0 drops it for plugin-registered methods (`get_method_config_class`,
# v1/worker/gpu/spec_decode/speculator_config.py: "Unsupported speculative method"). "medusa" and
# "mlp_speculator" are in every release up to 0.32.0 and gone from 0.33.0, with their model files
# (no medusa.py / mlp_speculator.py in the 0.33.0 or 0.34.0 wheel); 0.33.0 types `method` as that
# Literal, so pydantic refuses the name at startup.
_VLLM_METHOD_RELEASES: dict[str, tuple[str | None, str | None]] = {
    "custom_class": ("0.22.0", "0.34.0"), "medusa": (None, "0.33.0"), "mlp_speculator": (None, "0.33.0")}
# The methods each release added to `SpeculativeMethod` (with the *_mtp model types it takes as
# method names, folded into "mtp" from 0.11.0), read from the PyPI sdists' vllm/config.py (0.9.0 ..
# 0.10.1.1: `vllm/config/__init__.py` from 0.10.1) and vllm/config/speculative.py (0.11.0 on), every
# release from 0.9.0 to 0.34.0 but 0.15.x (no sdist; so the three names 0.16.0 added,
# glm4_moe_lite_mtp, glm_ocr_mtp and step3p5_mtp, are not listed: 0.15 may have them). The release
# before each lacks the name: suffix decoding (vllm-project/vllm PR #25784) is in 0.11.1, not 0.11.0.
# From 0.9.1 SpeculativeConfig is a pydantic dataclass (`from pydantic.dataclasses import dataclass`,
# 0.9.0's is the stdlib one), so a method outside the Literal fails its constructor at startup
# ("Input should be 'ngram', 'eagle', ..."); 0.9.0 and older never check the name (they detect a
# method from the draft), so those are not judged here.
_VLLM_METHODS_ADDED = (
    ("0.10.2", ("ernie_mtp", "qwen3_next_mtp")),
    ("0.11.0", ("mtp", "mimo_mtp", "longcat_flash_mtp")),
    ("0.11.1", ("suffix", "glm4_moe_mtp", "pangu_ultra_moe_mtp")),
    ("0.14.0", ("exaone_moe_mtp",)),
    ("0.17.0", ("extract_hidden_states", "nemotron_h_mtp", "qwen3_5_mtp")),
    ("0.18.0", ("ngram_gpu",)),
    ("0.20.0", ("dflash", "exaone4_5_mtp", "hy_v3_mtp")),
    ("0.21.0", ("gemma4_mtp", "mimo_v2_mtp")),
    ("0.24.0", ("minimax_m3_mtp",)),
    ("0.25.0", ("dspark", "bailing_hybrid_mtp")),
    ("0.26.0", ("inkling_mtp",)),
    ("0.27.0", ("kimi_k3_mtp",)),
    ("0.28.0", ("bailing_hybrid_v3_mtp", "dots3_note_mtp")),
    ("0.29.0", ("hy_v4_mtp", "qwen4_exp_mtp")),
    ("0.30.0", ("glm5_next_mtp",)),
    ("0.33.0", ("step5_mtp",)),
    ("0.34.0", ("nemotron3_5_transcribe_mtp",)),
)
_VLLM_METHOD_RELEASES.update({method: (since, None) for since, methods in _VLLM_METHODS_ADDED for method in methods})
_VLLM_METHOD_VALIDATED_SINCE = "0.9.1"


def _previous_minor(release: str) -> str:
    """0.34.0 -> 0.33 (the last minor line before `release`)."""
    major, minor = parse_version(release)[:2]
    return f"{major}.{minor - 1}"


def _vllm_methods_of(engine_version: str) -> list[str]:
    """The method names the release's SpeculativeMethod takes, but the *_mtp model types (the table
    above leaves out three of 0.16.0's)."""
    names = ["ngram", "eagle", "eagle3", "medusa", "mlp_speculator", "draft_model"]
    names += [method for since, methods in _VLLM_METHODS_ADDED if not vllm_surely_before(engine_version, since)
              for method in methods if not method.endswith("_mtp")]
    if not vllm_surely_before(engine_version, "0.22.0"):
        names.append("custom_class")
    return [method for method in names if (gone := _VLLM_METHOD_RELEASES.get(method, (None, None))[1]) is None
            or not _vllm_surely_from(engine_version, gone)]


def _vllm_method_written(cfg: LaunchConfig, method: str) -> str:
    """The method as the command wrote it: `--spec-method suffix` (0.22.0 on), a dotted
    `--speculative-config.method suffix` / `-sc.method suffix`, or the JSON's `"method"` key."""
    if "spec-method" in cfg.flags:
        return f"--spec-method {method}"
    for name in cfg.flags:
        head, _dot, key = name.partition(".")
        if key == "method" and head in _VLLM_ALIASES["speculative-config"]:
            return f"{_vllm_dashed(name)} {method}"
    return f"--speculative-config \"method\": \"{method}\""


def _vllm_method_release(cfg: LaunchConfig, engine_version: str) -> list[str]:
    """A method (written, or read from the draft name as vLLM detects it) that the running release
    does not have."""
    written = (cfg.speculative_config or {}).get("method")
    method = (cfg.algorithm or "").lower()
    if method not in _VLLM_METHOD_RELEASES or (isinstance(written, str) and written != written.lower()):
        return []  # an upper-case name is refused by every release (_vllm_method_case says so)
    since, gone = _VLLM_METHOD_RELEASES[method]
    if not written:
        # only custom_class is read from the draft name (an import path, `_is_custom_proposer_path`)
        if method != "custom_class" or gone is None or not (vllm_surely_before(engine_version, since or "0")
                                                            or _vllm_surely_from(engine_version, gone)):
            return []
        return [f"--speculative-config \"model\": \"{cfg.draft_model}\" is a proposer class's import path, which "
                f"only vLLM {since} .. {_previous_minor(gone)} read as one (method custom_class): vLLM {engine_version} "
                "takes it for a draft model's name, finds no such model, and the server does not start"]
    how = _vllm_method_written(cfg, method)
    if since is not None and vllm_surely_before(engine_version, since):
        if method != "custom_class" and vllm_surely_before(engine_version, _VLLM_METHOD_VALIDATED_SINCE):
            return []  # (releases before 0.9.1 do not check the name)
        if method == "custom_class":
            return [f"{how}: vLLM {engine_version} has no such method (added in {since}): "
                    "SpeculativeConfig refuses it at startup and the server does not start (upgrade vLLM)"]
        mtp_since = _VLLM_METHOD_RELEASES["mtp"][0] or "0"
        mtp = ("" if not method.endswith("_mtp") or vllm_surely_before(engine_version, mtp_since)
               else f"; \"method\": \"mtp\" is the name vLLM {engine_version} reads for the MTP layers of any model it "
                    "serves them for")
        return [f"{how}: vLLM {engine_version} has no such method (added in {since}): its "
                f"SpeculativeConfig takes \"method\" {', '.join(_vllm_methods_of(engine_version))} or one of the "
                f"MTP model types it knows (deepseek_mtp, ...), refuses \"{method}\" at startup (pydantic: \"Input "
                f"should be ...\"), and the server does not start (upgrade vLLM to {since} or later{mtp})"]
    if gone is not None and _vllm_surely_from(engine_version, gone):
        fix = ("register the proposer as a plugin speculative method" if method == "custom_class"
               else f"serve this draft with vLLM before {gone}, or an EAGLE-3 draft")
        return [f"{how}: vLLM {gone} removed this method, and {engine_version} refuses it at "
                f"startup: the server does not start ({fix})"]
    return []


# With the vLLM release unknown the audit judges the newest, which has every method. A method
# the table shows added in 0.20.0 or later (dflash, dspark, the newer *_mtp names) is one a
# server installed some months ago does not have: 0.20.0 .. 0.34.0 are the last fifteen minor
# releases the table reads, while every method before them (ngram, eagle, eagle3, draft_model,
# mtp, suffix, extract_hidden_states, ngram_gpu) is in every release from 0.18.0 on, and those older
# names are what most commands write: a warning on them would be said of nearly every command.
_VLLM_RECENT_METHODS_SINCE = "0.20.0"
VLLM_RELEASE_UNKNOWN = ("; the vLLM release is unknown here (`pip show vllm` where the server runs, or its image "
                        "tag, says it)")


def _vllm_recent_method_release_unknown(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """A written method added in a recent release (`_VLLM_RECENT_METHODS_SINCE`), the release
    unknown: the releases before it refuse the name at startup (`_vllm_method_release`, which
    says so when the release is known). Was: nothing, as the unknown release was judged the newest."""
    written = (cfg.speculative_config or {}).get("method")
    if engine_version is not None or not isinstance(written, str) or written != written.lower():
        return []
    since, gone = _VLLM_METHOD_RELEASES.get(written, (None, None))
    # (a method a later release removed, custom_class, is judged by the newest release's refusal)
    if since is None or gone is not None or not _version_at_least(since, _VLLM_RECENT_METHODS_SINCE):
        return []
    if "spec-method" in cfg.flags and not _version_at_least(since, _VLLM_OPTION_SINCE["spec-method"]):
        return []  # (a release with --spec-method has the method too)
    how = _vllm_method_written(cfg, written)
    return [f"{how}: vLLM added this method in {since}; the releases before it have no such method, and their "
            f"SpeculativeConfig refuses the name at startup (pydantic: \"Input should be ...\"): serve it with vLLM "
            f"{since} or later{VLLM_RELEASE_UNKNOWN}"]


# vllm-project/vllm PR #34973 (merged 2026-02-21, closing issue #34326; the 0.16.0 sdist lacks it,
# 0.17.0's has it): `vllm serve` whose first word after `serve` is a flag, once a `--model X` is
# moved there, raises ValueError in FlexibleArgumentParser.parse_args (vllm/utils/argparse_utils.py)
# when a --served-model-name is written and no --config is (the file may hold the model), before
# argparse reads a word. Up to 0.16 argparse reads the positional model wherever it stands, but
# --served-model-name takes every word up to the next flag (nargs "+"), the model too when it
# comes right after the names, and with no model given the server runs ModelConfig's default.
_VLLM_MODEL_FIRST_SINCE = "0.17.0"
_VLLM_MODEL_FIRST_ERROR = ("`model` should be provided as the first positional argument when using `vllm serve`. "
                           "i.e. `vllm serve <model> --<arg> <value>`.")
# Said of a refusal only the newer vLLM releases make, the release unknown (SD102 stays a warning
# then, titled for the newer releases; VLLM_RELEASE_UNKNOWN is said of what the older ones refuse).
VLLM_NEWER_RELEASE_UNKNOWN = ("; the vLLM release is unknown here (`pip show vllm` where the server runs, or its "
                              "image tag, says which of these it does)")


def vllm_model_not_first(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """`vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen ...`: the model not first,
    with --served-model-name and no --model or --config (_VLLM_MODEL_FIRST_SINCE). An error on a
    release that has the check; nothing on one before it; a warning where the release is not known
    (or a nightly between), which says what the older releases do. Only `vllm serve` (also
    `python -m vllm.entrypoints.cli.main serve` and the vllm/vllm-openai image, whose ENTRYPOINT is
    `vllm serve`, docker/Dockerfile) meets the check: the api_server module's argv has no `serve`.
    Not judged where a shell expansion stands where a flag could (it may hold --model or --config).
    Was: read as fine, the model taken from wherever it stood."""
    if cfg.engine != "vllm" or cfg.python_call:
        return []
    program, args = _program_and_args(cfg)
    if program != "serve" and not re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", program):
        return []
    words = [str(word) for word in args]
    if "--" in words:
        words = words[:words.index("--")]
    # (vLLM's own patterns, matched on every word)
    if not words or any(re.match(r"--model(=.+|$)", word) or re.match(r"--config(=.+|$)", word) for word in words):
        return []
    served = [i for i, word in enumerate(words) if re.match(r"--served[-_]model[-_]name(=.+|$)", word)]
    if not served or not words[0].startswith("-"):
        return []
    if any(_EXPANDED_FLAGS.match(word) and not words[i - 1].startswith("-") for i, word in enumerate(words) if i):
        return []
    model = cfg.target_model
    # the words --served-model-name takes up to the next flag (argparse nargs "+"); a value glued
    # with `=` is its only one
    eaten = False
    for i in served:
        if "=" in words[i]:
            continue
        run = list(itertools.takewhile(lambda word: not word.startswith("-"), words[i + 1:]))
        eaten = eaten or (model is not None and model in run[1:])
    first = words[0].partition("=")[0]
    said = (f"`vllm serve {first} ...` (--served-model-name written, no --model): the model ({model}) is not the first "
            "word after `serve`" if model else f"`vllm serve {first} ...` (--served-model-name written) gives no model")
    rest = list(words)
    if model in rest:
        rest.remove(model)
    fix = f"write the model first: `vllm serve {model or 'MODEL'} {' '.join(rest[:2])} ...`"
    raises = (f"FlexibleArgumentParser raises ValueError (\"{_VLLM_MODEL_FIRST_ERROR}\") before argparse reads the "
              "flags, and the server does not start (vllm/utils/argparse_utils.py, vllm-project/vllm#34973)")
    default = "the server runs vLLM's default model (ModelConfig.model, Qwen/Qwen3-0.6B in 0.16)"
    if model is None:
        older = f"no model is given and {default}"
    elif eaten:
        older = (f"argparse reads {model} as another name of --served-model-name (it takes every word up to the "
                 f"next flag), so no model is given and {default}, not {model}")
    else:
        older = "argparse reads the model wherever it stands"
    if engine_version is not None and _vllm_surely_from(engine_version, _VLLM_MODEL_FIRST_SINCE):
        return [f"{said}: vLLM {engine_version}'s {raises}; {fix}"]
    if engine_version is not None and vllm_surely_before(engine_version, _VLLM_MODEL_FIRST_SINCE):
        # (the model eaten by the names, or none given: vllm_default_model_served says so)
        return []
    return [f"{said}: vLLM {_VLLM_MODEL_FIRST_SINCE} and later: {raises}; before "
            f"{_VLLM_MODEL_FIRST_SINCE} {older}; {fix}{VLLM_NEWER_RELEASE_UNKNOWN}"]


# ModelConfig.model, the model a vLLM server runs when none is given: facebook/opt-125m until
# vllm-project/vllm#20335 (merged July 2025) made it Qwen/Qwen3-0.6B (vllm/config/model.py).
VLLM_DEFAULT_MODEL = "Qwen/Qwen3-0.6B"
VLLM_DEFAULT_MODEL_TITLE = "The server runs vLLM's default model, not the one written"


def vllm_default_model_served(cfg: LaunchConfig, engine_version: str | None) -> str | None:
    """`vllm serve --served-model-name q Qwen/Qwen3-8B --speculative-config ...` on a known release
    before _VLLM_MODEL_FIRST_SINCE: --served-model-name (a list field, nargs "+") takes every word
    up to the next flag, the model too, so model_tag stays None and vllm/entrypoints/cli/serve.py
    keeps args.model at ModelConfig's default: the server starts and serves VLLM_DEFAULT_MODEL (or
    facebook/opt-125m on a release before #20335) under the name q, with the draft written for
    the other model. Also where no model is given at all beside the names. Was: nothing said, and
    the written model audited as the target. The release unknown or 0.17.0 and later:
    vllm_model_not_first (0.17.0 refuses the command)."""
    if (cfg.engine != "vllm" or cfg.python_call or engine_version is None
            or not vllm_surely_before(engine_version, _VLLM_MODEL_FIRST_SINCE)
            or vllm_surely_before(engine_version, _VLLM_MODEL_OPTION_REFUSED_FROM)):
        return None  # (the oldest release read for its serve parser: _VLLM_MODEL_OPTION_REFUSED_FROM)
    program, args = _program_and_args(cfg)
    if program != "serve" and not re.fullmatch(r"(\S+/)?vllm/vllm-openai(:\S+|@\S+)?", program):
        return None
    words = [str(word) for word in args]
    if "--" in words:
        words = words[:words.index("--")]
    if not words or not words[0].startswith("-") or any(
            re.match(r"--model(=.+|$)", word) or re.match(r"--config(=.+|$)", word) for word in words):
        return None
    if any(_EXPANDED_FLAGS.match(word) and not words[i - 1].startswith("-") for i, word in enumerate(words) if i):
        return None
    served = [i for i, word in enumerate(words) if re.match(r"--served[-_]model[-_]name(=.+|$)", word)]
    if not served:
        return None
    model = cfg.target_model
    names: list[str] = []
    eaten = False
    for i in served:
        if "=" in words[i]:
            names.append(words[i].partition("=")[2])
            continue
        run = list(itertools.takewhile(lambda word: not word.startswith("-"), words[i + 1:]))
        names += run
        if model is not None and model in run[1:]:
            # (the reader gives the names one word and takes the next as the model: with several
            # names, the model meant is the last word of the run)
            eaten, model = True, run[-1]
    if model is not None and not eaten:
        return None  # (argparse reads the model where it stands)
    default = (f"vLLM's default model (ModelConfig.model: {VLLM_DEFAULT_MODEL}; facebook/opt-125m on releases "
               "before vllm-project/vllm#20335, July 2025)")
    shown = " ".join(names[:-1] if eaten and names and names[-1] == model else names) or "..."
    if eaten:
        said = (f"`vllm serve ... --served-model-name {shown} {model}`: --served-model-name takes every word up to "
                f"the next flag (argparse nargs \"+\"), so vLLM {engine_version} reads {model} as another served "
                f"name, not the model: no model is given, and the server starts with {default}, not {model}, "
                f"answering to the names {', '.join(names)}")
    else:
        said = (f"`vllm serve {words[0].partition('=')[0]} ...` gives no model (only --served-model-name {shown}): "
                f"vLLM {engine_version} starts with {default}")
    rest = [word for word in words if word != model]
    how = "vllm/entrypoints/cli/serve.py sets args.model from the positional model_tag only when one is given"
    return (f"{said} ({how}){'; the checks of the written target below are not of the model that runs' if model else ''}"
            f"; write the model first: `vllm serve {model or 'MODEL'} {' '.join(rest[:2])} ...`")


# `vllm serve ... --model X`, read from the PyPI sdists: 0.7.3 and 0.8.0 raise ValueError in
# vllm/entrypoints/cli/serve.py `cmd` when --model is not its default, 0.8.5 to 0.11.0 in
# FlexibleArgumentParser.parse_args (vllm/utils.py, then vllm/utils/__init__.py) when a word is
# `--model`; 0.11.1 (vllm/utils/argparse_utils.py) moves the value of --model (or --model=X) to
# the front as the positional model, with a warning. The vllm/vllm-openai image runs
# `python3 -m vllm.entrypoints.openai.api_server` up to 0.11.0 (docker/Dockerfile ENTRYPOINT), whose
# --model is its own way, and `vllm serve` from 0.11.1.
_VLLM_MODEL_OPTION_MOVED_SINCE = "0.11.1"
_VLLM_MODEL_OPTION_REFUSED_FROM = "0.7.3"  # (the oldest release read for it)
_VLLM_MODEL_OPTION_ERROR = ("With `vllm serve`, you should provide the model as a positional argument ... instead "
                            "of via the `--model` option.")


def vllm_model_option_refused(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """`vllm serve --model X ...` on a release before _VLLM_MODEL_OPTION_MOVED_SINCE (ValueError),
    and `vllm serve A ... --model B` on any release (before it the same ValueError; from it B is
    moved to the front and A is a second positional: argparse exits with "unrecognized arguments:
    A"). Only `vllm serve` as written (and `python -m vllm.entrypoints.cli.main serve`); a --config
    file merged into the command is the caller's to leave out (its `model:` becomes --model after
    the check). Was: --model read as the model on every release, and A as the model beside it."""
    if cfg.engine != "vllm" or cfg.python_call:
        return []
    program, args = _program_and_args(cfg)
    if program != "serve":
        return []
    words = [str(word) for word in args]
    if "--" in words:
        words = words[:words.index("--")]
    at = next((i for i, word in enumerate(words) if word == "--model" or word.startswith("--model=")), None)
    if at is None or (words[at] == "--model" and (at + 1 >= len(words) or words[at + 1].startswith("-"))):
        return []
    glued = words[at] != "--model"
    model = words[at].partition("=")[2] if glued else words[at + 1]
    positional = not words[0].startswith("-") and at != 0
    if positional and _EXPANDED_FLAGS.search(words[0]):
        return []
    known = engine_version is not None
    moved = known and _vllm_surely_from(str(engine_version), _VLLM_MODEL_OPTION_MOVED_SINCE)
    before = known and vllm_surely_before(str(engine_version), _VLLM_MODEL_OPTION_MOVED_SINCE) and not (
        vllm_surely_before(str(engine_version), _VLLM_MODEL_OPTION_REFUSED_FROM))
    raises = (f"raises ValueError (\"{_VLLM_MODEL_OPTION_ERROR}\") and the server does not start "
              f"(FlexibleArgumentParser.parse_args, vllm/utils; {_VLLM_MODEL_OPTION_MOVED_SINCE} and later move the "
              "value of --model to the front)")
    second = (f"FlexibleArgumentParser moves the value of --model ({model}) to the front as the model, so "
              f"{words[0]} is a second positional argument: argparse exits with 'unrecognized arguments: "
              f"{words[0]}' and the server does not start (vllm/utils/argparse_utils.py)")
    fix = f"write the model once, first: `vllm serve {model} ...` without --model"
    said = f"`vllm serve {words[0]} ... {words[at]}{'' if glued else ' ' + model}`"
    if positional:
        if moved:
            return [f"{said}: vLLM {engine_version}'s {second}; {fix}"]
        if before and not glued:
            return [f"{said}: vLLM {engine_version} {raises}; {fix}"]
        if known or glued:
            # (--model=X before 0.11.1: the positional model is served, --model is left aside)
            return [] if known else [f"{said}: vLLM {_VLLM_MODEL_OPTION_MOVED_SINCE} and later: {second}; {fix}"
                                     f"{VLLM_NEWER_RELEASE_UNKNOWN}"]
        return [f"{said}: from vLLM {_VLLM_MODEL_OPTION_MOVED_SINCE} on, {second}; before it vLLM {raises}; {fix}"]
    if before and not glued:
        return [f"`vllm serve ... --model {model}`: vLLM {engine_version} {raises}; {fix}"]
    return []


def _vllm_dotted_texts_kept(cfg: LaunchConfig, engine_version: str) -> list[str]:
    """The dotted speculative number keys whose value the audit read as a human-readable number
    (`32k`, add_dotted_key) on a release before _VLLM_DOTTED_HUMAN_INT_SINCE: there the key holds
    the text itself, which SpeculativeConfig's validation refuses for a number field (pydantic
    cannot read "32k" as an int), so the server does not start."""
    aliases = _VLLM_ALIASES["speculative-config"]
    spec = cfg.speculative_config or {}
    problems = []
    for name, text in cfg.flags.items():
        head, dot, path = name.partition(".")
        m = _HUMAN_INT.fullmatch(text.strip()) if dot and head in aliases and isinstance(text, str) else None
        if m is None or not m.group(2) or path not in _VLLM_SPEC_NUMBER_KEYS:
            continue  # (a text key keeps its text there, and a nested one is read by another config)
        value = spec.get(path)
        if value is None or value != _human_readable_int(text):
            continue  # another spelling's keys won, or the text was read otherwise
        flag = _vllm_dashed(name)
        problems.append(f"{flag} {text}: vLLM {engine_version} keeps the text {text!r} (a dotted value is read as "
                        f"a number such as 32k only from {_VLLM_DOTTED_HUMAN_INT_SINCE}, vllm-project/vllm PR #40473): "
                        f"SpeculativeConfig refuses a text where it takes a number, and the server does not start "
                        f"(write {flag} {value})")
    return problems


# vLLM releases whose V1 engine drafts with no plain draft LM: 0.10.0 removed V0's draft-model
# speculation, and SpeculativeConfig `__post_init__` ends its method chain in "draft_model" with
# NotImplementedError ("Speculative decoding with draft model is not supported yet"):
# vllm-project/vllm PR #22047 ran the docs' draft-model example, which "can be ran in v0.9.2, but in
# v0.10.0 it will get a NotImplementedError" (#21797); the same on 0.11.0 (#26547) and 0.13.0
# (#31883). PR #24322 brought draft models to V1 after 0.13: merged 2026-01-19 (commit 4a5299c9;
# #32007, on 2026-01-09, still finds main refusing), around 0.14.0's release, whose branch may or
# may not hold it: not pinned from the stored source, so 0.14 on is not claimed.
_VLLM_NO_DRAFT_MODEL_FROM = "0.10.0"
_VLLM_NO_DRAFT_MODEL_UNTIL = "0.14.0"


# The targets vLLM turns into an MTP draft of themselves (vllm/config/speculative.py
# `hf_config_override`, the newest release's list: DeepSeek-V3/V3.2/V4, GLM-4.5/OCR/5, MiMo, ERNIE,
# Nemotron-H, Qwen3-Next/3.5, Bailing, EXAONE, LongCat, Step-3.5, Hunyuan, Inkling, Gemma 4,
# MiniMax-M3, Pangu, Kimi-K3, dots3), by model_type or architecture: a looser match claims less.
# The override is applied to a draft's config too (SpeculativeConfig builds the draft ModelConfig with
# hf_overrides=hf_config_override): a DeepSeek-V3 checkpoint given as the draft runs as its MTP.
VLLM_MTP_FAMILIES = re.compile(r"mtp|nextn|deepseek|glm|mimo|ernie|nemotron|qwen3_?next|qwen3_?5|qwen4|bailing|exaone|"
                               r"longcat|step3p|hy_?v[34]|hunyuan|inkling|gemma4|minimax|pangu|kimi|dots3|intern_?s2|"
                               r"mistral_?large_?3", re.I)


def _vllm_draft_model_unsupported(cfg: LaunchConfig, engine_version: str | None, draft_config: Any) -> list[str]:
    """A plain draft LM (method draft_model, or no method and a draft whose read config.json is no
    speculator head) on a release that surely refuses it. Its name is read as vLLM reads it:
    "eagle-"/"eagle3" in it picks an EAGLE method."""
    if cfg.engine != "vllm" or engine_version is None or not cfg.draft_model:
        return []
    try:
        parse_version(engine_version)
    except ValueError:
        return []
    if not (_vllm_surely_from(engine_version, _VLLM_NO_DRAFT_MODEL_FROM)
            and vllm_surely_before(engine_version, _VLLM_NO_DRAFT_MODEL_UNTIL)):
        return []
    method = str((cfg.speculative_config or {}).get("method") or "").lower()
    if method != "draft_model" and not (not method and _plain_draft_lm(cfg.draft_model, draft_config)):
        return []
    return [f"a plain draft model ({cfg.draft_model}, method draft_model): vLLM {engine_version} has no draft-model "
            "speculative decoding: SpeculativeConfig raises NotImplementedError (\"Speculative decoding with draft "
            "model is not supported yet\") and the server does not start (serve a trained EAGLE-3 head, "
            "method ngram, or a vLLM release with draft models, vllm-project/vllm PR #24322)"]


def _plain_draft_lm(draft: str, draft_config: Any) -> bool:
    name = draft.lower()
    if "eagle-" in name or "eagle3" in name or name in ("ngram", "[ngram]") or not isinstance(draft_config, dict):
        return False
    # a family vLLM turns into an MTP draft (a DeepSeek-V3 checkpoint as the draft) runs as mtp
    return not draft_config.get("speculators_model_type") and not names_a_kind(
        draft_config, _SPECULATOR_KINDS) and not names_a_kind(draft_config, VLLM_MTP_FAMILIES)


_SPECULATOR_KINDS = re.compile(r"medusa|mlp_?speculator|eagle|mtp|dflash|speculator", re.I)


def names_a_kind(config: Any, pattern: re.Pattern[str], text_config: bool = False) -> bool:
    """The config.json's model_type or one of its architectures (with `text_config`, also the
    model_type of its text_config, where a multimodal wrapper names its language model) matches
    `pattern`: how the audit tells a model family from its config. An `architectures` written as
    one string is that one name. False for a config that was not read (not a dict)."""
    if not isinstance(config, dict):
        return False
    kinds = [config.get("model_type"), *config_architectures(config)]
    text = config.get("text_config")
    if text_config and isinstance(text, dict):
        kinds.append(text.get("model_type"))
    return any(isinstance(kind, str) and pattern.search(kind) for kind in kinds)


def config_architectures(config: dict[str, Any]) -> list[str]:
    """The names a config.json's `architectures` gives: a list's strings, a string as one name
    (not letter by letter), none for anything else (a number or an object: was a TypeError)."""
    architectures = config.get("architectures")
    if isinstance(architectures, str):
        return [architectures]
    return [a for a in architectures if isinstance(a, str)] if isinstance(architectures, (list, tuple)) else []


# SpeculativeConfig's keys, the newest release's (vllm/config/speculative.py) with the ones older
# releases had (0.8-0.11: acceptance_method, disable_by_batch_size, speculative_token_tree, ...): a
# key among them is never said to be unknown, whichever release runs.
_VLLM_SPEC_KEYS = frozenset((
    "enforce_eager", "num_speculative_tokens", "model", "method", "draft_tensor_parallel_size",
    "tensor_parallel_size", "quantization", "moe_backend", "attention_backend", "kv_cache_dtype",
    "max_model_len", "revision", "code_revision", "index_share_for_mtp_iteration",
    "disable_padded_drafter_batch", "disable_eagle_block_drop", "use_local_argmax_reduction",
    "use_heterogeneous_vocab", "prompt_lookup_max", "prompt_lookup_min", "parallel_drafting",
    "num_speculative_tokens_per_batch_size", "suffix_decoding_max_tree_depth",
    "suffix_decoding_max_cached_requests", "suffix_decoding_max_spec_factor",
    "suffix_decoding_min_token_prob", "draft_load_config", "rejection_sample_method",
    "synthetic_acceptance_rates", "synthetic_acceptance_length", "enable_adaptive_verification",
    "draft_sample_method", "dspark_draft_topk", "acceptance_method", "disable_logprobs",
    "disable_mqa_scorer", "disable_by_batch_size", "posterior_threshold", "posterior_alpha",
    "speculative_token_tree", "disable_log_stats", "enable_chunked_prefill", "target_model_config",
    "target_parallel_config", "draft_model_config", "draft_parallel_config",
    # 0.33.0 and 0.34.0 (the PyPI wheels' vllm/config/speculative.py)
    "disable_lookahead_block_hashes", "draft_lm_head_quantization", "xpress_topc", "fly_window_size",
    "fly_entropy_threshold", "fly_entropy_top_k", "draft_decode_context_parallel_size",
    "suffix_decoding_corpus_tokens", "speculator_options",
    # 0.19.x only (a float; 0.20.0 replaced it by the list synthetic_acceptance_rates and synthetic_acceptance_length)
    "synthetic_acceptance_rate"))
# The V0 flags' names written as keys of the JSON (vLLM <= 0.7 took --speculative-model,
# --ngram-prompt-lookup-max ...; vllm-project/vllm#24888 writes "ngram_prompt_lookup_max"):
# not close enough in spelling for difflib, so named here.
_VLLM_V0_KEY_NAMES = {"speculative_model": "model", "draft_model": "model", "num_spec_tokens": "num_speculative_tokens",
                      "ngram_prompt_lookup_max": "prompt_lookup_max", "ngram_prompt_lookup_min": "prompt_lookup_min",
                      "speculative_draft_tensor_parallel_size": "draft_tensor_parallel_size",
                      "speculative_max_model_len": "max_model_len",
                      "speculative_disable_by_batch_size": "disable_by_batch_size"}
# What vLLM does with a key SpeculativeConfig lacks: up to 0.8 a stdlib dataclass (`from_dict` =
# cls(**d)) raises TypeError "__init__() got an unexpected keyword argument"; 0.9 made the configs
# pydantic dataclasses (vllm-project/vllm#17599), which drop unknown keys without a word; 0.14
# forbids them (#31541, `@config` with extra="forbid": "SpeculativeConfig also used to accept and
# ignore these fields"), pydantic's "Unexpected keyword argument" at startup.
# Keys of a fork's SpeculativeConfig that no vLLM release has: a line written for the fork, said
# to be the fork's rather than a misspelling of vLLM's (`draft_attention_backend` is within
# difflib's reach of `attention_backend`). Aphrodite's branch feat/ddtree (aphrodite-engine/
# aphrodite-engine commit 56b8074f, aphrodite/config/speculative.py) adds both; vLLM's
# SpeculativeConfig names the draft's backend `attention_backend` (vllm/config/speculative.py).
_FORK_SPEC_KEYS = {"draft_attention_backend": ("Aphrodite (branch feat/ddtree)", "attention_backend"),
                   "ddtree_tree_budget": ("Aphrodite (branch feat/ddtree)", None)}
_VLLM_UNKNOWN_KEYS_DROPPED_SINCE = "0.9.0"
_VLLM_UNKNOWN_KEYS_REFUSED_SINCE = "0.14.0"
# Keys of _VLLM_SPEC_KEYS that a later SpeculativeConfig dropped -> the first release without
# them (the PyPI wheels' SpeculativeConfig fields, vllm/config.py up to 0.10.0, then
# vllm/config/speculative.py): 0.9.2 has the V0 verifier keys, 0.10.0 not; 0.11.0 has
# disable_log_stats / disable_logprobs / enable_chunked_prefill, 0.12.0 not; 0.16.0 has
# disable_by_batch_size, 0.17.0 not; 0.20.2 has speculative_token_tree (tree drafting), 0.21.0
# not (0.21.0 .. 0.34.0 read); 0.33.0 has disable_padded_drafter_batch and use_heterogeneous_vocab,
# 0.34.0 has neither (nor any other use of them in the package). From 0.14 such a key stops the
# server like any unknown one.
_VLLM_NEWEST_READ = "0.34.0"
_VLLM_KEYS_READ_BEFORE = "0.35.0"  # the first minor release after the newest read
_VLLM_SPEC_KEYS_REMOVED = {
    "acceptance_method": "0.10.0", "disable_mqa_scorer": "0.10.0", "posterior_threshold": "0.10.0",
    "posterior_alpha": "0.10.0", "disable_log_stats": "0.12.0", "disable_logprobs": "0.12.0",
    "enable_chunked_prefill": "0.12.0", "disable_by_batch_size": "0.17.0", "speculative_token_tree": "0.21.0",
    "disable_padded_drafter_batch": "0.34.0", "use_heterogeneous_vocab": "0.34.0",
    "synthetic_acceptance_rate": "0.20.0"}
# Keys of _VLLM_SPEC_KEYS that a later SpeculativeConfig added -> the first release with them, read
# like _VLLM_SPEC_KEYS_REMOVED from the PyPI wheels' SpeculativeConfig fields (0.8.5 .. 0.34.0, with
# every release just before each first one: 0.10.2, 0.11.0, 0.14.1, 0.15.1, 0.16.0, 0.17.1, 0.18.1,
# 0.19.1, 0.20.2, 0.23.0, 0.24.0, 0.25.1, 0.27.1, 0.28.0, 0.29.0, 0.32.0, 0.33.0 lack the key). On an
# older release the key is unknown, with _vllm_unknown_key_fate's outcome: `"dspark_draft_topk": 4`
# on 0.27.0 stops the server. num_speculative_tokens_per_batch_size (0.24.0) is said by
# _vllm_release_problems; custom_method (0.34.0) is no constructor key (init=False).
_VLLM_SPEC_KEYS_ADDED = {
    "enforce_eager": "0.11.0", "disable_padded_drafter_batch": "0.11.0",
    **dict.fromkeys(("suffix_decoding_max_tree_depth", "suffix_decoding_max_cached_requests",
                     "suffix_decoding_max_spec_factor", "suffix_decoding_min_token_prob"), "0.11.1"),
    "tensor_parallel_size": "0.15.0", "parallel_drafting": "0.16.0", "use_local_argmax_reduction": "0.17.0",
    "draft_load_config": "0.17.0", "rejection_sample_method": "0.18.0", "moe_backend": "0.19.0",
    "synthetic_acceptance_rate": "0.19.0", "synthetic_acceptance_rates": "0.20.0",
    "synthetic_acceptance_length": "0.20.0", "attention_backend": "0.21.0", "draft_sample_method": "0.21.0",
    "use_heterogeneous_vocab": "0.25.0", "kv_cache_dtype": "0.26.0", "enable_adaptive_verification": "0.28.0",
    "dspark_draft_topk": "0.28.0", "index_share_for_mtp_iteration": "0.29.0", "disable_eagle_block_drop": "0.30.0",
    **dict.fromkeys(("disable_lookahead_block_hashes", "draft_lm_head_quantization", "xpress_topc", "fly_window_size",
                     "fly_entropy_threshold", "fly_entropy_top_k"), "0.33.0"),
    **dict.fromkeys(("draft_decode_context_parallel_size", "suffix_decoding_corpus_tokens", "speculator_options"),
                    "0.34.0")}
# Keys of an EAGLE-3 draft's own config.json written into --speculative-config, where no vLLM
# release has them (vllm/config/speculative.py 0.20.0 .. 0.33.0 read: compute_hash reads
# eagle_aux_hidden_state_layer_ids from `draft_model_config.hf_config`, the draft's config.json;
# the runners read the ids and eagle_config there too, engines.CONVENTIONS config_keys). Too far
# from any SpeculativeConfig key for the misspelling rule, so such a line passed clean while the
# layer ids written there were never used.
_DRAFT_CONFIG_KEYS = frozenset((
    "eagle_aux_hidden_state_layer_ids", "eagle_config", "num_aux_hidden_states", "draft_vocab_size",
    "target_hidden_size", "norm_before_residual", "norm_before_fc", "fc_norm", "norm_output"))


def _vllm_misspelled_keys(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """A --speculative-config key SpeculativeConfig does not have, misspelled from one it has
    (`num_speculative_token`, `draft_tensor_parallel_sizes`, a V0 flag's name): what the running
    release does with it, and the right spelling. A key not close to any (`"topk": 4`, SGLang's
    idea; `"draft_tp": 2`) is said where the releases read cover the running one
    (_vllm_key_unknown)."""
    spec = cfg.speculative_config or {}
    lines = []
    for key in spec:
        removed = _vllm_removed_key(str(key), engine_version) or _vllm_added_key(str(key), engine_version)
        if removed is not None:
            lines.append(removed)
            continue
        fork = _FORK_SPEC_KEYS.get(str(key))
        if fork is not None:
            engine, vllm_key = fork
            lines.append(f"--speculative-config \"{key}\" is a key of {engine}, not of vLLM's SpeculativeConfig; "
                         f"{_vllm_unknown_key_fate(key, engine_version)}"
                         + (f" (vLLM's own key for it is \"{vllm_key}\")" if vllm_key else ""))
            continue
        if key in _DRAFT_CONFIG_KEYS:
            lines.append(f"--speculative-config \"{key}\" is a key of the draft's config.json, not of vLLM's "
                         f"SpeculativeConfig: vLLM reads it from the draft checkpoint only; "
                         f"{_vllm_unknown_key_fate(key, engine_version)} (write it in the draft's config.json and "
                         "drop it here)")
            continue
        right = _vllm_key_meant(str(key))
        if right is not None:
            lines.append(f"--speculative-config \"{key}\": SpeculativeConfig has no such key; "
                         f"{_vllm_unknown_key_fate(key, engine_version)} (write \"{right}\")")
        elif (key not in _VLLM_SPEC_KEYS and key not in _VLLM_PLUGIN_SPEC_KEYS
              and str(spec.get("method")).lower() not in _VLLM_PLUGIN_METHODS):
            lines += _vllm_key_unknown(str(key), engine_version)
    return lines


# Keys a published vLLM plugin installs in SpeculativeConfig, for its own methods and vLLM's:
# ArcticInference's suffix decoding, with "method": "suffix" or "arctic" (snowflakedb/
# ArcticInference docs/suffix-decoding.rst, "Arctic Inference installs additional parameters to
# the speculative-config"). A plugin method's other keys are left alone too.
_VLLM_PLUGIN_SPEC_KEYS = frozenset(("enable_suffix_decoding", "suffix_cache_max_depth", "suffix_max_spec_factor",
                                    "suffix_max_spec_offset", "suffix_min_token_prob"))
# The releases whose SpeculativeConfig keys _VLLM_SPEC_KEYS holds (with _VLLM_SPEC_KEYS_ADDED /
# _REMOVED: the PyPI wheels' fields from 0.8.5 to _VLLM_NEWEST_READ)
_VLLM_SPEC_KEYS_READ_FROM = "0.8.5"


def _vllm_key_unknown(key: str, engine_version: str | None) -> list[str]:
    """A --speculative-config key no SpeculativeConfig read has, nor close to one: refused at
    startup from 0.14 (extra="forbid"), dropped without a word by 0.9 .. 0.13, a TypeError before
    (_vllm_unknown_key_fate). Said for a release read over (0.8.5 .. the newest's minor line, a
    patch of which may add one: said with that doubt) or not known (a later release may have
    added it); not for an older release or a later minor, whose keys were not read. Was: left
    alone, so `"topk": 4` passed clean while the server refused to start."""
    version = _readable_version(engine_version)
    if engine_version is not None and (version is None or vllm_surely_before(version, _VLLM_SPEC_KEYS_READ_FROM)
                                       or not vllm_surely_before(version, _VLLM_KEYS_READ_BEFORE)):
        return []
    read = f"{_VLLM_SPEC_KEYS_READ_FROM} to {_VLLM_NEWEST_READ}"
    if version is None:
        said = f"in any release read ({read}; a later one may have added it)"
    elif not vllm_surely_before(version, _VLLM_NEWEST_READ) and version != _VLLM_NEWEST_READ:
        said = f"in any release read ({read}), unless vLLM {version}, a release not read, added it"
    else:
        said = f"(nor had it in any release read, {read})"
    return [f"--speculative-config \"{key}\": SpeculativeConfig has no such key {said}; "
            f"{_vllm_unknown_key_fate(key, version)}; drop it"]


def _vllm_removed_key(key: str, engine_version: str | None) -> str | None:
    """What the running release does with a --speculative-config key an older SpeculativeConfig had
    (`speculative_token_tree`, gone in 0.21.0): None where the release still has it. Such a key was
    read as any release's, so `"speculative_token_tree": "[(0,), (1,)]"` passed clean on a vLLM that
    stops at startup on it."""
    removed = _VLLM_SPEC_KEYS_REMOVED.get(key)
    if removed is None:
        return None
    version = _readable_version(engine_version)
    if version is not None and vllm_surely_before(version, removed):
        return None
    if version is None and removed == _VLLM_NEWEST_READ:
        # the release unknown: a key only the newest release read lacks is one that most running
        # servers still take, and a warning on it would flag healthy launches of every older one
        return None
    gone = f"--speculative-config \"{key}\": vLLM {removed} removed this key from SpeculativeConfig"
    if version is not None and _vllm_surely_from(version, removed):
        return f"{gone}; {_vllm_unknown_key_fate(key, version)} (drop it)"
    refused = max(removed, _VLLM_UNKNOWN_KEYS_REFUSED_SINCE, key=version_key)
    dropped = (f"; {removed} to 0.13 drop it without a word" if version_key(removed) < version_key(refused) else "")
    return (f"{gone}: vLLM {refused} and later refuse it (pydantic: \"Unexpected keyword argument\") and the server "
            f"does not start{dropped}; releases before {removed} read it (drop it on a newer release)")


def _vllm_added_key(key: str, engine_version: str | None) -> str | None:
    """What a known release older than a --speculative-config key (_VLLM_SPEC_KEYS_ADDED) does with
    it: `"dspark_draft_topk": 4` on vLLM 0.27.0 passed clean, as the key is any release's, while
    0.27.0 refuses it at startup. None where the release has the key or is unknown (the newest has it)."""
    added = _VLLM_SPEC_KEYS_ADDED.get(key)
    version = _readable_version(engine_version)
    if added is None or version is None or not vllm_surely_before(version, added):
        return None
    return (f"--speculative-config \"{key}\": vLLM {added} added this key to SpeculativeConfig; "
            f"{_vllm_unknown_key_fate(key, version)} (upgrade vLLM to {added} or later, or drop it)")


def _vllm_key_gone(key: str, engine_version: str | None) -> bool:
    """The running release is known and surely lacks `key` (_VLLM_SPEC_KEYS_REMOVED)."""
    removed = _VLLM_SPEC_KEYS_REMOVED.get(key)
    version = _readable_version(engine_version)
    return removed is not None and version is not None and _vllm_surely_from(version, removed)


def _vllm_key_meant(key: str) -> str | None:
    if key in _VLLM_SPEC_KEYS:
        return None
    bare = key.strip().lower().replace("-", "_")
    if bare in _VLLM_SPEC_KEYS:
        return bare
    if bare in _VLLM_V0_KEY_NAMES:
        return _VLLM_V0_KEY_NAMES[bare]
    close = difflib.get_close_matches(bare, sorted(_VLLM_SPEC_KEYS), n=1, cutoff=0.85)
    return close[0] if close else None


def _readable_version(engine_version: str | None) -> str | None:
    """The release as given, or None when there is none or it is no version number."""
    if engine_version is None:
        return None
    try:
        parse_version(engine_version)
    except ValueError:
        return None
    return engine_version


def _vllm_unknown_key_fate(key: str, engine_version: str | None) -> str:
    version = _readable_version(engine_version)
    if version is not None and _vllm_surely_from(version, _VLLM_UNKNOWN_KEYS_REFUSED_SINCE):
        return f"vLLM {version} refuses it (pydantic: \"Unexpected keyword argument\") and the server does not start"
    if version is not None and vllm_surely_before(version, _VLLM_UNKNOWN_KEYS_DROPPED_SINCE):
        return (f"vLLM {version} refuses it (\"__init__() got an unexpected keyword argument '{key}'\") and "
                "the server does not start")
    if (version is not None and _vllm_surely_from(version, _VLLM_UNKNOWN_KEYS_DROPPED_SINCE)
            and vllm_surely_before(version, _VLLM_UNKNOWN_KEYS_REFUSED_SINCE)):
        return (f"vLLM {version} drops it without a word (unknown keys are ignored until "
                f"{_VLLM_UNKNOWN_KEYS_REFUSED_SINCE}) and runs as if it were not written")
    return (f"vLLM {_VLLM_UNKNOWN_KEYS_REFUSED_SINCE} and later refuse it (pydantic: \"Unexpected keyword "
            f"argument\") and the server does not start; 0.9 to 0.13 drop it without a word and run as if it were "
            "not written")


def _sc_spelled_long(cfg: LaunchConfig) -> LaunchConfig:
    """`cfg` with `-sc.KEY` and its prefix `-s.KEY` written `--speculative-config.KEY`: FlexibleArgumentParser
    gathers the dotted keys by the flag as written (vllm/utils/argparse_utils.py `parse_args`), so they join
    the other --speculative-config.KEY words in one dict (-sc's and -s's were dicts of their own that
    replaced them)."""
    argv = ["--speculative-config" + word[word.index("."):] if word.startswith(("-sc.", "-s.")) else word
            for word in map(str, cfg.argv)]
    try:
        fixed = _parse_argv(argv)
    except LaunchParseError:
        return cfg
    kept = {name: getattr(fixed, name) if getattr(fixed, name) is not None else getattr(cfg, name)
            for name in ("draft_model", "algorithm", "num_steps", "topk", "num_draft_tokens")}
    return replace(cfg, argv=fixed.argv, flags=fixed.flags, speculative_config=fixed.speculative_config,
                   replaced_dotted=fixed.replaced_dotted, **kept)


def _effective_rules(cfg: LaunchConfig, target_architecture: str | None,
                     engine_version: str | None, draft_block_size: int | None = None,
                     draft_config: Any = None) -> EffectiveSpec:
    if cfg.engine == "vllm":
        eff = _vllm_rules(cfg, engine_version, draft_config)
        release = (_vllm_release_problems(cfg, engine_version)
                   + _vllm_target_refused(cfg, target_architecture, engine_version)
                   + _vllm_misspelled_keys(cfg, engine_version)
                   + _vllm_draft_model_unsupported(cfg, engine_version, draft_config) + _vllm_method_case(cfg)
                   + _vllm_recent_method_release_unknown(cfg, engine_version)
                   + _vllm_async_scheduling_refusals(cfg, engine_version)
                   + _vllm_unpadded_batch_refusals(cfg, engine_version))
        if any(p.startswith("-sc: vLLM ") for p in release) and any(name.startswith("sc.") for name in cfg.flags):
            # a release with no -sc exits at argparse on it ("unrecognized arguments", said above): the rest
            # is read as the refusal's fix gives it, -sc spelled --speculative-config, where keys still
            # replace a JSON value but -sc's dotted keys merge with --speculative-config's, not replace them
            # (with no other spelling given dotted keys, -sc's alone are read as those would be)
            eff = _vllm_rules(_sc_spelled_long(cfg), engine_version, draft_config) if cfg.replaced_dotted else eff
        if cfg.python_call and release:
            release = [vllm_call_wording(line, cfg.python_call) for line in release]
        return replace(eff, problems=release + eff.problems) if release else eff
    if cfg.algorithm in ("DFLASH", "DSPARK"):
        eff = _sglang_block_rules(cfg, draft_block_size)
    elif cfg.algorithm == "NGRAM":
        eff = _sglang_ngram_rules(cfg)
    else:
        eff = _sglang_rules(cfg, target_architecture, engine_version)
    if cfg.python_call:
        eff = replace(eff, overrides=[sglang_call_wording(line, cfg.python_call) for line in eff.overrides],
                      problems=[sglang_call_wording(line, cfg.python_call) for line in eff.problems])
    return eff


_JSON_WORDS = {"true": "True", "false": "False", "null": "None"}
_SPEC_CONFIG_KEY = re.compile(r'--speculative-config ("[^"]+")(?:: ("[^"]*"|true|false|null|-?[\d.]+))?')
_SPEC_CONFIG_TEXT = re.compile(r"--speculative-config '(\{[^']*\})'")


def vllm_call_wording(line: str, call: str) -> str:
    """A vLLM release line said of a Python call (`LLM(..., speculative_config={...})`), which
    writes no command line (was: `--speculative-config "method": "dflash": ...` and "the server does
    not start" to a script that builds LLM(...)): the key as the call's dict holds it
    (`speculative_config={"method": "dflash"}`, `speculative_config["index_share_for_mtp_iteration"]`),
    an option the release lacks as the TypeError of its keyword (`_as_keyword_refusal`: EngineArgs
    is a dataclass, so LLM(**kwargs) raises on a field it does not have), and the engine, not a
    server, that does not start. vllm/entrypoints/llm.py `LLM.__init__` builds
    `EngineArgs(..., **kwargs)` from its keywords."""
    line = _as_keyword_refusal(line, call)

    def key(m: re.Match[str]) -> str:
        value = m.group(2)
        if value is None:
            return f"speculative_config[{m.group(1)}]"
        return f"speculative_config={{{m.group(1)}: {_JSON_WORDS.get(value, value)}}}"

    line = _SPEC_CONFIG_KEY.sub(key, line)
    line = _SPEC_CONFIG_TEXT.sub(lambda m: f"speculative_config={m.group(1)}", line)
    line = line.replace("older releases take --speculative-model DRAFT --num-speculative-tokens K",
                        "older releases take speculative_model=DRAFT, num_speculative_tokens=K")
    return line.replace("the server does not start", "the engine does not start").replace(
        "in --speculative-config", "in speculative_config")


# SGLang options whose value is a name (not a number): the word after one in a rule's line is its
# value unless it is one of the words the lines go on with ("--attention-backend is ...")
_SGLANG_NAMED_VALUE = re.compile(r"speculative-algorithm|.*-backend|.*dtype|.*-path|quantization")
_NOT_A_VALUE = frozenset({"is", "are", "and", "or", "to", "with", "alone", "makes", "unset", "set", "was", "of",
                          "in", "not", "but", "for", "on", "at"})
_SGLANG_OPTION_WORDS = re.compile(r"--([a-z0-9][a-z0-9-]*)(?: (-?\d+(?:\.\d+)?\b|<[\w -]+>|[\w./-]+))?")


def sglang_said_of_call(line: str, cfg: LaunchConfig) -> str:
    """A line an SGLang rule builds, said of the command or, for a Python engine call, of the call:
    an option the release lacks as the call's TypeError (`_as_keyword_refusal`), the others with
    the call's keywords (`sglang_call_wording`)."""
    if not cfg.python_call:
        return line
    said = _as_keyword_refusal(line, cfg.python_call)
    return said if said != line else sglang_call_wording(line, cfg.python_call)


def sglang_call_wording(line: str, call: str) -> str:
    """A line of the SGLang rules (or of a launch finding) said of a Python call
    (`sgl.Engine(speculative_num_steps=1, ...)`), which writes no command line: each SGLang option
    as the keyword the call takes (`--speculative-num-steps 3` -> `speculative_num_steps=3`,
    `--speculative-algorithm EAGLE3` -> `speculative_algorithm="EAGLE3"`, a switch `=True`), and the
    engine, not a server, that does not start. Engine(**kwargs) builds ServerArgs(**kwargs), whose
    fields are the options' dest names (python/sglang/srt/entrypoints/engine.py `Engine.__init__`).
    Was: the command-line flags, which such a script never writes (the vLLM calls' lines were
    already worded so, `vllm_call_wording`). Only for lines the rules build: a refusal already said
    as the call's TypeError (`_as_keyword_refusal`) names `--options` on purpose."""
    def keyword(m: re.Match[str]) -> str:
        name, value = m.group(1), m.group(2)
        if name not in SGLANG_OPTIONS:
            return m.group(0)
        field = name.replace("-", "_")
        if _is_switch(name):
            return f"{field}=True" + (f" {value}" if value else "")
        if value is None or value in _NOT_A_VALUE or (
                not re.fullmatch(r"-?\d+(?:\.\d+)?", value) and not value.startswith("<")
                and not _SGLANG_NAMED_VALUE.fullmatch(name)):
            return field + (f" {value}" if value else "")
        return f"{field}={value}" if re.fullmatch(r"-?\d+(?:\.\d+)?", value) else f'{field}="{value}"'

    said = _SGLANG_OPTION_WORDS.sub(keyword, line)
    # keywords written one after another are the call's arguments: comma-separated
    said = re.sub(r"(\b[a-z][a-z0-9_]*=(?:\"[^\"]*\"|[\w.-]+)) (?=[a-z][a-z0-9_]*=)", r"\1, ", said)
    return said.replace("the server does not start", f"{call}(...) does not start")


def sglang_target_refused(cfg: LaunchConfig, target_architecture: str | None, engine_version: str | None,
                          draft_config: Any) -> str | None:
    """SGLang's EAGLE3 calls set_eagle3_layers_to_capture on the target at startup, so a target
    class whose model file lacks it in this release (engines.SGLANG_CAPTURE_SINCE) or in every
    release read (SGLANG_NO_EAGLE3_CAPTURE), or a Qwen3.5 target that captures nothing
    (SGLANG_NO_AUX_CAPTURE), stops the server: engines.capture_failure, which the layer check's
    SD201 says too (was: the launch check was silent; vLLM's says its SupportsEagle3 refusal,
    _vllm_target_refused). The launch step adds it to the effective spec's problems, as it does
    the MTP-target refusals. Not asked before SGLang's first EAGLE-3 release (effective_spec
    refuses the algorithm there), nor for a draft whose eagle_config sets use_aux_hidden_state
    false (from 0.5.8 the model runner then never calls the method)."""
    if (cfg.engine != "sglang" or cfg.algorithm != "EAGLE3" or not target_architecture
            or not use_aux_hidden_state(draft_config)
            or (engine_version is not None and _sglang_surely_before(engine_version, _SGLANG_EAGLE3_SINCE))):
        return None
    failure = capture_failure("sglang", target_architecture, engine_version)
    return None if failure is None else f"--speculative-algorithm EAGLE3: {failure.reason} ({failure.fix})"


# vLLM's method names (vllm/config/speculative.py `SpeculativeMethod`, plus the `*_mtp` model types
# it maps to mtp): all lower case.
_VLLM_METHODS = ("ngram", "medusa", "mlp_speculator", "draft_model", "suffix", "custom_class", "eagle", "eagle3",
                 "extract_hidden_states", "mtp", "dflash", "dspark", "ngram_gpu")


def _vllm_method_case(cfg: LaunchConfig) -> list[str]:
    """A method written in SGLang's upper case ("EAGLE3"): vLLM compares it with its lower-case
    names as written (SpeculativeConfig validates `method` against the `SpeculativeMethod`
    Literal; releases before that validation took it as an unknown method unless the draft's
    name said eagle3/eagle-, `__post_init__` method detection)."""
    method = (cfg.speculative_config or {}).get("method")
    if not isinstance(method, str) or method == method.lower():
        return []
    lower = method.lower()
    if lower not in _VLLM_METHODS and not lower.endswith("_mtp"):
        return []
    return [f"--speculative-config \"method\": \"{method}\": vLLM's method names are lower case, and releases that "
            f"validate the config refuse \"{method}\" at startup (older ones ran it only when the draft's name said "
            f"eagle3/eagle-; SGLang's upper-case --speculative-algorithm names do not carry over); write "
            f"\"method\": \"{lower}\""]


# SGLang NGRAM defaults (server_args.py ServerArgs: speculative_ngram_max_bfs_breadth = 10;
# draft tokens 12 when unset, `_handle_ngram` in arg_groups/speculative_hook.py, where releases
# before it took speculative_ngram_max_match_window_size, whose default is also 12).
_SGLANG_NGRAM_BFS_BREADTH = 10
_SGLANG_NGRAM_DRAFT_TOKENS = 12


def _sglang_ngram_rules(cfg: LaunchConfig) -> EffectiveSpec:
    """NGRAM as SGLang resolves it (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py
    `_handle_ngram`, server_args.py `_handle_speculative_decoding` before it): no auto-choose and
    no topk-1 rewrite; topk is always --speculative-ngram-max-bfs-breadth (default 10), the
    written --speculative-eagle-topk is dropped; unset draft tokens become 12. The verify block is
    the draft tokens matched in the n-gram cache (speculative/ngram_worker.py reads
    speculative_num_draft_tokens), so --speculative-num-steps is no depth here."""
    tokens = cfg.num_draft_tokens
    try:
        breadth = _int_flag(cfg.flags, ("speculative-ngram-max-bfs-breadth",), "sglang")
        window = _int_flag(cfg.flags, ("speculative-ngram-max-match-window-size",), "sglang")
    except LaunchParseError as exc:
        # argparse's `type=int` exits ("invalid int value"): the server does not start
        return EffectiveSpec(cfg.num_steps, None, tokens, problems=[f"{exc.message}: argparse exits and the server "
                                                                    "does not start"])
    breadth = _SGLANG_NGRAM_BFS_BREADTH if breadth is None else breadth
    overrides: list[str] = []
    if cfg.topk is not None and cfg.topk != breadth:
        # what runs, not a budget to fix: NGRAM has no topk of its own
        overrides.append(f"auto-chosen: topk {breadth} from --speculative-ngram-max-bfs-breadth (NGRAM drops "
                         f"the written --speculative-eagle-topk {cfg.topk})")
    if tokens is None and window not in (None, _SGLANG_NGRAM_DRAFT_TOKENS):
        # which one runs depends on the release, and the engine version is not known here
        overrides.append(f"auto-chosen: {_SGLANG_NGRAM_DRAFT_TOKENS} draft tokens for NGRAM in newer SGLang, "
                         f"{window} (--speculative-ngram-max-match-window-size) in older releases; set "
                         "--speculative-num-draft-tokens to be sure")
    elif tokens is None:
        tokens = _SGLANG_NGRAM_DRAFT_TOKENS
        overrides.append(f"auto-chosen: {tokens} draft tokens for NGRAM (--speculative-num-draft-tokens unset)")
    return EffectiveSpec(cfg.num_steps, breadth, tokens, cfg.num_draft_tokens is None, overrides,
                         _sglang_ngram_refusals(cfg, breadth))


def _sglang_ngram_refusals(cfg: LaunchConfig, breadth: int) -> list[str]:
    """What `_handle_ngram` raises ValueError for (sgl-project/sglang
    python/sglang/srt/arg_groups/speculative_hook.py; server_args.py before the split): a tree
    (bfs breadth > 1) on paged KV with any attention backend but flashinfer, and dp attention.
    Its topk is the breadth, default 10, so --page-size alone trips the first."""
    problems = []
    page = cfg.page_size or 1
    if breadth > 1 and page > 1 and cfg.attention_backend != "flashinfer":
        written = _lookup(cfg.flags, ("speculative-ngram-max-bfs-breadth",)) is not None
        backend = (f"with --attention-backend {cfg.attention_backend}: SGLang refuses to start" if cfg.attention_backend
                   else "with no --attention-backend: SGLang refuses to start unless the backend it picks is flashinfer")
        problems.append(f"NGRAM on --page-size {page} drafts a tree of breadth {breadth} (--speculative-ngram-max-bfs-"
                        f"breadth{'' if written else ', default 10'}) "
                        f"{backend} (\"speculative_eagle_topk({breadth}) > 1 with "
                        f"page_size({page}) > 1 is unstable ... only supported for the 'flashinfer' backend\"); use "
                        "--attention-backend flashinfer, --page-size 1 or --speculative-ngram-max-bfs-breadth 1")
    if cfg.flags.get("enable-dp-attention") is True:
        problems.append("--speculative-algorithm NGRAM with --enable-dp-attention: SGLang refuses to start "
                        "(\"Currently ngram speculative decoding does not support dp attention.\")")
    return problems


# SGLang's DFlash default block when neither the command nor the draft's config gives one
# (arg_groups/speculative_hook.py `_handle_dflash`: "defaulting to 16 for DFLASH").
_SGLANG_DFLASH_DEFAULT_BLOCK = 16


def draft_block_size(draft_config: Any) -> int | None:
    """The verify block SGLang gives a DFLASH server whose command sets none: the draft config's
    `dflash_config.block_size`, else its top-level `block_size` (z-lab/Qwen3-8B-DFlash-b16
    config.json: "block_size": 16), as `parse_dflash_draft_config(...).resolve_block_size` reads
    it (sgl-project/sglang python/sglang/srt/speculative/dflash_utils.py), else 16. None: the
    draft config was not read, so the block is unknown here."""
    if not isinstance(draft_config, dict):
        return None
    nested = draft_config.get("dflash_config")
    for value in ((nested or {}).get("block_size") if isinstance(nested, dict) else None,
                  draft_config.get("block_size")):
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return _SGLANG_DFLASH_DEFAULT_BLOCK


def _sglang_block_rules(cfg: LaunchConfig, block_from_draft: int | None) -> EffectiveSpec:
    """DFLASH and DSPARK as SGLang resolves them (sgl-project/sglang
    python/sglang/srt/arg_groups/speculative_hook.py `_handle_dflash`, `_handle_dspark`):
    steps and topk are forced to 1 (with a warning when written otherwise); the verify block
    (--speculative-num-draft-tokens) is --speculative-dflash-block-size, else the draft config's
    block size, else 16 (DFLASH), and --speculative-dspark-block-size (gamma) + 1 (DSPARK). A block
    flag that disagrees with --speculative-num-draft-tokens makes SGLang refuse to start."""
    # a written steps/topk other than 1 is overwritten with a warning and costs nothing: not a
    # problem to report (the verify block is what a round drafts)
    overrides: list[str] = []
    problems: list[str] = []
    tokens = cfg.num_draft_tokens
    flag = "speculative-dflash-block-size" if cfg.algorithm == "DFLASH" else "speculative-dspark-block-size"
    try:
        block = _int_flag(cfg.flags, (flag,), "sglang")
    except LaunchParseError as exc:
        # argparse's `type=int` exits ("invalid int value"): the server does not start
        return EffectiveSpec(1, 1, tokens, problems=[f"{exc.message}: argparse exits and the server does not start"])
    if cfg.algorithm == "DFLASH":
        if block is not None and block <= 0:
            problems.append(f"--speculative-dflash-block-size {block}: SGLang refuses to start (it must be positive)")
        elif block is not None and tokens is not None and tokens != block:
            problems.append(f"--speculative-dflash-block-size {block} and --speculative-num-draft-tokens {tokens} "
                            "differ: SGLang refuses to start ('For DFLASH they must match')")
        elif block is not None:
            tokens = block
        elif tokens is None:
            # the block comes from the draft's config at startup (`draft_block_size`); unknown
            # when that config was not read, and not guessed: a wrong block misreads the log
            tokens = block_from_draft
            overrides.append("auto-chosen: --speculative-num-draft-tokens is unset, so SGLang takes the verify block "
                             "from the draft config's block_size (16 when it has none)"
                             + (f": {tokens}" if tokens else "; the draft config was not read here"))
    else:
        gamma = block
        if gamma is not None and gamma <= 0:
            problems.append(f"--speculative-dspark-block-size {gamma}: SGLang refuses to start (it must be positive)")
        elif gamma is not None and tokens is not None and tokens != gamma + 1:
            problems.append(f"--speculative-num-draft-tokens {tokens} is not --speculative-dspark-block-size {gamma} "
                            f"+ 1: SGLang refuses to start (\"DSpark speculative_num_draft_tokens must equal gamma + 1\")")
        elif gamma is not None:
            tokens = gamma + 1
    if tokens is not None and tokens < 2 and not problems:
        problems.append(f"a verify block of {tokens} token(s) drafts nothing: {cfg.algorithm} needs at least 2")
    return EffectiveSpec(1, 1, tokens, overrides=overrides, problems=problems,
                         tree_capacity=tokens - 1 if tokens else None)


# vllm/config/speculative.py: `suffix_decoding_max_tree_depth` defaults to 24, and
# `_validate_suffix_decoding` makes it the K of a suffix config written without one.
_VLLM_SUFFIX_MAX_TREE_DEPTH = 24


# The methods whose drafts' config.json carries n_predict (vllm/transformers_utils/configs:
# MLPSpeculatorConfig, MedusaConfig), which vLLM takes as K when the command writes none.
_VLLM_N_PREDICT_METHODS = ("mlp_speculator", "medusa")


def _vllm_unwritten_k(cfg: LaunchConfig, draft_config: Any) -> EffectiveSpec:
    """num_speculative_tokens left out of --speculative-config, as vLLM resolves it
    (vllm/config/speculative.py `__post_init__`): the draft config's `n_predict` (MLPSpeculator,
    Medusa, MTP configs) becomes K; method suffix takes its `suffix_decoding_max_tree_depth`;
    otherwise `_verify_args` refuses to start ("num_speculative_tokens must be provided with
    speculative model unless the draft model config contains an n_predict parameter"). A
    speculators draft's `speculative_tokens` is only read when the speculator is the served
    --model (`maybe_override_with_speculators`); vllm-project/vllm PR #44566, open when this was
    written, would read it from a draft in --speculative-config too."""
    spec = cfg.speculative_config or {}
    replaced = _vllm_json_replaced(cfg)
    method = str(spec.get("method") or "").lower()
    if method == "suffix" and not replaced:
        depth = spec.get("suffix_decoding_max_tree_depth", _VLLM_SUFFIX_MAX_TREE_DEPTH)
        if isinstance(depth, int) and not isinstance(depth, bool) and depth >= 1:
            return EffectiveSpec(depth, 1, depth + 1, overrides=[
                f"auto-chosen: num_speculative_tokens {depth} for method suffix (its suffix_decoding_max_tree_depth; "
                "suffix decoding drafts up to that many tokens, fewer where its match is short)"], tree_capacity=depth)
    config = draft_config if isinstance(draft_config, dict) else {}
    n_predict = config.get("n_predict")
    if spec.get("model") and isinstance(n_predict, int) and not isinstance(n_predict, bool) and n_predict > 0:
        return EffectiveSpec(n_predict, 1, n_predict + 1, overrides=[
            f"auto-chosen: num_speculative_tokens {n_predict} from the draft config's n_predict"],
            tree_capacity=n_predict)
    proposals = ((config.get("speculators_config") or {}).get("proposal_methods")
                 if isinstance(config.get("speculators_config"), dict) else None)
    exported = (proposals[0].get("speculative_tokens") if isinstance(proposals, list) and proposals
                and isinstance(proposals[0], dict) else None)
    if spec.get("model") and config.get("speculators_model_type") and exported:
        why = (f"the draft {spec['model']} is a speculators checkpoint exported for {exported} speculative "
               "tokens, but vLLM reads that count only when the speculator is the served model (`vllm serve "
               f"{spec['model']}`), not from a draft given in --speculative-config (vllm-project/vllm PR #44566, "
               "open, would): vLLM refuses to start (\"num_speculative_tokens must be provided with speculative "
               f"model unless the draft model config contains an n_predict parameter\"); write \"num_speculative_tokens\": "
               f"{exported}")
        return EffectiveSpec(None, None, None, problems=[replaced + "num_speculative_tokens missing from "
                                                         "--speculative-config: " + why])
    model = str(spec.get("model") or "")
    if model and not isinstance(draft_config, dict) and not replaced and (
            method in _VLLM_N_PREDICT_METHODS or (not method and "eagle" not in model.lower()
                                                  and model.lower() not in ("ngram", "[ngram]"))):
        # The draft's config.json was not read (a hub name not in the host's cache): an
        # MLPSpeculator's or Medusa head's carries n_predict, which vLLM takes as K, and with no
        # method vLLM picks mlp_speculator from that config. The vLLM docs' MLP example writes no
        # K (features/speculative_decoding/mlp.md: {"model": "ibm-ai-platform/llama3-8b-accelerator",
        # "method": "mlp_speculator"}): no refusal on a guess.
        return EffectiveSpec(None, None, None, overrides=[
            f"auto-chosen: num_speculative_tokens from the draft config's n_predict ({model}'s config.json "
            "was not read)"])
    problems = []
    if cfg.speculative_config is not None:
        # vLLM PR #20375: required unless the draft config supplies n_predict.
        problems.append(replaced + "num_speculative_tokens missing from --speculative-config (vLLM refuses to start "
                        "unless the draft config has n_predict; a speculators draft's speculative_tokens counts only "
                        "when the speculator is the served model)")
    return EffectiveSpec(None, None, None, problems=problems)


def _vllm_rules(cfg: LaunchConfig, engine_version: str | None, draft_config: Any = None) -> EffectiveSpec:
    replaced = _vllm_json_replaced(cfg)
    if cfg.num_steps is None:
        return _vllm_unwritten_k(cfg, draft_config)
    spec = cfg.speculative_config or {}
    method = str(spec.get("method") or "").lower()
    problems = []
    if not spec.get("model") and (method or replaced) and method not in _VLLM_MODEL_FREE_METHODS and (
            not method.endswith("_mtp")):
        # vllm/config/speculative.py `__post_init__`: with no model, only the methods that
        # need none (or take the target's own MTP layers) go on; the rest raise ValueError.
        # A config with neither model nor method is left alone: `vllm serve <speculators
        # checkpoint>` replaces it with the checkpoint's own (vllm/transformers_utils/config.py
        # `maybe_override_with_speculators`).
        # (custom_class has its own message: the class path goes in "model", vllm/config/speculative.py)
        refusal = ("method='custom_class' requires 'model' to contain the custom proposer module path"
                   if method == "custom_class" else "num_speculative_tokens was provided but without speculative model")
        problems.append(replaced + f"--speculative-config {json.dumps(spec)} has num_speculative_tokens but no "
                        "draft model" + (f" for method {method}" if method else " and no method") +
                        f": vLLM refuses to start (\"{refusal}\")")
    problems += _vllm_draft_tp_problems(cfg, spec)
    if spec.get("num_speculative_tokens_per_batch_size") is not None and not (
            engine_version is not None and vllm_surely_before(engine_version, _VLLM_DYNAMIC_K_SINCE)):
        # an older release refuses the key (_vllm_release_problems)
        return _vllm_dynamic_k(cfg, spec, problems)
    return EffectiveSpec(cfg.num_steps, 1, cfg.num_steps + 1, tree_capacity=cfg.num_steps, problems=problems)


def _vllm_draft_tp_problems(cfg: LaunchConfig, spec: dict[str, Any]) -> list[str]:
    """The draft's tensor parallelism as vLLM checks it at startup (vllm/config/speculative.py
    `_verify_and_get_draft_tp`: "cannot be other value than 1 or target model
    tensor_parallel_size"; vllm-project/vllm PR #31886, still open, asks for any other size), and
    the `tensor_parallel_size` key written for it, which SpeculativeConfig refuses ("Please pass
    'draft_tensor_parallel_size' instead"; releases before that message refused the unknown key)."""
    problems = []
    if "tensor_parallel_size" in spec:
        problems.append(f"--speculative-config has \"tensor_parallel_size\": {json.dumps(spec['tensor_parallel_size'])}: "
                        "vLLM refuses to start ('tensor_parallel_size' is not a valid argument in the "
                        "speculative_config); the draft's is \"draft_tensor_parallel_size\" (1 or the target's -tp)")
    draft_tp = spec.get("draft_tensor_parallel_size")
    if draft_tp is None:
        return problems
    try:
        number = float(str(draft_tp).strip()) if not isinstance(draft_tp, bool) else None
    except ValueError:
        number = None
    target_tp = cfg.tp or 1
    if "tensor-parallel-size" in cfg.unexpanded and number is not None and number.is_integer() and number >= 1:
        return problems  # the target's size is a shell variable: no size to compare with
    if number is None or not number.is_integer() or number < 1:
        problems.append(f"--speculative-config \"draft_tensor_parallel_size\": {json.dumps(draft_tp)} is not a size "
                        "of at least 1: vLLM refuses to start")
    elif int(number) not in (1, target_tp):
        problems.append(f"--speculative-config \"draft_tensor_parallel_size\": {int(number)} with tensor parallel size "
                        f"{target_tp}: vLLM refuses to start (the draft runs on 1 GPU or on the target's {target_tp})")
    return problems


# `--async-scheduling` given explicitly: vLLM "hard fails any incompatibilities" with the speculative
# config instead of turning async scheduling off (vllm/config/vllm.py VllmConfig, the
# `if self.scheduler_config.async_scheduling:` branch; left unset, the `is None` branch only warns and
# turns it off). Its ValueErrors: a method outside the async list ("Currently, async scheduling is only
# supported with EAGLE/MTP/Draft Model/NGram GPU/DSpark kind of speculative decoding") and "Async
# scheduling is not compatible with disable_padded_drafter_batch=True.". Both arrived with async
# scheduling for spec decode (vllm-project/vllm#24799, eagle/mtp only; #31998 made it the default in
# 0.14); a vLLM 0.30.0 deployment log quotes the first for `--async-scheduling` with method ngram, and
# 0.17.1 the same for ngram. Judged only from 0.12.0, the first release surely carrying #24799: an older
# one is not told it refuses on a guess. The list grew (draft_model, ngram_gpu, dspark, dflash by
# #58065), so only the methods no release lists are refused here.
_VLLM_ASYNC_SPEC_CHECKS_SINCE = "0.12.0"
_VLLM_NO_ASYNC_METHODS = ("ngram", "[ngram]", "suffix", "medusa", "mlp_speculator")


def _vllm_async_scheduling_refusals(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """What vLLM refuses at startup when `--async-scheduling` is written (the last of it and
    `--no-async-scheduling` wins, as argparse's BooleanOptionalAction has it) beside a speculative
    config it cannot run asynchronously (see _VLLM_NO_ASYNC_METHODS)."""
    spec = cfg.speculative_config
    if cfg.engine != "vllm" or spec is None or not _async_scheduling_written(cfg.flags):
        return []
    if engine_version is not None and vllm_surely_before(engine_version, _VLLM_ASYNC_SPEC_CHECKS_SINCE):
        return []
    problems = []
    method = spec.get("method")
    if method is None and spec.get("model") in ("ngram", "[ngram]"):
        method = "ngram"  # vLLM takes the method from that model name
    if method in _VLLM_NO_ASYNC_METHODS:
        problems.append(f"--async-scheduling with method {method}: vLLM refuses to start (\"Currently, async scheduling "
                        "is only supported with EAGLE/MTP/... kind of speculative decoding\", vllm/config/vllm.py); "
                        f"drop --async-scheduling (left unset, vLLM turns it off for {method} with a warning)"
                        + (", or method ngram_gpu where the release names it in that message"
                           if method in ("ngram", "[ngram]") else ""))
    # a pydantic bool, coerced as speculators' configs are (a dotted `--speculative-config.KEY true` is a string);
    # a release without the key refuses the key itself (_vllm_removed_key)
    if speculators_flag(spec.get("disable_padded_drafter_batch")) and not _vllm_key_gone(
            "disable_padded_drafter_batch", engine_version):
        problems.append("--async-scheduling with \"disable_padded_drafter_batch\": true: vLLM refuses to start (\"Async "
                        "scheduling is not compatible with disable_padded_drafter_batch=True.\", vllm/config/vllm.py); "
                        "drop one of the two (left unset, vLLM turns async scheduling off for an unpadded drafter batch)")
    return problems


# A drafter that takes extra input slots per request (a draft model, or parallel drafting: P-EAGLE,
# vllm-project/vllm#32887, 0.16.0) only runs on the padded drafter batch: vllm/v1/spec_decode/eagle.py
# SpecDecodeBaseProposer `__init__` (`if self.needs_extra_input_slots:`) and draft_model.py
# DraftModelProposer `__init__` call `_raise_if_padded_drafter_batch_disabled`, NotImplementedError
# "Speculative Decoding with draft models or parallel drafting only supports padded drafter batch."
# when the engine builds the drafter. Judged from 0.16.0, the release that brought parallel drafting.
# A parallel EAGLE drafter takes num_speculative_tokens slots a request less the one its hidden states
# reuse (extra_slots_per_request - 1 = net_num_new_slots_per_request; needs_extra_input_slots = net > 0):
# asked for one token it takes none and runs unpadded, and a count left to the draft config is not judged.
_VLLM_PADDED_ONLY_SINCE = "0.16.0"


def _vllm_unpadded_batch_refusals(cfg: LaunchConfig, engine_version: str | None) -> list[str]:
    """`"disable_padded_drafter_batch": true` on a drafter vLLM only runs padded."""
    spec = cfg.speculative_config
    if cfg.engine != "vllm" or not spec or not speculators_flag(spec.get("disable_padded_drafter_batch")):
        return []
    if engine_version is not None and vllm_surely_before(engine_version, _VLLM_PADDED_ONLY_SINCE):
        return []
    if _vllm_key_gone("disable_padded_drafter_batch", engine_version):
        return []  # 0.34.0 has no such key: _vllm_removed_key says it stops the server
    if spec.get("method") == "draft_model":
        drafter = "method draft_model"
    elif (speculators_flag(spec.get("parallel_drafting")) and spec.get("method") in ("eagle", "eagle3")
          and (cfg.num_steps or 0) > 1):
        drafter = f"parallel drafting (method {spec['method']})"
    else:
        return []
    return [f"\"disable_padded_drafter_batch\": true with {drafter}: vLLM refuses to start (\"Speculative Decoding "
            "with draft models or parallel drafting only supports padded drafter batch.\", "
            "vllm/v1/spec_decode/eagle.py); drop \"disable_padded_drafter_batch\""]


def _async_scheduling_written(flags: dict[str, Any]) -> bool:
    """`--async-scheduling` is on as written: present, and after any `--no-async-scheduling`
    (flags keep the order of each flag's last occurrence)."""
    last = [name for name in flags if name in ("async-scheduling", "no-async-scheduling")]
    return bool(last) and last[-1] == "async-scheduling"


# EAGLE-3 over pipeline parallelism in vLLM (../shared/reference/EAGLE3.md section 6 item 15). The
# drafter lives on the last pipeline stage; the aux hidden states it takes are captured wherever their
# layers run. Up to 0.29.0 nothing carries them over (the PyPI sdists): the V1 model runner sets the aux
# layer ids on the last stage alone (vllm/v1/worker/gpu_model_runner.py, `if self.speculative_config and
# get_pp_group().is_last_rank`), every model's forward on an earlier stage returns
# IntermediateTensors({"hidden_states", "residual"}) only (vllm/model_executor/models/llama.py;
# vllm-project/vllm#45985), and the last stage matches the ids against
# `enumerate(islice(self.layers, start_layer, end_layer))`, a stage-local index (vllm-project/vllm#36151;
# #36731, which added `start=`, was closed unmerged: 0.29.0's llama.py still counts from 0). The V2 model
# runner refuses it ("EAGLE3 with pipeline parallel is not supported", 0.17.0 .. 0.29.0
# vllm/v1/worker/gpu/model_runner.py), and from 0.22.0 the default falls back to V1 for it ("Model Runner
# V2 does not yet support EAGLE3 with pipeline parallelism; using the V1 model runner instead",
# vllm/config/vllm.py). vllm-project/vllm#50514 (merged 2026-09, first in 0.30.0) sends them to the last
# stage on the V2 runner, 0.30.0's default, and refuses at startup a target that has not opted in
# (vllm/v1/worker/gpu/spec_decode/eagle/eagle3_utils.py `verify_supports_aux_hidden_states_over_pp`);
# VLLM_USE_V2_MODEL_RUNNER=0 keeps the V1 runner, which still sets the ids on the last stage alone.
# No SGLang counterpart: its server args assert that --pp-size > 1 and a speculative algorithm are not
# combined (arg_groups/validation_hook.py, quoted in sgl-project/sglang#37154), a refusal at startup.
_VLLM_EAGLE3_PP_SINCE = "0.30.0"
VLLM_EAGLE3_PP_SOURCES = ("https://github.com/vllm-project/vllm/issues/36151",
                          "https://github.com/vllm-project/vllm/pull/45985",
                          "https://github.com/vllm-project/vllm/pull/50514")


@dataclass(frozen=True)
class PipelineAuxLoss:
    """An EAGLE-3 drafter served by vLLM over pipeline stages that do not hand it their aux states."""

    evidence: list[str]
    fix: str
    release_known: bool
    """False: the vLLM release is unknown, and 0.30.0 or later on its default runner would serve it."""


def _v2_runner_env(cfg: LaunchConfig) -> bool | None:
    """VLLM_USE_V2_MODEL_RUNNER as vLLM reads it (vllm/envs.py: bool(int(value))); None when unset
    or not an integer (vLLM fails to start on that)."""
    value = cfg.env.get("VLLM_USE_V2_MODEL_RUNNER")
    try:
        return bool(int(value)) if value is not None else None
    except ValueError:
        return None


def vllm_eagle3_pipeline_aux_loss(cfg: LaunchConfig, engine_version: str | None,
                                  draft_config: Any = None) -> PipelineAuxLoss | None:
    """A vLLM EAGLE-3 launch with more than one pipeline stage on a release or model runner that does
    not carry the aux hidden states of the earlier stages to the drafter (see _VLLM_EAGLE3_PP_SINCE).
    None where it does, where the runner refuses the launch at startup (the V2 runner before 0.30.0:
    the engine says so itself), and for a draft whose eagle_config turns the aux states off (vLLM then
    feeds it the last hidden state, which the last stage has)."""
    if cfg.engine != "vllm" or cfg.algorithm != "EAGLE3" or not cfg.pp or cfg.pp < 2:
        return None
    eagle_config = draft_config.get("eagle_config") if isinstance(draft_config, dict) else None
    if isinstance(eagle_config, dict) and eagle_config.get("use_aux_hidden_state") is False:
        return None
    v2 = _v2_runner_env(cfg)
    before = engine_version is not None and vllm_surely_before(engine_version, _VLLM_EAGLE3_PP_SINCE)
    fixed = engine_version is not None and _vllm_surely_from(engine_version, _VLLM_EAGLE3_PP_SINCE)
    if (before and v2) or (fixed and v2 is not False) or (not before and not fixed and v2):
        return None
    flag = next((f"-{name} {cfg.flags[name]}" if len(name) <= 3 else f"--{name} {cfg.flags[name]}"
                 for name in ("pipeline-parallel-size", "pp") if name in cfg.flags),
                f"--pipeline-parallel-size {cfg.pp}")
    served = f"vLLM {engine_version}" if engine_version is not None else "vLLM (release unknown)"
    evidence = [f"{flag} with method eagle3 on {served}: the target runs in {cfg.pp} pipeline stages and the "
                "drafter on the last one"]
    lost = ("the aux hidden states of the target layers on the stages before the last never reach the drafter: "
            "the forward there returns only hidden_states and residual (IntermediateTensors), and the last stage "
            "matches the aux layer ids against its own stage-local layer index (enumerate(islice(...)) restarts "
            "at 0, vllm-project/vllm#36151), so it captures other layers than the ids name")
    if fixed:
        evidence.append("VLLM_USE_V2_MODEL_RUNNER=0 keeps the V1 model runner, which does not carry them: from "
                        f"{_VLLM_EAGLE3_PP_SINCE} vLLM carries them on the V2 runner only (vllm-project/vllm#50514); "
                        "on V1 the aux layers are set on the last stage alone, so " + lost.split(": ", 1)[0])
    elif before:
        evidence.append(f"vLLM before {_VLLM_EAGLE3_PP_SINCE} runs EAGLE-3 with pipeline parallelism on the V1 model "
                        f"runner (the V2 runner refuses it), where {lost}")
    else:
        evidence.append(f"the vLLM release is unknown here (`pip show vllm` where the server runs, or its image tag, "
                        f"says it): before {_VLLM_EAGLE3_PP_SINCE} (and on the V1 model runner of any release) {lost}; "
                        f"{_VLLM_EAGLE3_PP_SINCE} and later carry them on the V2 model runner, their default "
                        "(vllm-project/vllm#50514)")
    evidence.append("what happens: the drafter gets fewer aux states than its fc takes, and the server fails at "
                    "startup or on the first request (a shape error in combine_hidden_states" +
                    (", or \"Missing aux_hidden_states_0 from PP intermediate tensors\" where the target's forward "
                     "expects them from the earlier stages" if fixed else "") +
                    "); where the count happens to match, it drafts from the wrong layers and acceptance collapses "
                    "with no error")
    evidence.append("sources: " + ", ".join(VLLM_EAGLE3_PP_SOURCES))
    tensor_parallel = (cfg.tp or 1) * cfg.pp
    fix = (f"Serve it with vLLM {_VLLM_EAGLE3_PP_SINCE} or later on its default V2 model runner (no "
           "VLLM_USE_V2_MODEL_RUNNER=0; it refuses at startup a target model that does not carry the aux states "
           f"across stages), or keep one pipeline stage: -pp 1 with the GPUs as tensor parallelism "
           f"(-tp {tensor_parallel} in place of -tp {cfg.tp or 1} -pp {cfg.pp})")
    return PipelineAuxLoss(evidence, fix, release_known=before or fixed)


def _sglang_rules(cfg: LaunchConfig, target_architecture: str | None,
                  engine_version: str | None) -> EffectiveSpec:
    steps, topk, tokens = cfg.num_steps, cfg.topk, cfg.num_draft_tokens
    overrides: list[str] = []
    problems: list[str] = []
    auto = False
    # STANDALONE (a plain small draft model, sglang >= 0.5.2) runs through the same EAGLE
    # worker and the same server_args.py rules: auto-choose, topk 1 rewrite, tree checks.
    if cfg.algorithm not in ("EAGLE", "EAGLE3", "NEXTN", "MTP", "STANDALONE") and cfg.algorithm is not None:
        return EffectiveSpec(steps, topk, tokens)
    if cfg.algorithm == "STANDALONE" and cfg.flags.get("enable-dp-attention") is True:
        # every release with STANDALONE (0.5.2 .. 0.5.23, server_args.py / speculative_hook.py
        # `_handle_eagle_family`) raises ValueError for it
        return EffectiveSpec(steps, topk, tokens, problems=[
            "--speculative-algorithm STANDALONE with --enable-dp-attention: SGLang refuses to start "
            "(\"Currently standalone speculative decoding does not support dp attention.\")"])
    if _sglang_setup_skipped(cfg, engine_version):
        return _sglang_rules_skipped(cfg, engine_version)
    if cfg.flags.get("speculative-adaptive") is True and _sglang_has_option(engine_version, "speculative-adaptive"):
        adaptive = _sglang_adaptive(cfg)
        if adaptive.problems or adaptive.adaptive:
            return adaptive
        overrides += adaptive.overrides
    if steps is None:
        if topk is not None or tokens is not None:
            # server_args.py asserts topk and draft tokens are None before auto-choosing.
            problems.append(
                "--speculative-num-steps is unset but topk/draft tokens are set: SGLang asserts "
                "all three are unset before auto-choosing (bare AssertionError at startup)")
            return EffectiveSpec(steps, topk, tokens, problems=problems)
        if cfg.algorithm is None:
            return EffectiveSpec(None, None, None)
        auto = True
        if cfg.algorithm == "STANDALONE":
            # auto_choose_speculative_params returns (3, 1, 4) for STANDALONE before it looks
            # at the architecture (sglang 0.5.2 server_args.py .. 0.5.23 speculative_hook.py)
            steps, topk, tokens = 3, 1, 4
            overrides.append("auto-chosen (steps, topk, draft tokens) = (3, 1, 4) for STANDALONE")
        else:
            steps, topk, tokens = _sglang_auto_params(target_architecture, engine_version)
            overrides.append(
                f"auto-chosen (steps, topk, draft tokens) = ({steps}, {topk}, {tokens}) as for "
                "LlamaForCausalLM: the target architecture is unknown, and SGLang >= 0.5.8 picks "
                "(3, 1, 4) for targets other than Llama and Grok" if target_architecture is None else
                f"auto-chosen (steps, topk, draft tokens) = ({steps}, {topk}, {tokens}) for "
                f"{target_architecture}")
    if steps < 1 or (topk is not None and topk < 1):
        # 0 is bench_speculative.py's "no speculation" value; a server given it with the
        # algorithm still set has no draft tree to verify, and the tree formulas go negative
        what = (f"--speculative-num-steps {steps} drafts nothing: SGLang needs at least 1 step "
                "(leave out the --speculative-* flags to serve without speculation)" if steps < 1 else
                f"--speculative-eagle-topk {topk} drafts nothing: SGLang needs at least 1 candidate per step")
        problems.append(what)
        return EffectiveSpec(steps, topk, tokens, auto, overrides, problems)
    if topk is None:
        # SGLang auto-chooses only when the steps are unset too; with the steps written, the
        # topk stays None and `speculative_eagle_topk > 1 and page_size > 1 ...` raises TypeError
        # at startup (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py
        # `_handle_eagle_family` at 004c82e; server_args.py from 0.4.9, #7643, tests topk first).
        # The line said only "set all three", not that the server stops: so SD101 beside it told
        # of "topk None, None draft tokens verified" on a server that never runs. 0.4.5 .. 0.4.8
        # test page_size first, which skips the comparison at page size 1: left unsaid there.
        stops = (": SGLang does not auto-choose once the steps are written and compares the unset topk "
                 "(`speculative_eagle_topk > 1`): TypeError at startup, the server does not start"
                 if _version_at_least(engine_version, _SGLANG_PAGE_TOPK1_UNTIL) else "")
        problems.append("--speculative-num-steps is set but --speculative-eagle-topk is not"
                        f"{stops}; set all three (or none)")
        return EffectiveSpec(steps, topk, tokens, auto, overrides, problems)
    if topk > 1 and (cfg.page_size or 1) > 1 and engine_version is not None and (
            _version_at_least(engine_version, _SGLANG_PAGE_TOPK1_SINCE)
            and not _version_at_least(engine_version, _SGLANG_PAGE_TOPK1_UNTIL)):
        overrides.append(f"--speculative-eagle-topk {topk} is overwritten to 1 because --page-size {cfg.page_size} > 1 "
                         f"(SGLang {engine_version} server_args.py, with a log line; {_SGLANG_PAGE_TOPK1_UNTIL} and later "
                         "keep the tree)")
        topk = 1
    if topk == 1 and tokens != steps + 1 and _version_at_least(engine_version, _SGLANG_TOPK1_TOKENS_SINCE):
        # server_args.py: topk 1 forces steps + 1, also when draft tokens are unset.
        was = "unset" if tokens is None else str(tokens)
        overrides.append(
            f"--speculative-num-draft-tokens {was} is overwritten to {steps + 1} "
            f"(steps + 1) because topk is 1 (SGLang server_args.py, with a log warning)")
        tokens = steps + 1
    if tokens is None:
        problems.append("--speculative-eagle-topk > 1 needs --speculative-num-draft-tokens "
                        "(the tree budget): set all three (or none)")
        return EffectiveSpec(steps, topk, tokens, auto, overrides, problems)
    capacity = tree_capacity(steps, topk)
    if tokens - 1 > capacity:
        problems.append(_sglang_budget_beyond_tree(cfg, steps, topk, tokens))
    if topk > 1 and tokens <= 1:
        problems.append(_sglang_tree_without_nodes(steps, topk, tokens))
    elif topk > 1 and 1 <= tokens - 1 < steps:
        # The verify tree keeps the (draft tokens - 1) best-scored nodes; a node's score is
        # its path's cumulative probability, never above its parent's, so the kept set is
        # closed under ancestors and reaches depth draft tokens - 1 at most (sglang
        # eagle_utils.py `organize_draft_results`, topk over the flattened score list).
        # SGLang starts with it; its own sweep (scripts/playground/bench_speculative.py)
        # launches such settings.
        wasted = steps - (tokens - 1)
        problems.append(
            f"{tokens} draft tokens verify {tokens - 1} tree nodes, so the accept length is at "
            f"most {tokens}: {wasted} of the {steps} draft steps are drafted every round and "
            f"can never be accepted (use --speculative-num-steps {tokens - 1}, or more draft tokens)")
    backends = _page_tree_backends(engine_version)
    # An unset --attention-backend is resolved by SGLang itself (it avoids the unsupported
    # ones for topk > 1), so only an explicit choice can be judged here.
    if backends and topk > 1 and (cfg.page_size or 1) > 1 and cfg.attention_backend and (
            cfg.attention_backend not in backends):
        # server_args.py (speculative_hook.py `_handle_eagle_family` at 004c82e) raises, it does
        # not fall back: the server never starts
        problems.append(
            f"topk {topk} > 1 with --page-size {cfg.page_size} needs the "
            f"{'/'.join(backends)} attention backend (got {cfg.attention_backend}): SGLang refuses to start "
            "(ValueError; use one of those backends, --page-size 1 or --speculative-eagle-topk 1)")
    chosen = {cfg.attention_backend, _str_flag(cfg.flags, ("decode-attention-backend",)),
              _str_flag(cfg.flags, ("prefill-attention-backend",))}
    if topk > 1 and "trtllm_mha" in chosen:
        problems.append("the trtllm_mha attention backend only supports topk 1: SGLang refuses to start "
                        "(\"ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding.\"; "
                        "use --speculative-eagle-topk 1 or another attention backend)")
    if _sglang_has_option(engine_version, "speculative-use-rejection-sampling"):
        problems += _sglang_rejection_sampling_refusals(cfg, topk, guessed_arch=auto and target_architecture is None)
    if topk > 1 and _env_true(cfg.env.get("SGLANG_ENABLE_SPEC_V2")):
        asked = f"SGLANG_ENABLE_SPEC_V2={cfg.env['SGLANG_ENABLE_SPEC_V2']} with topk {topk}"
        if "SGLANG_ENABLE_SPEC_V2" in cfg.unexported:
            asked += (" (set on a line of its own above the server and not exported: read here as meant for it, "
                      "but bash passes it to the server only if it is exported, so check the running server's "
                      "environment: tr '\\0' '\\n' < /proc/PID/environ | grep SGLANG_)")
        release = _spec_v2_tree_rule(engine_version)
        pp = str(_lookup(cfg.flags, ("pp-size", "pipeline-parallel-size")) or 1)
        # 0.5.5-0.5.6 `_handle_speculative_decoding` (after the pipeline-parallel rule) turns the
        # overlap scheduler, and with it the V2 worker, back on for EAGLE/NEXTN; EAGLE3 keeps
        # what --disable-overlap-schedule or pipeline parallelism set
        overlap = cfg.algorithm in ("EAGLE", "NEXTN") or (
            cfg.algorithm == "EAGLE3" and _lookup(cfg.flags, ("disable-overlap-schedule",)) is not True
            and not (pp.isdigit() and int(pp) > 1))
        if release == "crashes" and overlap:
            # the chain-only EAGLEWorkerV2 drafts the tree
            problems.append(f"{asked}: SGLang {engine_version} starts the spec v2 worker, which only drafts chains: "
                            "the first decode fails with a tensor size mismatch (\"RuntimeError: Sizes of tensors must "
                            "match\", sgl-project/sglang#13352, #14077; 0.5.7 refuses this at startup); use "
                            "--speculative-eagle-topk 1 or unset the variable")
        elif release == "refused":
            problems.append(f"{asked}: SGLang {engine_version} refuses to start (\"Spec v2 currently only "
                            "supports topk = 1 for speculative decoding.\"); use --speculative-eagle-topk 1 "
                            "or unset the variable")
        elif release == "spec v1":
            overrides.append(f"{asked}: SGLang {engine_version} runs spec v1 with the overlap scheduler off "
                             "(spec v2 only drafts chains there); use --speculative-eagle-topk 1 to get spec v2")
        elif release is None:
            overrides.append(
                f"{asked}: SGLang 0.5.11-0.5.12 runs spec v1 with the overlap scheduler off, 0.5.7-0.5.10 "
                "refuse to start, 0.5.5-0.5.6 fail at the first decode, and from 0.5.13 spec v2 drafts trees "
                "too (the engine version is "
                "unknown here); use --speculative-eagle-topk 1 to get spec v2 on every release")
    return EffectiveSpec(steps, topk, tokens, auto, overrides, problems, capacity)


def _sglang_setup_skipped(cfg: LaunchConfig, engine_version: str | None) -> bool:
    """A Python call's lower-case EAGLE-family name (`sgl.Engine(speculative_algorithm="eagle3")`)
    on a release before 0.5.12 that has the algorithm: ServerArgs.__post_init__ compares the raw
    value with "EAGLE", "EAGLE3", "STANDALONE" and skips the whole block that auto-chooses the
    steps, topk and draft tokens and rewrites them (page size topk 1, topk-1 draft tokens), while
    the worker's SpeculativeAlgorithm.from_string upper-cases it and drafts (PyPI wheels 0.4.6,
    0.5.2, 0.5.10.post1 srt/server_args.py; 0.4.4.post4 .. 0.5.10.post1 spec_info.py)."""
    if cfg.engine != "sglang" or not cfg.python_call or engine_version is None:
        return False
    written = _str_flag(cfg.flags, _SGLANG_ALIASES["speculative-algorithm"])
    name = (written or "").upper()
    since = {"EAGLE3": _SGLANG_EAGLE3_SINCE, "STANDALONE": _SGLANG_ALGORITHM_CHOICES_SINCE["STANDALONE"]}.get(name)
    return (bool(written) and written != name and name in ("EAGLE", "EAGLE3", "STANDALONE")
            and _sglang_surely_before(engine_version, _SGLANG_CHOICES_UNTIL)
            and not (since and _sglang_surely_before(engine_version, since)))


def _sglang_rules_skipped(cfg: LaunchConfig, engine_version: str | None) -> EffectiveSpec:
    """The settings of a call whose speculative set-up ServerArgs skipped (`_sglang_setup_skipped`):
    as written, nothing auto-chosen or rewritten (was: the auto-chosen (5, 4, 8) and the topk-1
    rewrite, which that release does not do for it). One left unset stays None, which the workers
    use as a number (0.5.2 cuda_graph_runner.py `self.max_bs * self.num_tokens_per_bs`, eagle_worker.py
    `if self.speculative_num_steps > 1`): TypeError, and the engine does not serve."""
    steps, topk, tokens = cfg.num_steps, cfg.topk, cfg.num_draft_tokens
    unset = [name for name, value in (("speculative_num_steps", steps), ("speculative_eagle_topk", topk),
                                      ("speculative_num_draft_tokens", tokens)) if value is None]
    if steps is None or topk is None or tokens is None:
        they = "it stays" if len(unset) == 1 else "they stay"
        return EffectiveSpec(steps, topk, tokens, problems=[
            f"{', '.join(unset)} unset with the speculative set-up skipped: SGLang {engine_version} chooses nothing, "
            f"{they} None, and its workers compute with {'it' if len(unset) == 1 else 'them'} (TypeError): "
            f"{cfg.python_call}(...) does not serve (write the upper-case algorithm name)"])
    if steps < 1 or topk < 1:
        return EffectiveSpec(steps, topk, tokens)  # (drafts nothing: said by the rules of the upper-case name)
    capacity = tree_capacity(steps, topk)
    problems = []
    if tokens - 1 > capacity:
        problems.append(_sglang_budget_beyond_tree(cfg, steps, topk, tokens))
    return EffectiveSpec(steps, topk, tokens, problems=problems, tree_capacity=capacity)


def _sglang_rejection_sampling_refusals(cfg: LaunchConfig, topk: int, guessed_arch: bool = False) -> list[str]:
    """What `--speculative-use-rejection-sampling` is refused with, after SGLang has chosen the
    topk (auto-chosen for a Llama target: 4) (sgl-project/sglang
    python/sglang/srt/arg_groups/speculative_hook.py `_handle_eagle_family`: only EAGLE/EAGLE3
    (NEXTN resolves to EAGLE) emit the proposal its kernel consumes, it is implemented for the
    topk-1 chain only, and it ignores the accept thresholds)."""
    if cfg.flags.get("speculative-use-rejection-sampling") is not True:
        return []
    flag = "--speculative-use-rejection-sampling"
    if cfg.algorithm not in ("EAGLE", "EAGLE3", "NEXTN"):
        return [f"{flag} with --speculative-algorithm {cfg.algorithm}: SGLang refuses to start (NotImplementedError: "
                "\"only supported for EAGLE / EAGLE3 / NEXTN\")"]
    problems = []
    if topk != 1:
        how = ("" if cfg.topk is not None else " (auto-chosen as for a Llama target; the target architecture is "
               "unknown here, and SGLang picks topk 1 for most others)" if guessed_arch else " (auto-chosen)")
        problems.append(f"{flag} with topk {topk}{how}: SGLang refuses to start "
                        f"(\"{flag} requires --speculative-eagle-topk=1\"; rejection sampling is only implemented for "
                        "the topk-1 chain); set --speculative-eagle-topk 1 with --speculative-num-steps and "
                        "--speculative-num-draft-tokens (steps + 1)")
    thresholds = [f"--{name} {cfg.flags[name]}" for name in ("speculative-accept-threshold-single",
                                                              "speculative-accept-threshold-acc")
                  if cfg.flags.get(name) not in (None, True) and _float_or_none(cfg.flags[name]) != 1.0]
    if thresholds:
        problems.append(f"{flag} with {' '.join(thresholds)}: SGLang refuses to start (rejection sampling ignores "
                        "the accept thresholds)")
    if cfg.flags.get("enable-deterministic-inference") is True:
        problems.append(f"{flag} with --enable-deterministic-inference: SGLang refuses to start (its sampling kernel "
                        "draws from the global RNG and is not batch-invariant)")
    return problems


def _float_or_none(value: Any) -> float | None:
    try:
        return float(str(value))
    except ValueError:
        return None


def _vllm_dynamic_schedule(raw: Any) -> tuple[list[tuple[int, int, int]], str | None]:
    """`num_speculative_tokens_per_batch_size` checked as vLLM checks it at startup
    (vllm/v1/spec_decode/dynamic/utils.py `validate_and_normalize_dynamic_sd_schedule`, 0.33.0):
    (sorted [(first batch size, last batch size, K)], None) or ([], why vLLM refuses it)."""
    if not isinstance(raw, list) or not raw:
        return [], "must be a non-empty list of [first batch size, last batch size, K] entries"
    schedule = []
    for entry in raw:
        if not isinstance(entry, (list, tuple)) or len(entry) != 3:
            return [], f"entry {json.dumps(entry)} is not a 3-item [first batch size, last batch size, K]"
        try:
            start, end, k = (int(x) for x in entry)
        except (TypeError, ValueError):
            return [], f"entry {json.dumps(entry)} holds a non-integer"
        if start <= 0 or end <= 0 or start > end or k < 0:
            return [], f"entry {json.dumps(entry)} needs 0 < first <= last and K >= 0"
        schedule.append((start, end, k))
    schedule.sort()
    if any(later[0] <= earlier[1] for earlier, later in zip(schedule, schedule[1:])):
        return [], "batch-size ranges overlap"
    if schedule[0][0] != 1:
        return [], "the first batch-size range must start at 1"
    return schedule, None


def _vllm_dynamic_k(cfg: LaunchConfig, spec: dict[str, Any], problems: list[str]) -> EffectiveSpec:
    """vLLM's dynamic speculative decoding: `num_speculative_tokens_per_batch_size` picks K by the
    running batch size, each K capped at num_speculative_tokens; a gap between ranges and the
    sizes after the last one keep the previous K (vllm/v1/spec_decode/dynamic/utils.py
    `build_dynamic_sd_schedule_lookup`, used by v1/core/sched/scheduler.py, 0.33.0). With
    --data-parallel-size > 1 vLLM drops the schedule and runs the static K
    (config/vllm.py `_maybe_disable_dynamic_sd_for_data_parallel`). The audit's K is the one at
    batch size 1, where a single-request benchmark runs."""
    k = cfg.num_steps or 0
    static = EffectiveSpec(k, 1, k + 1, tree_capacity=k, problems=problems)
    written = json.dumps(spec["num_speculative_tokens_per_batch_size"])
    dp = _lookup(cfg.flags, ("data-parallel-size", "dp"))
    if dp not in (None, True) and str(dp).isdigit() and int(dp) > 1:
        return replace(static, overrides=[f"dynamic: num_speculative_tokens_per_batch_size {written} is switched "
                                          f"off with --data-parallel-size {dp} (vLLM logs a warning and runs the "
                                          f"static num_speculative_tokens {k})"])
    schedule, refused = _vllm_dynamic_schedule(spec["num_speculative_tokens_per_batch_size"])
    if refused is not None:
        return replace(static, problems=problems + [f"num_speculative_tokens_per_batch_size {written}: {refused}; "
                                                    "vLLM refuses to start (ValueError)"])
    ks = [min(k, entry_k) for _, _, entry_k in schedule]
    ranges = ", ".join(f"{start}-{end}: {min(k, entry_k)}" for start, end, entry_k in schedule)
    if max(ks) == 0:
        return replace(static, problems=problems + [
            f"num_speculative_tokens_per_batch_size {written} drafts 0 tokens at every batch size: the server "
            "never speculates (leave out --speculative-config to serve without it)"])
    at_one = ks[0]
    line = (f"dynamic: K by batch size ({ranges}; the last K also for larger batches), at most "
            f"num_speculative_tokens {k}: " + (f"{at_one} at batch size 1" if at_one else
                                               "no drafting at batch size 1"))
    served = at_one or max(ks)
    return EffectiveSpec(served, 1, served + 1, tree_capacity=served, overrides=[line], problems=problems,
                         adaptive=len(set(ks)) > 1)


def _spec_v2_tree_rule(engine_version: str | None) -> str | None:
    """What SGLang does with SGLANG_ENABLE_SPEC_V2 on and topk > 1, by release (the PyPI wheels'
    server_args.py and arg_groups/speculative_hook.py): 0.5.7-0.5.10 raise ValueError; 0.5.11-0.5.12
    (spec v2 on by default) fall back to spec v1 with a warning; 0.5.13 runs the V2 worker for
    trees too, and 0.5.14 removed the variable (a warning that it is ignored). 0.5.5 (which added
    the variable, sglang/srt/environ.py) and 0.5.6 have no topk rule: the variable keeps the
    overlap scheduler on for EAGLE and EAGLE3, so the chain-only EAGLEWorkerV2 runs the tree and
    the first decode raises (`_draft_extend_for_decode`, "Sizes of tensors must match",
    sgl-project/sglang#13352 and #14077): "crashes". None: the version is unknown."""
    if engine_version is None:
        return None
    if _release_at_least(engine_version, "0.5.13") or not _release_at_least(engine_version, "0.5.5"):
        return "no effect"
    if not _release_at_least(engine_version, "0.5.7"):
        return "crashes"
    return "spec v1" if _release_at_least(engine_version, "0.5.11") else "refused"


# sgl-project/sglang python/sglang/srt/speculative/adaptive_spec_params.py: the default adaptive
# config's candidate steps by batch size ({1: [1, 3, 5, 7], 8: [0, 1, 3], 32: [0, 1], 64: [0]});
# the server starts at the middle of their union unless --speculative-num-steps names one.
_SGLANG_ADAPTIVE_DEFAULT_STEPS = (0, 1, 3, 5, 7)


def _sglang_adaptive(cfg: LaunchConfig) -> EffectiveSpec:
    """`--speculative-adaptive` as SGLang resolves it (arg_groups/speculative_hook.py
    `_maybe_disable_adaptive`, `_init_adaptive_speculative_params`; adaptive_spec_params.py
    `adaptive_unsupported_reason`). Returns adaptive=False (with the reason in `overrides`)
    when SGLang turns it off and falls back to the static rules."""
    algorithm = "EAGLE" if cfg.algorithm == "NEXTN" else cfg.algorithm
    reason = None
    if algorithm not in ("EAGLE", "EAGLE3"):
        reason = f"speculative_algorithm={algorithm} (only EAGLE/EAGLE3 are supported)"
    elif cfg.topk is not None and cfg.topk != 1:
        reason = f"speculative_eagle_topk={cfg.topk} (only topk=1 is supported)"
    elif cfg.flags.get("enable-dp-attention") is True:
        reason = "attention DP is not supported"
    elif cfg.flags.get("enable-multi-layer-eagle") is True:
        reason = "enable_multi_layer_eagle=True is not supported"
    elif cfg.flags.get("enable-two-batch-overlap") is True:
        reason = "enable_two_batch_overlap=True is not supported"
    if reason is not None:
        return EffectiveSpec(cfg.num_steps, cfg.topk, cfg.num_draft_tokens, overrides=[
            f"--speculative-adaptive is switched off: {reason}; SGLang logs a warning and falls back "
            "to static speculative params"])
    custom = cfg.flags.get("speculative-adaptive-config")
    custom = custom if isinstance(custom, str) else None
    steps, topk = cfg.num_steps, 1 if cfg.topk is None else cfg.topk
    if custom is not None:
        # the candidate steps are in that JSON file, which is not read here
        if steps is None:
            return EffectiveSpec(None, topk, None, adaptive=True, overrides=[
                f"adaptive: the server starts at the middle of the candidate steps of "
                f"{custom} and moves among them at runtime"])
        return EffectiveSpec(steps, topk, steps + 1, adaptive=True, tree_capacity=steps, overrides=[
            f"adaptive: starts at {steps} steps ({steps + 1} draft tokens) and moves "
            f"among the candidate steps of {custom} at runtime"])
    candidates = _SGLANG_ADAPTIVE_DEFAULT_STEPS
    if steps is None:
        steps = candidates[len(candidates) // 2]
    elif steps not in candidates:
        return EffectiveSpec(steps, topk, cfg.num_draft_tokens, adaptive=True, problems=[
            f"--speculative-num-steps {steps} is not in the adaptive candidate steps "
            f"{list(candidates)}: SGLang refuses to start (ValueError)"])
    overrides = [f"adaptive: starts at {steps} steps ({steps + 1} draft tokens, topk 1) and "
                 f"moves among the candidate steps {list(candidates)} by batch size and accept length"]
    if cfg.num_draft_tokens is not None and cfg.num_draft_tokens != steps + 1:
        overrides.append(f"--speculative-num-draft-tokens {cfg.num_draft_tokens} is overwritten to "
                         f"{steps + 1} (steps + 1) by adaptive mode")
    return EffectiveSpec(steps, topk, steps + 1, adaptive=True, overrides=overrides, tree_capacity=steps)
