"""Speculative-decoding facts in a session, mapped to the finding catalog
(:mod:`spec_debug.diagnose.codes`, issue #5), so a session can be compared with what the
playbooks check.

Each matcher is pure: text in, observations out. Comparisons across messages (two
different concatenation orders, a standalone accuracy against a claimed one) live in
:mod:`spec_debug.session.analysis`, which holds the session state.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from spec_debug.diagnose.launch_scan import bracket_end

# The number of draft steps a launch asks for, in each spelling; argparse keeps the last
# value of a repeated flag, so the last match on a command line is the one served.
# SGLang: --speculative-num-steps (python/sglang/srt/server_args.py), also as an argv list item
# (``"--speculative-num-steps", "1"`` in a subprocess call) and as a keyword of the offline
# ``sgl.Engine(speculative_num_steps=1)`` or of the ``server_args=ServerArgs(...)`` line the
# server logs at start. vLLM: the JSON of --speculative-config (quotes escaped as \" when the
# command sits in an ssh command's double quotes), a Python dict passed as
# ``LLM(speculative_config={...})`` (vllm examples/offline_inference/spec_decode.py), its
# dotted form (``--speculative-config.num_speculative_tokens 1``, vllm/utils
# FlexibleArgumentParser; -sc from 0.19.0), the flag of vLLM <= 0.7 (``--num-speculative-tokens``,
# vllm/engine/arg_utils.py) and the shorthand of 0.22.0 and later (``--spec-method eagle3
# --spec-model DRAFT --spec-tokens 3``, vllm/engine/arg_utils.py `--spec-tokens`, PR #42476), which
# has no "speculative" in it.
_DRAFT_STEPS = re.compile(
    r"(?:--(?:speculative[-_]num[-_]steps|(?:speculative[-_]config\.)?num[-_]speculative[-_]tokens|spec[-_]tokens)"
    r"|(?<![\w-])-sc\.num[-_]speculative[-_]tokens)"
    r"(?:=|\s+|['\"]\s*,\s*)['\"]?(\d+)(?![\d.])"
    r"|\\?[\"'](?:num_speculative_tokens|speculative_num_steps)\\?[\"']\s*:\s*(\d+)(?![\d.])"
    r"|(?<![\w-])(?:speculative_num_steps|num_speculative_tokens)\s*=\s*(\d+)(?![\d.])")
_LAUNCH = re.compile(r"launch_server|sglang serve|vllm serve|vllm\.entrypoints")
# A launch through the Python API: its keywords span lines (and vLLM's dict is often built
# above the call), so the whole text is the unit.
_API_LAUNCH = re.compile(r"\b(?:Engine|LLM|ServerArgs)\(")
_API_NAMES = ("Engine(", "LLM(", "ServerArgs(")
_API_REACH = 1200
# vLLM's spelling of the same choice: "method": "eagle" in --speculative-config (JSON,
# escaped inside ssh double quotes, or the dotted flag); vllm/config/speculative.py names
# the methods "eagle" and "eagle3".
# SGLang parses its flags with argparse, which takes any unambiguous prefix: launches written
# "--speculative-algo EAGLE --speculative-draft ..." are common (sgl-project/sglang#2777, the
# lmsys/DeepSeek-R1-NextN model card).
_ALGO_EAGLE = re.compile(
    r"--speculative[-_]algo(?:r|ri|rit|rith|rithm)?(?:=|\s+)['\"]?EAGLE\b(?!3)"
    r"|\\?[\"']method\\?[\"']\s*:\s*\\?[\"']eagle\\?[\"']"
    r"|(?:--speculative[-_]config\.|(?<![\w-])-sc\.|--spec[-_])method(?:=|\s+)['\"]?eagle\b(?!3)"
    r"|(?<![\w-])speculative_algorithm\s*=\s*['\"]EAGLE['\"]"
    r"|\"speculative_algorithm\"\s*:\s*\"EAGLE\"", re.I)
# The items of a list or tuple passed to cat: names (``embed, layer3``) or subscripts of
# the hidden-state tuple a HF forward returns (``hs[3], hs[17]``, ``out.hidden_states[-1]``,
# ``h[:, 0]``), one level of brackets deep.
_CONCAT = re.compile(r"\b(?:torch\.)?(?:con)?cat(?:enate)?\(\s*(?:\[((?:[^\[\]\n]|\[[^\[\]\n]*\]){3,200})\]"
                     r"|\(((?:[^\[\]()\n]|\[[^\[\]\n]*\]){3,200})\))")
_TOP_COMMA = re.compile(r",(?![^\[]*\])")  # a comma outside brackets
_CONCAT_ITEM = re.compile(r"layer|embed|hidden|aux|\bh\d|\bhs?\[")
_LAYER_IDS = re.compile(r"(?:eagle_)?aux_hidden_state_layer_ids[\"']?\s*[:=]\s*[\[(]\s*([\d,\s]+)[\])]")
# What is said about d2t is negated as often as not ("d2t is not missing", "there is no d2t
# problem", "an offset table, not absolute ids"): a "not"/"n't" between d2t and the word, or
# a noun after "no d2t", says the opposite.
_NOT_BETWEEN = r"(?:(?!\bnot\b|n't\b|\bno\b)[^\n])"
_D2T_MISSING = re.compile(
    r"(?:\bno|missing|without)\s+(?:a\s+)?[`'\"]?d2t\b(?![`'\"]?\s+(?:problem|issue|bug|mismatch|difference|change|error)s?\b)"
    r"|\bd2t\b" + _NOT_BETWEEN + r"{0,40}\b(?:missing|not found|absent)\b|KeyError: '?d2t'?", re.I)
_D2T_ABSOLUTE = re.compile(r"\bd2t\b" + _NOT_BETWEEN + r"{0,80}\b(?:absolute|not (?:an )?offset)"
                           r"|(?<!not )\babsolute (?:token )?ids?\b[^\n]{0,60}\bd2t\b", re.I)
_NORM_FLAG = re.compile(
    r"\b(norm_before_residual|norm_before_fc|fc_norm|norm_output)\b[^\n]{0,80}?\b(?:ignor\w*|not (?:read|used|supported|honou?red)|unsupported)"
    r"|\b(?:ignor\w*|does not (?:read|honou?r|support))\b[^\n]{0,80}?\b(norm_before_residual|norm_before_fc|fc_norm|norm_output)\b", re.I)


# "does not ignore norm_before_residual", "is no longer ignored": the flag is read.
_NOT_IGNORED = re.compile(r"(?:\bnot|n't|\bnever|\bno longer)\s+(?:be(?:en)?\s+)?ignor", re.I)
# A compiled literal finds a short needle about twice as fast as ``in`` does (measured on
# 10 KB server logs, CPython 3.11); gates that scan every output use it, after a test for
# one character every match must hold (a one-character ``in`` is a memchr).
_HAS_CAT_CALL = re.compile(r"cat(?:enate)?\(").search
_HAS_D2T = re.compile("d2t").search
_HAS_SIZE_MISMATCH = re.compile("size mismatch for ").search
_HAS_NORM = re.compile("norm").search
# What an engine raises at startup for a draft config it cannot build, the catalog's SD706-SD708
# (which the model_configs probe finds in the config before a launch): the server's log says it.
# Gated on "Error" (the exception's name) first, one literal search: most outputs have none.
# SGLang llama_eagle3.py LlamaForCausalLMEagle3.__init__ before 0.5.12:
#   raise ValueError("EAGLE3 currently only supports 1 layer")
# vLLM and SGLang models/llama.py LlamaMLP.__init__ (the EAGLE-3 draft's MLP):
#   raise ValueError(f"Unsupported activation: {hidden_act}. Only silu is supported for now.")
# SGLang models/llama.py set_eagle3_layers_to_capture: [val + 1 for val in layer_ids] on ids
# written as strings: TypeError: can only concatenate str (not "int") to str
_HAS_ERROR = re.compile("Error: ").search
# As raised ("ValueError: ..."), not as a grep of the engine's source shows the raise statement.
# One literal prefix ("Error: "), which the regex engine searches for as a string.
_ENGINE_REFUSAL = re.compile(r"Error: (?:EAGLE3 currently only supports 1 layer"
                             r"|Unsupported activation: \S+? Only silu is supported"
                             r"|can only concatenate str \(not \"int\"\) to str"
                             r"|Cannot find any model weights with `([^`\n]{1,400})`)")
_STR_IDS_FRAME = "in set_eagle3_layers_to_capture"
# SD710 as the engines report it: vLLM 0.34.0 model_loader/default_loader.py and SGLang 0.5.23
# srt/model_loader/loader.py (_prepare_weights) both raise
#   RuntimeError(f"Cannot find any model weights with `{model_name_or_path}`")
# when no weight file is left, as for a draft folder whose stale model.safetensors.index.json
# names no file that is there (filter_duplicate_safetensors_files). The draft's, not the
# target's: the path is the one the same text gives as the draft's (SGLang's
# speculative_draft_model_path, vLLM's SpeculativeConfig(... model=...)), the traceback runs
# through the engine's draft loader (SGLang srt/speculative/, vLLM v1/spec_decode/eagle.py or
# 0.34.0's v1/worker/gpu/spec_decode/eagle/utils.py load_eagle_model), or the
# folder's own name says it is a draft.
_NO_WEIGHTS = "Cannot find any model weights with `"
# The engines raise that same error for any draft folder they find no weight file in: one with
# only model.pth / *.ckpt (names they never load), only a trainer's state, a training_args.bin
# matched as *.bin and skipped before *.pt is looked for, or nothing at all (_prepare_weights;
# spec_debug/eagle3/checkpoint.py _engine_pickles_note). The error alone is SD710 only beside what
# shows the stale index: a listing (`ls`, `find`) with model.safetensors.index.json beside a single
# model.safetensors and no shard of the index (model-00001-of-00002.safetensors). The analysis
# pairs the two (STALE_INDEX_LISTING, wherever in the session each is); without one, the error
# is no finding: its cause was not shown. Gated on ".index.json" (one substring test).
STALE_INDEX_LISTING = "stale-index listing"
_INDEX_FILE = re.compile(r"(?<![\w.-])model\.safetensors\.index\.json(?![\w.-])")
_SINGLE_FILE = re.compile(r"(?<![\w.-])model\.safetensors(?![\w.-])")
_SHARD_FILE = re.compile(r"-\d{5}-of-\d{5}\.safetensors")
_DRAFT_LOADER_FRAME = re.compile(r"[/\\](?:speculative|spec_decode)[/\\][\w/\\]*?\w\.py\"")
_DRAFT_KEY_BEFORE = re.compile(r"(?:draft|speculative)[^\n]{0,60}$", re.I)
_DRAFT_DIR_NAME = re.compile(r"eagle|draft", re.I)

# SD303 as torch reports it when a drafter is loaded: load_state_dict names each tensor whose
# shape the checkpoint does not fit ("size mismatch for {key}: copying a param with shape
# {checkpoint shape} from checkpoint, the shape in current model is {model shape}.",
# torch/nn/modules/module.py _load_from_state_dict). For the vocabulary tensors (the head, the
# embedding, the maps) rows that differ over the same width are a vocabulary the model was built
# for that the checkpoint was not: lm_head [32000, 4096] saved, [128256, 4096] built from a
# config that lacks draft_vocab_size (vocab.py's lm_head_rows, t2d_length and embed_rows, all
# SD303). Another tensor whose rows differ says nothing of the vocabulary (gate_up_proj rows
# are the intermediate size), and neither does a vLLM "Attempted to load weight (...) into
# parameter (...)", which names no tensor.
_VOCAB_SIZE_MISMATCH = re.compile(
    r"size mismatch for (?:[\w.]+\.)?(lm_head\.weight|embed_tokens\.weight|d2t|t2d): copying a param with "
    r"shape torch\.Size\(\[(\d+)((?:, \d+)*)\]\) from checkpoint, the shape in current model is "
    r"torch\.Size\(\[(\d+)((?:, \d+)*)\]\)")
# The model loaded is a drafter: the class torch names ("Error(s) in loading state_dict for
# Eagle3DraftModel:"), a key's prefix or the script's path in the traceback says so. A target
# loaded with another model's checkpoint gives the same message, and no drafter is at fault.
_DRAFTER_NAMED = re.compile(r"eagle|draft|speculat|\bmtp\b", re.I)


@dataclass(slots=True)
class Observation:
    code: str
    evidence: str
    severity: str | None = None
    """The finding's severity where the observation itself decides it (an SD101 of a drafter with
    no trained depth is a warning, as the catalog says); None: the catalog's."""


