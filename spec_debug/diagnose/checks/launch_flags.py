"""SD101-SD104: what the launch command makes the server do; SD201 for the aux layers a vLLM
pipeline-parallel launch keeps from an EAGLE-3 drafter."""

from __future__ import annotations

import re
from typing import Any, Mapping

from spec_debug.diagnose.checks.common import Where
from spec_debug.diagnose.launch import (MOST_USEFUL_STEPS, RELEASE_UNKNOWN, TREE_TOPK_CRASH, VLLM_NEWER_RELEASE_UNKNOWN,
                                       VLLM_RELEASE_UNKNOWN, EffectiveSpec, LaunchConfig, names_no_draft_path, sglang_call_wording,
                                       vllm_call_wording, vllm_eagle3_pipeline_aux_loss)
from spec_debug.diagnose.parallel_draft import is_peagle
from spec_debug.record import Finding


# The trained-depth source of an MTP launch whose target config was read and names no MTP
# module (launch_step.parse): the keys vLLM and SGLang count them by are absent.
NO_MTP_MODULES = ("the target config read names no MTP modules (num_nextn_predict_layers / "
                  "mtp_num_hidden_layers absent or 0)")


def as_written(launch: LaunchConfig, findings: list[Finding]) -> list[Finding]:
    """The findings of a Python engine call (`sgl.Engine(speculative_num_steps=1, ...)`,
    `LLM(..., speculative_config={...})`) in the words the call is written in: its keywords, not
    the command-line flags its evidence and fix are built with (was: `--speculative-num-steps 1`
    and "Serve with ... --speculative-eagle-topk 1" to a script that writes no command line)."""
    if not launch.python_call:
        return findings
    call = launch.python_call
    word = (lambda text: sglang_call_wording(text, call)) if launch.engine == "sglang" else (
        lambda text: vllm_call_wording(text, call))
    return [finding.model_copy(update={"evidence": [word(line) for line in finding.evidence],
                                       "remediation": word(finding.remediation)})
            for finding in findings]


def _mtp_asked(launch: LaunchConfig) -> str:
    if launch.engine == "sglang":
        return f"--speculative-algorithm {launch.algorithm} with no draft path"
    return f"method {(launch.algorithm or 'mtp').lower()}"


def check_num_steps(launch: LaunchConfig, eff: EffectiveSpec, trained_steps: int | None,
                    at: Where = Where(), *, trained_source: str | None = None,
                    draft_unread: str | None = None, trained_key: str | None = None) -> list[Finding]:
    """SD101: one drafted token per round. Error when the draft was trained for more.

    `trained_source` names where `trained_steps` comes from when the draft is not an EAGLE
    checkpoint (an MTP target's own modules); `trained_key` the key of an EAGLE checkpoint's
    config that says it where that is not speculators' proposal (an EAGLE-format config's
    num_lookahead_tokens); `draft_unread` says why the draft config was not read, where that is
    known (its path a variable the text leaves unset)."""
    return as_written(launch, _num_steps_findings(launch, eff, trained_steps, at,
                                                  trained_source=trained_source or trained_key,
                                                  draft_unread=draft_unread, mtp=trained_source is not None))


