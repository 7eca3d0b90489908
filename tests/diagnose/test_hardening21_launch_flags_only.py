"""The server's flags pasted alone, one per line, as issue reports list them (session 12).

sgl-project/sglang#25673 (Kimi-K2.6 EAGLE3-mla on H20-3e) gives its "Key Launch Parameters" as the
SGLang flags alone. Pasted as the server command, the audit refused it ("not an SGLang or vLLM
server command"), though the flags only SGLang has name the engine, as a container's `args:`
pasted without its image already did for vLLM.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


KIMI_KEY_PARAMETERS = """--tp 8
--ep 8
--mem-fraction-static 0.78
--max-running-requests 8
--chunked-prefill-size 32768
--enable-mm-global-cache
--keep-mm-feature-on-device
--trust-remote-code
--tool-call-parser kimi_k2
--reasoning-parser kimi_k2
--speculative-algo EAGLE
--speculative-num-steps 3
--speculative-eagle-topk 1
--speculative-num-draft-tokens 4
--speculative-draft-model-path /app/models/kimi-k2.6-draft-mla
"""
# The draft is /app/models/kimi-k2.6-eagle3-mla: an EAGLE-3 head served as EAGLE, which SGLang
# runs wrong (SD103, round 27: test_hardening27_reviewlaunch_sglang_eagle3_name.py). The draft is renamed
# here so these tests keep proving what they are about: flags alone read as SGLang's, and their depth.


def test_sglang_flags_alone_are_read_as_sglang_server():
    launch, findings = _findings(KIMI_KEY_PARAMETERS)
    assert launch["found"] and launch["engine"] == "sglang"
    assert (launch["algorithm"], launch["num_steps"], launch["topk"], launch["num_draft_tokens"]) == ("EAGLE", 3, 1, 4)
    assert launch["draft_model"] == "/app/models/kimi-k2.6-draft-mla"
    assert findings == []


def test_one_step_in_sglang_flags_alone_is_sd101():
    _, findings = _findings(KIMI_KEY_PARAMETERS.replace("--speculative-num-steps 3", "--speculative-num-steps 1")
                            .replace("--speculative-num-draft-tokens 4", "--speculative-num-draft-tokens 2"))
    assert [f.code for f in findings] == ["SD101"]


def test_vllm_flags_alone_are_read_as_vllm_server():
    argv = split_command("--model meta-llama/Llama-3.1-8B-Instruct\n--max-model-len 8192\n"
                         "--speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                         "\"num_speculative_tokens\": 3}'\n")
    assert argv[:2] == ["vllm", "serve"]


def test_flags_either_engine_has_are_still_no_server():
    launch, findings = _findings("--port 8000\n--host 0.0.0.0\n")
    assert not launch["found"]
    assert [f.code for f in findings] == ["SD004"]