def launch_observations(text: str, command: bool = False) -> list[Observation]:
    """Launch-command facts (run on commands and on outputs that echo a command line).
    `command`: ``text`` is a command the session ran (short, and cached by the caller), which is
    also read in vLLM's `--spec-tokens 1 --spec-method eagle3` (0.22.0), with no "speculative" in
    it; an output keeps the one scan for "speculative" (a shorter needle costs every output more)."""
    out: list[Observation] = []
    if "v" not in text or ("speculative" not in text and not (command and "--spec-" in text)):
        return out
    cli = "launch_server" in text or " serve" in text or "vllm.entrypoints" in text
    api = _api_calls(text) if "(" in text else []
    # The args a running SGLang server reports (GET /get_server_info: its ServerArgs as JSON,
    # sglang python/sglang/srt/entrypoints/http_server.py): what it serves with, whatever
    # command started it.
    served = '"speculative_num_steps"' in text and '"speculative_algorithm"' in text
    if not cli and not api and not served:
        return out
    if cli and "\\\n" in text:  # a command continued over lines ("... \\" then a newline) is one line
        text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    units = [line for line in text.splitlines() if _LAUNCH.search(line)] if cli else []
    if served and not units:
        units.append(text)
    if api and not any(_API_LAUNCH.search(u) for u in units):
        # the call and what is near it: a dict built a few lines above, keywords below (a
        # grep through an engine's sources holds other calls' values farther away)
        window_start = window_end = -1
        for call in api:  # overlapping windows are one unit: one script, one observation
            if call - _API_REACH > window_end >= 0:
                units.append(text[window_start:window_end])
                window_start = -1
            if window_start < 0:
                window_start = max(0, call - _API_REACH)
            window_end = call + _API_REACH
        units.append(text[window_start:window_end])
    for unit in units:
        steps = None
        for steps in _DRAFT_STEPS.finditer(unit):
            pass
        if steps is not None and (steps.group(1) or steps.group(2) or steps.group(3)) == "1":
            capped, severity = _one_step(_as_logged_args(unit) if served and unit is text else unit)
            if capped:
                out.append(Observation("SD101", _around(unit, steps.start(), steps.end()), severity))
        m = _ALGO_EAGLE.search(unit)
        if m and "eagle3" in unit.lower():
            out.append(Observation("SD103", _around(unit, m.start(), m.end())))
        # the budget a launch writes (a running server's own args, from GET /get_server_info or
        # as its log prints them, "server_args=ServerArgs(...)", are what it already rewrote it to)
        if ("draft-tokens" in unit or "draft_tokens" in unit) and not (served and unit is text) \
                and "server_args=" not in unit:
            budget = _draft_budget(unit)
            if budget:
                out.append(Observation("SD102", budget[0], budget[1]))
    return out


