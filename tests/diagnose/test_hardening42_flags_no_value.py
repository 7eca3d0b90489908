"""A speculative flag that takes a value, written with none, is a server that does not start.

`--speculative-config` / `-sc` (vLLM) and `--speculative-algorithm` /
`--speculative-draft-model-path` (SGLang) are argparse options with one value: written last on the
line, or with another `--flag` next, argparse exits with "expected one argument" (CPython
Lib/argparse.py `_match_argument`). The audit read them as unset: `vllm serve MODEL
--speculative-config` (a `ps` line cut at the terminal width, a wrapper script that lost its JSON)
was audited as a healthy server without speculation, and an SGLang command with
`--speculative-algorithm --speculative-draft-model-path d` as one without EAGLE. Only the integer
flags (`--speculative-num-steps`) said "has no value"; the string ones now say it too.

A value computed elsewhere in a Python launcher (SGLang's `popen_launch_server(...,
other_args=[..., "--speculative-draft-model-path", DEFAULT_EAGLE3_DRAFT])`) is a value this text
does not show, not a missing one: that command is still read, with no finding about its draft.
"""

from __future__ import annotations

import json
import sys

import pytest

from spec_debug.diagnose.checks.launch_flags import check_algorithm
from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.fake_servers import server_process

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
SPEC = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}
SGLANG = f"python3 -m sglang.launch_server --model-path {TARGET} "


@pytest.mark.parametrize("command, flag", [
    (f"vllm serve {TARGET} --speculative-config", "vllm: --speculative-config has no value"),
    (f"vllm serve {TARGET} -sc", "vllm: --speculative-config has no value"),
    (f"vllm serve {TARGET} --speculative-config --tensor-parallel-size 2", "vllm: --speculative-config has no value"),
    (f"vllm serve {TARGET} -sc -tp 2", "vllm: --speculative-config has no value"),
    (f"vllm serve {TARGET} --speculative-model --num-speculative-tokens 3", "vllm: --speculative-model has no value"),
    (f"vllm serve {TARGET} --spec-model d --spec-method", "vllm: --spec-method has no value"),
    (SGLANG + "--speculative-algorithm", "sglang: --speculative-algorithm has no value"),
    (SGLANG + "--speculative-algorithm --speculative-draft-model-path d --speculative-num-steps 3 "
              "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4", "sglang: --speculative-algorithm has no value"),
    (SGLANG + "--speculative-algorithm EAGLE3 --speculative-draft-model-path --speculative-num-steps 3 "
              "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
     "sglang: --speculative-draft-model-path has no value"),
])
def test_a_valued_speculative_flag_written_without_a_value_is_refused(command, flag):
    with pytest.raises(LaunchParseError) as err:
        parse_launch_command(command)
    assert err.value.message == flag
    assert "ps -ww" in err.value.hint


@pytest.mark.parametrize("command", [
    f"vllm serve {TARGET} --speculative-config ''",   # optional_type(json.loads): "" is no config
    f"vllm serve {TARGET} --speculative-config=",
    f"vllm serve {TARGET} --enforce-eager",
])
def test_an_empty_config_and_a_switch_are_still_no_speculation(command):
    assert not parse_launch_command(command).speculative


def _audit(process: dict) -> list:
    found = launch_flags.server_processes()
    chosen = launch_flags.choose_server([p for p in found if p["pid"] == process["pid"]])
    facts = launch_step.parse({"source": f"/proc/{chosen['pid']}/cmdline", "argv": chosen["argv"], "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return launch_step.check(ctx)


def test_a_running_fake_vllm_server_whose_config_lost_its_value_is_not_audited_as_plain():
    # a fake vLLM server (a sleeping process with `vllm serve`'s command line), read from /proc
    head = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve", TARGET]
    with server_process(head + ["--speculative-config"]) as process:
        (finding,) = _audit(process)
    assert finding.code == "SD004"
    assert "the server command could not be read: vllm: --speculative-config has no value" in finding.evidence[0]
    with server_process(head + ["--speculative-config", json.dumps(SPEC)]) as process:
        findings = _audit(process)
    assert "SD004" not in [f.code for f in findings]


SGLANG_TEST = (
    "from sglang.test.test_utils import DEFAULT_EAGLE3_DRAFT, popen_launch_server\n"
    f"process = popen_launch_server('{TARGET}', 'http://127.0.0.1:30000', timeout=600,\n"
    "    other_args=['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', DEFAULT_EAGLE3_DRAFT,\n"
    "                '--enable-beta-spec', '--speculative-num-steps', '3', '--speculative-eagle-topk', '1',\n"
    "                '--speculative-num-draft-tokens', '4'])\n")


def test_a_draft_path_computed_in_a_python_launcher_is_unread_not_missing():
    cfg = parse_launch_command(SGLANG_TEST)
    assert (cfg.algorithm, cfg.draft_model, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", None, 3, 1, 4)
    assert check_algorithm(cfg, None) == []
