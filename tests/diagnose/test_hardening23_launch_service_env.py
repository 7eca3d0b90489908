"""A supervisord program, and a systemd unit whose Environment= comes after ExecStart= (session 14).

supervisord runs a `[program:x]` section's `command=` with its `environment=KEY="val",KEY2="val2"`
(supervisord docs, "[program:x] Section Values"); systemd runs ExecStart= with every
Environment= of the unit (systemd.exec(5)), wherever the line is. The supervisord program was
read with a shell variable named `command` and without its environment, and a unit's
Environment= after ExecStart= was lost: SGLANG_ENABLE_SPEC_V2=1 with topk 4 (which spec v2
refuses) gave no SD102.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("-m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 4 --speculative-num-draft-tokens 8")

SUPERVISOR = f"""[program:sglang]
command=/opt/venv/bin/python {SERVER}
environment=SGLANG_ENABLE_SPEC_V2="1",HF_HOME="/data/hf"
autostart=true
autorestart=true
stdout_logfile=/var/log/sglang.log
"""

SYSTEMD = f"""[Unit]
Description=SGLang EAGLE-3 server

[Service]
ExecStart=/opt/venv/bin/python {SERVER}
Environment="SGLANG_ENABLE_SPEC_V2=1" "HF_HOME=/data/hf"
Restart=always

[Install]
WantedBy=multi-user.target
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("service", [SUPERVISOR, SYSTEMD])
def test_the_services_environment_reaches_its_program(service):
    cfg = parse_launch_command(service)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert cfg.argv[cfg.argv.index("-m") - 1] == "/opt/venv/bin/python"
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 3, 4, 8)


@pytest.mark.parametrize("service", [SUPERVISOR, SYSTEMD])
def test_spec_v2_with_topk_4_is_refused(service):
    launch, findings = _findings(service)
    assert launch["found"] and "SD102" in [f.code for f in findings]
    _, without = _findings(service.replace("SGLANG_ENABLE_SPEC_V2", "SGLANG_OTHER"))
    assert "SD102" not in [f.code for f in without]