@lru_cache(maxsize=256)
def _draft_budget(unit: str) -> tuple[str, str | None] | None:
    """SD102 of a launch that writes its draft-token budget (SGLang's --speculative-num-draft-tokens):
    the launch audit's own judgment
    (:func:`spec_debug.diagnose.checks.launch_flags.check_draft_budget`), as (what it found, its
    severity); None where the budget is consistent, or where the audit's finding is a startup
    refusal (another title: the server log shows the refusal itself)."""
    from spec_debug.diagnose.checks.launch_flags import check_draft_budget
    from spec_debug.diagnose.catalog import CATALOG
    from spec_debug.diagnose.launch import effective_spec, parse_launch_command
    from spec_debug.diagnose.launch_errors import LaunchParseError
    try:
        launch = parse_launch_command(unit)
        found = check_draft_budget(launch, effective_spec(launch))
    except (LaunchParseError, ValueError):
        return None
    if not found or found[0].title != CATALOG["SD102"].title:
        return None
    return "; ".join(found[0].evidence), found[0].severity


def _as_logged_args(text: str) -> str:
    """A server's args as GET /get_server_info gives them (JSON), written as the line SGLang logs
    them in at startup (``server_args={...}``, a Python dict), which the launch reader reads; the
    text as it is when it holds no whole JSON object."""
    start = text.find("{")
    end = bracket_end(text, start) if start >= 0 else None
    try:
        args = json.loads(text[start:end]) if end is not None else None
    except (ValueError, RecursionError):
        return text
    return f"server_args={args!r}" if isinstance(args, dict) else text


