"""A secret typed as the default of a parameter expansion (`${HF_TOKEN:-hf_...}`) is masked
inside the braces, in the redactor, the postmortem and the distilled playbook.

`export HF_TOKEN="${HF_TOKEN:-hunter2-local}"` is how an agent makes a launch work whether or not
the remote shell has the token: the shell substitutes the default when the name is unset or empty
(POSIX XCU 2.6.2, `${parameter:-word}`, `${parameter:=word}` and the forms without the colon), so
the default is the secret, typed out. Before: spec_debug/redact.py's NAME=value rule read the
NAME inside the braces and masked from its `:` on (`${HF_TOKEN:***REDACTED***`, the `-` and the
closing brace gone, even for an empty default `${HF_TOKEN:-}`); a flag's value
(`--api-key ${KEY:-sekrit123}`) and a default without the colon (`${HF_TOKEN-hunter2}`) were
left in clear.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.redact import redact_text, secret_spans
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

M = "***REDACTED***"
GATED = ("Traceback (most recent call last):\n  File \"/opt/sglang/python/sglang/srt/hf_transformers_utils.py\", "
         "line 88, in get_config\nhuggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo "
         "for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.")


def test_the_default_is_masked_inside_the_braces():
    assert redact_text('export HF_TOKEN="${HF_TOKEN:-hunter2-local}"') == f'export HF_TOKEN="${{HF_TOKEN:-{M}}}"'
    assert redact_text("API_KEY=${API_KEY:=s3cretvalue} run") == f"API_KEY=${{API_KEY:={M}}} run"
    assert redact_text("HF_TOKEN=${HF_TOKEN:-hf_AbCdEfGhIjKlMnOpQrStUvWx} python x.py") == \
        f"HF_TOKEN=${{HF_TOKEN:-{M}}} python x.py"
    # a flag's value, whatever the name inside
    assert redact_text("vllm serve m --api-key ${KEY:-sekrit123} --port 8000") == \
        f"vllm serve m --api-key ${{KEY:-{M}}} --port 8000"
    # no colon: the default is used when unset
    assert redact_text("echo ${HF_TOKEN-hunter2}") == f"echo ${{HF_TOKEN-{M}}}"
    assert redact_text("echo ${DB_PASSWORD:-pa55word} | x") == f"echo ${{DB_PASSWORD:-{M}}} | x"


def test_a_reference_without_a_typed_default_is_left_as_typed():
    for typed in ("export HF_TOKEN=${HF_TOKEN}", "export HF_TOKEN=${HF_TOKEN:-}",
                  "export HF_TOKEN=${MY_TOK:-$OTHER}", 'echo "${OPENAI_API_KEY:?set it}"',
                  "x --pad_token ${PAD:-abc}", "echo ${MODEL_PATH:-/models/llama}"):
        assert redact_text(typed) == typed, typed
        assert secret_spans(typed) == [], typed


def test_distill_and_postmortem_hide_the_default(tmp_path: Path):
    secret = "hunter2-local-key"
    m = _Writer("5e5e0000-0000-4000-8000-000000006401", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The SGLang server on gpu01 dies at startup since the token rotation.")
    m.bash(f"ssh gpu01 'export HF_TOKEN=\"${{HF_TOKEN:-{secret}}}\" && python -m sglang.launch_server "
           f"--model-path meta-llama/Llama-3.1-8B-Instruct --api-key ${{KEY:-{secret}}} --port 30000'",
           GATED, exit_code=1, text="The target is gated: pass the team token.")
    m.bash("ssh gpu01 'cat /models/llama31-eagle3/config.json'", '{"architectures": ["LlamaForCausalLMEagle3"]}',
           text="The token is refused. Does the draft name the gated target at all?")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    md = render_postmortem(analysis, "md")
    html = render_postmortem(analysis, "html")
    text = dump_playbook(distill_playbook(analysis))
    for out in (md, html, text):
        assert secret not in out
    assert f"${{HF_TOKEN:-{M}}}" in md.replace("\\*", "*"), md
    assert f"--api-key ${{KEY:-{M}}}" in md.replace("\\*", "*"), md


def test_a_quoted_default_or_one_that_goes_on_with_a_reference_is_masked():
    """`${HF_TOKEN:-"hunter2"}` kept its quotes and the secret inside them in clear (the default
    ended at the quote), and `${HF_TOKEN:-hunter2-$USER}` at the `$`."""
    assert redact_text('HF_TOKEN=${HF_TOKEN:-"hunter2"} x') == f'HF_TOKEN=${{HF_TOKEN:-"{M}"}} x'
    assert redact_text("echo ${API_KEY:-'hunter2'}") == f"echo ${{API_KEY:-'{M}'}}"
    assert redact_text("HF_TOKEN=${HF_TOKEN:-hunter2-$USER} x") == f"HF_TOKEN=${{HF_TOKEN:-{M}}} x"
    for typed in ('HF_TOKEN=${HF_TOKEN:-"$OTHER"} x', "HF_TOKEN=${HF_TOKEN:-$OTHER} x"):
        assert redact_text(typed) == typed


def test_the_distilled_step_keeps_the_expansion_and_takes_the_default_as_a_var(tmp_path: Path):
    """The step read `HF_TOKEN=${HF_TOKEN:{{ hf_token }} hf auth whoami` (the `-` and the closing
    brace gone: a bad substitution in bash); now the default alone is the var."""
    m = _Writer("5e5e0000-0000-4000-8000-000000006404", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The SGLang server on gpu01 dies at startup since the token rotation.")
    m.bash("ssh gpu01 'HF_TOKEN=${HF_TOKEN:-hunter2local} hf auth whoami'",
           "Traceback (most recent call last):\nhuggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized "
           "for url: https://huggingface.co/api/whoami-v2 (Request ID: Root=1-6930) Invalid user token.", exit_code=1,
           text="The target is gated: log the host in with the team token.")
    m.bash("ssh gpu01 'cat /models/llama31-eagle3/config.json'", '{"architectures": ["LlamaForCausalLMEagle3"]}',
           text="The token is refused. Does the draft name the gated target at all?")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    runs = [s["run"] for s in doc["steps"] if "run" in s]
    assert runs[0] == "HF_TOKEN=${HF_TOKEN:-{{ hf_token }}} hf auth whoami", runs
    assert "hunter2local" not in dump_playbook(doc)
