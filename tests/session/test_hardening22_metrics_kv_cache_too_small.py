"""vLLM's "KV cache is needed, which is larger than the available KV cache memory" is the KV
cache's share set too small (kind kv_cache_memory), as SGLang's "Not enough memory. Please try
to increase --mem-fraction-static" is.

vLLM V1 refuses to start when one request of max_model_len does not fit in what is left after
the weights (vllm/v1/core/kv_cache_utils.py, check_enough_kv_cache_memory); V0 said it as "The
model's max seq len (X) is larger than the maximum number of tokens that can be stored in KV
cache (Y)". Both were a plain ValueError: nothing said that the fix is a larger
--gpu-memory-utilization or a smaller --max-model-len (an EAGLE drafter takes its share first).
"""

import pytest

from spec_debug.session.failures import KV_CACHE_MEMORY, extract_errors

V1 = ("ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is "
      "needed, which is larger than the available KV cache memory (9.47 GiB). Based on the available memory, the "
      "estimated maximum model length is 77536. Try increasing `gpu_memory_utilization` or decreasing "
      "`max_model_len` when initializing the engine.")
V1_08 = ("ValueError: To serve at least one request with the models's max seq len (32768), (2.00 GB KV cache is "
         "needed, which is larger than the available KV Cache memory (0.78 GB). Try increasing "
         "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")
V0 = ("ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored "
      "in KV cache (43472). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
      "initializing the engine.")

P = "(EngineCore_DP0 pid=4242) ERROR 06-01 10:00:00 [core.py:708] "
ENGINE = P + "EngineCore failed to start.\n" + "".join(P + line + "\n" for line in [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 699, in run_engine_core',
    "    engine_core = EngineCoreProc(*args, **kwargs)",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/core/kv_cache_utils.py", line 700, in check_enough_kv_cache_memory',
    "    raise ValueError(",
    V1,
])


@pytest.mark.parametrize("line", [V1, V1_08, V0])
def test_the_message_alone_is_the_kv_caches_share(line):
    [err] = extract_errors(line + "\n", exit_code=1)
    assert (err.kind, err.exception) == (KV_CACHE_MEMORY, "ValueError")


def test_the_engines_traceback_is_the_kv_caches_share():
    api = ("(APIServer pid=4200) RuntimeError: Engine core initialization failed. See root cause above. "
           "Failed core proc(s): {}\n")
    errors = extract_errors(ENGINE + api, exit_code=1)
    assert (errors[0].kind, errors[0].exception) == (KV_CACHE_MEMORY, "ValueError")
    assert errors[0].file.endswith("kv_cache_utils.py")


def test_other_value_errors_stay_exceptions():
    [err] = extract_errors("ValueError: draft vocab size 32000 does not match 128256\n", exit_code=1)
    assert err.kind == "exception"
