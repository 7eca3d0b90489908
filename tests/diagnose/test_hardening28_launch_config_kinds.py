"""One reading of "which family does this config.json name" (launch.names_a_kind) for the three
checks that had their own copy: launch_step.names_no_mtp (a family that counts its MTP layers
under another key), launch_step.vllm_mtp_target_refused (a family vLLM makes an MTP draft of,
text_config's model_type too) and launch._plain_draft_lm (a speculator head or an MTP family is
no plain draft). Over the 138 configs in tests/ and shared/reference the verdicts are the old
ones; an `architectures` written as one string is now that name (was: read letter by letter,
so a MiMo target was said to name no MTP layers).
"""

from __future__ import annotations

import re

from spec_debug.diagnose.launch import VLLM_MTP_FAMILIES, names_a_kind
from spec_debug.diagnose.steps.launch_step import names_no_mtp


def test_a_family_is_told_from_model_type_architectures_and_text_config():
    mimo = {"architectures": ["MiMoForCausalLM"], "model_type": "mimo", "num_nextn_predict_layers": 1}
    assert names_a_kind(mimo, VLLM_MTP_FAMILIES)
    wrapped = {"architectures": ["Mistral3ForConditionalGeneration"], "model_type": "mistral3",
               "text_config": {"model_type": "deepseek_v3"}}
    assert not names_a_kind(wrapped, VLLM_MTP_FAMILIES)
    assert names_a_kind(wrapped, VLLM_MTP_FAMILIES, text_config=True)
    assert not names_a_kind(None, VLLM_MTP_FAMILIES) and not names_a_kind({"architectures": [3]}, re.compile("3"))


def test_an_architectures_string_is_one_name():
    # MiMo is a family whose MTP layers no config key names (launch_step._MTP_COUNTED_OTHERWISE)
    config = {"architectures": "MiMoForCausalLM"}
    assert names_a_kind(config, VLLM_MTP_FAMILIES)
    assert not names_no_mtp(config)
    assert names_no_mtp({"architectures": "LlamaForCausalLM", "model_type": "llama"})
