"""Shared by the step modules: where a finding is made, root causes raised earlier, not-checked lines."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Iterable, Mapping, Sequence

from spec_debug.diagnose.checks.common import Where
from spec_debug.diagnose.launch import LaunchParseError, vllm_dotted_flags, vllm_reads_human_ints
from spec_debug.eagle3.config import ConfigMisfitError, TargetMisfitError
from spec_debug.record import Finding
from spec_debug.runner.runner_findings import runner_finding

# Root causes: codes whose error explains lower acceptance or throughput downstream.
SERVING_PATH_CAUSES = ("SD101", "SD201", "SD202", "SD203", "SD204", "SD301", "SD302", "SD303",
                       "SD402", "SD601", "SD701", "SD704", "SD705")
# Those that also lower the standalone evaluation's acceptance, which runs the checkpoint as its
# config says, on the served layout, with its own vocab map: a config its weights contradict, a
# layout that fits the weights better, a wrong d2t/t2d.
EVAL_ACCEPTANCE_CAUSES = ("SD302", "SD303", "SD402", "SD704")


def where(ctx: Any) -> Where:
    return Where(host=ctx.host, step=ctx.step_id)


def raised(host_facts: Mapping[str, Any], codes: Iterable[str]) -> list[str]:
    """Error codes that earlier steps on this host recorded, restricted to `codes`."""
    wanted = set(codes)
    found: list[str] = []
    for value in host_facts.values():
        if isinstance(value, Mapping):
            for code in value.get("raised", []) or []:
                if code in wanted and code not in found:
                    found.append(code)
    return found


def record(facts: dict[str, Any], namespace: str, findings: list[Finding]) -> list[Finding]:
    """Remember the error codes a check raised (see the package docstring) and pass them on."""
    space = facts.setdefault(namespace, {})
    space["raised"] = sorted({*space.get("raised", []), *(f.code for f in findings if f.severity == "error")})
    return findings


def not_checked(ctx: Any, what: str, provide: str) -> Finding:
    """The info line for a check that could not run for lack of an input (never an error)."""
    return runner_finding("SD004", host=ctx.host, step=ctx.step_id, evidence=[what],
                          facts={"provide": provide}, title=f"Not checked: {provide}")


# The codes for a draft config.json that does not describe its weights: the width (SD204) or
# the other shape keys (SD704) from the configs step, the head's rows against draft_vocab_size
# (SD303) from the vocab step, each from the tensor headers the drafter's loading checks too
# (eagle3.loading.check_weights_fit_config raises ConfigMisfitError).
CONFIG_MISFIT_CAUSES = ("SD704", "SD204", "SD303")


def draft_misfit_line(ctx: Any, misfit: str, what: str) -> Finding:
    """For a step whose probe could not load the draft because its config.json does not
    describe its weights: the info line saying it did not run because of the configs step's
    SD704 / SD204 (or the vocab step's SD303), said there once as the root cause (it was an
    SD003 warning, "step could not run", beside it). With no such finding before it (a
    playbook without those steps) the step fails as a probe that could not run does (SD003),
    naming the misfit."""
    causes = raised(ctx.host_facts, CONFIG_MISFIT_CAUSES)
    if not causes and (ctx.host_facts.get("configs") or {}).get("draft_decoder_type_said"):
        # the configs step's SD704 for a retyped decoder is a warning (vLLM serves the draft),
        # which `raised` does not record: its own fact says it was given
        causes = ["SD704"]
    if not causes:
        raise ConfigMisfitError(f"the draft could not be loaded: {misfit}")
    first = misfit.splitlines()[0] if misfit else ""
    return not_checked(ctx, f"{what}: the draft's config.json does not describe its weights "
                            f"({' and '.join(causes)}, reported above): {first}",
                       f"the draft's config.json fixed as {causes[0]} says")


def no_engine_weights_finding(refused: Any, at: Any) -> list[Finding]:
    """SD710 for a draft folder holding no weight file vLLM and SGLang load (no *.safetensors,
    and no *.bin or *.pt but the trainer files they skip: vLLM 0.34.0 model_loader/
    default_loader.py _prepare_weights, SGLang 0.5.23 model_loader/loader.py, the same rule):
    the server stops with "Cannot find any model weights with <draft dir>". The vocab and
    eval steps could not run (SD003 warnings) and the run PASSED over a draft no engine loads.
    The configs step gives it from the folder's listing, the eval step from its probe's refusal
    where no configs step ran (drafter_accuracy)."""
    if not isinstance(refused, dict) or not refused.get("message"):
        return []
    hint = refused.get("hint")
    if refused.get("denied_weight_files"):  # a file the probe's user may not open
        return denied_weight_files_finding(refused["denied_weight_files"], refused.get("folder"), at)
    if refused.get("missing_shards"):  # a shard the draft's index names is not here
        return missing_shards_finding(refused["missing_shards"], at, said=str(refused["message"]))
    if refused.get("unreadable_weight_files"):  # a probe's refusal of a file it cannot read
        return unreadable_weight_files_finding(refused["unreadable_weight_files"], at,
                                               said=str(refused["message"]), hint=hint)
    return [at.finding("SD710", [str(refused["message"])], {"no_engine_weights": True},
                       title="The draft folder holds no weight file the engines load",
                       remediation=(f"{hint}; then start the server again" if hint else
                                    "Point the server (and --var draft_model) at the folder the "
                                    "draft's weights were saved to (model.safetensors beside "
                                    "config.json), or save them there, then start the server "
                                    "again."))]


def denied_weight_files_finding(denied: Any, folder: Any, at: Any) -> list[Finding]:
    """SD710, a warning, for draft weight files the probe's user may not open (permission
    denied: hostfiles.denied_access). They were said as headers that cannot be read ("a copy
    cut short, a git-lfs pointer"), an error, although a server running as another user (a
    service account, root in a container) may read and load them; one running as the probe's
    user cannot (vLLM and SGLang open every weight file: safetensors' safe_open). Which user
    the server runs as is not known here, so it is said both ways, with `ls -l`'s owner."""
    if not isinstance(denied, dict) or not denied:
        return []
    access = [entry for entry in denied.values() if isinstance(entry, dict)]
    user = access[0].get("user") if access else None
    who = f"{user} (uid {access[0].get('uid')})" if user is not None else "its user"
    files = "; ".join(
        f"{name} ({' '.join(str(entry[key]) for key in ('mode', 'owner', 'group') if entry.get(key) is not None)})"
        if isinstance(entry, dict) and entry.get("mode") else str(name) for name, entry in denied.items())
    where_ = f" in {folder}" if folder else ""
    evidence = (f"the probe ran as {who} and may not open {files}{where_} (permission denied): a "
                f"server running as {user or 'that user'} cannot load the draft either (vLLM and "
                "SGLang open every weight file), one running as a user that may read it does; "
                "the draft config's shape keys, norm flags and vocabulary tensors were not "
                "compared with its weights")
    remediation = (f"If the server runs as {user or 'that user'}, make the file(s) readable to it "
                   "(`chmod o+r FILE`, or the file's group for that user); otherwise run the "
                   "playbook as the server's user (its ssh user), so the weights are checked.")
    return [at.finding("SD710", [evidence], {"denied_weight_files": denied}, severity="warning",
                       title="A draft weight file the probe's user may not read",
                       remediation=remediation)]


def missing_shards_finding(missing: Any, at: Any, said: str, unchecked: str | None = None) -> list[Finding]:
    """SD710 for a draft whose model.safetensors.index.json names a shard that is not there (a
    copy or download that lost one): vLLM loads the shards that are there and stops, since
    the draft's parameters in the lost one were never loaded ("Following weights were not
    initialized from checkpoint: {...}": model_loader/default_loader.py's check after
    load_weights, for an unquantized model); the drafter stops at the index. The vocab, eval
    and layout steps said it as a step that could not run (SD003, a warning), and the
    configs step only that it compared no shapes (SD004): the run PASSED over a draft vLLM
    does not start with. `unchecked`: what the step could not compare for it (a second line)."""
    if not missing:
        return []
    evidence = (f"{said}: vLLM loads the shards that are here and stops (\"Following weights were not "
                f"initialized from checkpoint\"); the draft's tensors in {'it' if len(missing) == 1 else 'them'} "
                "were not read")
    return [at.finding("SD710", [evidence, *([unchecked] if unchecked else [])],
                       {"missing_shards": [str(name) for name in missing]},
                       title="A shard the draft's weight index names is not there",
                       remediation=("Copy or download the missing shard(s) again (every file the "
                                    "draft's model.safetensors.index.json names), then start the "
                                    "server again."))]


def unreadable_weight_files_finding(files: Any, at: Any, said: str | None = None,
                                    hint: str | None = None,
                                    reasons: dict[str, str] | None = None) -> list[Finding]:
    """SD710 for weight files the engines load whose safetensors header cannot be read (a
    git-lfs pointer, an empty file, a copy cut short): vLLM and SGLang open each with
    safetensors' safe_open (vLLM model_loader/weight_utils.py safetensors_weights_iterator),
    which raises "Error while deserializing header", and the server does not start. It was an
    SD004 info line ("not checked"), and the run PASSED over a draft no engine loads. The
    configs step gives it from the folder's listing; the eval and vocab steps from their
    probe's refusal (`said`: the drafter's own message, `hint` its fix, as `git lfs pull` for
    a pointer) where no configs step ran (drafter_accuracy: an SD003 warning, and PASSED).
    `reasons` are the listing's words for the files whose header reads but is refused (a size
    other than the header's, an entry safetensors refuses), said as they are: a file longer
    than its header describes was said as "cut short, a git-lfs pointer"."""
    if not files:
        return []
    reasons = reasons or {}
    unsaid = [str(name) for name in files if str(name) not in reasons]
    engines = ("vLLM and SGLang open every weight file with safetensors' safe_open and do not "
               "start (\"Error while deserializing header\")")
    why = [reasons[str(name)] for name in files if str(name) in reasons]
    if unsaid:
        why.append(f"the header of {', '.join(unsaid)} cannot be read (a copy or download cut "
                   "short, a git-lfs pointer, or not a safetensors file)")
    evidence = (f"{said}: {engines}" if said else
                f"{'; '.join(why)}: {engines}; the draft config's shape keys and norm flags were "
                "not compared with its weights")
    remediation = ("Copy or download the draft's weight files again (a git-lfs pointer: `git lfs "
                   "pull` in the draft's repository), check that each opens (`python -c \"import "
                   "safetensors; safetensors.safe_open('FILE', 'pt')\"`), then start the server "
                   "again.")
    if hint:
        remediation = f"{hint[:1].upper()}{hint[1:]}. {remediation}"
    return [at.finding("SD710", [evidence], {"unreadable_weight_files": [str(name) for name in files]},
                       title="A draft weight file the engines load cannot be read",
                       remediation=remediation)]


def no_engine_weights_line(ctx: Any, refused: dict[str, Any], what: str) -> Finding:
    """For a step whose drafter probe refused a draft folder vLLM and SGLang load no weight
    file from (probes.hostfiles.engine_weights_refusal): where the configs step gave SD710,
    the info line saying it did not run (as draft_misfit_line); else SD710 here.
    drafter_accuracy has no configs step, and its eval probe's failure, an SD003 warning, let
    the run say PASSED with "nothing was checked"."""
    message = str(refused.get("message") or "")
    if refused.get("denied_weight_files") and (ctx.host_facts.get("configs") or {}).get("draft_denied_weight_files"):
        # the configs step's SD710 is a warning (a server running as another user may load
        # the draft), which `raised` does not record: its own fact says it was given
        return not_checked(ctx, f"{what}: the probe's user may not read the draft's weights (SD710, "
                                f"reported above): {message}",
                           "the draft's weight files readable to the playbook's ssh user, as SD710 says")
    if raised(ctx.host_facts, ("SD710",)):
        return not_checked(ctx, f"{what}: vLLM and SGLang cannot load the draft's weights "
                                f"(SD710, reported above): {message}",
                           "every shard the draft's weight index names, as SD710 says"
                           if refused.get("missing_shards") else
                           "the draft's weights saved beside its config.json, as SD710 says")
    [finding] = no_engine_weights_finding(refused, where(ctx))
    return finding


# The codes for a draft made for another target: its fc width against the target's hidden size
# (SD204, configs step), its vocabulary against the target's (SD303, vocab step).
TARGET_MISFIT_CAUSES = ("SD204", "SD303")


def target_misfit_line(ctx: Any, misfit: str, what: str) -> Finding:
    """For a step whose probe could not run the draft on the target given because the draft
    was made for another target (eagle3.config.TargetMisfitError): the info line saying so,
    naming the configs step's SD204 or the vocab step's SD303 as the root cause. It was an
    SD003 warning ("step could not run") whose hint, "--target must be the model the draft was
    trained for", read as a wrong var. With no such finding before it the step fails as a
    probe that could not run does (SD003), naming the misfit."""
    causes = raised(ctx.host_facts, TARGET_MISFIT_CAUSES)
    if not causes:
        raise TargetMisfitError(misfit)
    first = misfit.splitlines()[0] if misfit else ""
    return not_checked(ctx, f"{what}: the draft does not fit this target ({' and '.join(causes)}, "
                            f"reported above): {first}",
                       f"a draft and target that fit each other, as {causes[0]} says")


# Drafters with no checkpoint of their own: n-gram / suffix lookup (vLLM ngram, ngram_gpu, suffix;
# SGLang NGRAM and its earlier name LOOKAHEAD) and vLLM's custom_class proposer, whose "model" is
# a Python class path (vllm/config/speculative.py; vllm-project/vllm PR #39487).
_NO_CHECKPOINT = {"NGRAM": "n-gram lookup", "NGRAM_GPU": "n-gram lookup", "LOOKAHEAD": "n-gram lookup",
                  "SUFFIX": "suffix-tree lookup", "CUSTOM_CLASS": "a custom proposer class"}


def target_mtp_line(ctx: Any) -> Finding | None:
    """For a check that needs the EAGLE-3 draft checkpoint: when the launch audit found that the
    server drafts with its target's own MTP module(s), say so instead of asking for a draft
    directory that does not exist."""
    launch = ctx.host_facts.get("launch") or {}
    algorithm = launch.get("algorithm") or ""
    if algorithm in _NO_CHECKPOINT:
        # (was: "no draft config.json could be read ... --var draft_model=DIR" for a server whose
        # drafter has no checkpoint, e.g. a custom_class proposer whose "model" is a class path)
        return not_checked(ctx, f"the server drafts with {_NO_CHECKPOINT[algorithm]} ({launch.get('engine')} "
                                f"{algorithm.lower()}): there is no EAGLE-3 draft checkpoint, so this draft "
                                "check does not apply",
                           "nothing for a drafter without a checkpoint (an EAGLE-3 draft's checks)")
    if not launch.get("draft_is_target_mtp"):
        return None
    return not_checked(ctx, f"the server drafts with the MTP module(s) inside its target "
                            f"{launch.get('target_model')} ({launch.get('engine')} "
                            f"{(launch.get('algorithm') or '').lower()}): there is no separate EAGLE-3 draft "
                            "checkpoint, so this draft check does not apply",
                       "nothing for MTP serving (an EAGLE-3 draft's checks)")


# "178.86 tok/s", "tokens/sec", "tokens per second", "t/s", "tps"
_TOK_S_UNIT = re.compile(r"\s*(?:(?:tok(?:en)?s?|t)\s*(?:/|per)\s*s(?:ec(?:ond)?)?|tps)\s*$", re.I)
# "11.2 ms/tok", "0.011 s per token", "12 ms/output token"
_PER_TOKEN_TIME = re.compile(r"(?P<n>[\d.,]+)\s*(?P<unit>ms|s|sec)\s*(?:/|per)\s*(?:output\s+)?tok(?:en)?s?",
                             re.I)
# "25 ms/step", "25ms/step", "30 ms per iteration": a verify round's time, which covers several
# tokens (the unit may touch the number, so no word boundary before it)
_PER_STEP = re.compile(r"(?<![a-z])(?:ms|s|sec)\s*(?:/|per)\s*(?:decode\s+)?(?:step|iter(?:ation)?|round|forward)s?\s*$",
                       re.I)


def launch_flag_value(argv: list[str], names: tuple[str, ...]) -> str | None:
    """The last value given to one of `names` (`--flag value` or `--flag=value`)."""
    value = None
    for i, tok in enumerate(argv):
        name, eq, inline = str(tok).partition("=")
        if name in names:
            value = inline if eq else (str(argv[i + 1]) if i + 1 < len(argv) else None)
    return value


QUANTIZATION_FLAGS = ("--quantization", "-q")
# JSON the engine merges into the target's config.json before it builds the model. vLLM
# `--hf-overrides`: config/model.py ModelConfig._apply_dict_overrides updates a nested
# PretrainedConfig (text_config...) key by key and sets any other key whole. SGLang
# `--json-model-override-args`: hf_transformers_utils.get_config `config.update(...)`, every
# key set whole. GLM-5 / DeepSeek-V3.2 deployments pass their index_topk_pattern there.
CONFIG_OVERRIDE_FLAGS = {"--hf-overrides": True, "--json-model-override-args": False}  # nested merge?
# dict-valued keys of a config.json that are plain dicts, not sub-configs: set whole
_PLAIN_DICT_KEYS = frozenset({"quantization_config", "compression_config", "rope_scaling", "rope_parameters"})


def launch_config_overrides(argv: list[str], engine_version: str | None = None) -> list[tuple[dict[str, Any], bool]]:
    """The JSON objects the launch line gives to override the target config, each with whether
    its nested configs are merged (vLLM) or replaced (SGLang). Not a JSON object: skipped,
    the server refuses such a flag, so config.json is what it would load."""
    found = []
    for name, nested in CONFIG_OVERRIDE_FLAGS.items():
        text = launch_flag_value(list(argv), (name,))
        try:
            value = json.loads(text) if text else None
        except (ValueError, RecursionError):  # json recurses per nesting level: no override nests that deep
            value = None
        dotted = _dotted_flag_value(list(argv), name, vllm_reads_human_ints(engine_version)) if nested else None
        value = dotted or value  # vLLM passes the dotted keys last, as one JSON value: it wins
        if isinstance(value, dict):
            found.append((value, nested))
    return found


def _dotted_flag_value(argv: list[str], name: str, human_readable: bool = True) -> dict[str, Any] | None:
    """vLLM's dotted form of a JSON flag (`--hf-overrides.rope_scaling.factor 4`), read as the launch
    audit reads `--speculative-config.method` (launch.vllm_dotted_flags). A dotted flag with no
    value: vLLM's parser fails, so the file is what would be loaded (None)."""
    try:
        return vllm_dotted_flags(argv, human_readable).get(name.lstrip("-")) or None
    except LaunchParseError:
        return None


def with_overrides(config: dict[str, Any], overrides: Mapping[str, Any], nested: bool = True) -> dict[str, Any]:
    """config.json as the engine loads it: each override key replaces the file's; with `nested`
    (vLLM), a JSON object given for a sub-config (text_config) is merged into it at every depth
    (ModelConfig._update_nested recurses into the dicts inside it: text_config.rope_scaling
    keeps the keys the override does not name), while a top-level dict is set whole."""
    out = dict(config)
    for key, value in overrides.items():
        if (nested and key.endswith("_config") and key not in _PLAIN_DICT_KEYS
                and isinstance(value, Mapping) and isinstance(out.get(key), Mapping)):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def served_config(config: Any, argv: Sequence[str], engine_version: str | None = None) -> Any:
    """config.json as the engine loads it: each JSON override the launch line gives
    (:func:`launch_config_overrides`) applied in turn by :func:`with_overrides`. A config that
    was not read (None, not an object) is returned as it is. `engine_version`: the vLLM release
    (None: the newest), which decides whether a dotted `--hf-overrides.KEY 128K` is a number."""
    if not isinstance(config, dict):
        return config
    for overrides, nested in launch_config_overrides(list(argv), engine_version):
        config = with_overrides(config, overrides, nested)
    return config


def served_target(target: Any, host_facts: Mapping[str, Any]) -> Any:
    """The target config.json as the server loads it: with the launch line's --hf-overrides
    (vLLM, merged into sub-configs) or --json-model-override-args (SGLang, set whole) applied,
    so a rope_scaling or num_hidden_layers given there is the one compared (as
    throughput_step.served_configs reads it)."""
    engine = host_facts.get("engine") or {}
    return served_config(target, (host_facts.get("launch") or {}).get("argv") or [],
                         engine.get("version") if engine.get("name") == "vllm" else None)


def _merged(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """`update` merged into `base` key by key, dicts within dicts too."""
    out = dict(base)
    for key, value in update.items():
        both = isinstance(value, Mapping) and isinstance(out.get(key), Mapping)
        out[key] = _merged(out[key], value) if both else value
    return out


def launch_quantization(host_facts: Mapping[str, Any]) -> str | None:
    """The target's `--quantization`/`-q` on the audited launch line (None: not given). vLLM
    0.22/0.23 pick the V1 model runner for a quantized target, and a bf16 checkpoint quantized
    online is one (pass it to engines.target_architecture)."""
    argv = (host_facts.get("launch") or {}).get("argv") or []
    return launch_flag_value(list(argv), QUANTIZATION_FLAGS)


def per_token_time(value: Any) -> bool:
    """The var is a time per output token (a benchmark's TPOT / ITL): its tok/s is one
    request's decode rate, not the output throughput of all requests together."""
    return value is not None and bool(_PER_TOKEN_TIME.fullmatch(str(value).strip()))


def tok_s_var(value: Any, name: str) -> tuple[float | None, str | None]:
    """A tokens-per-second var as people write it (`178.86`, `178.86 tok/s`, `1,234.5`):
    (value, None), (None, None) when not given, or (None, why it cannot be used)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    raw = str(value).strip()
    if _PER_STEP.search(raw):
        return None, (f"--var {name}={value!r} is a time per decode step, not per token: with speculation a "
                      "step emits accept-length tokens, so it gives no tok/s; give tokens per second "
                      "(or ms per output token)")
    per_token = _PER_TOKEN_TIME.fullmatch(raw)
    text = per_token.group("n") if per_token else _TOK_S_UNIT.sub("", raw)
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d*)?", text):
        text = text.replace(",", "")  # thousands separators; "178,86" (a decimal comma) is refused
    try:
        number = float(text)
    except ValueError:
        return None, f"--var {name}={value!r} is not a number of tokens per second"
    if per_token and math.isfinite(number) and number > 0:
        # a time per output token (the benchmarks' TPOT / ITL, "11.2 ms/tok"): its inverse is the
        # per-request decode rate, the same quantity as tok/s of one stream
        number = (1000.0 if per_token.group("unit").lower() == "ms" else 1.0) / number
    if not math.isfinite(number) or number <= 0:
        # 0 is what a benchmark whose requests all failed prints; it is no baseline to compare
        return None, f"--var {name}={value!r} is not a positive throughput (a benchmark whose requests failed?)"
    return number, None