def _num_steps_findings(launch: LaunchConfig, eff: EffectiveSpec, trained_steps: int | None, at: Where, *,
                        trained_source: str | None, draft_unread: str | None, mtp: bool) -> list[Finding]:
    if launch.engine == "sglang" and launch.algorithm == "NGRAM":
        return _sglang_ngram_capped(eff, at)
    if launch.engine == "vllm" and mtp and trained_source and trained_steps:
        refused = _vllm_mtp_indivisible(launch, trained_steps, trained_source, at)
        if refused:
            return refused
    served = eff.num_steps
    if served != 1 or eff.adaptive:
        # adaptive SGLang only starts there: it moves the steps up while drafts are accepted
        return []
    if launch.engine == "sglang" and launch.algorithm in _SGLANG_BLOCK_DRAFTERS:
        return []
    if eff.num_draft_tokens is not None and eff.num_draft_tokens < 2:
        # a verify budget without a drafted token (SGLang topk > 1 with 1 draft token): no
        # drafted token is ever accepted, whatever the steps; SD102 says so, and "at most 2"
        # here would promise a token the tree never verifies
        return []
    flag = "--speculative-num-steps 1" if launch.engine == "sglang" else _vllm_tokens_flag(launch, 1)
    dynamic = [o for o in eff.overrides if o.startswith("dynamic:")]
    evidence = [f"launch command: {dynamic[0] if dynamic else flag}",
                f"effective: 1 step, topk {eff.topk}, {eff.num_draft_tokens} draft tokens verified: at most "
                "one drafted token can be accepted per round, so the accept length is at most 2"]
    facts = {"served_steps": 1, "trained_steps": trained_steps}
    untrained = untrained_drafter(launch)
    if untrained is not None:
        # no depth to compare with: n-gram lookup has no weights, a STANDALONE/draft_model
        # draft is a plain LM that predicts the next token from any prefix
        evidence.append(f"{untrained} is not trained for a number of steps, so there is no trained depth "
                        "to serve; more steps cost one draft pass each and pay off while its guesses "
                        "keep being accepted")
        facts["trained_steps"] = None
        return [at.finding("SD101", evidence, facts, severity="warning",
                           remediation="Try more steps and keep the setting that measures fastest "
                                       "(e.g. 3 steps: " + ("--speculative-num-steps 3 --speculative-eagle-topk 1 "
                                                            "--speculative-num-draft-tokens 4)" if launch.engine == "sglang"
                                                            else _vllm_tokens_flag(launch, 3) + ")"))]
    if trained_steps is not None and trained_steps > MOST_USEFUL_STEPS:
        # a slip in the draft's config (an extra digit, a byte count), no depth anyone trains a
        # draft for: "Serve with 1000000000 steps" would repeat it (see launch.MOST_USEFUL_STEPS)
        evidence.append(f"the draft config says {trained_steps} speculative tokens "
                        f"({trained_source or 'speculative_tokens of its speculators_config.default_proposal_method'}), "
                        f"past any trained depth (drafts are trained for a few steps, at most {MOST_USEFUL_STEPS} "
                        "here): not taken as the depth to serve; fix that value in the draft config")
        facts["trained_steps"] = None
        return [at.finding("SD101", evidence, facts, severity="warning",
                           remediation="Serve with the number of steps the draft was trained for (speculators' "
                                       "default is 3) and correct speculative_tokens in the draft's config.json")]
    if trained_steps is not None and trained_steps > 1:
        evidence.append(f"the draft was trained/exported for {trained_steps} speculative tokens "
                        f"({trained_source or 'speculative_tokens of its speculators_config.default_proposal_method'})")
        fix = (f"Serve with {trained_steps} steps: --speculative-num-steps {trained_steps} "
               f"--speculative-eagle-topk 1 --speculative-num-draft-tokens {trained_steps + 1}"
               if launch.engine == "sglang" else
               f"Serve with {trained_steps} speculative tokens: {_vllm_tokens_flag(launch, trained_steps)}.")
        return [at.finding("SD101", evidence, facts, remediation=fix)]
    if trained_steps == 1:
        return []
    if trained_source == NO_MTP_MODULES:
        evidence.append(f"{trained_source}: the target has no MTP module of its own for {_mtp_asked(launch)} "
                        "to draft with (serve the MTP checkpoint of this model, or give a draft)")
    else:
        evidence.append(f"{trained_source}: unknown (not in the target config, or its config.json was not "
                        "found on the host)" if trained_source
                        else draft_unread or "the draft config does not say how many steps it was trained for")
    return [at.finding("SD101", evidence, facts, severity="warning")]


def _vllm_mtp_indivisible(launch: LaunchConfig, layers: int, source: str, at: Where) -> list[Finding]:
    """SD102 (a launch vLLM refuses): a vLLM MTP server (the target's own modules) given more
    speculative tokens than the target has MTP modules, and not a multiple of them.
    vllm-project/vllm vllm/config/speculative.py `__post_init__` (vllm/config.py before the
    split): `num_speculative_tokens > n_predict and num_speculative_tokens % n_predict != 0`
    raises ValueError, so the modules are reused whole; n_predict is the target's
    num_nextn_predict_layers / mtp_num_hidden_layers (`hf_config_override`). vLLM's own test
    `test_mtp_stages_are_independent_of_dspark_width` (vllm-project/vllm PR #54631): 3 layers take
    6 and refuse 5."""
    k = launch.num_steps
    if k is None or k <= layers or k % layers == 0:
        return []
    evidence = [f"launch command: {_vllm_tokens_flag(launch, k)}",
                f"the target has {layers} MTP modules ({source}): vLLM refuses to start with "
                f"\"ValueError: num_speculative_tokens:{k} must be divisible by n_predict={layers}\" (a K above "
                "the module count must be a multiple of it, vllm/config/speculative.py)"]
    facts = {"written": {"steps": k, "topk": launch.topk, "num_draft_tokens": launch.num_draft_tokens},
             "effective": None, "mtp_layers": layers}
    lower, upper = k - k % layers, k - k % layers + layers
    # ValueError at startup whatever else the command says: an error, as every refusal (check_draft_budget)
    return [at.finding("SD102", evidence, facts, severity="error",
                       remediation=f"Serve a multiple of {layers} (or at most {layers}): "
                                   f"{_vllm_tokens_flag(launch, lower)} or {_vllm_tokens_flag(launch, upper)}.")]


