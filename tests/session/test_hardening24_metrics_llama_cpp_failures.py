"""llama-server refusing a draft model: the line that says why is the error, not the first line.

llama.cpp logs its errors behind the function's name with no "error:" word (common/speculative.cpp,
common_speculative_are_compatible; tools/server load_model), so a failed run was reported by its
first line, "srv    load_model: loading draft model '...'", which only says how it began.
"""

from spec_debug.session.failures import extract_errors

LOG = """srv    load_model: loading draft model '/models/qwen2.5-0.5b-q8_0.gguf'
llama_model_loader: loaded meta data with 26 key-value pairs and 290 tensors from /models/qwen2.5-0.5b-q8_0.gguf (version GGUF V3 (latest))
common_speculative_are_compatible: draft model vocab type must match target model to use speculation but vocab_type_dft = 1 while vocab_type_tgt = 2
srv    load_model: the draft model '/models/qwen2.5-0.5b-q8_0.gguf' is not compatible with the target model '/models/llama-3.1-8b-q4_k_m.gguf'
main: exiting due to model loading error
"""


def test_the_reason_is_the_error():
    [error] = extract_errors(LOG, exit_code=1)
    assert error.kind == "exit_code"
    assert error.message.startswith("common_speculative_are_compatible: draft model vocab type must match target model")


def test_the_servers_own_line_when_alone():
    text = "\n".join(line for line in LOG.splitlines() if not line.startswith("common_")) + "\n"
    [error] = extract_errors(text, exit_code=1)
    assert error.message.startswith("srv    load_model: the draft model '/models/qwen2.5-0.5b-q8_0.gguf' is not compatible")


def test_a_clean_exit_is_no_error():
    assert extract_errors(LOG.replace("main: exiting due to model loading error\n", ""), exit_code=0) == []
