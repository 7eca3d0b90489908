"""A script that builds a baseline engine before its speculative one: the baseline is audited too.

A benchmark script often builds `sgl.Engine(...)` / `LLM(...)` without speculation first, then the
speculative engine. Only the speculative call was read: a baseline `sgl.Engine("meta-llama/...")`
(SGLang's Engine takes keyword arguments only: TypeError) or `LLM(..., max_num=4)` (EngineArgs has
no such field: TypeError) stops the script before the speculative engine is built, and the audit
passed it. Now the calls in the same block before the speculative one are read, in order; a call in
a function defined above (which need not run) is not."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

_SPEC_SGLANG = ('llm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", speculative_algorithm="EAGLE3", '
                'speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, speculative_eagle_topk=1, '
                'speculative_num_draft_tokens=4)')
_SPEC_VLLM = ('llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config={"method": "eagle3", '
              '"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})')
_MAX_NUM = ("max_num=: EngineArgs has no field by that name (a keyword argument is never read as an abbreviation, as "
            "argparse reads `--max-num`): LLM(...) raises TypeError (EngineArgs.__init__() got an unexpected keyword "
            "argument 'max_num') and the engine does not start; write the field's full name (it starts the options "
            "--max-num-active-seqs, --max-num-batched-tokens, --max-num-queued-reqs, --max-num-queued-tokens, "
            "--max-num-scheduled-tokens and --max-num-seqs)")


def _problems(text: str, engine_version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(text), engine_version=engine_version).problems)


def test_a_positional_baseline_engine_stops_the_script_first() -> None:
    script = ('import sglang as sgl\nbase = sgl.Engine("meta-llama/Llama-3.1-8B-Instruct")\nbase.shutdown()\n'
              + _SPEC_SGLANG)
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(script)
    assert exc.value.message == (
        "line 2, before the speculative engine is built: Engine('meta-llama/Llama-3.1-8B-Instruct', ...): SGLang's "
        "Engine takes keyword arguments only (Engine.__init__(self, **kwargs)): Python raises TypeError "
        "(Engine.__init__() takes 1 positional argument but 2 were given) and the engine does not start (the script "
        "stops there)")
    assert exc.value.hint == "name it: Engine(model_path='meta-llama/Llama-3.1-8B-Instruct', ...)"


def test_a_baseline_keyword_the_engine_refuses_is_said_first() -> None:
    script = ('from vllm import LLM\nbase = LLM(model="meta-llama/Llama-3.1-8B-Instruct", max_num=4)\n'
              'del base\n' + _SPEC_VLLM)
    assert _problems(script, "0.33.0") == [
        "line 2, LLM(...) before the speculative engine is built (the script stops there): " + _MAX_NUM]
    # the same faults in both: the baseline's first, then the speculative call's own
    script = ('from vllm import LLM\nbase = LLM(model="meta-llama/Llama-3.1-8B-Instruct", max_num=4)\n'
              + _SPEC_VLLM.replace("LLM(model=", "LLM(max_num=4, model="))
    assert _problems(script, "0.33.0") == [
        "line 2, LLM(...) before the speculative engine is built (the script stops there): " + _MAX_NUM, _MAX_NUM]


def test_a_clean_baseline_and_a_baseline_that_need_not_run_are_not_findings() -> None:
    clean = ('import sglang as sgl\nbase = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", tp_size=2)\n'
             + _SPEC_SGLANG)
    assert _problems(clean, "0.5.23") == []
    # defined in a function above: it need not run before the speculative engine
    unused = ('import sglang as sgl\ndef baseline():\n    return sgl.Engine("meta-llama/Llama-3.1-8B-Instruct")\n'
              + _SPEC_SGLANG)
    assert _problems(unused, "0.5.23") == []
    # after the speculative call: the script got its speculative engine first
    after = ('from vllm import LLM\n' + _SPEC_VLLM + '\nbase = LLM(model="meta-llama/Llama-3.1-8B-Instruct", '
             'max_num=4)')
    assert _problems(after, "0.33.0") == []