def _sglang_ngram_capped(eff: EffectiveSpec, at: Where) -> list[Finding]:
    """SGLang NGRAM verifies --speculative-num-draft-tokens matched in its n-gram cache (the
    root and draft tokens - 1 candidates), whatever --speculative-num-steps says
    (sgl-project/sglang python/sglang/srt/speculative/ngram_worker.py reads only
    speculative_num_draft_tokens): it is capped at one drafted token when that is 2."""
    if eff.num_draft_tokens is None or eff.num_draft_tokens > 2:
        return []
    evidence = [f"launch command: --speculative-num-draft-tokens {eff.num_draft_tokens}",
                f"effective: NGRAM verifies {eff.num_draft_tokens} tokens: at most one drafted token can be "
                "accepted per round, so the accept length is at most 2",
                f"{_UNTRAINED['NGRAM']} is not trained for a number of steps; more draft tokens cost verify "
                "compute and pay off while its matches keep being accepted"]
    return [at.finding("SD101", evidence, {"served_steps": 1, "trained_steps": None}, severity="warning",
                       remediation="Try more draft tokens and keep the setting that measures fastest (SGLang's "
                                   "NGRAM default is --speculative-num-draft-tokens 12).")]


# Drafters with no trained depth: SGLang NGRAM (n-gram lookup in a cache) and STANDALONE (a
# small LM of the target's family, sglang >= 0.5.2 server_args.py); vLLM `ngram` (prompt
# lookup), `suffix` (suffix-tree lookup) and `draft_model` (vllm/config/speculative.py
# SpeculativeMethod), and `custom_class` (a user's proposer class, vllm-project/vllm PR #39487:
# its "model" is the class path, with no checkpoint config to say a depth).
_UNTRAINED = {"NGRAM": "an n-gram lookup draft (no weights)", "STANDALONE": "a STANDALONE draft model (a plain LM)",
              "SUFFIX": "a suffix-tree lookup draft (no weights)", "DRAFT_MODEL": "a draft_model draft (a plain LM)",
              "CUSTOM_CLASS": "a custom_class proposer (a user's class, no checkpoint)"}


# SGLang's block drafters propose the whole verify block (--speculative-num-draft-tokens) in one
# draft pass; their --speculative-num-steps is no depth, and SGLang sets it to 1 whatever is
# written (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py `_handle_dflash`,
# `_handle_dspark`; a DFLASH server logs accept len 4.50 at 1 step, modal-labs/modal-examples
# PR #1586).
_SGLANG_BLOCK_DRAFTERS = ("DFLASH", "DSPARK")


def untrained_drafter(launch: LaunchConfig) -> str | None:
    """What the drafter is, when it is not trained to draft a given number of steps."""
    return _UNTRAINED.get(launch.algorithm or "")


def _vllm_tokens_flag(launch: LaunchConfig, k: int) -> str:
    """num_speculative_tokens spelled the way this command sets it: `--spec-tokens K`,
    `--speculative-config.num_speculative_tokens K`, V0's `--num-speculative-tokens K`, or a key
    of the JSON; a Python call's `speculative_config={"num_speculative_tokens": K}`."""
    if launch.python_call:
        return f'speculative_config={{"num_speculative_tokens": {k}}}'
    if "spec-tokens" in launch.flags:
        return f"--spec-tokens {k}"
    json_config = any(name.partition(".")[0] in ("speculative-config", "sc") for name in launch.flags)
    if "num-speculative-tokens" in launch.flags and not json_config:
        # vLLM <= 0.7 (V0): the separate flag, read when there is no --speculative-config
        return f"--num-speculative-tokens {k}"
    dotted = [name for name in launch.flags if name.endswith(".num_speculative_tokens")]
    if dotted:
        dashes = "-" if dotted[-1].startswith("sc.") else "--"  # `-sc` is the short alias
        return f"{dashes}{dotted[-1]} {k}"
    return f'"num_speculative_tokens": {k} in --speculative-config'