@lru_cache(maxsize=256)  # a session launches the same command again and again
def _one_step(unit: str) -> tuple[bool, str | None]:
    """Whether a launch written with one draft step is capped at one drafted token, and the
    severity of that when it is not the catalog's error: the launch audit's own judgment
    (:func:`spec_debug.diagnose.checks.launch_flags.check_num_steps`, with no draft config read).
    SGLang NGRAM reads only --speculative-num-draft-tokens and its block drafters (DFLASH) run one
    step whatever is written; an n-gram, suffix or plain-LM drafter has no trained depth to fall
    short of, and a model's own MTP module (the DeepSeek docs' `--speculative-algorithm EAGLE
    --speculative-num-steps 1` with no draft path, vLLM `deepseek_mtp`) is trained for as many
    steps as the target has MTP modules, one for DeepSeek-V3: the catalog's warning, not an error.
    A unit the launch reader cannot read (a server's args as JSON) keeps the catalog's."""
    # imported here: the launch reader is large, and only a launch with one step needs it
    from spec_debug.diagnose.checks.launch_flags import check_num_steps, untrained_drafter
    from spec_debug.diagnose.launch import effective_spec, parse_launch_command
    from spec_debug.diagnose.launch_errors import LaunchParseError
    from spec_debug.diagnose.steps.launch_step import serves_own_mtp
    try:
        launch = parse_launch_command(unit)
        capped = [f for f in check_num_steps(launch, effective_spec(launch), None) if f.code == "SD101"]
    except (LaunchParseError, ValueError):
        return True, None
    if not capped:
        return False, None
    if untrained_drafter(launch) is not None or serves_own_mtp(launch) \
            or (launch.draft_model is not None and _MTP_EXPORT.search(launch.draft_model)):
        return True, capped[0].severity
    return True, None


