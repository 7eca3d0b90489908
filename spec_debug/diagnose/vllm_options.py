"""Every `--option` of `vllm serve`'s parser in the vLLM releases read.

vLLM builds the parser from its config dataclasses (vllm/engine/arg_utils.py EngineArgs.add_cli_args
and AsyncEngineArgs.add_cli_args, vllm/entrypoints/*/cli_args.py FrontendArgs.add_cli_args and
make_arg_parser, fields turned into options by get_kwargs), so the option strings are read from the
parser itself: vllm/entrypoints/cli/serve.py ServeSubcommand builds `make_arg_parser` on a
FlexibleArgumentParser subparser, and its `_option_string_actions` were dumped for the source of
each release below (the PyPI sdist or wheel's Python files, third-party imports that only serve
requests stubbed, the platform unspecified: no platform plugin, no general plugin installed). The
`--no-` twins of BooleanOptionalAction and the `--disable-` twins of EnableDisableAction are
options of their own, as argparse reads them. Short options (`-tp`, `-sc`) are not listed.
"""

from __future__ import annotations

# (release read, the options it added, the options it removed), each against the release read
# before it, oldest first
VLLM_OPTION_CHANGES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("0.18.0", (
        "additional-config", "aggregate-engine-logging", "all2all-backend", "allow-credentials",
        "allow-deprecated-quantization", "allowed-headers", "allowed-local-media-path", "allowed-media-domains",
        "allowed-methods", "allowed-origins", "api-key", "api-server-count", "async-scheduling",
        "attention-backend", "attention-config", "block-size", "calculate-kv-scales", "chat-template",
        "chat-template-content-format", "code-revision", "collect-detailed-traces", "compilation-config",
        "config", "config-format", "convert", "cp-kv-cache-interleave-size", "cpu-offload-gb",
        "cpu-offload-params", "cudagraph-capture-sizes", "cudagraph-metrics", "data-parallel-address",
        "data-parallel-backend", "data-parallel-external-lb", "data-parallel-hybrid-lb", "data-parallel-rank",
        "data-parallel-rpc-port", "data-parallel-size", "data-parallel-size-local", "data-parallel-start-rank",
        "dbo-decode-token-threshold", "dbo-prefill-token-threshold", "dcp-comm-backend",
        "dcp-kv-cache-interleave-size", "decode-context-parallel-size", "default-chat-template-kwargs",
        "default-mm-loras", "disable-access-log-for-endpoints", "disable-cascade-attn",
        "disable-chunked-mm-input", "disable-custom-all-reduce", "disable-fastapi-docs",
        "disable-frontend-multiprocessing", "disable-hybrid-kv-cache-manager", "disable-log-stats",
        "disable-nccl-for-dp-synchronization", "disable-sliding-window", "disable-uvicorn-access-log",
        "distributed-executor-backend", "distributed-timeout-seconds", "download-dir", "dtype",
        "ec-transfer-config", "enable-auto-tool-choice", "enable-chunked-prefill", "enable-dbo",
        "enable-elastic-ep", "enable-ep-weight-filter", "enable-eplb", "enable-expert-parallel",
        "enable-flashinfer-autotune", "enable-force-include-usage", "enable-layerwise-nvtx-tracing",
        "enable-log-deltas", "enable-log-outputs", "enable-log-requests", "enable-logging-iteration-details",
        "enable-lora", "enable-mfu-metrics", "enable-mm-embeds", "enable-offline-docs", "enable-prefix-caching",
        "enable-prompt-embeds", "enable-prompt-tokens-details", "enable-request-id-headers",
        "enable-return-routed-experts", "enable-server-load-tracking", "enable-sleep-mode",
        "enable-ssl-refresh", "enable-tokenizer-info-endpoint", "enable-tower-connector-lora", "enforce-eager",
        "eplb-config", "exclude-tools-when-tool-choice-none", "expert-placement-strategy",
        "fail-on-environ-validation", "fully-sharded-loras", "gdn-prefill-backend", "generation-config",
        "gpu-memory-utilization", "h11-max-header-count", "h11-max-incomplete-event-size", "headless", "help",
        "hf-config-path", "hf-overrides", "hf-token", "host", "ignore-patterns", "interleave-mm-strings",
        "io-processor-plugin", "kernel-config", "kv-cache-dtype", "kv-cache-memory-bytes", "kv-cache-metrics",
        "kv-cache-metrics-sample", "kv-events-config", "kv-offloading-backend", "kv-offloading-size",
        "kv-sharing-fast-prefill", "kv-transfer-config", "language-model-only", "limit-mm-per-prompt",
        "load-format", "log-config-file", "log-error-stack", "logits-processors", "logprobs-mode",
        "long-prefill-token-threshold", "lora-dtype", "lora-modules", "mamba-block-size", "mamba-cache-dtype",
        "mamba-cache-mode", "mamba-ssm-cache-dtype", "master-addr", "master-port", "max-cpu-loras",
        "max-cudagraph-capture-size", "max-log-len", "max-logprobs", "max-long-partial-prefills",
        "max-lora-rank", "max-loras", "max-model-len", "max-num-batched-tokens", "max-num-partial-prefills",
        "max-num-seqs", "max-parallel-loading-workers", "media-io-kwargs", "middleware",
        "mm-encoder-attn-backend", "mm-encoder-only", "mm-encoder-tp-mode", "mm-processor-cache-gb",
        "mm-processor-cache-type", "mm-processor-kwargs", "mm-shm-cache-max-object-size-mb", "model",
        "model-impl", "model-loader-extra-config", "moe-backend", "nnodes", "no-allow-credentials",
        "no-allow-deprecated-quantization", "no-async-scheduling", "no-calculate-kv-scales",
        "no-cudagraph-metrics", "no-data-parallel-external-lb", "no-data-parallel-hybrid-lb",
        "no-disable-cascade-attn", "no-disable-chunked-mm-input", "no-disable-custom-all-reduce",
        "no-disable-fastapi-docs", "no-disable-frontend-multiprocessing", "no-disable-hybrid-kv-cache-manager",
        "no-disable-nccl-for-dp-synchronization", "no-disable-sliding-window", "no-disable-uvicorn-access-log",
        "no-enable-auto-tool-choice", "no-enable-chunked-prefill", "no-enable-dbo", "no-enable-elastic-ep",
        "no-enable-ep-weight-filter", "no-enable-eplb", "no-enable-expert-parallel",
        "no-enable-flashinfer-autotune", "no-enable-force-include-usage", "no-enable-layerwise-nvtx-tracing",
        "no-enable-log-deltas", "no-enable-log-outputs", "no-enable-log-requests",
        "no-enable-logging-iteration-details", "no-enable-lora", "no-enable-mfu-metrics", "no-enable-mm-embeds",
        "no-enable-offline-docs", "no-enable-prefix-caching", "no-enable-prompt-embeds",
        "no-enable-prompt-tokens-details", "no-enable-request-id-headers", "no-enable-return-routed-experts",
        "no-enable-server-load-tracking", "no-enable-sleep-mode", "no-enable-ssl-refresh",
        "no-enable-tokenizer-info-endpoint", "no-enable-tower-connector-lora", "no-enforce-eager",
        "no-exclude-tools-when-tool-choice-none", "no-fail-on-environ-validation", "no-fully-sharded-loras",
        "no-interleave-mm-strings", "no-kv-cache-metrics", "no-kv-sharing-fast-prefill",
        "no-language-model-only", "no-log-error-stack", "no-mm-encoder-only", "no-ray-workers-use-nsight",
        "no-return-tokens-as-token-ids", "no-skip-mm-profiling", "no-skip-tokenizer-init",
        "no-specialize-active-lora", "no-tokens-only", "no-trust-remote-code", "no-trust-request-chat-template",
        "no-use-tqdm-on-load", "node-rank", "num-gpu-blocks-override", "offload-backend", "offload-group-size",
        "offload-num-in-group", "offload-params", "offload-prefetch-step", "optimization-level",
        "otlp-traces-endpoint", "override-attention-dtype", "override-generation-config", "performance-mode",
        "pipeline-parallel-size", "pooler-config", "port", "prefill-context-parallel-size",
        "prefix-caching-hash-algo", "profiler-config", "pt-load-map-location", "quantization",
        "ray-workers-use-nsight", "reasoning-parser", "reasoning-parser-plugin", "response-role",
        "return-tokens-as-token-ids", "revision", "root-path", "runner", "safetensors-load-strategy",
        "scheduler-cls", "scheduling-policy", "seed", "served-model-name", "show-hidden-metrics-for-version",
        "shutdown-timeout", "skip-mm-profiling", "skip-tokenizer-init", "specialize-active-lora",
        "speculative-config", "ssl-ca-certs", "ssl-cert-reqs", "ssl-certfile", "ssl-ciphers", "ssl-keyfile",
        "stream-interval", "structured-outputs-config", "tensor-parallel-size", "tokenizer", "tokenizer-mode",
        "tokenizer-revision", "tokens-only", "tool-call-parser", "tool-parser-plugin", "tool-server",
        "trust-remote-code", "trust-request-chat-template", "ubatch-size", "uds", "use-tqdm-on-load",
        "uvicorn-log-level", "video-pruning-rate", "weight-transfer-config", "worker-cls",
        "worker-extension-cls",
    ), ()),
    ("0.33.0", (
        "anthropic-disabled-thinking-effort", "aux-output-config", "cohere-format", "cohere-is-reasoning-model",
        "cpu-distributed-timeout-seconds", "custom-histogram-buckets", "data-parallel-multi-port-external-lb",
        "data-parallel-supervisor-port", "dcp-q-replicate", "device-ids", "device-memory-utilization",
        "diffusion-config", "disable-auto-tool-choice", "disable-batch-sharded-sampling",
        "disable-chunked-prefill", "disable-cumem-allocator", "disable-dbo", "disable-elastic-ep",
        "disable-ep-weight-filter", "disable-eplb", "disable-expert-parallel", "disable-fault-tolerance",
        "disable-flash-late-interaction", "disable-flashinfer-autotune", "disable-force-include-usage",
        "disable-hc-sp", "disable-layerwise-nvtx-tracing", "disable-log-deltas", "disable-log-outputs",
        "disable-log-requests", "disable-logging-iteration-details", "disable-lora",
        "disable-mamba-cache-stochastic-rounding", "disable-mamba-shared-prefix-checkpoint",
        "disable-mfu-metrics", "disable-mixed-moe-lora-format", "disable-mm-embeds", "disable-moe-shared-loras",
        "disable-nccl-comm-suspend", "disable-offline-docs", "disable-per-request-metrics",
        "disable-prefix-caching", "disable-prompt-embeds", "disable-prompt-tokens-details",
        "disable-request-id-headers", "disable-return-routed-experts", "disable-scale-out",
        "disable-server-load-tracking", "disable-shm-tensor-arena", "disable-sleep-mode", "disable-ssl-refresh",
        "disable-tokenizer-info-endpoint", "disable-tower-connector-lora", "disable-trace-replay",
        "dp-supervisor-probe-failure-threshold", "dp-supervisor-probe-interval-s",
        "dp-supervisor-probe-timeout-s", "dp-sync-interval", "ec-manager-config", "elastic-ep-max-dp-size",
        "enable-batch-sharded-sampling", "enable-cascade-attn", "enable-chunked-mm-input",
        "enable-cumem-allocator", "enable-custom-all-reduce", "enable-fastapi-docs", "enable-fault-tolerance",
        "enable-flash-late-interaction", "enable-hc-sp", "enable-hybrid-kv-cache-manager",
        "enable-mamba-cache-stochastic-rounding", "enable-mamba-shared-prefix-checkpoint",
        "enable-mixed-moe-lora-format", "enable-moe-shared-loras", "enable-nccl-comm-suspend",
        "enable-nccl-for-dp-synchronization", "enable-per-request-metrics", "enable-scale-out",
        "enable-shm-tensor-arena", "enable-sliding-window", "enable-trace-replay", "enable-uvicorn-access-log",
        "engram-config", "fault-tolerance-config", "fingerprint-mode", "fingerprint-value", "grpc", "grpc-port",
        "ir-op-priority", "jit-monitor-mode", "jit-monitor-verbose", "kda-decode-backend",
        "kda-prefill-backend", "kv-cache-dtype-skip-layers", "linear-backend", "log-level", "logging-config",
        "long-prefill-token-threshold-adaptive", "lora-target-modules", "mamba-backend",
        "mamba-cache-philox-rounds", "mamba-ssu-algorithm", "max-lora-cls-labels", "max-num-active-seqs",
        "max-num-queued-reqs", "max-num-queued-tokens", "max-num-scheduled-tokens", "mm-device-do-normalize",
        "mm-encoder-attn-dtype", "mm-encoder-fp8-scale-path", "mm-encoder-fp8-scale-save-margin",
        "mm-encoder-fp8-scale-save-path", "mm-hasher-algorithm", "mm-ipc-gpu-memory-gb", "mm-processor-device",
        "mm-tensor-ipc", "model-class-overrides", "monokernel", "no-cohere-is-reasoning-model",
        "no-dcp-q-replicate", "no-enable-batch-sharded-sampling", "no-enable-cumem-allocator",
        "no-enable-fault-tolerance", "no-enable-flash-late-interaction", "no-enable-hc-sp",
        "no-enable-mamba-cache-stochastic-rounding", "no-enable-mamba-shared-prefix-checkpoint",
        "no-enable-mixed-moe-lora-format", "no-enable-moe-shared-loras", "no-enable-nccl-comm-suspend",
        "no-enable-per-request-metrics", "no-enable-scale-out", "no-enable-shm-tensor-arena",
        "no-enable-trace-replay", "no-jit-monitor-verbose", "no-long-prefill-token-threshold-adaptive",
        "no-mm-device-do-normalize", "no-monokernel", "no-numa-bind", "no-return-sampling-mask",
        "no-scheduler-reserve-full-isl", "no-sleep-mode-offload-cudagraph", "no-swa-bounded-replay",
        "no-trust-request-mm-kwargs", "no-use-fp64-gumbel", "no-use-replayssm", "numa-bind", "numa-bind-cpus",
        "numa-bind-nodes", "per-request-spec-decode-metrics", "prefill-schedule-interval",
        "prefix-cache-retention-interval", "prefix-match-unit", "quantization-config", "reasoning-config",
        "reasoning-effort-map", "renderer-num-workers", "replayssm-buffer-len", "return-sampling-mask",
        "safetensors-prefetch-block-size", "safetensors-prefetch-num-threads", "scheduler-reserve-full-isl",
        "sleep-mode-backend", "sleep-mode-offload-cudagraph", "sleep-preserve-parameter-names",
        "sparse-indexer-topk-backend", "spec-method", "spec-model", "spec-tokens", "sse-keep-alive-interval",
        "swa-bounded-replay", "tool-strict-level", "trust-request-mm-kwargs", "use-fp64-gumbel",
        "use-replayssm", "video-pruning-method", "watchdog-config", "watermark", "watermark-config",
    ), (
        "calculate-kv-scales", "disable-frontend-multiprocessing", "max-long-partial-prefills",
        "max-num-partial-prefills", "no-calculate-kv-scales", "no-disable-frontend-multiprocessing",
        "override-attention-dtype",
    )),
    ("0.34.0", (
        "cache-aware-admission-threshold", "cache-aware-admission-window", "checkpoint-prepare-on-startup",
        "disable-extensible-kv-cache", "enable-extensible-kv-cache", "headless-client-handshake-address",
        "max-num-inflight-kv-loads", "no-checkpoint-prepare-on-startup", "no-enable-extensible-kv-cache",
        "no-shuffle-safetensors-files", "shuffle-safetensors-files",
    ), ()),
)
VLLM_OPTIONS_RELEASES = tuple(release for release, _added, _removed in VLLM_OPTION_CHANGES)


def _by_release() -> dict[str, frozenset[str]]:
    options: set[str] = set()
    by_release = {}
    for release, added, removed in VLLM_OPTION_CHANGES:
        options = (options | set(added)) - set(removed)
        by_release[release] = frozenset(options)
    return by_release


# {release read: the options of its `vllm serve` parser}
VLLM_OPTIONS_BY_RELEASE = _by_release()
VLLM_OPTIONS_READ = frozenset().union(*VLLM_OPTIONS_BY_RELEASE.values())
