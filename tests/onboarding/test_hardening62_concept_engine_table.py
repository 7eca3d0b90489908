"""Two concepts of `spec-debug explain` said what the engine table the checks read
(spec_debug/eagle3/engines.py CONVENTIONS) says is no longer so:
- `explain fc`: "vLLM's fc input is 3 × target_hidden_size in the versions read", while the
  table has vLLM (from 0.22.0) and SGLang (from 0.5.12) sizing fc from num_aux_hidden_states or
  the number of aux ids (a 4-layer draft is served there);
- `explain concat order`: "only vLLM's newer capture reaches [the embedding output], as id 0",
  while the table has SGLang's llama.py capturing it from 0.5.22 and gpt_oss.py from 0.5.17.
Each sentence now names the releases of the table's rows."""

from __future__ import annotations

from spec_debug.eagle3.engines import CONVENTIONS
from tests.conftest import run_cli


def _rows(engine: str, aspect: str):
    return [r for r in CONVENTIONS if r.engine == engine and r.aspect == aspect]


def _engines_section(topic: str) -> str:
    text = run_cli("explain", topic).stdout
    return text.split("## In the engines", 1)[1].split("## What goes wrong", 1)[0]


def test_fc_fan_in_releases_are_the_tables() -> None:
    section = _engines_section("fc")
    for engine in ("sglang", "vllm"):
        fixed = [r for r in _rows(engine, "fc_fan_in") if r.value == 3]
        assert len(fixed) == 1 and fixed[0].since is None and fixed[0].until is not None
        assert f"{engine} {fixed[0].until}" in section
    assert "in the versions read" not in section
    assert "`num_aux_hidden_states`" in section


def test_embedding_capture_releases_are_the_tables() -> None:
    section = " ".join(_engines_section("concat order").split())
    captured = {(r.engine, r.since) for r in _rows("sglang", "captures_embedding") + _rows("vllm", "captures_embedding")
                if r.value is True}
    # hardening65: vLLM's DeepSeek-V3.2 / GLM-5 file (vllm/models/deepseek_v32) captures it from 0.29.0
    assert captured == {("sglang", "0.5.22"), ("sglang", "0.5.17"), ("vllm", "0.18.0"), ("vllm", "0.29.0")}
    assert "vllm from 0.18.0" in section
    assert "DeepSeek-V3.2 / GLM-5 one from 0.29.0" in section
    assert "sglang's llama.py from 0.5.22" in section
    assert "gpt_oss.py from 0.5.17" in section
    assert "only vLLM" not in section
