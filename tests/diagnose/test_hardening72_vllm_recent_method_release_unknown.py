"""A vLLM method only recent releases have, with the vLLM release unknown, is said to be refused by
the older ones.

The audit judges an unknown release as the newest, which has every method, so `"method": "dflash"`
(added in 0.20.0) passed clean although vLLM 0.19 and older refuse the name at startup (their
SpeculativeConfig's `method` Literal lacks it; PyPI sdists vllm/config/speculative.py, the table
`_VLLM_METHODS_ADDED`). Only methods added in 0.20.0 or later get the line: every older name is in
every release from 0.18.0 on, and a line on them would be said of nearly every command.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_CMD = ("vllm serve Qwen/Qwen3-8B --speculative-config "
        "'{{\"method\": \"{}\", \"model\": \"x/draft\", \"num_speculative_tokens\": 3}}'")
_UNKNOWN = "; the vLLM release is unknown here (`pip show vllm` where the server runs, or its image tag, says it)"


def _line(method: str, since: str, how: str) -> str:
    return (f"{how}: vLLM added this method in {since}; the releases before it have no such method, and their "
            "SpeculativeConfig refuses the name at startup (pydantic: \"Input should be ...\"): serve it with vLLM "
            f"{since} or later{_UNKNOWN}")


@pytest.mark.parametrize(("method", "since"), [("dflash", "0.20.0"), ("dspark", "0.25.0"), ("gemma4_mtp", "0.21.0")])
def test_a_recent_method_is_said_to_be_refused_by_older_releases(method: str, since: str) -> None:
    cfg = parse_launch_command(_CMD.format(method))
    eff = effective_spec(cfg)
    assert eff.problems == [_line(method, since, f'--speculative-config "method": "{method}"')]
    [finding] = check_draft_budget(cfg, eff)
    assert (finding.code, finding.severity, finding.title) == (
        "SD102", "warning", "The engine refuses this launch command at startup on its older releases")


@pytest.mark.parametrize("method", ["eagle3", "eagle", "mtp", "suffix", "ngram_gpu"])
def test_an_older_method_says_nothing(method: str) -> None:
    assert effective_spec(parse_launch_command(_CMD.format(method))).problems == []


def test_a_known_release_says_what_it_does() -> None:
    cfg = parse_launch_command(_CMD.format("dflash"))
    assert effective_spec(cfg, engine_version="0.20.0").problems == []
    [line] = effective_spec(cfg, engine_version="0.19.0").problems
    assert line.startswith('--speculative-config "method": "dflash": vLLM 0.19.0 has no such method')


def test_a_python_call_says_its_dict() -> None:
    script = ('from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", speculative_config={"method": "dflash", '
              '"model": "x/draft", "num_speculative_tokens": 3})')
    assert effective_spec(parse_launch_command(script)).problems == [
        _line("dflash", "0.20.0", 'speculative_config={"method": "dflash"}')]


def test_a_method_a_later_release_removed_is_left_to_its_own_line() -> None:
    # custom_class (0.22.0 .. 0.33): the newest release refuses it, said by _vllm_method_release's rules
    cfg = parse_launch_command(_CMD.format("custom_class").replace("x/draft", "my_pkg.Proposer"))
    assert not [line for line in effective_spec(cfg).problems if "vLLM added this method" in line]


def test_spec_method_implies_a_release_that_has_the_older_ones() -> None:
    # --spec-method came in 0.22.0: a server that takes it has dflash (0.20.0), not surely dspark (0.25.0)
    command = "vllm serve Qwen/Qwen3-8B --spec-method {} --spec-model x/draft --spec-tokens 3"
    assert effective_spec(parse_launch_command(command.format("dflash"))).problems == []
    assert effective_spec(parse_launch_command(command.format("dspark"))).problems == [
        _line("dspark", "0.25.0", "--spec-method dspark")]
