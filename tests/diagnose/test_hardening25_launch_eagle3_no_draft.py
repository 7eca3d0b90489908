"""`--speculative-algorithm EAGLE3` with no `--speculative-draft-model-path` on SGLang.

SGLang then loads the target checkpoint itself as the EAGLE-3 draft and fails at startup
(sgl-project/sglang#36528, sglang 0.5.18: Qwen/Qwen2.5-0.5B-Instruct crashes on the missing
`set_embed`, a Llama target on `hot_token_id`). The audit said nothing: with no draft named there
was no checkpoint to compare the algorithm with. Now SD103 names the missing draft. EAGLE (NEXTN)
with no draft path is a target's own MTP module, as before, and no finding.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import check_algorithm
from spec_debug.diagnose.launch import parse_launch_command

ISSUE_36528 = ("python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-0.5B-Instruct "
               "--speculative-algorithm EAGLE3 --port 30000")


def test_eagle3_without_a_draft_is_sd103():
    (finding,) = check_algorithm(parse_launch_command(ISSUE_36528), None)
    assert finding.code == "SD103"
    assert finding.facts == {"served": "EAGLE3", "checkpoint": "TARGET"}
    assert "no --speculative-draft-model-path" in finding.evidence[0]
    assert "--speculative-draft-model-path" in finding.remediation


@pytest.mark.parametrize("command", [
    # DeepSeek's MTP as the SGLang docs launch it: the draft path filled in with the target's
    "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --speculative-algorithm NEXTN",
    "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --speculative-algorithm EAGLE",
    ISSUE_36528 + " --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Qwen2.5-0.5B",
    "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'",
])
def test_no_finding_where_the_draft_is_known(command):
    assert check_algorithm(parse_launch_command(command), None) == []
