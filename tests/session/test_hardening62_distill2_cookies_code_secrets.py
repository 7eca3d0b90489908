"""Cookies and secrets set in Python code are masked, and distill makes them vars.

`curl -H "Cookie: session=..."` and `curl -b sessionid=...` (a session cookie logs in as its owner:
RFC 6265 section 8.2) and `os.environ["HF_TOKEN"] = "..."` in an agent's `python3 -c` (a token with
no known prefix such as hf_) were shown as typed by analyze and copied into the distilled step's
run and title. NAME=value read none of them: a cookie's name is anything, and in code a quote and
a bracket stand between the name and the "=". Values that merely sit there stay (a cookie file,
a `$COOKIE` the shell fills in, a read of the variable, a tokenizer's special token).
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text
from tests.session.test_hardening38_distill import REFUSED, _run_local, _session


@pytest.mark.parametrize("text, masked", [
    ('curl -H "Cookie: session=9f8e7d6c5b4a3928" http://gpu01:30000/v1/models',
     f'curl -H "Cookie: {MASK}" http://gpu01:30000/v1/models'),
    ("curl -sf -b sessionid=9f8e7d6c5b4a3928 http://x", f"curl -sf -b {MASK} http://x"),
    ("curl --cookie 'sessionid=9f8e; csrftoken=77aa' http://x", f"curl --cookie '{MASK}' http://x"),
    ("HTTP/1.1 200 OK\r\nSet-Cookie: session=9f8e7d6c5b4a3928; Path=/; HttpOnly\r\n",
     f"HTTP/1.1 200 OK\r\nSet-Cookie: {MASK}; Path=/; HttpOnly\r\n"),
    ('python3 -c \'import os; os.environ["HF_TOKEN"]="abcd1234efgh5678"; print(1)\'',
     f'python3 -c \'import os; os.environ["HF_TOKEN"]="{MASK}"; print(1)\''),
    ("os.environ['OPENAI_API_KEY'] = 'abcd1234efgh5678'", f"os.environ['OPENAI_API_KEY'] = '{MASK}'"),
    ('os.environ.setdefault("HF_TOKEN", "abcd1234efgh5678")', f'os.environ.setdefault("HF_TOKEN", "{MASK}")'),
    ('env["WANDB_API_KEY"]="abcd1234efgh5678"', f'env["WANDB_API_KEY"]="{MASK}"'),
])
def test_the_secret_is_masked(text, masked):
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "curl -b cookies.txt http://x",
    "curl --cookie-jar jar.txt http://x",
    'curl -H "Cookie: $COOKIE" http://x',
    'python3 -c \'import os; print(os.environ["HF_TOKEN"])\'',
    'os.environ["CUDA_VISIBLE_DEVICES"]="0,1"',
    'os.environ["TOKENIZERS_PARALLELISM"]="false"',
    'gen_kwargs["max_new_tokens"] = "512"',
    'special["eos_token"] = "</s>"',
    'if os.environ["HF_TOKEN"] == "x": pass',
])
def test_what_is_no_secret_stays(text):
    assert redact_text(text) == text


def test_the_distilled_steps_ask_for_them(tmp_path):
    doc, playbook = _session(
        tmp_path,
        ("ssh root@gpu01 'curl -sf -H \"Cookie: session=9f8e7d6c5b4a3928\" http://localhost:30000/health'", REFUSED, 7),
        ("ssh root@gpu01 'tail -n 5 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0),
        ("curl -sf -b sessionid=9f8e7d6c5b4a3928 http://gpu01:30000/v1/models",
         "curl: (22) The requested URL returned error: 403", 22),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
    )
    cookie = [(s["run"], s.get("requires")) for s in doc["steps"] if "cookie" in str(s.get("requires"))]
    assert cookie == [('curl -sf -H "Cookie: {{ cookie_secret | raw }}" http://localhost:30000/health', ["cookie_secret"]),
                      ("curl -sf -b {{ cookie_secret_2 }} http://{{ host_gpu01 }}:30000/v1/models", ["cookie_secret_2"])]
    assert "9f8e7d6c5b4a3928" not in playbook.read_text(encoding="utf-8")
    ran = _run_local(tmp_path, playbook)
    assert ran[doc["steps"][0]["id"]]["status"] == "skipped", ran


def test_a_token_set_in_python_becomes_a_var(tmp_path):
    doc, playbook = _session(
        tmp_path,
        ("python3 -c 'import os; os.environ[\"HF_TOKEN\"]=\"abcd1234efgh5678\"; from transformers import AutoConfig; "
         "AutoConfig.from_pretrained(\"meta-llama/Llama-3.1-8B-Instruct\")'",
         "OSError: You are trying to access a gated repo.", 1),
        ("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0),
    )
    step = doc["steps"][0]
    assert step["run"].startswith('python3 -c \'import os; os.environ["HF_TOKEN"]="{{ hf_token }}"; '), step
    assert (step["requires"], doc["vars"]["hf_token"]) == (["hf_token"], "")
    assert "abcd1234efgh5678" not in playbook.read_text(encoding="utf-8")
