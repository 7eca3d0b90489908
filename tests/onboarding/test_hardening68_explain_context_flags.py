"""`spec-debug explain SD702` told the on-call engineer to "cap the served context" and named no
flag for either engine, while the launch audit reads the served context length from SGLang's
`--context-length` and vLLM's `--max-model-len` (spec_debug/diagnose/launch.py, the flags the
finding's evidence comes from)."""

from __future__ import annotations

from spec_debug.diagnose import launch
from tests.conftest import run_cli


def test_explain_sd702_names_the_context_flag_of_each_engine() -> None:
    result = run_cli("explain", "SD702")
    assert result.code == 0
    fix = result.stdout.split("### How to fix", 1)[1].split("###", 1)[0]
    assert "`--context-length N` (SGLang)" in fix and "`--max-model-len N` (vLLM)" in fix
    # the flags the launch audit reads the served context length from
    assert "context-length" in launch._SGLANG_ALIASES and "max-model-len" in launch._VLLM_ALIASES