def check_draft_budget(launch: LaunchConfig, eff: EffectiveSpec, at: Where = Where()) -> list[Finding]:
    """SD102: draft tokens the engine overrides, or that the tree cannot hold."""
    if not eff.overrides and not eff.problems:
        return []
    # auto-chosen, adaptive and dynamic (vLLM's K by batch size) lines say what runs, not a
    # setting the engine overrode; so does SGLang filling in draft tokens left unset for topk 1
    # (steps + 1, the most a chain can verify): `--speculative-num-steps 3
    # --speculative-eagle-topk 1` is a healthy launch, and an SD102 warning on it sent the user
    # after a budget they never wrote
    lines = [o for o in eff.overrides if not o.startswith(("auto-chosen", "adaptive:", "dynamic:"))
             and not (launch.num_draft_tokens is None and o.startswith(_UNSET_FILLED_IN))] + list(eff.problems)
    if not lines:
        return []
    facts = {"written": {"steps": launch.num_steps, "topk": launch.topk,
                         "num_draft_tokens": launch.num_draft_tokens},
             "effective": {"steps": eff.num_steps, "topk": eff.topk,
                           "num_draft_tokens": eff.num_draft_tokens},
             "tree_capacity": eff.tree_capacity}
    # a server that does not start serves nothing: an error (a `spec-debug run` of the audit
    # exits 1), not the catalog's warning, also beside a budget line; a refusal that hangs on what
    # the audit cannot see ("unless a plugin registers that name", "unless the draft config has
    # n_predict", "unless the backend it picks is flashinfer") or that only the newer releases
    # make (the release unknown: RELEASE_UNKNOWN, "vLLM 0.14.0 and later refuse it ...; 0.9 to
    # 0.13 drop it") stays a warning
    # a budget beyond SGLang's draft tree crashes it (TREE_TOPK_CRASH, at startup unless warmup and
    # graph capture are off): an error too, under the catalog's budget title and fix
    refused = "error" if any(refused_by_every_release(line) or TREE_TOPK_CRASH in line for line in lines) else None
    if all(line.endswith(VLLM_RELEASE_UNKNOWN) for line in lines):
        # a method only the recent vLLM releases have, the release unknown: the older ones refuse it
        # (was: the catalog's "Draft-token budget" title over it)
        return [at.finding("SD102", lines, facts, title="The engine refuses this launch command at startup "
                                                          "on its older releases",
                           remediation="Check the vLLM release where the server runs (`pip show vllm`, or its "
                                       "image tag): each line names the first release that takes the setting.")]
    if all(_STOPS_AT_STARTUP.search(line) for line in lines):
        # the catalog's fix is about steps, topk and draft tokens; a command the engine refuses
        # (an algorithm or flag it does not have, a removed option) is fixed by the change each
        # line names
        if all(line.endswith((RELEASE_UNKNOWN, VLLM_NEWER_RELEASE_UNKNOWN)) for line in lines):
            # `--speculative-draft X` (SGLang's own EAGLE commands), vLLM's model not first beside
            # --served-model-name: releases before the one that refuses it read it, and which one
            # runs here is not known
            return [at.finding("SD102", lines, facts, title="The engine refuses this launch command at startup "
                                                              "on its newer releases",
                               remediation="Make the change each line names: every release starts with it, then "
                                           "audit the command again.")]
        return [at.finding("SD102", lines, facts, title=REFUSED_AT_STARTUP, severity=refused,
                           remediation="Make the change each line names (the server stops at startup on it), then "
                                       "audit the command again.")]
    return [at.finding("SD102", lines, facts, severity=refused)]


_UNSET_FILLED_IN = "--speculative-num-draft-tokens unset is overwritten to "
"""How spec_debug.diagnose.launch words SGLang's steps + 1 for draft tokens left unset with topk 1."""

