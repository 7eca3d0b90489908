"""baselines keeps each reading's value as written (``f"{value:g}"``) for the next look-up of
the same value, and cuts a reading's sentence at the nearer of ". " and "; " without a list.
The same value read twice, and 0.0 beside -0.0 (one dict key, written "0" and "-0"), must
still be found where they are written."""

from spec_debug.session import baselines


def test_zero_and_negative_zero_are_written_apart():
    for _ in range(2):  # (the second time through the kept numbers)
        assert baselines._value_at("base 0 tok/s", 0.0) == 5
        assert baselines._value_at("base 0 tok/s", -0.0) == -1
        assert baselines._value_at("delta -0 tok/s, base 0 tok/s", -0.0) == 6
        assert baselines._value_at("delta -0 tok/s, base 0 tok/s", 0.0) == 7  # (the 0 of "-0")


def test_same_value_found_again_in_another_text():
    assert baselines._value_at("gpu-a: 160 tok/s; gpu-b: 60 tok/s", 60.0) == 25
    assert baselines._value_at("60 tok/s at bs=1", 60.0) == 0
    assert baselines._value_at("447.90 tok/s", 447.9) == 0
    assert baselines._value_at("1447.9 tok/s", 447.9) == -1


def test_sentence_cut_at_the_nearer_stop():
    context = "Normal decoding (SGLang): 156 token/s; then vLLM. Let's see what vLLM does"
    assert baselines._sentence(context, 156.0) == "Normal decoding (SGLang): 156 token/s"
    context = "Normal decoding (SGLang): 156 token/s. Then vLLM; let's see"
    assert baselines._sentence(context, 156.0) == "Normal decoding (SGLang): 156 token/s"
    assert baselines._sentence("At bs=1 EAGLE-3 gives 40 tok/s vs. 60 tok/s without it", 60.0) \
        == "At bs=1 EAGLE-3 gives 40 tok/s vs. 60 tok/s without it"


def test_named_host_of_the_sentence_only():
    hosts = {"gpu01": "gpu01", "gpu03": "gpu03"}
    assert baselines.named_host("Checking gpu01 again; throughput was 45.7 tok/s. the draft", 45.7, hosts) is None
    assert baselines.named_host("On gpu03, it does 620 tok/s. The server runs on gpu01", 620.0, hosts) == "gpu03"
