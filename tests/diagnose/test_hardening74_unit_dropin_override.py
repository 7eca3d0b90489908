"""A unit pasted with its drop-in override (`systemctl cat`) is audited with the override's command.

`systemctl edit sglang.service` writes an override.conf whose empty `ExecStart=` resets the unit's
command and whose next `ExecStart=` replaces it (systemd.service(5): "If the empty string is
assigned to this option, the list of commands to start is reset, prior assignments of this option
will have no effect"); an empty `Environment=` resets the variables likewise (systemd.exec(5)).
`systemctl cat` prints the unit, then each drop-in below it. The audit read the first server
command of the text, the base unit's (steps 3, topk 2, SGLANG_ENABLE_SPEC_V2=1), which systemd
no longer runs; now it reads the override's (steps 5, topk 1, no variable).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

_SERVER = ("/opt/venv/bin/python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--speculative-algorithm EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B ")
_BASE = f"""# /etc/systemd/system/sglang.service
[Unit]
Description=SGLang EAGLE-3

[Service]
Environment=SGLANG_ENABLE_SPEC_V2=1
ExecStart={_SERVER}\\
    --speculative-num-steps 3 --speculative-eagle-topk 2 --speculative-num-draft-tokens 6
Restart=always

[Install]
WantedBy=multi-user.target

# /etc/systemd/system/sglang.service.d/override.conf
[Service]
"""


def test_the_override_replaces_the_command_and_the_environment() -> None:
    cfg = parse_launch_command(_BASE + "Environment=\nExecStart=\nExecStart=" + _SERVER
                               + "--speculative-num-steps 5 --speculative-eagle-topk 1 --speculative-num-draft-tokens 6\n")
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens, cfg.env) == (5, 1, 6, {})


def test_an_override_that_keeps_the_command_changes_only_the_environment() -> None:
    cfg = parse_launch_command(_BASE + "Environment=\nEnvironment=SGLANG_ENABLE_SPEC_V2=0\n")
    assert (cfg.num_steps, cfg.topk, cfg.env) == (3, 2, {"SGLANG_ENABLE_SPEC_V2": "0"})


def test_a_unit_without_a_reset_reads_as_before() -> None:
    cfg = parse_launch_command(_BASE)
    assert (cfg.num_steps, cfg.topk, cfg.env) == (3, 2, {"SGLANG_ENABLE_SPEC_V2": "1"})