# SD102's title for a command every release refuses at startup (launch_step drops SD101 beside it).
REFUSED_AT_STARTUP = "The engine refuses this launch command at startup"
# How the engines' startup refusals are worded in spec_debug.diagnose.launch's problem lines
# and in the LaunchParseError of a command its reader stops on.
# (not "no server runs" / "never starts": Python's SyntaxError on pasted code, a YAML file that does
# not load, which a paste cut short makes too)
_STOPS_AT_STARTUP = re.compile(r"does not start|refuses? to start|refuses it at startup|exits with")


def refused_by_every_release(line: str) -> bool:
    """A line saying the server stops at startup, whatever the audit cannot see: not one that
    hangs on it ("unless a plugin registers that name", "unless the backend it picks is
    flashinfer") or that only the newer releases make while the running one is not known."""
    return bool(_STOPS_AT_STARTUP.search(line)) and " unless " not in line and " and later refuse" not in line \
        and not line.endswith((RELEASE_UNKNOWN, VLLM_NEWER_RELEASE_UNKNOWN))


def _draft_algorithm(draft_raw: Mapping[str, Any]) -> str | None:
    """EAGLE3 / EAGLE / DFLASH from the checkpoint's own config, None when it does not say."""
    names = [str(a) for a in draft_raw.get("architectures") or []] if isinstance(
        draft_raw.get("architectures"), list) else []
    if isinstance(draft_raw.get("dflash_config"), Mapping) or any("dflash" in a.lower() for a in names) or (
            draft_raw.get("speculators_model_type") == "dflash"):
        # a DFlash block drafter (z-lab/Qwen3-8B-DFlash-b16: architectures ["DFlashDraftModel"],
        # dflash_config; speculators' dflash type): SGLang serves it as DFLASH, vLLM as method dflash
        return "DFLASH"
    if draft_raw.get("speculators_model_type") == "eagle3" or is_peagle(draft_raw):
        # a P-EAGLE draft is served as eagle3 (with parallel drafting): its "PEagle" name is no EAGLE-1
        return "EAGLE3"
    archs = " ".join(names)
    if "Eagle3" in archs or "EAGLE3" in archs.upper() or draft_raw.get("eagle_config"):
        return "EAGLE3"
    if "Eagle" in archs or "EAGLE" in archs.upper():
        return "EAGLE"
    return None


# Gemma 4's assistant drafts: SGLang promotes NEXTN/EAGLE with such a draft to FROZEN_KV_MTP and
# refuses EAGLE3 for it (sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py
# `_resolve_speculative_algorithm_alias`).
_GEMMA4_ASSISTANTS = ("Gemma4AssistantForCausalLM", "Gemma4UnifiedAssistantForCausalLM")


def _gemma4_assistant(draft_raw: Mapping[str, Any] | None) -> str | None:
    archs = (draft_raw or {}).get("architectures") or []
    return next((arch for arch in archs if arch in _GEMMA4_ASSISTANTS), None) if isinstance(archs, list) else None


def check_algorithm(launch: LaunchConfig, draft_raw: Mapping[str, Any] | None,
                    at: Where = Where(), *, same_checkpoint: str | None = None) -> list[Finding]:
    """SD103: --speculative-algorithm / vLLM method vs what the checkpoint is. `same_checkpoint`:
    the folder the draft and the target both resolved to on the host, if they did."""
    return as_written(launch, _algorithm_findings(launch, draft_raw, at, same_checkpoint))


