"""A second secret of one kind is a var with a number (`mongo_password_2`), and run.json masks it.

distill names the secrets a session typed after what they are; two different ones of one kind get
`mongo_password` and `mongo_password_2` (`api_key_2`, `cookie_secret_2`). The secret-name rule
read a name only when it ENDED in the secret word, so `--var mongo_password_2=PASS` was saved in
clear in run.json (its vars and its argv) while `--var mongo_password=PASS` beside it was masked.
A name ending in a number after the word (DB_PASSWORD2, hf_token_3) is now a secret's name too.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_value
from tests.session.test_hardening38_distill import _run_local, _session


@pytest.mark.parametrize("name", ["mongo_password_2", "api_key_2", "cookie_secret_2", "hf_token_3",
                                  "DB_PASSWORD2", "ssh_key_passphrase_2", "aws_access_key_2", "db_pass_10"])
def test_a_numbered_secret_name_is_a_secret_name(name: str) -> None:
    assert is_secret_name(name)
    assert redact_value({name: "Wd3nT8rQ1yHs"}) == {name: MASK}


@pytest.mark.parametrize("name", ["max_tokens_2", "num_tokens", "bypass_2", "compass2", "token_count_2",
                                  "secretary_2", "token_1234", "step_2"])
def test_other_numbered_names_stay(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: "Wd3nT8rQ1yHs"}) == {name: "Wd3nT8rQ1yHs"}


def test_run_json_masks_the_second_password_of_a_distilled_playbook(tmp_path) -> None:
    doc, playbook = _session(
        tmp_path,
        ("mongosh --host db01 -u admin -p Zq9xK2mP7vL4 --eval 'db.stats()' && "
         "mongosh --host db02 -u admin -p Wd3nT8rQ1yHs --eval 'db.stats()'", "MongoServerError: Authentication failed.", 1),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
    )
    assert doc["vars"]["mongo_password"] == doc["vars"]["mongo_password_2"] == ""
    (step,) = [s for s in doc["steps"] if "mongosh" in s["run"]]
    assert step["requires"] == ["mongo_password", "mongo_password_2"]
    _run_local(tmp_path, playbook, "mongo_password=FirstPw1234", "mongo_password_2=SecondPw5678")
    (run_json,) = (tmp_path / "runs").glob("*/run.json")
    record = json.loads(run_json.read_text(encoding="utf-8"))
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in (tmp_path / "runs").rglob("*") if p.is_file())
    assert "FirstPw1234" not in written and "SecondPw5678" not in written
    assert MASK in json.dumps(record)
