"""A systemd unit whose ExecStart= takes its speculation flags from the unit's Environment= lines.

systemd expands `${NAME}` and a lone `$NAME` in ExecStart= itself, from every Environment= of
the unit, a later line overriding an earlier one (systemd.service(5) "Command lines",
systemd.exec(5) "Environment="). The audit read `--speculative-num-steps ${STEPS}` as a shell
expression whose value was not in the text, so `Environment=STEPS=1` (INCIDENT.md's one step)
gave no SD101, only "audit the running server".
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command, split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG_UNIT = r"""[Unit]
Description=SGLang EAGLE-3 server

[Service]
Environment="HF_HOME=/data/hf"
Environment=STEPS=1
ExecStart=/opt/venv/bin/python -m sglang.launch_server \
    --model-path meta-llama/Llama-3.1-8B-Instruct \
    --speculative-algorithm EAGLE3 \
    --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \
    --speculative-num-steps ${STEPS} --speculative-eagle-topk 1 \
    --speculative-num-draft-tokens 2
Restart=always

[Install]
WantedBy=multi-user.target
"""

VLLM_UNIT = r"""[Service]
Environment=SPEC='{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":3}'
Environment=SPEC='{"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":1}'
ExecStart=/usr/local/bin/vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config $SPEC
"""


def _findings(text: str):
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("unit", [SGLANG_UNIT, SGLANG_UNIT.replace("${STEPS}", "$STEPS"),
                                  SGLANG_UNIT.replace("${STEPS}", "--speculative-num-steps=${STEPS}")
                                  .replace("--speculative-num-steps --", "--")])
def test_the_units_environment_gives_the_steps_it_runs(unit):
    assert parse_launch_command(unit).num_steps == 1
    launch, findings = _findings(unit)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_the_last_environment_line_of_a_name_is_the_one_that_runs():
    cfg = parse_launch_command(VLLM_UNIT)
    assert (cfg.engine, cfg.num_steps, cfg.draft_model) == ("vllm", 1, "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")


def test_a_lone_variable_is_split_at_blanks_and_a_braced_one_is_one_argument():
    unit = ('[Service]\nEnvironment="DRAFT=--speculative-num-steps 1"\n'
            + SGLANG_UNIT.split("[Service]\n", 1)[1].split("ExecStart=", 1)[0]
            + "ExecStart=" + SGLANG_UNIT.split("ExecStart=", 1)[1].replace("--speculative-num-steps ${STEPS}", "$DRAFT"))
    assert parse_launch_command(unit).num_steps == 1
    braced = unit.replace("$DRAFT", "${DRAFT}")
    assert "--speculative-num-steps 1" in split_command(braced)


def test_a_name_no_environment_line_sets_stays_unknown():
    unit = SGLANG_UNIT.replace("Environment=STEPS=1\n", "").replace("[Service]\n", "[Service]\nEnvironmentFile=/etc/default/sglang\n")
    with pytest.raises(LaunchParseError, match="shell expression"):
        parse_launch_command(unit)