# A model's MTP module exported as a draft of its own (lmsys/DeepSeek-V3-0324-NextN, the SGLang
# DeepSeek docs' draft before they dropped the path; "...-MTP"): trained for as many steps as the
# target has MTP modules, as when the target's own module is served.
_MTP_EXPORT = re.compile(r"nextn|(?<![a-z])mtp(?![a-z])", re.I)


def _api_calls(text: str, limit: int = 3) -> list[int]:
    """Where ``Engine(``, ``LLM(`` or ``ServerArgs(`` is called (a whole name), the first few
    of each. ``str.find`` per name: a regex alternation has no literal to skip by and costs
    30x as much on a long server log."""
    found = []
    for name in _API_NAMES:
        pos, kept = text.find(name), 0
        while pos >= 0 and kept < limit:
            if pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "_"):
                found.append(pos)
                kept += 1
            pos = text.find(name, pos + 1)
    return sorted(found)


def concat_orders(text: str) -> list[tuple[str, ...]]:
    """Hidden-state concatenation orders written in a text: ``cat([embed, layer3, layer31])``,
    or said as a list of hidden states ("training fed [embed, layer3, layer31] while SGLang
    passes [layer3, layer31, layer59]")."""
    orders: list[tuple[str, ...]] = []
    calls: list[tuple[int, int]] = []
    if "(" in text and _HAS_CAT_CALL(text):  # _CONCAT needs "cat("
        for m in _CONCAT.finditer(text):
            inside = m.group(1) if m.group(1) is not None else m.group(2)
            items = tuple("".join(part.split()).lower() for part in _TOP_COMMA.split(inside) if part.strip())
            if len(items) >= 2 and any(_CONCAT_ITEM.search(i) for i in items):
                orders.append(items)
                calls.append(m.span())
    # "[" or "(" and "y" (memchrs: a server log has no "y"), then "ayer" (of "layer", "Layer": a
    # regex literal scan, 2.7 us over a 7 KB log, where `in` took 4 us and a case-blind regex 45)
    # before the list scan: most texts lack one of them
    if ("[" in text or "(" in text) and "y" in text and _HAS_AYER(text):
        for m in _HIDDEN_LIST.finditer(text):
            if any(a <= m.start() < b for a, b in calls):
                continue  # the list of a cat([...]) read above
            inside = m.group(1) if m.group(1) is not None else m.group(2)
            items = tuple("".join(part.split()).lower() for part in inside.split(","))
            # every item a hidden state (a layer's or the embedding's), one layer at least: a
            # list of numbers ("[3, 31, 59]") may be anything, and "[hidden_states, residual]" no order
            if 2 <= len(items) <= 16 and all(items) and _hidden_state_items(items):
                orders.append(items)
    return orders


# A list of names in brackets or parentheses, not a call's arguments or a subscript (no word
# character just before it) and not a cat()'s list (that scan reads those).
_HIDDEN_LIST = re.compile(r"(?<![\w(])\[([^\[\]\n]{3,200})\]|(?<!\w)\(([^()\[\]\n]{3,200})\)")
_HAS_AYER = re.compile("ayer").search
_LIST_ITEM = re.compile(r"(?:inputs?_)?embed\w*|emb|layers?_?\d+(?:_\w+)?")


def _hidden_state_items(items: tuple[str, ...]) -> bool:
    """Each of ``items`` names the embedding's or a numbered layer's hidden state (``embed``,
    ``inputs_embeds``, ``layer3``, ``layer_31_out``) and layer_sequence reads them as a draft input."""
    return all(_LIST_ITEM.fullmatch(item) for item in items) and layer_sequence(items) is not None


# What an item of a concatenation names, for SD201: a layer's hidden state (``layer3``,
# ``layer_31_out``, ``hidden_states[3]``, ``hs[-1]``, ``layers[3]``), a position in the
# captured list (``aux_hidden_states[0]``: SGLang's eagle3 models collect the captured layers
# in a list named aux_hidden_states, sgl-project/sglang python/sglang/srt/models/llama.py)
# or the embedding output (``embed_output``, ``inputs_embeds``).
_SUBSCRIPTED = re.compile(r"(?P<name>[\w.]+)\[(?P<index>-?\d+)\]")
_LAYER_NAMED = re.compile(r"layers?_?(\d+)(?![\d.])")
_HIDDEN_NAMES = ("hidden", "hs", "h", "states", "layers", "layer", "out", "outputs")


