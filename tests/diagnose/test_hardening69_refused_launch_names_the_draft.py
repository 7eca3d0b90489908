"""After a refused launch, the later steps still check the draft and target the command names.

A launch command the engine's parser refuses (`-tp 2` on SGLang, a vLLM
`"num_speculative_tokens": 0`) is SD102. The launch step then gave the later steps nothing: no
`resolved_draft_model`, no `resolved_target_model`, no `launch_engine`, so the configs, vocab and
forward steps of perf_regression said "Not checked: --var draft_model=DIR (or a server command that
names it)" of a server command that names it. The fix the refusal asks for does not change which
draft and target the command is for: they are read from its words, and resolved to the folder the
host found for them, as for a command the audit reads.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.templating import TemplateSite, render_value

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
DRAFT_DIR = "/data/hf/hub/models--yuhuili--EAGLE3-LLaMA3.1-Instruct-8B/snapshots/abc"
TARGET_DIR = "/data/hf/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/def"
HOST_MODELS = {DRAFT: {"path": DRAFT_DIR, "config": {"architectures": ["LlamaForCausalLMEagle3"]}},
               TARGET: {"path": TARGET_DIR, "config": {"architectures": ["LlamaForCausalLM"]}}}
SGLANG = (f"python3 -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE3 "
          f"--speculative-draft-model-path {DRAFT} --speculative-num-steps 3 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 4")


def _vllm(**spec) -> str:
    return f"vllm serve {TARGET} --speculative-config '{json.dumps({'method': 'eagle3', 'model': DRAFT, **spec})}'"


def _configs_step_with(facts: dict) -> dict:
    playbook = load_playbook("perf_regression").playbook
    [step] = [s for s in playbook.steps if s.id == "configs"]
    context = {"draft_model": "", "target_model": "", "python": "python3", "facts": facts}
    return render_value(step.with_, context, TemplateSite("configs", "with"))


@pytest.mark.parametrize("command, engine", [
    (SGLANG + " -tp 2", "sglang"),
    (SGLANG.replace("--speculative-eagle-topk 1", "--speculative-eagle-topk one"), "sglang"),
    (_vllm(num_speculative_tokens=0), "vllm"),
    (f"vllm serve {TARGET} --speculative-config.method eagle3 --speculative-config.model {DRAFT} "
     "--speculative-config.num_speculative_tokens 0", "vllm"),
])
def test_a_refused_command_still_hands_its_draft_and_target_on(command, engine):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": HOST_MODELS})
    assert (facts["launch"]["found"], facts["launch"]["refused"]) == (False, True)
    assert (facts["resolved_draft_model"], facts["resolved_target_model"], facts["launch_engine"]) == (
        DRAFT_DIR, TARGET_DIR, engine)
    rendered = _configs_step_with(facts)
    assert (rendered["draft_model"], rendered["target_model"]) == (DRAFT_DIR, TARGET_DIR)


def test_a_name_the_host_did_not_find_is_handed_on_as_written():
    facts = launch_step.parse({"source": "var", "cmdline": SGLANG + " -tp 2", "models": {}})
    assert (facts["resolved_draft_model"], facts["resolved_target_model"]) == (DRAFT, TARGET)


def test_a_refused_command_without_speculation_names_no_draft():
    facts = launch_step.parse({"source": "var", "cmdline": f"python3 -m sglang.launch_server --model-path {TARGET} -tp 2",
                               "models": {}})
    assert "resolved_draft_model" not in facts
    assert facts["resolved_target_model"] == TARGET


def test_what_is_no_server_command_resolves_nothing():
    facts = launch_step.parse({"source": "var", "cmdline": "echo hello", "models": {}})
    assert set(facts) == {"launch"}
