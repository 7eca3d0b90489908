"""A notebook cell's `!vllm serve ...` pasted as the launch (session 15).

Colab / Jupyter notebooks start the server with IPython's shell escape: a line that starts with
`!` runs as a shell command (IPython docs, "System shell access"). The `!` stayed glued to the
program's name (`!vllm`), and the cell was 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command

CELL = """!pip install -q "sglang[all]"
!nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
    --speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \\
    --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 > server.log 2>&1 &
!sleep 60 && tail -n 5 server.log
"""


def test_a_cells_bang_lines_are_shell_commands():
    cfg = parse_launch_command(CELL)
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("sglang", "meta-llama/Llama-3.1-8B-Instruct", 1)


@pytest.mark.parametrize("line", ["!vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096 &",
                                  "  !vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096"])
def test_one_bang_line(line):
    assert parse_launch_command(line).target_model == "meta-llama/Llama-3.1-8B-Instruct"


def _notebook(*sources, markdown: str = "# Speculative decoding\n") -> str:
    import json
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [markdown]}] + [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
        for source in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}, indent=1)


def test_a_notebook_file_is_its_code_cells():
    # (the SGLang docs' notebook way: launch_server_cmd(\"\"\"python3 -m sglang.launch_server ...\"\"\"),
    # sgl-project/sglang docs/advanced_features/speculative_decoding.ipynb; `source` a list of lines)
    text = _notebook([
        "from sglang.test.doc_patch import launch_server_cmd\n",
        "server_process, port = launch_server_cmd(\n",
        "    \"\"\"\n",
        "python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf --speculative-algorithm EAGLE \\\n",
        "    --speculative-draft-model-path lmsys/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 1 \\\n",
        "    --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --mem-fraction 0.6\n",
        "\"\"\"\n",
        ")\n"])
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.num_steps) == ("sglang", "meta-llama/Llama-2-7b-chat-hf", 1)


def test_a_notebook_cell_source_as_one_string():
    text = _notebook("!vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096 &")
    assert parse_launch_command(text).target_model == "meta-llama/Llama-3.1-8B-Instruct"
