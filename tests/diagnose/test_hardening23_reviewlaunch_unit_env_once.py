"""Review of the systemd/supervisord environment rule (session 14, launch audit).

A unit's `Environment=` above its `ExecStart=` (the usual order, systemd.service(5) examples)
was put in front of the server twice: once as every Environment= of the unit, once as a line
exported before the command. The audited argv (quoted in the report) read
`SGLANG_ENABLE_SPEC_V2=1 SGLANG_ENABLE_SPEC_V2=1 /opt/venv/bin/python ...`.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command

SERVER = ("/opt/venv/bin/python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
          "--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8")


@pytest.mark.parametrize("unit", [
    f'[Service]\nEnvironment="SGLANG_ENABLE_SPEC_V2=1" "HF_HOME=/data/hf"\nExecStart={SERVER}\nRestart=always\n',
    f'[Service]\nExecStart={SERVER}\nEnvironment="SGLANG_ENABLE_SPEC_V2=1"\n',
    f'[Service]\nEnvironment=SGLANG_ENABLE_SPEC_V2=1\nExecStart={SERVER}\nEnvironment=SGLANG_OTHER=2\n',
])
def test_the_units_environment_is_given_once(unit):
    cfg = parse_launch_command(unit)
    assert cfg.env["SGLANG_ENABLE_SPEC_V2"] == "1"
    assert cfg.argv.count("SGLANG_ENABLE_SPEC_V2=1") == 1
    assert cfg.argv[cfg.argv.index("/opt/venv/bin/python") + 1:][:2] == ("-m", "sglang.launch_server")
