"""A distilled step's title names the var a secret became, as its `run:` does.

distill turns each secret a session typed into a var (`run: HF_TOKEN={{ hf_token }} ...`), but
the step's title was the command redacted: `title: 'Running commands: HF_TOKEN=***REDACTED***
huggingface-cli whoami'`, `mongosh -u admin -p ***REDACTED*** ...`. The reader of the playbook saw
the mask where the step asks for a var. The title now names that var, as a label (`<hf_token>`):
a title is rendered by the run where it holds `{{`, and `{{ hf_token }}` there became
"HF_TOKEN= ***REDACTED*** | grep ..." in run.json where the step was skipped for want of it."""

from __future__ import annotations

import json

from spec_debug.redact import MASK
from spec_debug.session.distill import _title, _VarNames
from spec_debug.session.records import CommandRecord
from tests.session.test_hardening38_distill import _run_local, _session

TOKEN = "hf_Zq9xK2mP7vL4Wd3nT8rQ1yHsKp4vB7nM"
PASSWORD = "Zq9xK2mP7vL4"
FAILED = ("ssh root@gpu01 'curl -sf http://localhost:30000/health'",
          "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", 7)


def test_the_title_names_the_var_the_step_asks_for(tmp_path) -> None:
    doc, playbook = _session(
        tmp_path, FAILED,
        (f"ssh root@gpu01 'HF_TOKEN={TOKEN} env | grep -c ^HF_TOKEN='", "1", 0),
        (f"ssh root@gpu01 \"mongosh --host db01 -u admin -p {PASSWORD} --eval 'db.stats()'\"",
         "MongoServerError: Authentication failed.", 1),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
    )
    titles = {s["run"]: s["title"] for s in doc["steps"]}
    assert titles["HF_TOKEN={{ hf_token }} env | grep -c ^HF_TOKEN="] == \
        "Inspecting configs and checkpoints: HF_TOKEN=<hf_token> env | grep -c ^HF_TOKEN="
    assert titles["mongosh --host db01 -u admin -p {{ mongo_password }} --eval 'db.stats()'"] == \
        "Running commands: mongosh --host db01 -u admin -p <mongo_password> --eval 'db.stats()'"
    text = playbook.read_text(encoding="utf-8")
    assert MASK not in text and TOKEN not in text and PASSWORD not in text
    # A run shows the titles as written, the value passed nowhere; the mongosh step, whose
    # password is not passed, is skipped (runs nothing) under its whole title.
    steps = _run_local(tmp_path, playbook, "hf_token=hf_RunValue9xK2mP7vL4Wd3nT8rQ1")
    (ran,) = [s for s in steps.values() if "env" in s["title"]]
    assert (ran["status"], ran["stdout"]) == ("passed", "1\n"), ran
    assert ran["title"] == "Inspecting configs and checkpoints: HF_TOKEN=<hf_token> env | grep -c ^HF_TOKEN="
    (skipped,) = [s for s in steps.values() if "mongosh" in s["title"]]
    assert (skipped["status"], skipped["title"]) == (
        "skipped", "Running commands: mongosh --host db01 -u admin -p <mongo_password> --eval 'db.stats()'")
    assert "hf_RunValue9xK2mP7vL4Wd3nT8rQ1" not in json.dumps(steps)


def test_a_title_cut_inside_the_var_names_no_part_of_it() -> None:
    """A title is cut at 80 characters; a var cut there is left out whole (not `<hf_to…`)."""
    names = _VarNames()
    command = f"curl -s http://localhost:30000/v1/models,/health,/get_server_info?xx&token={TOKEN}"
    names.secret_name("token", TOKEN)
    cmd = CommandRecord(session="s", seq=1, agent="main", host="gpu01", command=command, category="health")
    assert _title(cmd, names) == "Probing the server: curl -s http://localhost:30000/v1/models,/health,/get_server_info?xx&token…"
    short = CommandRecord(session="s", seq=1, agent="main", host="gpu01", category="health",
                          command=f"curl -s 'http://localhost:30000/metrics?token={TOKEN}'")
    assert _title(short, names) == "Probing the server: curl -s 'http://localhost:30000/metrics?token=<hf_token>'"
    # a secret no var holds (none of the step's) stays masked
    unknown = CommandRecord(session="s", seq=1, agent="main", host="gpu01",
                            command="HF_TOKEN=hf_Other9xK2mP7vL4Wd3nT8rQ1 hf whoami")
    assert _title(unknown, names) == f"Running commands: HF_TOKEN={MASK} hf whoami"
