"""Review of the Dynamo worker rule (session 14, launch audit).

The audit now reads `python3 -m dynamo.sglang.worker ...` / `dynamo.sglang.decode_worker`
(Dynamo <= 0.4, components/backends/sglang/src/dynamo/sglang/worker/main.py) as SGLang's server,
but the /proc probe, which picks the server process to audit on the host, did not take them for
a server: on a host running one the audit found no server.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.probes.launch_flags import is_server_argv

FLAGS = ["--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3",
         "--speculative-num-steps", "1", "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2"]


@pytest.mark.parametrize("module", ["dynamo.sglang.worker", "dynamo.sglang.decode_worker"])
def test_the_probe_takes_an_older_dynamo_sglang_worker_for_a_server(module):
    argv = ["/usr/bin/python3", "-m", module, *FLAGS]
    assert is_server_argv(argv)
    assert parse_launch_command(argv).engine == "sglang"


def test_other_dynamo_parts_are_no_server():
    assert not is_server_argv(["/usr/bin/python3", "-m", "dynamo.frontend", "--http-port", "8000"])
