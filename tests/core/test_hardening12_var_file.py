"""--var-file goes through the playbook's YAML rules (spec_debug/playbook/var_file.py).

Read with yaml.safe_load, a ten-line alias bomb ("billion laughs") loaded at once and then
pinned a core for over a minute while the run rendered it; `vllm_version: 0.10` became 0.1 and
`date: 2024-05-01` a datetime. Var files are often Ansible group_vars reused as they are.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.var_file import load_var_file


def _alias_bomb() -> str:
    # The classic shape (https://en.wikipedia.org/wiki/Billion_laughs_attack), in YAML aliases.
    lines = ["x:", '  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    previous = "a"
    for name in "bcdefghi":
        lines.append(f"  {name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
        previous = name
    lines.append("model_path: *i")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_at_once(tmp_path: Path):
    path = tmp_path / "vars.yaml"
    path.write_text(_alias_bomb())
    started = time.thread_time()  # this thread's CPU: a loaded machine stalls the wall clock
    with pytest.raises(PlaybookError, match="expands to more than .* through YAML aliases") as error:
        load_var_file(path)
    assert time.thread_time() - started < 10
    assert str(error.value).startswith(f"{path}:") and "var file" in str(error.value)


def test_a_version_yaml_would_reshape_names_both_ways_to_write_it(tmp_path: Path):
    path = tmp_path / "group_vars.yaml"
    path.write_text("model_path: /models/llama\nvllm_version: 0.10\n")
    with pytest.raises(PlaybookError) as error:
        load_var_file(path)
    message = str(error.value)
    assert f"{path}:2:15:" in message and "number 0.1" in message and "vllm_version" in message
    assert 'quote it ("0.10")' in message


def test_a_date_and_a_yes_get_a_quote_it_hint(tmp_path: Path):
    path = tmp_path / "vars.yaml"
    path.write_text("release: 2024-05-01\n")
    with pytest.raises(PlaybookError, match="timestamp"):
        load_var_file(path)
    path.write_text("enable_cuda_graph: yes\n")
    with pytest.raises(PlaybookError, match="YAML 1.1 boolean"):
        load_var_file(path)


def test_plain_var_files_load_as_before(tmp_path: Path):
    path = tmp_path / "vars.yaml"
    path.write_text("\ufeff# group_vars/gpus.yml\n---\nmodel_path: /models/llama\nport: 30000\nvllm_version: '0.10'\n"
                    "draft_layers: [2, 16, 29]\nengine: {name: sglang, tp: 8}\nbaseline_tok_s: 512.5\nnotes: null\n")
    assert load_var_file(path) == {"model_path": "/models/llama", "port": 30000, "vllm_version": "0.10",
                                   "draft_layers": [2, 16, 29], "engine": {"name": "sglang", "tp": 8},
                                   "baseline_tok_s": 512.5, "notes": None}
    path.write_text("# all vars moved to the inventory\n---\n")
    assert load_var_file(path) == {}


def test_a_list_a_missing_file_and_an_endless_stream_are_one_line_each(tmp_path: Path):
    path = tmp_path / "vars.yaml"
    path.write_text("- model_path=/models/llama\n")
    with pytest.raises(PlaybookError, match="must be a mapping"):
        load_var_file(path)
    with pytest.raises(UsageError, match="No such file"):
        load_var_file(tmp_path / "missing.yaml")
    with pytest.raises(UsageError, match="not a var file"):
        load_var_file(Path("/dev/zero"))
