"""A dstack configuration is parsed once, and a notebook's cells asked once whether they ran.

The audit asks two things of a dstack file (its commands, and which env: names have no value),
and parsed the YAML for each question, the commands' reader twice: three parses of one text.
A notebook's cells were each asked `_cell_ran` twice, once for the cells run and once for the rest.
"""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from spec_debug.diagnose import launch_pastes
from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

DSTACK = """type: service
name: llama31-eagle3-once
env:
  - MODEL=meta-llama/Llama-3.1-8B-Instruct
  - STEPS
commands:
  - python3 -m sglang.launch_server --model-path $MODEL --speculative-algorithm EAGLE3
      --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
      --speculative-num-steps $STEPS --speculative-eagle-topk 1 --speculative-num-draft-tokens 4
port: 8000
"""


def _counting(monkeypatch, module, name, counted):
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        caller = sys._getframe(1).f_code.co_name
        counted.append(caller)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapper)


def test_a_dstack_configuration_is_parsed_once(monkeypatch):
    if hasattr(launch_pastes, "_dstack_doc"):
        launch_pastes._dstack_doc.cache_clear()
    calls: list[str] = []
    _counting(monkeypatch, yaml, "safe_load", calls)
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(DSTACK)
    assert "env: lists STEPS with no value" in caught.value.message  # the answer is the same
    assert len([c for c in calls if "dstack" in c]) == 1


def test_each_notebook_cell_is_asked_once_whether_it_ran(monkeypatch):
    cells = [{"cell_type": "code", "execution_count": None, "outputs": [],
              "source": "# !python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE\n"},
             {"cell_type": "code", "execution_count": 1, "outputs": [],
              "source": ["!python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 ",
                         "--speculative-draft-model-path d --speculative-num-steps 3\n"]}]
    calls: list[str] = []
    _counting(monkeypatch, launch_pastes, "_cell_ran", calls)
    code = launch_pastes.notebook_code(json.dumps({"nbformat": 4, "cells": cells}))
    assert code.startswith("!python -m sglang.launch_server") and len(calls) == len(cells)
