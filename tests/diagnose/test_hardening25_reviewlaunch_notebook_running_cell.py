"""A notebook saved while its server cell still runs (review of 4c490f0).

4c490f0 reads only the cells that ran where some did. JupyterLab sets a cell's execution_count to
null as it starts and writes the number only from the execute_reply, when it finishes
(jupyterlab/jupyterlab packages/cells/src/widget.ts, CodeCell.execute), so a blocking
`!python -m sglang.launch_server ... > server.log 2>&1` saved mid-run has no count and no output,
as a cell never run. With only the `pip install` cell counted, the server was dropped: 'not an
SGLang or vLLM server command' (old tree: read). The cells that ran are read alone only where
they start a server; the day's cases (a launch that ran beside one never run) stay as they are.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.launch import parse_launch_command

SERVER = ("!python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
          "--speculative-num-steps {steps} --speculative-eagle-topk 1 --speculative-num-draft-tokens {tokens}"
          " > server.log 2>&1")
PIP = [{"output_type": "stream", "name": "stdout", "text": ["Successfully installed sglang-0.5.5\n"]}]
FIRED = [{"output_type": "stream", "name": "stdout", "text": ["The server is fired up and ready to roll!\n"]}]


def _notebook(*cells):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": count, "outputs": outputs, "source": source}
        for source, count, outputs in cells]})


def test_the_server_cell_still_running_is_read():
    running = _notebook(("!pip install 'sglang[all]'", 1, PIP), (SERVER.format(steps=5, tokens=6), None, []))
    cfg = parse_launch_command(running)
    assert (cfg.engine, cfg.num_steps, cfg.num_draft_tokens) == ("sglang", 5, 6)


def test_a_server_that_ran_still_wins_over_one_never_run():
    text = _notebook(("!pip install 'sglang[all]'", 1, PIP), (SERVER.format(steps=1, tokens=2), None, []),
                     (SERVER.format(steps=5, tokens=6), 2, FIRED))
    assert parse_launch_command(text).num_steps == 5
