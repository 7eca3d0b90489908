"""Review of the logged-server-args reader (session 14, launch audit).

`server_args=ServerArgs(...)` is also how a Python script starts SGLang's offline engine or
server (`sgl.Engine(server_args=ServerArgs(model_path=..., speculative_algorithm=ALG))`). Such a
script with a value held in a name was 'speculative_algorithm is the Python expression ALG,
whose value is not in this text'; the log reader took the call for a startup log line, dropped
the names and audited a server with no speculation at all (no error, no finding). A log prints
values, never names: a call with names is code, left to the Python reader.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SCRIPT = '''import os
import sglang as sgl
from sglang.srt.server_args import ServerArgs

DRAFT = os.environ["DRAFT"]
engine = sgl.Engine(server_args=ServerArgs(model_path="meta-llama/Llama-3.1-8B-Instruct",
                                           speculative_algorithm={alg}, speculative_draft_model_path=DRAFT,
                                           speculative_num_steps=3))
'''


@pytest.mark.parametrize("alg", ["ALG", 'os.environ["ALG"]', "args.algorithm", 'f"{ALG}"'])
def test_a_script_with_names_is_not_read_as_a_log(alg):
    with pytest.raises(LaunchParseError, match="not in this text"):
        parse_launch_command(SCRIPT.format(alg=alg))


def test_a_logged_line_is_still_read():
    line = ("[2026-02-26 05:19:58] server_args=ServerArgs(model_path='zai-org/GLM-5-FP8', tp_size=8, "
            "speculative_algorithm='EAGLE', speculative_num_steps=3, speculative_eagle_topk=1, "
            "speculative_num_draft_tokens=4, cuda_graph_bs=[1, 2, 4], mm_process_config={}, forward_hooks=None)\n")
    cfg = parse_launch_command(line)
    assert (cfg.engine, cfg.target_model, cfg.tp, cfg.algorithm, cfg.num_steps) == ("sglang", "zai-org/GLM-5-FP8", 8,
                                                                                     "EAGLE", 3)
