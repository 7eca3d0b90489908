"""Speculative-decoding facts in the spellings real sessions use: launches through the Python
APIs and argv lists (SD101, SD103), repeated flags, and hidden-state concatenations written
with subscripts, tuples or ``concatenate`` (SD201's input)."""

from __future__ import annotations

from spec_debug.session.spec_facts import concat_orders, launch_observations

# The offline engine of SGLang's docs (docs/advanced_features/speculative_decoding.ipynb uses
# sgl.Engine with these keywords), run by an agent as a heredoc.
SGL_ENGINE = '''python3 - <<'EOF'
import sglang as sgl
llm = sgl.Engine(
    model_path="meta-llama/Llama-3.1-8B-Instruct",
    speculative_algorithm="EAGLE3",
    speculative_draft_model_path="jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
    speculative_num_steps=1,
    speculative_eagle_topk=1,
    speculative_num_draft_tokens=2,
)
print(llm.generate("The capital of France is", {"max_new_tokens": 32}))
EOF'''

# vLLM's offline example (examples/offline_inference/spec_decode.py) builds the dict, then LLM(...).
VLLM_LLM = '''cat > /root/spec.py <<'EOF'
from vllm import LLM, SamplingParams
speculative_config = {
    "method": "eagle3",
    "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
    "num_speculative_tokens": 1,
}
llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config=speculative_config)
EOF
python /root/spec.py'''


def test_an_sglang_offline_engine_with_one_step_is_sd101():
    # before: nothing (only launch_server / serve lines were read)
    [obs] = launch_observations(SGL_ENGINE)
    assert obs.code == "SD101" and "speculative_num_steps=1" in obs.evidence


def test_a_vllm_offline_llm_with_one_speculative_token_is_sd101():
    [obs] = launch_observations(VLLM_LLM)
    assert obs.code == "SD101" and '"num_speculative_tokens": 1' in obs.evidence
    assert launch_observations(VLLM_LLM.replace('"num_speculative_tokens": 1', '"num_speculative_tokens": 3')) == []


def test_the_sglang_server_args_line_logged_at_start():
    # SGLang logs its effective arguments as one "server_args=ServerArgs(...)" line at start
    log = ("[2025-07-01 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
           "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3', "
           "speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', "
           "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2)\n"
           "[2025-07-01 10:00:05] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16\n")
    assert [o.code for o in launch_observations(log)] == ["SD101"]


def test_an_argv_list_in_a_launch_script():
    # subprocess.Popen([...]) in an agent's launch script; before: nothing
    script = ('proc = subprocess.Popen(["python3", "-m", "sglang.launch_server", "--model-path", '
              '"meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3", '
              '"--speculative-num-steps", "1", "--speculative-eagle-topk", "1"])')
    [obs] = launch_observations(script)
    assert obs.code == "SD101" and '"--speculative-num-steps", "1"' in obs.evidence


def test_a_repeated_flag_is_read_as_argparse_reads_it():
    # argparse keeps the last value: this server drafts 3 steps. Before: SD101.
    cmd = ("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
           "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-steps 3")
    assert launch_observations(cmd) == []
    assert [o.code for o in launch_observations(cmd.replace("steps 3", "steps 1"))] == ["SD101"]


def test_the_eagle_algorithm_for_an_eagle3_draft_in_the_python_api_is_sd103():
    text = SGL_ENGINE.replace('speculative_algorithm="EAGLE3"', 'speculative_algorithm="EAGLE"')
    assert sorted(o.code for o in launch_observations(text)) == ["SD101", "SD103"]


def test_concatenations_written_with_subscripts_tuples_and_concatenate():
    # before: all three were missed (brackets inside the list; a tuple; "concatenate" has no \bcat)
    assert concat_orders("aux = torch.cat([hidden_states[2], hidden_states[16], hidden_states[29]], dim=-1)") == [
        ("hidden_states[2]", "hidden_states[16]", "hidden_states[29]")]
    assert concat_orders("x = torch.cat((inputs_embeds, hidden_states), dim=-1)") == [("inputs_embeds", "hidden_states")]
    assert concat_orders("feats = np.concatenate([hs[3], hs[17], hs[30]], axis=-1)") == [("hs[3]", "hs[17]", "hs[30]")]
    # commas inside a subscript do not split an item
    assert concat_orders("torch.cat([h[:, 0], h[:, 1]], dim=-1)") == [("h[:,0]", "h[:,1]")]
    # not hidden states
    assert concat_orders("qkv = torch.cat([q, k, v], dim=0)") == []
