"""distill/redact: a secret passed with an underscore flag (`--api_key VALUE`, `--hf_token VALUE`)
is a var, not a literal in the playbook.

argparse takes options spelt with underscores as written (`parser.add_argument("--api_key")`),
and ML scripts use them (transformers' TrainingArguments `--hub_token`). Only flags spelt with
hyphens were read as secrets (`--api-key`, `--hf-token`), and `--api_key=VALUE` only as an
assignment, so `python3 /opt/bench.py --api_key VALUE` was copied into the distilled step's run
and title verbatim, and shown unmasked in analyze's timeline. A tokenizer's special token
(`--pad_token "<pad>"`) stays, as it does in an assignment.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import redact_text
from spec_debug.session.distill import dump_playbook
from tests.session.test_hardening38_distill import HEALTH, _session

KEY = "Zq9xK2mP7vL4nR8tWc3b"


@pytest.mark.parametrize("flag", ["--api_key", "--hf_token", "--hub_token", "--openai_api_key", "--db_password",
                                  "--client_secret", "--auth_token"])
def test_an_underscore_secret_flag_is_masked(flag):
    assert redact_text(f"python3 bench.py {flag} {KEY} --num-prompts 64") == \
        f"python3 bench.py {flag} ***REDACTED*** --num-prompts 64"


@pytest.mark.parametrize("text", ["python3 train.py --pad_token '<pad>' --eos_token </s>",
                                  "python3 gen.py --max_new_tokens 512 --sort_key name"])
def test_flags_that_are_no_secrets_stay(text):
    assert redact_text(text) == text


def test_the_distilled_step_asks_for_the_key(tmp_path):
    """Before: the step ran `python3 {{ bench_py }} --api_key Zq9x...` and its title held the key."""
    doc, _ = _session(tmp_path, HEALTH, (f"ssh root@gpu01 'python3 /opt/bench.py --api_key {KEY} --port 30000'",
                                         "Output token throughput (tok/s): 41.3", 0))
    (step,) = [s for s in doc["steps"] if "bench" in s["run"]]
    assert step["run"] == "python3 {{ bench_py }} --api_key {{ api_key }} --port 30000", step
    assert step["requires"] == ["api_key"]
    assert KEY not in dump_playbook(doc)
