"""perf_regression's reference_forward step hands the probe the draft (round 26 review).

forward_source reads the engine file that runs the served draft (engines.drafter_module:
qwen3_eagle3.py, deepseek_eagle3.py); without a draft it reads llama_eagle3.py. The step passed
no draft_model, so on a host whose server was down (or ran in a container the probe could not
enter) an MLA draft's forward was compared with llama_eagle3.py. It now passes the --var
draft_model or the draft path the launch step resolved, as the other draft steps do.
"""

from __future__ import annotations

from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.templating import TemplateSite, render_value


def _forward_with(**context):
    playbook = load_playbook("perf_regression").playbook
    [step] = [s for s in playbook.steps if s.id == "reference_forward"]
    context = {"engine": "", "python": "python3", "draft_model": "", "facts": {}, **context}
    return render_value(step.with_, context, TemplateSite("reference_forward", "with"))


def test_reference_forward_passes_the_resolved_draft():
    rendered = _forward_with(facts={"resolved_engine": "vllm", "resolved_draft_model": "/models/kimi-eagle3-mla"})
    assert rendered["draft_model"] == "/models/kimi-eagle3-mla"
    assert _forward_with(draft_model="/data/draft")["draft_model"] == "/data/draft"
    assert _forward_with()["draft_model"] == ""
