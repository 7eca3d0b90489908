"""vLLM speculative methods a release does not have yet.

The audit knew the release bounds of custom_class, medusa and mlp_speculator only, so a method
written for a newer vLLM passed clean on a release whose `SpeculativeMethod` Literal lacks it:
`"method": "suffix"` on 0.11.0 (suffix decoding arrives in 0.11.1), `"method": "dflash"` on 0.19.0
(0.20.0), `"method": "dspark"` on 0.24.0 (0.25.0), `"method": "mtp"` on 0.10.2 (0.11.0). From
0.9.1 SpeculativeConfig is a pydantic dataclass, so vLLM refuses such a name at startup; 0.9.0
and older never check it (they detect a method from the draft), and the audit stays silent there.
Read from the PyPI sdists' vllm/config.py and vllm/config/speculative.py of each release.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _sd102(spec: dict, version: str | None, target: str = "Qwen/Qwen3-8B"):
    command = f"vllm serve {target} --speculative-config '{json.dumps(spec)}'"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, **({"engine": {"name": "vllm", "version": version}} if version else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.evidence) for f in launch_step.check(ctx) if f.code == "SD102"]


SUFFIX = {"method": "suffix", "num_speculative_tokens": 16}


def test_suffix_on_0110_is_refused_with_that_releases_methods():
    assert _sd102(SUFFIX, "0.11.0") == [("error", [
        '--speculative-config "method": "suffix": vLLM 0.11.0 has no such method (added in 0.11.1): its '
        'SpeculativeConfig takes "method" ngram, eagle, eagle3, medusa, mlp_speculator, draft_model, mtp or one of '
        'the MTP model types it knows (deepseek_mtp, ...), refuses "suffix" at startup (pydantic: "Input should be '
        '..."), and the server does not start (upgrade vLLM to 0.11.1 or later)'])]


@pytest.mark.parametrize("version", ["0.11.1", "0.12.0", "0.34.0", None])
def test_suffix_from_0111_is_clean(version):
    assert _sd102(SUFFIX, version) == []


def test_a_release_that_does_not_check_the_name_is_not_judged():
    # 0.9.0's SpeculativeConfig is a stdlib dataclass: the Literal is not enforced there
    assert _sd102(SUFFIX, "0.9.0") == []
    [(severity, evidence)] = _sd102(SUFFIX, "0.9.1")
    assert severity == "error" and evidence[0].startswith(
        '--speculative-config "method": "suffix": vLLM 0.9.1 has no such method (added in 0.11.1): its '
        'SpeculativeConfig takes "method" ngram, eagle, eagle3, medusa, mlp_speculator, draft_model or one')


@pytest.mark.parametrize(("method", "lacking", "since"), [
    ("dflash", "0.19.1", "0.20.0"), ("dspark", "0.24.0", "0.25.0"), ("ngram_gpu", "0.17.1", "0.18.0"),
    ("extract_hidden_states", "0.16.0", "0.17.0")])
def test_newer_methods_by_release(method, lacking, since):
    spec = {"method": method, "model": "org/draft", "num_speculative_tokens": 4}
    [(severity, [line])] = _sd102(spec, lacking)
    assert severity == "error" and line.startswith(
        f'--speculative-config "method": "{method}": vLLM {lacking} has no such method (added in {since}): ')
    assert f'refuses "{method}" at startup' in line and line.endswith(f"(upgrade vLLM to {since} or later)")
    assert not [problem for problem in _sd102(spec, since) if f'"method": "{method}": vLLM' in problem[1][0]]


def test_the_list_is_the_releases_own():
    [(_severity, [line])] = _sd102({"method": "dspark", "model": "org/draft", "num_speculative_tokens": 4}, "0.24.0")
    assert ('takes "method" ngram, eagle, eagle3, medusa, mlp_speculator, draft_model, mtp, suffix, '
            'extract_hidden_states, ngram_gpu, dflash, custom_class or one of') in line
    [(_severity, [line])] = _sd102({"method": "mtp", "num_speculative_tokens": 1}, "0.10.2",
                                   target="deepseek-ai/DeepSeek-V3")
    assert 'takes "method" ngram, eagle, eagle3, medusa, mlp_speculator, draft_model or one of' in line


def test_a_model_mtp_name_points_at_mtp_where_the_release_has_it():
    spec = {"method": "glm4_moe_mtp", "num_speculative_tokens": 1}
    [(_severity, [line])] = _sd102(spec, "0.11.0", target="zai-org/GLM-4.5-Air")
    assert line.endswith('(upgrade vLLM to 0.11.1 or later; "method": "mtp" is the name vLLM 0.11.0 reads for the '
                         "MTP layers of any model it serves them for)")
    [(_severity, [line])] = _sd102({"method": "qwen3_next_mtp", "num_speculative_tokens": 1}, "0.10.1",
                                   target="Qwen/Qwen3-Next-80B-A3B-Instruct")
    assert line.endswith("(upgrade vLLM to 0.10.2 or later)")
