"""A secret typed as the default of a shell parameter expansion (`${HF_TOKEN:-hf_...}`) is the
secret itself (POSIX XCU 2.6.2: the word is used when the var is unset): it was left in clear
when the var or the flag was not itself named like a secret, and otherwise the mask ate the
operator and the closing brace, leaving broken shell (`${HF_TOKEN:***REDACTED***`)."""

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

HF = "hf_" + "abcdefghijklmnopqrstuvwxyz123456"


@pytest.mark.parametrize("text, expected", [
    (f"HF_TOKEN=${{HF_TOKEN:-{HF}}} python x.py", "HF_TOKEN=${HF_TOKEN:-%s} python x.py" % MASK),
    (f'export HF_TOKEN="${{HF_TOKEN:-{HF}}}"', 'export HF_TOKEN="${HF_TOKEN:-%s}"' % MASK),
    ("API_KEY=${API_KEY-sekrit-value-123} ./run.sh", "API_KEY=${API_KEY-%s} ./run.sh" % MASK),
    ("HF_TOKEN=${HUB:-sekritvalue123} python x.py", "HF_TOKEN=${HUB:-%s} python x.py" % MASK),
    ('export PASSWORD="${DB_PASS:-hunter2hunter}"', 'export PASSWORD="${DB_PASS:-%s}"' % MASK),
    ("vllm serve m --api-key ${KEY:-sekrit-value-123}", "vllm serve m --api-key ${KEY:-%s}" % MASK),
    ("echo ${OPENAI_API_KEY:=sk-abcdefghij}", "echo ${OPENAI_API_KEY:=%s}" % MASK),
])
def test_literal_default_is_masked_and_the_expansion_kept(text, expected):
    assert redact_text(text) == expected
    assert "sekrit" not in redact_text(text) and "hunter2" not in redact_text(text)


@pytest.mark.parametrize("text", [
    "HF_TOKEN=${HF_TOKEN:-$(cat ~/.cache/huggingface/token)} python x.py",
    "HF_TOKEN=${HF_TOKEN:?set HF_TOKEN first} python x.py",
    'HF_TOKEN="${HF_TOKEN:-}" python x.py',
    "HF_TOKEN=${HF_TOKEN} python x.py",
    "python train.py ${PAD_TOKEN:-<pad>}",
])
def test_references_and_messages_stay(text):
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_span_is_the_default_word_only():
    text = f"HF_TOKEN=${{HF_TOKEN:-{HF}}} x"
    start = text.index(HF)
    assert secret_spans(text) == [(start, start + len(HF))]


def test_distilled_step_asks_for_the_default_and_keeps_the_expansion(tmp_path):
    from datetime import datetime, timezone

    from spec_debug.session import analyze_path
    from spec_debug.session.distill import distill_playbook
    from tests.session.incident_story import _Writer

    m = _Writer("5e5e0000-0000-4000-8000-000000006499", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The SGLang server on gpu01 dies at startup since the token rotation.")
    m.bash(f"ssh gpu01 'HF_TOKEN=${{HF_TOKEN:-{HF}}} python3 -c \"import sglang; print(sglang.__version__)\"'",
           "Traceback (most recent call last):\n  File \"/opt/sglang/python/sglang/srt/hf_transformers_utils.py\", "
           "line 88, in get_config\nhuggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated "
           "repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.",
           exit_code=1, text="Which sglang is it?")
    m.bash("ssh gpu01 'cat /models/llama31-eagle3/config.json'", '{"architectures": ["LlamaForCausalLMEagle3"]}',
           text="The token is refused. Does the draft name the gated target at all?")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    playbook = distill_playbook(analyze_path(path))
    runs = [s["run"] for s in playbook["steps"] if "run" in s]
    assert runs[0] == 'HF_TOKEN=${HF_TOKEN:-{{ hf_token }}} python3 -c "import sglang; print(sglang.__version__)"'
    assert playbook["vars"]["hf_token"] == ""
    assert HF not in str(playbook)
