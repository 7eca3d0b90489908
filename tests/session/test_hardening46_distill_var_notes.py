"""A distilled playbook is handed to someone who was not in the session: `spec-debug explain` on
it showed every var ("config_jsn", "host_gpu01", "wandb_api_key") with an empty "what it is", so
they could not tell a path to change from a host or a secret to pass. distill now writes the
comment beside each var that explain shows. Sessions written the way Claude Code writes them
(incident_story._Writer)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.session.failed_then_pivot import failed_then_pivot


def _notes(tmp_path: Path, failing: str) -> dict[str, str]:
    playbook = tmp_path / "distilled.yaml"
    assert run_cli("distill", str(failed_then_pivot(tmp_path, failing, "9a1b0000-0000-4000-8000-00000000e046")), "-o", str(playbook)).code == 0
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    walkthrough = run_cli("explain", str(playbook), "--json")
    return json.loads(walkthrough.stdout)["var_notes"]


def test_each_var_of_a_distilled_playbook_says_what_it_is(tmp_path):
    notes = _notes(tmp_path, "export OPENAI_API_KEY=sk-proj-abcdef0123456789abcdef; "
                             "curl -s -H \"Authorization: Bearer $OPENAI_API_KEY\" http://gpu01:30000/v1/models")
    assert notes == {
        "api_key": "a secret the session used; its value is not kept: --var api_key=... runs the steps that need it",
        "host_gpu01": "a host the session's command named (step health_v1_models); --var host_gpu01=... for another",
        "e3": "a path the session used (step inspect_config_e3); --var e3=... where it lies elsewhere",
    }


def test_the_folder_a_command_ran_in_is_said_to_be_one(tmp_path):
    notes = _notes(tmp_path, "ssh root@gpu01 'cd /opt/app && source venv/bin/activate && "
                             "python -c \"import sglang;print(sglang.__version__)\"'")
    assert notes["app"] == "the folder the session's command ran in (step python_app)"


def test_a_launch_audit_var_says_empty_audits_the_running_server(tmp_path):
    notes = _notes(tmp_path, "python -m sglang.launch_server --model-path /models/llama "
                             "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 "
                             "--speculative-num-steps 1 --speculative-eagle-topk 1")
    assert notes["server_cmdline"] == "empty: audit the server running on the host; or the launch command line to audit"
