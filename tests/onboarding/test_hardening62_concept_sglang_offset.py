"""`spec-debug explain aux layers` told a newcomer that "since sglang PR 25454 it adds the 1 only
when the first id is 1", for every target. The engine table the checks read
(spec_debug/eagle3/engines.py CONVENTIONS) says otherwise: PR 25454 changed the DeepSeek-family
model files (deepseek_v2.py, glm4_moe_lite.py, from 0.5.13); llama.py, qwen*, ... still add 1 to
every id in the newest release read, and GPT-OSS reads ids raw when the largest is N. SD202's
catalog entry and the playbooks say so; the concept contradicted them for the most common
(Llama) targets."""

from __future__ import annotations

from spec_debug.eagle3.engines import CONVENTIONS, SGLANG_PLUS_ONE_FIX
from tests.conftest import run_cli


def _sglang_engine_bullet() -> str:
    text = run_cli("explain", "aux layers").stdout
    return next(line for line in text.splitlines() if line.startswith("- SGLang "))


def test_the_table_the_checks_read_still_adds_one_for_generic_targets() -> None:
    generic = [r for r in CONVENTIONS if r.engine == "sglang" and r.aspect == "id_offset" and r.architectures is None]
    assert [(r.value, r.until) for r in generic] == [("always_plus_one", None)]
    fixed = [r for r in CONVENTIONS if r.engine == "sglang" and r.value == "plus_one_if_first_is_one"]
    assert [r.since for r in fixed] == [SGLANG_PLUS_ONE_FIX]
    assert all("DeepseekV3ForCausalLM" in r.architectures for r in fixed)


def test_the_concept_says_what_the_table_says() -> None:
    bullet = _sglang_engine_bullet()
    assert "DeepSeek-family" in bullet
    assert f"(deepseek_v2.py, glm4_moe_lite.py; sglang {SGLANG_PLUS_ONE_FIX})" in bullet
    assert "other model files (Llama, Qwen, ...) still add 1 to every id" in bullet
