"""vLLM's custom_class proposer: `"method": "custom_class", "model": "my_pkg.MyProposer"`.

vllm-project/vllm PR #39487 lets a user's Python class propose the drafts; its "model" is the
class's import path, and with no "method" a dotted import path is taken for one
(vllm/config/speculative.py `_is_custom_proposer_path`, asked before the other guesses). The
audit read such a launch as an unknown method, said of a 1-token custom proposer that "the draft
config does not say how many steps it was trained for", quoted the draft_model refusal for a
custom_class config with no "model", and the draft steps asked for `--var draft_model=DIR`, a
checkpoint that does not exist.
"""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import configs_step, launch_step
from spec_debug.probes.registry import ProbeContext


def _vllm(spec: str) -> str:
    return f"vllm serve Qwen/Qwen3-8B --speculative-config '{spec}'"


def _findings(command: str) -> list[Any]:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return launch_step.check(ctx)


def test_a_dotted_import_path_with_no_method_is_a_custom_proposer() -> None:
    cfg = parse_launch_command(_vllm('{"model": "my_pkg.proposers.GlobalNgramProposer", "num_speculative_tokens": 5}'))
    assert cfg.algorithm == "CUSTOM_CLASS"
    # vLLM's own examples of what is not a class path: a hub name, a dash, a URL
    for draft in ("org/draft.model", "draft.model-v1", "https://example.com/draft.model", "/models/eagle3"):
        cfg = parse_launch_command(_vllm(f'{{"model": "{draft}", "num_speculative_tokens": 5}}'))
        assert cfg.algorithm != "CUSTOM_CLASS", draft
    # the eagle3 guess from a draft's name stands
    cfg = parse_launch_command(_vllm('{"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'))
    assert cfg.algorithm == "EAGLE3"


def test_one_token_from_a_custom_proposer_is_no_trained_depth_cut() -> None:
    [sd101] = [f for f in _findings(_vllm('{"method": "custom_class", "model": "my_pkg.P", '
                                          '"num_speculative_tokens": 1}')) if f.code == "SD101"]
    text = " ".join(sd101.evidence)
    assert "custom_class proposer" in text and "not trained for a number of steps" in text
    assert "draft config does not say" not in text
    assert sd101.severity == "warning" and sd101.facts["trained_steps"] is None


def test_custom_class_without_its_class_path_quotes_vllms_own_refusal() -> None:
    [sd102] = [f for f in _findings(_vllm('{"method": "custom_class", "num_speculative_tokens": 5}'))
               if f.code == "SD102"]
    assert "requires 'model' to contain the custom proposer module path" in sd102.evidence[0]
    assert "without speculative model" not in sd102.evidence[0]


def test_the_draft_config_check_says_a_custom_proposer_has_no_checkpoint() -> None:
    command = _vllm('{"method": "custom_class", "model": "my_pkg.P", "num_speculative_tokens": 3}')
    launch = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    facts = configs_step.parse({"draft": {"found": False}, "target": {"found": False}})
    ctx = ProbeContext(step_id="configs", host="gpu01", args={}, facts=facts, host_facts={**launch, **facts})
    [line] = configs_step.check(ctx)
    assert "custom proposer class" in line.evidence[0] and "does not apply" in line.evidence[0]
    assert "--var draft_model=DIR" not in " ".join([*line.evidence, line.remediation or ""])
