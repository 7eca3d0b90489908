"""A variable unset (or `export -n`) between its export and the server is not the server's.

    export SGLANG_ENABLE_SPEC_V2=1
    ...
    unset SGLANG_ENABLE_SPEC_V2
    python3 -m sglang.launch_server ... --speculative-eagle-topk 2

bash removes it before the server starts (bash(1) SHELL BUILTIN COMMANDS: unset, export -n), but
the audit kept it and judged the spec v2 worker SGLang would start (0.5.7 refuses topk 2 under it).
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
           "--speculative-eagle-topk 2 --speculative-num-draft-tokens 6")


@pytest.mark.parametrize("drop", ["unset SGLANG_ENABLE_SPEC_V2", "unset -v SGLANG_ENABLE_SPEC_V2 OTHER",
                                  "export -n SGLANG_ENABLE_SPEC_V2"])
def test_an_unset_variable_is_not_the_servers(drop: str) -> None:
    script = f"export SGLANG_ENABLE_SPEC_V2=1 SGLANG_OTHER=2\n{drop}\n"
    run = subprocess.run(["bash", "-c", script + "sh -c 'printf %s \"${SGLANG_ENABLE_SPEC_V2-unset}\"'"],
                         capture_output=True, text=True, check=True)
    assert run.stdout == "unset"
    cfg = parse_launch_command(script + _SERVER)
    assert cfg.env == {"SGLANG_OTHER": "2"}
    assert not any("SGLANG_ENABLE_SPEC_V2" in p for p in effective_spec(cfg, engine_version="0.5.7").problems)


def test_set_again_after_the_unset_it_is() -> None:
    cfg = parse_launch_command("export SGLANG_ENABLE_SPEC_V2=1\nunset SGLANG_ENABLE_SPEC_V2\n"
                               "export SGLANG_ENABLE_SPEC_V2=1\n" + _SERVER)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