def _algorithm_findings(launch: LaunchConfig, draft_raw: Mapping[str, Any] | None, at: Where,
                        same_checkpoint: str | None) -> list[Finding]:
    served = launch.algorithm
    if launch.engine == "sglang" and served == "NEXTN":
        # server_args.py `_handle_speculative_decoding`: NEXTN is an alias, it runs as EAGLE
        served = "EAGLE"
    if launch.engine == "vllm" and served is None and launch.draft_model and "speculative-model" not in launch.flags:
        # vllm/config/speculative.py `__post_init__`: no method and a draft name without
        # "eagle-"/"eagle3" is `draft_model`, the draft run as a plain LM (a speculators config
        # names its method only when it is the served model, `maybe_override_with_speculators`)
        served = "DRAFT_MODEL"
    assistant = _gemma4_assistant(draft_raw)
    if launch.engine == "sglang" and served == "EAGLE3" and assistant:
        evidence = ["launch command: --speculative-algorithm EAGLE3",
                    f"draft checkpoint is a Gemma 4 assistant ({assistant}): SGLang refuses to start "
                    "(\"Gemma4AssistantForCausalLM draft requires --speculative-algorithm NEXTN or EAGLE; EAGLE3 is "
                    "not supported for this draft architecture.\")"]
        return [at.finding("SD103", evidence, {"served": served, "checkpoint": "GEMMA4_ASSISTANT"},
                           remediation="Serve it with --speculative-algorithm NEXTN (or EAGLE): SGLang runs a Gemma 4 "
                                       "assistant draft as FROZEN_KV_MTP.")]
    if launch.engine == "sglang" and served == "EAGLE3" and launch.draft_model is None and names_no_draft_path(launch):
        # (not where the draft path may be in words this text does not show: a --config file,
        # `$EXTRA_ARGS`: a correct command read as broken is the worst answer)
        return [_eagle3_without_draft(at)]
    if (served == "EAGLE3" and (_draft_is_target(launch) or same_checkpoint)
            and (draft_raw is None or _draft_algorithm(draft_raw) != "EAGLE3")):
        return [_eagle3_draft_is_target(launch, at, same_checkpoint)]
    if launch.engine == "sglang" and served == "EAGLE" and draft_raw is None and _named_eagle3(launch.draft_model):
        return [_eagle3_name_served_as_eagle(launch, at)]
    if (launch.engine == "vllm" and served == "EAGLE" and draft_raw is None and _named_eagle3(launch.draft_model)
            and (launch.speculative_config or {}).get("method") == "eagle"):
        return [_eagle3_name_served_as_vllm_eagle(launch, at)]
    # STANDALONE (SGLang) and draft_model (vLLM) run the draft as a plain LM: an EAGLE head there
    # is as wrong as an EAGLE-3 head served as EAGLE
    if draft_raw is None or served not in ("EAGLE", "EAGLE3", "DRAFT_MODEL", "STANDALONE"):
        return []
    expected = _draft_algorithm(draft_raw)
    if expected is None or expected == served:
        return []
    if launch.engine == "sglang":
        written = f"--speculative-algorithm {launch.algorithm}"
    elif served == "DRAFT_MODEL":
        written = (f"no method, and the draft name {launch.draft_model} has no \"eagle-\"/\"eagle3\" in it: "
                   "vLLM runs the checkpoint as method draft_model, a plain draft LM")
    elif (launch.speculative_config or {}).get("method"):
        written = f'"method": "{launch.algorithm.lower()}"'
    else:  # vllm/config/speculative.py names the method from the draft's name
        written = f"no method: vLLM infers {launch.algorithm.lower()} from the draft name {launch.draft_model}"
    if launch.engine == "sglang" and served != launch.algorithm:
        written += f" (SGLang runs it as {served})"
    evidence = [f"launch command: {written}",
                f"draft checkpoint is {expected} (architectures={draft_raw.get('architectures')}, "
                f"speculators_model_type={draft_raw.get('speculators_model_type')})"]
    if expected == "DFLASH":
        # the catalog's fix names EAGLE-3; a block drafter has its own algorithm
        return [at.finding("SD103", evidence, {"served": served, "checkpoint": expected},
                           remediation="Serve it as the block drafter it is: --speculative-algorithm DFLASH (SGLang) "
                                       "or \"method\": \"dflash\" in --speculative-config (vLLM), with its "
                                       "block size as the draft tokens.")]
    return [at.finding("SD103", evidence, {"served": served, "checkpoint": expected})]


def _named_eagle3(draft: str | None) -> bool:
    """The draft's own name (its last path part, a Hub repo's name) says EAGLE-3: `kimi-k2.6-eagle3-mla`,
    `sglang-EAGLE3-LLaMA3.1-Instruct-8B`, `...-eagle3.1-mla` (not the folders above it)."""
    name = (draft or "").rstrip("/").rsplit("/", 1)[-1]
    return re.search(r"eagle[-_]?3", name, re.I) is not None


