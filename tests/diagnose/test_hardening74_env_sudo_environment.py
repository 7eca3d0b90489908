"""`env -i`, `env -u` and `sudo` change the server's environment as they do when run.

`env -i SGLANG_ENABLE_SPEC_V2=1 python3 -m sglang.launch_server ...` and `sudo
SGLANG_ENABLE_SPEC_V2=1 python3 -m ...` set the variable for the server (coreutils env(1): options,
then `NAME=VALUE` words; sudo(8): "Environment variables to be set for the command may also be
passed on the command line in the form of VAR=value"), but the audit stopped at the first word
that is no assignment (`-i`, `sudo`) and read none. And `export SGLANG_ENABLE_SPEC_V2=1` above a
plain `sudo python3 -m ...` was read as the server's, which sudo's env_reset (sudoers(5), on by
default) drops unless `-E`/`--preserve-env` keeps it; `env -i`/`env -u NAME` drop it too.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
           "--speculative-eagle-topk 2 --speculative-num-draft-tokens 6")
_ON = {"SGLANG_ENABLE_SPEC_V2": "1"}


@pytest.mark.parametrize(("command", "env"), [
    ("env -i SGLANG_ENABLE_SPEC_V2=1 " + _SERVER, _ON),
    ("env -i PATH=/usr/bin:/bin SGLANG_ENABLE_SPEC_V2=1 " + _SERVER, {"PATH": "/usr/bin:/bin", **_ON}),
    ("sudo SGLANG_ENABLE_SPEC_V2=1 " + _SERVER, _ON),
    ("sudo -u svc SGLANG_ENABLE_SPEC_V2=1 " + _SERVER, _ON),
    ("SGLANG_ENABLE_SPEC_V2=1 sudo -E " + _SERVER, _ON),
    ("export SGLANG_ENABLE_SPEC_V2=1\nsudo --preserve-env=SGLANG_ENABLE_SPEC_V2 " + _SERVER, _ON),
    ("export SGLANG_ENABLE_SPEC_V2=1\nsudo " + _SERVER, {}),
    ("SGLANG_ENABLE_SPEC_V2=1 sudo -u svc " + _SERVER, {}),
    ("export SGLANG_ENABLE_SPEC_V2=1\nenv -i PATH=/usr/bin " + _SERVER, {"PATH": "/usr/bin"}),
    ("export SGLANG_ENABLE_SPEC_V2=1\nenv -u SGLANG_ENABLE_SPEC_V2 " + _SERVER, {}),
    ("export SGLANG_ENABLE_SPEC_V2=1\nexec env " + _SERVER, _ON),
])
def test_the_servers_environment(command: str, env: dict[str, str]) -> None:
    cfg = parse_launch_command(command)
    assert cfg.env == env
    eff = effective_spec(cfg, engine_version="0.5.7")
    refused = [p for p in eff.problems if p.startswith("SGLANG_ENABLE_SPEC_V2=1 with topk 2: SGLang 0.5.7 refuses")]
    assert len(refused) == (1 if env.get("SGLANG_ENABLE_SPEC_V2") == "1" else 0)


@pytest.mark.skipif(shutil.which("env") is None, reason="coreutils env")
def test_env_is_the_referee() -> None:
    # what coreutils env hands the command, for the forms above
    def given(words: list[str]) -> str:
        run = subprocess.run(words + ["sh", "-c", 'printf "%s" "${SGLANG_ENABLE_SPEC_V2-unset}"'],
                             capture_output=True, text=True, check=True,
                             env={"PATH": "/usr/bin:/bin", "SGLANG_ENABLE_SPEC_V2": "1"})
        return run.stdout
    assert given(["env", "-i", "PATH=/usr/bin:/bin"]) == "unset"
    assert given(["env", "-u", "SGLANG_ENABLE_SPEC_V2"]) == "unset"
    assert given(["env", "-i", "PATH=/usr/bin:/bin", "SGLANG_ENABLE_SPEC_V2=2"]) == "2"
