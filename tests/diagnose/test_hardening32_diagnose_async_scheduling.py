"""`--async-scheduling` written beside a speculative config vLLM cannot run asynchronously.

Given explicitly, vLLM fails at startup on any incompatibility instead of turning async scheduling
off (vllm/config/vllm.py, "Async scheduling explicitly enabled, hard fail any incompatibilities"):
method ngram ("Currently, async scheduling is only supported with EAGLE/MTP/Draft Model/NGram
GPU/DSpark kind of speculative decoding", quoted by a vLLM 0.30.0 deployment whose container would
not start) and "disable_padded_drafter_batch": true ("Async scheduling is not compatible with
disable_padded_drafter_batch=True."). The audit said nothing about either: the server it called
fine never came up.
"""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _audit(command: str, version: str | None = None, config_file: dict[str, Any] | None = None) -> list[Any]:
    host = {"source": "var", "cmdline": command, "models": {}, "config_file": config_file}
    facts = launch_step.parse(host)
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return launch_step.check(ctx)


# the deployment's flags (vLLM v0.30.0, Qwen3.x-27B, n-gram drafting), as one shell command
NGRAM = ("vllm serve Qwen/Qwen3.6-27B --max-model-len 262144 --async-scheduling --speculative-config "
         "'{\"method\":\"ngram\",\"num_speculative_tokens\":5,\"prompt_lookup_max\":4,\"prompt_lookup_min\":2}'")
# vllm-project/vllm#25872's benchmark command, with the unpadded drafter batch turned on
UNPADDED = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle3\", \"model\": "
            "\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 4, "
            "\"disable_padded_drafter_batch\": true}' --max-model-len 2048 --async-scheduling")


def test_async_scheduling_with_ngram_is_a_refused_start() -> None:
    for version in (None, "0.30.0", "0.17.1"):
        (finding,) = _audit(NGRAM, version)
        assert finding.code == "SD102", version
        assert "--async-scheduling with method ngram: vLLM refuses to start" in finding.evidence[0]
        assert "drop --async-scheduling" in finding.evidence[0]


def test_async_scheduling_with_an_unpadded_drafter_batch_is_a_refused_start() -> None:
    (finding,) = _audit(UNPADDED)
    assert finding.code == "SD102"
    assert "disable_padded_drafter_batch=True" in finding.evidence[0]
    # the same switch as a dotted key (a string to vLLM's pydantic config, which reads it as true)
    dotted = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config.method eagle3 "
              "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
              "--speculative-config.num_speculative_tokens 4 --speculative-config.disable_padded_drafter_batch true")
    assert [f.code for f in _audit(dotted)] == ["SD102"]


def test_the_async_switch_as_python_and_as_a_config_file_is_read_too() -> None:
    llm = ("from vllm import LLM\nllm = LLM(model=\"Qwen/Qwen3-8B\", async_scheduling=True, speculative_config="
           "{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4})")
    assert [f.code for f in _audit(llm)] == ["SD102"]
    yaml_text = "async-scheduling: true\nspeculative-config:\n  method: ngram\n  num_speculative_tokens: 4\n"
    findings = _audit("vllm serve Qwen/Qwen3-8B --config serve.yaml", config_file={"path": "serve.yaml", "text": yaml_text})
    assert [f.code for f in findings] == ["SD102"]


def test_what_vllm_accepts_stays_clean() -> None:
    # async scheduling left to vLLM (it turns it off for these by itself), or turned off last
    assert _audit(NGRAM.replace(" --async-scheduling", "")) == []
    assert _audit(UNPADDED.replace(" --async-scheduling", "")) == []
    assert _audit(UNPADDED + " --no-async-scheduling") == []
    # an EAGLE-3 draft with the padded batch: what async scheduling runs
    assert _audit(UNPADDED.replace("true}", "false}")) == []
    # a release from before async scheduling ran spec decode is not judged on a guess
    assert _audit(NGRAM, "0.11.0") == [] and _audit(UNPADDED, "0.11.0") == []
    # (0.10.2 has no disable_padded_drafter_batch key at all, added in 0.11.0: it drops it, and that is all)
    assert [f.evidence for f in _audit(UNPADDED, "0.10.2")] == [[
        '--speculative-config "disable_padded_drafter_batch": vLLM 0.11.0 added this key to SpeculativeConfig; vLLM '
        '0.10.2 drops it without a word (unknown keys are ignored until 0.14.0) and runs as if it were not written '
        '(upgrade vLLM to 0.11.0 or later, or drop it)']]