def _eagle3_name_served_as_eagle(launch: LaunchConfig, at: Where) -> Finding:
    """SGLang `--speculative-algorithm EAGLE` (or NEXTN) with a draft named EAGLE-3 whose config was
    not read (sgl-project/sglang#25673: Kimi-K2.6 with /app/models/kimi-k2.6-eagle3-mla). SGLang keeps
    EAGLE (arg_groups/speculative_hook.py `_resolve_speculative_algorithm_alias` promotes only a Gemma 4
    assistant; PR #21272, which would switch an Eagle3 draft to EAGLE3, was closed unmerged): the target
    captures no aux hidden states, the head's `fc` is skipped because the sizes match, and the accept
    length drops to 1.0 with no error. A warning: the name, not the config, says EAGLE-3."""
    evidence = [f"launch command: --speculative-algorithm {launch.algorithm}" + (
                    " (SGLang runs it as EAGLE)" if launch.algorithm != "EAGLE" else ""),
                f"the draft {launch.draft_model} is named as an EAGLE-3 head (its config.json was not read): "
                "SGLang does not switch EAGLE to EAGLE3 by itself, so the head gets the target's last hidden state "
                "instead of its three aux layers and drafts garbage (accept length 1.0, sgl-project/sglang PR #21272)"]
    return at.finding("SD103", evidence, {"served": "EAGLE", "checkpoint": "EAGLE3"}, severity="warning",
                      remediation="Serve it with --speculative-algorithm EAGLE3 (or check its config.json: "
                                  "an architectures entry with Eagle3 in it is an EAGLE-3 head).")


def _eagle3_name_served_as_vllm_eagle(launch: LaunchConfig, at: Where) -> Finding:
    """vLLM `--speculative-config '{"method": "eagle", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", ...}'`,
    the draft's config not read. vLLM guesses the method from the draft's name only when none is
    written (vllm/config/speculative.py `__post_init__`: `if self.method in ("eagle", "eagle3"): pass`,
    then the `"eagle-"` / `"eagle3"` name tests; the same in v0.10 and on main), so a written "eagle"
    stays EAGLE-1: the draft is built as the EAGLE-1 model (transformers_utils/configs/eagle.py
    EAGLEConfig, method "eagle") and the target captures no aux hidden states, while an EAGLE-3 head's
    `fc` takes three of them. A warning, as for SGLang: the name, not the config, says EAGLE-3."""
    evidence = ['launch command: --speculative-config "method": "eagle"',
                f"the draft {launch.draft_model} is named as an EAGLE-3 head (its config.json was not read): vLLM "
                "keeps a written method and guesses eagle3 from the name only when none is given, so it builds the "
                "EAGLE-1 draft model, which feeds the head one hidden state instead of the target's three aux layers "
                "(the weights do not fit it, or the head drafts garbage)"]
    return at.finding("SD103", evidence, {"served": "EAGLE", "checkpoint": "EAGLE3"}, severity="warning",
                      remediation='Write "method": "eagle3" in --speculative-config (or check the draft\'s '
                                  "config.json: an architectures entry with Eagle3 in it, or speculators_model_type "
                                  "eagle3, is an EAGLE-3 head).")


def _eagle3_without_draft(at: Where) -> Finding:
    """`--speculative-algorithm EAGLE3` with no `--speculative-draft-model-path`: SGLang loads the
    target checkpoint itself as the EAGLE-3 draft (sgl-project/sglang#36528, 0.5.18: a Qwen2 target
    crashes at startup on the missing `set_embed`, a Llama one on `hot_token_id`). No target is an
    EAGLE-3 head; the targets SGLang fills the path in for (DeepSeek-V3, GLM-4.5, Bailing: server_args.py
    `_handle_speculative_decoding`) hold an MTP module, which runs as EAGLE (NEXTN), not EAGLE-3."""
    evidence = ["launch command: --speculative-algorithm EAGLE3 and no --speculative-draft-model-path",
                "SGLang then loads the target checkpoint itself as the EAGLE-3 draft: no target is an EAGLE-3 head, "
                "and the server fails at startup (sgl-project/sglang#36528)"]
    return at.finding("SD103", evidence, {"served": "EAGLE3", "checkpoint": "TARGET"},
                      remediation="Name the EAGLE-3 draft trained for this target: --speculative-draft-model-path "
                                  "<draft>; a target with its own MTP module is served with --speculative-algorithm "
                                  "NEXTN instead.")


def _draft_is_target(launch: LaunchConfig) -> bool:
    """The draft named is the target model itself (`"model": "<target>"` in vLLM's
    --speculative-config, `--speculative-draft-model-path` = `--model-path` on SGLang)."""
    draft, target = (launch.draft_model or "").rstrip("/"), (launch.target_model or "").rstrip("/")
    return bool(draft) and draft == target


