"""A baseline engine built in a function the script calls before its speculative one is audited.

Benchmark scripts put each run in a function (`def run_baseline(): llm = LLM(...)`) and call them
in order under `if __name__ == "__main__":`. Only a baseline call in the same block as the
speculative call was read, so `LLM(model=..., max_num=4)` in run_baseline(), whose TypeError stops
the script before run_speculative() builds the speculative engine, passed. A function that is not
called, or is called after, is still not read.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

_HEAD = 'from vllm import LLM\nMODEL = "meta-llama/Llama-3.1-8B-Instruct"\n\n\n'
_BASELINE = "def run_baseline():\n    llm = LLM(model=MODEL, max_num=4)\n    return llm\n\n\n"
_SPECULATIVE = ('def run_speculative():\n    llm = LLM(model=MODEL, speculative_config={"method": "eagle3", '
                '"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})\n    return llm\n\n\n')
_MAX_NUM = ("line 6, LLM(...) before the speculative engine is built (the script stops there): max_num=: EngineArgs "
            "has no field by that name (a keyword argument is never read as an abbreviation, as argparse reads "
            "`--max-num`): LLM(...) raises TypeError (EngineArgs.__init__() got an unexpected keyword argument "
            "'max_num') and the engine does not start; write the field's full name (it starts the options "
            "--max-num-active-seqs, --max-num-batched-tokens, --max-num-inflight-kv-loads, --max-num-queued-reqs, "
            "--max-num-queued-tokens, --max-num-scheduled-tokens and 1 more)")


def _problems(text: str) -> list[str]:
    return list(effective_spec(parse_launch_command(text), engine_version="0.34.0").problems)


def test_a_baseline_function_called_first_is_audited() -> None:
    script = _HEAD + _BASELINE + _SPECULATIVE + ('if __name__ == "__main__":\n    base = run_baseline()\n'
                                                 '    spec = run_speculative()\n')
    assert _problems(script) == [_MAX_NUM]


def test_a_speculative_call_at_module_level_after_the_baseline_function() -> None:
    script = _HEAD + _BASELINE + ('run_baseline()\nllm = LLM(model=MODEL, speculative_config={"method": "eagle3", '
                                  '"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})\n')
    assert _problems(script) == [_MAX_NUM]


@pytest.mark.parametrize("main", [
    'if __name__ == "__main__":\n    spec = run_speculative()\n    base = run_baseline()\n',  # called after
    'if __name__ == "__main__":\n    spec = run_speculative()\n',  # never called
    'if __name__ == "__main__":\n    if FAST:\n        run_baseline()\n    run_speculative()\n',  # in a branch
])
def test_a_baseline_function_not_called_first_is_not_read(main: str) -> None:
    assert _problems(_HEAD + _BASELINE + _SPECULATIVE + main) == []


def test_a_positional_engine_in_the_baseline_function_stops_the_script() -> None:
    script = ('import sglang as sgl\n\n\ndef baseline():\n    return sgl.Engine("meta-llama/Llama-3.1-8B-Instruct")\n'
              '\n\ndef speculative():\n    return sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
              'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3")\n\n\n'
              'baseline()\nspeculative()\n')
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(script)
    assert exc.value.message.startswith("line 5, before the speculative engine is built: Engine('meta-llama/")
