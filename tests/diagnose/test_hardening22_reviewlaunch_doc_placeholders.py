"""A docs placeholder (`<model>`, `--model-path=<your-model>`) is a word, not two redirections.

Today's word-ending rule for redirections (`--trust-remote-code>server.log`) split `<model>` into
`<model` and `>`, and the `>` took the next word as its file, as bash would if it ran the text;
but these commands are templates from docs, which nobody runs as written. vLLM's own
Configuration Reference for --speculative-config writes `vllm serve <model> --speculative-config
'{"method": "ngram", ...}'`: its JSON was read as the model and the speculative config was lost;
`--model-path=<your-model> --speculative-algorithm EAGLE3 ...` lost every flag after it (an audit
of a server with no speculation). Read as before today.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command, split_command

VLLM_DOCS = ("vllm serve <model> --speculative-config "
             "'{\"method\": \"ngram\", \"num_speculative_tokens\": 5, \"prompt_lookup_max\": 4}'")


def test_the_vllm_docs_command_keeps_its_speculative_config():
    cfg = parse_launch_command(VLLM_DOCS)
    assert cfg.speculative_config == {"method": "ngram", "num_speculative_tokens": 5, "prompt_lookup_max": 4}
    assert cfg.num_steps == 5


def test_a_placeholder_after_equals_keeps_the_flags_after_it():
    cfg = parse_launch_command(
        "python3 -m sglang.launch_server --model-path=<your-model> --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path=<draft> --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4")
    assert (cfg.target_model, cfg.draft_model) == ("<your-model>", "<draft>")
    assert (cfg.algorithm, cfg.num_steps, cfg.num_draft_tokens) == ("EAGLE3", 3, 4)


def test_real_redirections_still_end_the_word():
    argv = split_command("python3 -m sglang.launch_server --model-path m --trust-remote-code>server.log "
                         "<input.txt --port 30000")
    assert argv[3:] == ["--model-path", "m", "--trust-remote-code", "--port", "30000"]
