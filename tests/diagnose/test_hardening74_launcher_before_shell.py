"""`sudo bash -c "..."` and `env -i bash -c "..."` keep what they do to the server's environment.

    export SGLANG_ENABLE_SPEC_V2=1
    sudo bash -c "python3 -m sglang.launch_server ... --speculative-eagle-topk 2"

sudo's env_reset (sudoers(5), on by default) drops the exported variable before bash runs the
server, and `env -i` empties the environment (coreutils env(1)). The audit dropped the launcher's
words with the shell's and read the variable as the server's, so it judged the spec v2 worker
(refused with topk 2 by SGLang 0.5.7) on a server that runs without it.
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import parse_launch_command

_SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
           "--speculative-eagle-topk 2 --speculative-num-draft-tokens 6")
_EXPORT = "export SGLANG_ENABLE_SPEC_V2=1\n"


def test_env_i_is_the_referee() -> None:
    run = subprocess.run(["bash", "-c", _EXPORT + "env -i PATH=/usr/bin:/bin bash -c 'printf %s \"${SGLANG_ENABLE_SPEC_V2-unset}\"'"],
                         capture_output=True, text=True, check=True)
    assert run.stdout == "unset"


@pytest.mark.parametrize(("launcher", "env"), [
    ("sudo", {}),
    ("env -i PATH=/usr/bin:/bin", {"PATH": "/usr/bin:/bin"}),
    ("sudo -E", {"SGLANG_ENABLE_SPEC_V2": "1"}),
    ("sudo --preserve-env=SGLANG_ENABLE_SPEC_V2", {"SGLANG_ENABLE_SPEC_V2": "1"}),
])
def test_the_launcher_before_the_shell(launcher: str, env: dict[str, str]) -> None:
    cfg = parse_launch_command(f'{_EXPORT}{launcher} bash -c "{_SERVER}"')
    assert (cfg.env, cfg.num_steps, cfg.topk) == (env, 3, 2)


def test_the_strings_own_assignment_is_the_servers() -> None:
    cfg = parse_launch_command(f'sudo bash -c "SGLANG_ENABLE_SPEC_V2=1 {_SERVER}"')
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
