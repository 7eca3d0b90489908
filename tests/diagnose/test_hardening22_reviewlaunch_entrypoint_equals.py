"""`docker run --entrypoint=bash IMAGE -c "..."` runs the string's server, as `--entrypoint bash` does.

Today's change reads a shell entrypoint's `-c` string after the image (docker run reference,
"--entrypoint": the entrypoint is given the words after the image). It looked for the `-c` from
the third word after the option, which is right for `--entrypoint bash IMAGE -c` but one word too
far for the `--entrypoint=bash IMAGE -c` spelling (docker accepts both): "not an SGLang or vLLM
server command".
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import image_release, parse_launch_command

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


@pytest.mark.parametrize("entrypoint", ["--entrypoint=bash", "--entrypoint=/bin/bash", "--entrypoint bash"])
def test_the_entrypoint_strings_server_is_audited(entrypoint):
    cfg = parse_launch_command(f'docker run --gpus all --ipc=host {entrypoint} lmsysorg/sglang:v0.5.6 -c "{SGLANG}"')
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("sglang", "EAGLE3", 3)
    assert image_release(list(cfg.argv), "sglang") == "0.5.6"
