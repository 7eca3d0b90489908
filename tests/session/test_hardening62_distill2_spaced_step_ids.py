"""distill: a step named after a path is named after the whole name, spaces and all.

`tail -n 20 '/data/logs/my run/sglang.log'` became the var sglang_log (the path is one var since
hardening43), but its step id was `logs_my`: the name the id took was the path's text up to its
first space, so every file under "my run" got `logs_my`, `logs_my_2`, ... (`run --step` and the
report name steps by id). The id now reads the path as the var does (_with_spaces).
"""

from __future__ import annotations

import pytest

from tests.session.test_hardening38_distill import HEALTH, _session


@pytest.mark.parametrize("command, step_id, run", [
    ("ssh root@gpu01 \"tail -n 20 '/data/logs/my run/sglang.log'\"", "logs_sglang_log",
     "tail -n 20 '{{ sglang_log }}'"),
    ("ssh root@gpu01 'tail -n 20 /data/logs/my\\ run/sglang.log'", "logs_sglang_log", "tail -n 20 {{ sglang_log }}"),
    ("ssh root@gpu01 'cat \"/data/My Models/eagle3/config.json\"'", "inspect_config_config_json",
     'cat "{{ config_json }}"'),
    ("ssh root@gpu01 'ls -la \"/data/My Models/eagle 3\"'", "inspect_config_eagle_3", 'ls -la "{{ eagle_3 }}"'),
    # no spaces: as before
    ("ssh root@gpu01 'tail -n 20 /data/logs/run/sglang.log'", "logs_sglang_log", "tail -n 20 {{ sglang_log }}"),
])
def test_the_step_id_names_the_whole_path(tmp_path, command, step_id, run):
    doc, _ = _session(tmp_path, HEALTH, (command, "Decode batch. accept len: 1.02", 0))
    assert [(s["id"], s["run"]) for s in doc["steps"][1:]] == [(step_id, run)], doc["steps"]