def _eagle3_draft_is_target(launch: LaunchConfig, at: Where, same_checkpoint: str | None = None) -> Finding:
    """An EAGLE-3 launch whose draft is the target checkpoint (was: no finding, whether or not the
    configs were read: a plain LlamaForCausalLM config names no algorithm). SGLang loads the named
    checkpoint as the EAGLE-3 draft, as it does with no draft path (`_eagle3_without_draft`,
    sgl-project/sglang#36528); vLLM builds its EAGLE-3 draft model from the `model` of the speculative
    config (vllm/config/speculative.py `__post_init__`, Eagle3 architectures over the draft's config).
    A target holds no EAGLE-3 head (no `fc` over the three aux hidden states, no draft layer)."""
    if launch.engine == "sglang":
        written = (f"launch command: --speculative-algorithm EAGLE3 with --speculative-draft-model-path "
                   f"{launch.draft_model}, the target model itself")
        engine = "SGLang loads the target checkpoint as the EAGLE-3 draft, and the server fails at startup " \
                 "(sgl-project/sglang#36528)"
        fix = "--speculative-draft-model-path <draft>"
    else:
        written = (f'launch command: "method": "eagle3" with "model": "{launch.draft_model}" in '
                   "--speculative-config, the target model itself")
        engine = ("vLLM builds the EAGLE-3 draft from the target checkpoint, which has none of the head's "
                  "weights: the server fails to load it or drafts nothing the target accepts")
        fix = '"model": "<draft>" in --speculative-config'
    if not _draft_is_target(launch) and same_checkpoint:
        written = written.replace("the target model itself", f"the target's own checkpoint (both are {same_checkpoint} "
                                                             "on the host)")
    evidence = [written, f"a target is no EAGLE-3 head (a one-layer draft fed the target's aux hidden states): {engine}"]
    return at.finding("SD103", evidence, {"served": "EAGLE3", "checkpoint": "TARGET"},
                      remediation=f"Name the EAGLE-3 draft trained for this target: {fix}; a target with its own "
                                  "MTP module is served as MTP (SGLang --speculative-algorithm NEXTN, vLLM "
                                  "\"method\": \"mtp\") instead.")


def _dtype_of(cfg: Mapping[str, Any] | None) -> str | None:
    if not cfg:
        return None
    nested = cfg.get("transformer_layer_config") or cfg.get("text_config") or {}
    value = cfg.get("torch_dtype") or cfg.get("dtype") or nested.get("torch_dtype") or nested.get("dtype")
    return str(value).replace("torch.", "") if value else None


def check_dtype(launch: LaunchConfig, draft_raw: Mapping[str, Any] | None,
                target_raw: Mapping[str, Any] | None, at: Where = Where()) -> list[Finding]:
    """SD104: draft and target dtypes differ and the command sets no --dtype.

    SGLang only: vLLM builds the draft's ModelConfig with `dtype=target_model_config.dtype`
    whatever the draft's config says (vllm/config/speculative.py `__post_init__`; V0's
    `maybe_create_spec_config` in vllm/config.py did the same), so the two never differ there."""
    if launch.engine != "sglang":
        return []
    draft, target = _dtype_of(draft_raw), _dtype_of(target_raw)
    if draft is None or target is None or draft == target:
        return []
    if launch.dtype not in (None, "auto"):
        return []
    evidence = [f"draft torch_dtype={draft}, target torch_dtype={target}",
                f"launch command sets no --dtype (got {launch.dtype or 'none'})"]
    return as_written(launch, [at.finding("SD104", evidence, {"draft_dtype": draft, "target_dtype": target},
                                          remediation=f"Pass --dtype {target} explicitly.")])


def check_pipeline_aux_states(launch: LaunchConfig, engine_version: str | None, draft_raw: Any,
                              at: Where = Where()) -> list[Finding]:
    """SD201 from the command alone: vLLM with EAGLE-3 over pipeline stages that do not hand the
    drafter the aux hidden states of their layers (spec_debug.diagnose.launch._VLLM_EAGLE3_PP_SINCE).
    The layers served are not the trained ones whatever the draft config says. An error where the
    release (or VLLM_USE_V2_MODEL_RUNNER=0) surely does it; a warning where the release is unknown."""
    loss = vllm_eagle3_pipeline_aux_loss(launch, engine_version, draft_raw)
    if loss is None:
        return []
    return [at.finding("SD201", loss.evidence,
                       {"pipeline_parallel_size": launch.pp, "engine_version": engine_version},
                       severity=None if loss.release_known else "warning",
                       title="Aux hidden states of earlier pipeline stages never reach the EAGLE-3 drafter",
                       remediation=loss.fix)]
