"""A systemd unit written with blanks around its `=` (`ExecStart = ...`) is read as systemd reads it.

systemd strips the blanks around a key's `=` (systemd.syntax(7): "Whitespace immediately before or
after the "=" is ignored"; src/shared/conf-parser.c parse_line strstrip()s key and value), so

    [Service]
    Environment = SGLANG_ENABLE_SPEC_V2=1
    ExecStart = /opt/venv/bin/python3 -m sglang.launch_server ... --speculative-eagle-topk 2

starts the server with the variable. The audit read `ExecStart` and `=` as words and the
Environment line as no setting, so the spec v2 worker SGLang 0.5.7 refuses with topk 2 went unsaid,
and `${STEPS}` from `Environment = STEPS=3` stayed an unexpanded expression.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_UNIT = """[Unit]
Description=SGLang EAGLE-3 server

[Service]
Environment = SGLANG_ENABLE_SPEC_V2=1
Environment = STEPS=3
ExecStart = /opt/venv/bin/python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
    --speculative-algorithm EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B \\
    --speculative-num-steps ${STEPS} --speculative-eagle-topk 2 --speculative-num-draft-tokens 6
Restart=always

[Install]
WantedBy=multi-user.target
"""


def test_blanks_around_the_equals_sign() -> None:
    cfg = parse_launch_command(_UNIT)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert cfg.argv[cfg.argv.index("/opt/venv/bin/python3"):][:5] == (
        "/opt/venv/bin/python3", "-m", "sglang.launch_server", "--model-path", "meta-llama/Llama-3.1-8B-Instruct")
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (3, 2, 6)
    assert effective_spec(cfg, engine_version="0.5.7").problems == [
        "SGLANG_ENABLE_SPEC_V2=1 with topk 2: SGLang 0.5.7 refuses to start (\"Spec v2 currently only supports "
        "topk = 1 for speculative decoding.\"); use --speculative-eagle-topk 1 or unset the variable"]


def test_the_same_unit_without_blanks_reads_the_same() -> None:
    plain = parse_launch_command(_UNIT.replace(" = ", "="))
    spaced = parse_launch_command(_UNIT)
    assert (plain.argv, plain.env) == (spaced.argv, spaced.env)