def layer_sequence(order: tuple[str, ...]) -> tuple[tuple[str, int], ...] | None:
    """The layers a concatenation joins, in order, when it joins hidden states of target
    layers (the draft input EAGLE-3 is trained on: ``cat([embed, layer3, layer31])``);
    None for any other concatenation (``cat([hidden_states, residual])``, ``cat([q, k])``,
    the midlayer's ``cat([input_embeds, hidden_states])``), whose order says nothing about
    the draft input. Items are compared by layer, not by spelling: ``hs[3]`` and
    ``layer3`` are the same hidden state."""
    out: list[tuple[str, int]] = []
    for item in order:
        sub = _SUBSCRIPTED.fullmatch(item)
        if sub is not None:
            name = sub.group("name").rsplit(".", 1)[-1]
            if name.startswith("aux"):
                out.append(("aux", int(sub.group("index"))))
                continue
            if name in _HIDDEN_NAMES or "hidden" in name or "layer" in name:
                out.append(("layer", int(sub.group("index"))))
                continue
            return None
        named = _LAYER_NAMED.search(item) if "layer" in item else None
        if named is not None:
            out.append(("layer", int(named.group(1))))
        elif "embed" in item:
            out.append(("embed", 0))
        else:
            return None
    if all(kind == "embed" for kind, _ in out) or len({kind for kind, _ in out if kind != "embed"}) > 1:
        return None  # no layer at all, or positions mixed with layer ids (no order to compare)
    return tuple(out)


_BARE_ID_LIST = re.compile(r"\[\s*(\d{1,4}(?:\s*,\s*\d{1,4}){1,15})\s*,?\s*\]")


def bare_layer_ids(output: str) -> tuple[int, ...] | None:
    """The ids of an output that is one bare list of integers, as ``jq
    .eagle_aux_hidden_state_layer_ids config.json`` (one per line) or a ``print(cfg[...])`` of
    them writes it: the command names the key, the output has none. None for any other output."""
    text = output.strip()
    if len(text) > 200 or text[:1] != "[" or (m := _BARE_ID_LIST.fullmatch(text)) is None:
        return None
    return tuple(int(x) for x in re.findall(r"\d+", m.group(1)))


def layer_id_lists(text: str, low: str | None = None) -> list[tuple[int, ...]]:
    """The lists of aux layer ids ``text`` holds: the config key's (``aux_hidden_state_layer_ids:
    [2, 30, 58]``) and, of prose (``low``, the text lowered, given), the lists a stated sentence
    about layer ids holds ("Training used layer ids [3, 31, 59] but the draft config says [2, 30,
    58]")."""
    if "_" not in text or "aux_hidden_state_layer_ids" not in text:  # the literal _LAYER_IDS needs
        return _stated_layer_ids(text, low) if low is not None and "[" in text else []
    found = [tuple(int(x) for x in re.findall(r"\d+", m.group(1))) for m in _LAYER_IDS.finditer(text)]
    if not found and low is not None:
        # "The config's eagle_aux_hidden_state_layer_ids is [2, 30, 58], training used [3, 31, 59]"
        return _stated_layer_ids(text, low)
    return found


# "layer ids", "layer IDs", "layer_ids", "layer indices": what an agent calls the aux layers
# when it compares them in words. Gated on one literal of the lowered text ("layer"), then each.
_LAYER_IDS_WORDS = re.compile(r"layer[ _]?(?:ids?\b|indices)")
_SENTENCE_AT = re.compile(r"(?:[^.!?\n]|[.!?](?=\S))+")  # a sentence ("[2, 30, 58]." ends one)
_ID_LIST = re.compile(r"\[\s*(\d{1,4}(?:\s*,\s*\d{1,4}){1,15})\s*,?\s*\]")


def _stated_layer_ids(text: str, low: str) -> list[tuple[int, ...]]:
    """The id lists ("[3, 31, 59]") after "layer ids" in a sentence that states them, not one
    that plans a check or supposes ("Let me check whether the layer ids are [2, 30, 58]")."""
    if "layer" not in low:
        return []
    out: list[tuple[int, ...]] = []
    for m in _LAYER_IDS_WORDS.finditer(low):
        if out and m.start() < end:
            continue  # in the sentence already read
        start = max(low.rfind(stop, 0, m.start()) for stop in (". ", "! ", "? ", "\n")) + 1
        sentence = _SENTENCE_AT.match(text, start)
        end = sentence.end() if sentence is not None else m.end()
        if text.startswith("?", end) or _HEDGE.search(text, start, m.start()) is not None:
            continue
        out += [tuple(int(x) for x in re.findall(r"\d+", ids.group(1)))
                for ids in _ID_LIST.finditer(text, m.end(), end)]
        if len(out) >= 4:
            break
    return out


