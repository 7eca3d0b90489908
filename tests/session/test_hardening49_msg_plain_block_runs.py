"""A ``[msg N]`` transcript whose reply pastes a run in a plain ``` block (no language given,
or ``text``): ``$ ssh ops@gpu-node-13 "tail …"`` and the log lines it printed. The same block
marked ```console gave the command and put its readings on gpu-node-13; the plain one gave no
command, and the baseline's throughput and acceptance length were no host's. A prompted line
is a command in either block now; a bare line of a plain block in a reply stays an example,
and the commands keep their message's number."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

LOG = """[msg 1] user: acceptance dropped after the upgrade on gpu-node-12

[msg 2] assistant: Before the upgrade, on gpu-node-13, it was:

{fence}
$ ssh ops@gpu-node-13 "tail -n 1 /var/log/sglang/server.log"
[2026-03-01 10:00:01] Decode batch. #running-req: 16, #token: 20000, accept len: 3.20, gen throughput (token/s): 260.00
```

[msg 3] assistant: To compare, run this on gpu-node-12:

{fence}
python -m sglang.bench_serving --backend sglang --num-prompts 200
```

[msg 4] assistant: The drafter is not loaded on gpu-node-12.
"""


@pytest.mark.parametrize("fence", ["```", "```text", "```console"])
def test_a_prompted_run_in_a_plain_block_of_a_reply_is_a_command(tmp_path: Path, fence: str) -> None:
    path = tmp_path / "debug.log"
    path.write_text(LOG.format(fence=fence))
    a = analyze_path(path)
    assert [(c.seq, c.host, c.command) for c in a.commands] == [
        (2, "gpu-node-13", 'ssh ops@gpu-node-13 "tail -n 1 /var/log/sglang/server.log"')]
    assert sorted((m.seq, m.name, m.value, m.host) for m in a.metrics) == [
        (2, "accept_length", 3.2, "gpu-node-13"), (2, "throughput", 260.0, "gpu-node-13")]


def test_every_prompted_line_of_a_run_block_is_a_command_and_an_example_block_is_none(tmp_path: Path) -> None:
    path = tmp_path / "debug.log"
    path.write_text("[msg 1] user: is the drafter there?\n\n[msg 2] assistant: I checked:\n\n```\n"
                    "ops@gpu-node-12:~$ cd /models\nops@gpu-node-12:/models$ ls\nllama-3.1-8b\n```\n\n"
                    "[msg 3] assistant: you could also run\n\n```\n$ nvidia-smi\n```\n\n"
                    "[msg 4] assistant: and then\n\n```\n$ ls /models/eagle3\n")
    a = analyze_path(path)
    assert [(c.seq, c.host, c.command) for c in a.commands] == [
        (2, "gpu-node-12", "cd /models"), (2, "gpu-node-12", "ls")]
