"""`sgl.Engine(speculative_algorithm="EAGLE3")` on an SGLang release before 0.4.4.post2 is refused
as the Python call is, not as argparse would refuse the flag.

The command line's `--speculative-algorithm` has argparse `choices=["EAGLE", "NEXTN"]` there; a
Python call reads no argparse: ServerArgs takes the string, and the scheduler's
SpeculativeAlgorithm.from_string looks the upper-cased name up in a dict without "EAGLE3", so it
raises KeyError and the engine does not start. Read from the PyPI wheels 0.4.3.post2 and 0.4.4.post1
(srt/server_args.py, srt/speculative/spec_info.py, srt/managers/scheduler.py). Was: "argparse exits
with 'invalid choice' and the server does not start", and the flag said as `EAGLE3` whatever the
command wrote.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SCRIPT = ('import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
           'speculative_algorithm="{}", speculative_draft_model_path="/models/eagle3")')
_CMD = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm {} "
        "--speculative-draft-model-path /models/eagle3")


def _problems(text: str, version: str) -> list[str]:
    return effective_spec(parse_launch_command(text), engine_version=version).problems


@pytest.mark.parametrize("written", ["EAGLE3", "eagle3"])
@pytest.mark.parametrize("version", ["0.4.4.post1", "0.4.3.post2"])
def test_python_call_is_told_from_string_raises(written: str, version: str) -> None:
    assert _problems(_SCRIPT.format(written), version) == [
        f"speculative_algorithm='{written}': SGLang {version} has no EAGLE-3 (added in 0.4.4.post2): "
        "SpeculativeAlgorithm.from_string raises (KeyError: 'EAGLE3') and Engine(...) does not start (upgrade "
        "SGLang)"]


@pytest.mark.parametrize("written", ["EAGLE3", "eagle3"])
def test_command_line_keeps_argparse_and_the_flag_as_written(written: str) -> None:
    assert _problems(_CMD.format(written), "0.4.4.post1") == [
        f"--speculative-algorithm {written}: SGLang 0.4.4.post1 has no EAGLE-3 (added in 0.4.4.post2): argparse "
        "exits with 'invalid choice' and the server does not start (upgrade SGLang)"]


@pytest.mark.parametrize("text", [_SCRIPT, _CMD])
def test_from_the_first_eagle3_release_nothing_is_refused(text: str) -> None:
    assert _problems(text.format("EAGLE3"), "0.4.4.post2") == []