# A fact asked about or planned for is no fact: "Let me check whether the d2t tensor is missing",
# "Is d2t missing?", "If d2t is missing, SGLang falls back to ...", "d2t might be absent",
# "Check if norm_before_residual is ignored" - what an agent writes before it looks, every
# session. The words before the match in its sentence, or the sentence's question mark, say so.
_HEDGE = re.compile(r"\b(?:whether|if|check|verify|maybe|perhaps|possibly|suspect|wonder|unless|in case|assuming"
                    r"|suppose|(?:might|may|could)\s+(?:be|have|not be))\b", re.I)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")  # not the dot of "model.safetensors"


def _stated(text: str, m: re.Match) -> bool:
    """The match is asserted, not asked about, planned for or supposed."""
    start = max(text.rfind(stop, 0, m.start()) for stop in (". ", "! ", "? ", "\n")) + 1
    end = _SENTENCE_END.search(text, m.end())
    if end is not None and text[end.start()] == "?":
        return False
    # the match itself may run into the next sentence ("Is the d2t wrong then? If d2t is
    # missing, ..."): its own words count too (none of the patterns' words is a hedge)
    return _HEDGE.search(text, start, m.end()) is None


# SD301 is a draft vocabulary smaller than the target's with no d2t. "No d2t because
# draft_vocab_size == vocab_size, which is fine", "the draft keeps the full vocabulary, so no d2t
# is needed": a draft with the target's whole vocabulary needs no map, and its missing d2t is no
# fault. Unless the same sentence says the sizes differ ("32000 != 128256", "not the same").
_MAP_NOT_NEEDED = re.compile(
    r"vocab\w*\b[^.\n]{0,40}?(?:==|\b(?:equals?|equal to|the same|identical)\b)"
    r"|(?:==|\b(?:equals?|equal to|the same as|identical to)\b)[^.\n]{0,40}?vocab"
    r"|\b(?:full(?:[- ]size)?|same|whole|target'?s) vocab"
    r"|\b(?:not (?:needed|required|necessary)|unnecessary|no need|(?:is|are)n't (?:needed|required))\b", re.I)
_SIZES_DIFFER = re.compile(r"!=|\b(?:not (?:equal|the same|identical)|differs?|different|smaller|less than|fewer|"
                           r"mismatch\w*|wrong|broken|bug)\b|\bdoes(?:n't| not) match", re.I)


def _map_not_needed(text: str, m: re.Match) -> bool:
    """The sentence of ``m`` says the draft has the target's vocabulary, so it needs no d2t."""
    start = max(text.rfind(stop, 0, m.start()) for stop in (". ", "! ", "? ", "\n")) + 1
    end = _SENTENCE_END.search(text, m.end())
    sentence = text[start:end.start() if end is not None else len(text)]
    return _MAP_NOT_NEEDED.search(sentence) is not None and _SIZES_DIFFER.search(sentence) is None


def _first_stated(pattern: re.Pattern, text: str, excused=None) -> re.Match | None:
    """The first match asserted, and not ``excused(text, match)`` where that is given."""
    for n, m in enumerate(pattern.finditer(text)):
        if n >= 20:
            return None
        if _stated(text, m) and (excused is None or not excused(text, m)):
            return m
    return None


def text_observations(text: str, low: str | None = None) -> list[Observation]:
    """d2t and norm-flag facts stated in prose or printed by a tool. ``low`` is ``text.lower()``
    when the caller has it already."""
    out = []
    # The patterns match in any case ("the D2T table is missing", "NORM_BEFORE_RESIDUAL is
    # ignored"), so their gates look at the text lowered: none of the letters of "d2t" or of
    # the flag names has a case fold other than its own capital (unlike k, s and i), so a match
    # of either pattern is a match of its gate in the lowered text. Lowering an output costs
    # about what one literal search of it does (0.6 us for 2.4 KB).
    if low is None:
        low = text.lower()
    if _HAS_D2T(low):
        m = _first_stated(_D2T_ABSOLUTE, text)
        if m:
            out.append(Observation("SD302", _around(text, m.start(), m.end())))
        m = _first_stated(_D2T_MISSING, text, _map_not_needed)
        if m:
            out.append(Observation("SD301", _around(text, m.start(), m.end())))
    # "z" first (a memchr): most outputs have none (a server log's Decode batch lines, a listing
    # of files, a traceback), and are spared the literal's scan (~2 us over a 5 KB log)
    if "z" in text and _HAS_SIZE_MISMATCH(text):
        m = _vocab_size_mismatch(text)
        if m:
            # d2t's length is the draft vocabulary the map was built for: vocab.py's d2t_length
            # is SD302 (the map), the head's, the embedding's and t2d's rows SD303
            code = "SD302" if m.group(1) == "d2t" else "SD303"
            out.append(Observation(code, _around(text, m.start(), m.end())))
    # "_" first: a one-character search is a memchr, and every flag name has one; then "norm",
    # which each has, as one regex literal search (0.9 us over a 2.8 KB listing of files, where
    # the three substring tests took 3.6 us: `in` is slower for a short needle here)
    if "E" in text and _HAS_ERROR(text):  # (a memchr first: most outputs have no capital E)
        out += _engine_refusals(text)
    # "x" first (a memchr): a server log, a listing of files or a traceback seldom has one, and is
    # spared the literal's scan (~2 us over a 7 KB log)
    if "x" in text and ".index.json" in text:
        m = _INDEX_FILE.search(text)
        if m is not None and _stated(text, m) and _SINGLE_FILE.search(text) is not None \
                and _SHARD_FILE.search(text) is None:
            out.append(Observation(STALE_INDEX_LISTING, _around(text, m.start(), m.end())))
    if "_" in text and _HAS_NORM(low) and ("norm_before" in low or "fc_norm" in low or "norm_output" in low):
        m = _first_stated(_NORM_FLAG, text)
        if m:
            if not _NOT_IGNORED.search(text, max(0, m.start() - 20), m.end()):
                out.append(Observation("SD701", _around(text, m.start(), m.end())))
    return out


