"""A failed llama-server run's reason is past the lines llama.cpp logs on runs that go on.

Today's rule took llama.cpp's first line with a failure word; a CPU or ARM run logs "load_tensors:
tensor 'token_embd.weight' (q4_K) (and 0 others) cannot be used with preferred buffer type
CPU_REPACK, using CPU instead" (a fallback, src/llama-model.cpp) and, with --mlock in a
container, "warning: failed to mlock ...: Cannot allocate memory" (src/llama-mmap.cpp), and the
failure was reported by one of them.
"""

from spec_debug.session.failures import extract_errors

LOG = """llama_model_loader: loaded meta data with 26 key-value pairs and 290 tensors from /models/llama-3.1-8b-q4_k_m.gguf
warning: failed to mlock 4685930496-byte buffer (after previously locking 0 bytes): Cannot allocate memory
load_tensors: tensor 'token_embd.weight' (q4_K) (and 0 others) cannot be used with preferred buffer type CPU_REPACK, using CPU instead
common_speculative_are_compatible: draft model vocab type must match target model to use speculation but vocab_type_dft = 1 while vocab_type_tgt = 2
main: exiting due to model loading error
"""


def test_the_reason_past_a_warning_and_a_fallback():
    [error] = extract_errors(LOG, exit_code=1)
    assert error.message.startswith("common_speculative_are_compatible: draft model vocab type must match")