def _engine_refusals(text: str) -> list[Observation]:
    """The draft-config codes an engine's own startup error names (:data:`_ENGINE_REFUSAL`),
    each once, with its last statement (a traceback's exception line comes after the frames)."""
    found: dict[str, Observation] = {}
    for m in _ENGINE_REFUSAL.finditer(text):
        word = m.group()
        if m.group(1) is not None:  # "Cannot find any model weights with `<dir>`"
            if not text.startswith("Runtime", m.start() - 7) or not _draft_failed(text, m):
                continue
            code = "SD710"
        elif word.endswith(" to str"):
            if m.start() < 4 or not text.startswith("Type", m.start() - 4):
                continue
            # a str + int anywhere is no fault of the draft: the frame that adds 1 to each aux
            # layer id must be the one that raised it (the last frame before the line)
            frame = text.rfind(_STR_IDS_FRAME, 0, m.start())
            if frame < 0 or text.find('File "', frame, m.start()) >= 0:
                continue
            code = "SD707"
        else:
            code = "SD708" if "EAGLE3" in word else "SD706"
        if _stated(text, m):
            found[code] = Observation(code, _around(text, m.start(), m.end()))
    return list(found.values())


def _draft_failed(text: str, m: re.Match) -> bool:
    """The folder an engine found no weights in (``m``: :data:`_ENGINE_REFUSAL`'s "Cannot find
    any model weights") is the draft's, not the target's (:data:`_NO_WEIGHTS`)."""
    path = m.group(1).rstrip("/\\")
    tb = text.rfind("Traceback (most recent call last)", 0, m.start())
    if tb >= 0 and _DRAFT_LOADER_FRAME.search(text, tb, m.start()) is not None:
        return True
    if _DRAFT_DIR_NAME.search(path.rsplit("/", 1)[-1]) is not None:
        return True
    # the path elsewhere in the text, after a draft key (the server's echo of its arguments)
    at, seen = text.find(path), 0
    while at >= 0 and seen < 20:
        end = at + len(path)
        # the whole path, not the start of a longer one (/models/llama of /models/llama-eagle3)
        whole = end == len(text) or not (text[end].isalnum() or text[end] in "-_.")
        if at != m.start(1) and whole and _DRAFT_KEY_BEFORE.search(text, max(0, at - 60), at) is not None:
            return True
        at, seen = text.find(path, at + len(path)), seen + 1
    return False


def _vocab_size_mismatch(text: str) -> re.Match | None:
    """The first vocabulary tensor of a drafter whose rows the checkpoint and the model disagree
    on, over the same width (:data:`_VOCAB_SIZE_MISMATCH`)."""
    if _DRAFTER_NAMED.search(text) is None:
        return None
    for m in _VOCAB_SIZE_MISMATCH.finditer(text):
        _tensor, saved_rows, saved_rest, built_rows, built_rest = m.groups()
        if saved_rows != built_rows and saved_rest == built_rest:
            return m
    return None


def _around(text: str, start: int, end: int) -> str:
    """The line around a match, cut at word boundaries to about 80 characters each side."""
    line_start = text.rfind("\n", 0, start) + 1
    nl = text.find("\n", end)
    line_end = nl if nl >= 0 else len(text)
    a, b = max(line_start, start - 80), min(line_end, end + 80)
    if a > line_start:
        a = text.find(" ", a, start) + 1 or a
    if b < line_end:
        b = text.rfind(" ", end, b) if text.rfind(" ", end, b) > 0 else b
    return ("…" if a > line_start else "") + " ".join(text[a:b].split()) + ("…" if b < line_end else "")
