"""Every `--option` SGLang's server parser has had (`python -m sglang.launch_server`, `sglang serve`).

The option strings of `ServerArgs.add_cli_args` in the PyPI wheels of 30 releases, the last post
of each (read with `pip download --no-deps sglang==X`), SGLANG_OPTIONS_RELEASES below: each
literal `parser.add_argument("--...")` of python/sglang/srt/server_args.py and srt/arg_groups/, and
each ServerArgs field annotated `A[T, Arg(...)]` / `A[T, "help"]` (srt/arg_groups/fields/, from 0.5.12),
which srt/arg_groups/arg_utils.py `add_cli_args_from_dataclass` registers as its Arg's cli_name or
`"--" + name.replace("_", "-")` plus its aliases (not the no_cli ones), with argparse's `--no-` twin
for a BooleanOptionalAction. That reading gives the very option strings of the parser the release
builds (`parser._option_string_actions`, compared on 0.4.5.post3, 0.4.6.post5, 0.4.9.post6,
0.5.1.post3 and 0.5.23 with their ServerArgs.add_cli_args run). Options come and go (the
0.5.3 `--speculative-ngram-min-match-window-size` is gone by 0.5.23), so both are kept: each release's
options, and their union (a word none of them starts is one no release from the first to the last
read takes).
"""

from __future__ import annotations

# (release read, the options it added, the options it removed), each against the release read
# before it, oldest first
SGLANG_OPTION_CHANGES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("0.4.4.post4", (
        "allow-auto-truncate", "api-key", "attention-backend", "base-gpu-id", "chat-template", "chunked-prefill-size",
        "completion-template", "constrained-json-whitespace-pattern", "context-length", "cpu-offload-gb",
        "cuda-graph-bs", "cuda-graph-max-bs", "data-parallel-size", "debug-tensor-dump-inject",
        "debug-tensor-dump-input-file", "debug-tensor-dump-output-folder", "decode-log-interval", "deepep-mode",
        "delete-ckpt-after-loading", "device", "disable-cuda-graph", "disable-cuda-graph-padding",
        "disable-custom-all-reduce", "disable-mla", "disable-outlines-disk-cache", "disable-overlap-schedule",
        "disable-radix-cache", "disable-shared-experts-fusion", "disaggregation-bootstrap-port",
        "disaggregation-mode", "dist-init-addr", "dist-timeout", "download-dir", "dp-size", "ds-channel-config-path",
        "ds-heavy-channel-num", "ds-heavy-channel-type", "ds-heavy-token-num", "ds-sparse-decode-threshold", "dtype",
        "enable-cache-report", "enable-custom-logit-processor", "enable-deepep-moe", "enable-double-sparsity",
        "enable-dp-attention", "enable-ep-moe", "enable-flashinfer-mla", "enable-flashmla",
        "enable-hierarchical-cache", "enable-memory-saver", "enable-metrics", "enable-mixed-chunk",
        "enable-nan-detection", "enable-nccl-nvls", "enable-p2p-check", "enable-torch-compile", "ep-size",
        "expert-parallel-size", "file-storage-path", "flashinfer-mla-disable-ragged", "gpu-id-step",
        "grammar-backend", "help", "hicache-ratio", "host", "is-embedding", "json-model-override-args",
        "kv-cache-dtype", "load-balance-method", "load-format", "log-level", "log-level-http", "log-requests",
        "log-requests-level", "lora-backend", "lora-paths", "max-loras-per-batch", "max-prefill-tokens",
        "max-running-requests", "max-total-tokens", "mem-fraction-static", "model-path", "n-share-experts-fusion",
        "nccl-init-addr", "nnodes", "node-rank", "num-continuous-decode-steps", "page-size", "port", "quantization",
        "quantization-param-path", "random-seed", "reasoning-parser", "revision", "sampling-backend",
        "schedule-conservativeness", "schedule-policy", "served-model-name", "show-time-cost", "skip-tokenizer-init",
        "speculative-accept-threshold-acc", "speculative-accept-threshold-single", "speculative-algorithm",
        "speculative-draft-model-path", "speculative-eagle-topk", "speculative-num-draft-tokens",
        "speculative-num-steps", "speculative-token-map", "stream-interval", "stream-output", "tensor-parallel-size",
        "tokenizer-mode", "tokenizer-path", "tool-call-parser", "torch-compile-max-bs", "torchao-config", "tp-size",
        "triton-attention-num-kv-splits", "triton-attention-reduce-in-fp32", "trust-remote-code", "warmups",
        "watchdog-timeout",
    ), ()),
    ("0.4.5.post3", (
        "disable-chunked-prefix-cache", "disable-fast-image-processor", "disaggregation-ib-device",
        "disaggregation-transfer-backend", "enable-llama4-multimodal", "enable-tokenizer-batch-encode",
        "hicache-size", "hicache-write-policy", "moe-dense-tp-size",
    ), (
        "disable-mla", "disable-shared-experts-fusion",
    )),
    ("0.4.6.post5", (
        "bucket-e2e-request-latency", "bucket-inter-token-latency", "bucket-time-to-first-token",
        "collect-tokens-histogram", "deepep-config", "enable-dp-lm-head", "enable-eplb",
        "enable-expert-distribution-metrics", "enable-multimodal", "enable-request-time-stats-logging",
        "ep-dispatch-algorithm", "ep-num-redundant-experts", "eplb-rebalance-num-iterations",
        "expert-distribution-recorder-buffer-size", "expert-distribution-recorder-mode", "init-expert-location",
        "kv-events-config", "max-micro-batch-size", "mm-attention-backend", "pdlb-url", "pipeline-parallel-size",
        "pp-size", "preferred-sampling-params",
    ), (
        "enable-llama4-multimodal",
    )),
    ("0.4.7.post1", (
        "debug-tensor-dump-prefill-only", "disable-overlap-cg-plan", "disable-shared-experts-fusion",
        "disaggregation-decode-dp", "disaggregation-decode-tp", "disaggregation-prefill-pp", "enable-mscclpp",
        "enable-profile-cuda-graph", "enable-return-hidden-states", "enable-two-batch-overlap", "eplb-algorithm",
        "eplb-rebalance-layers-per-chunk", "impl", "num-reserved-decode-tokens", "sleep-on-idle",
    ), (
        "enable-flashinfer-mla", "enable-flashmla", "n-share-experts-fusion",
    )),
    ("0.4.8.post1", (
        "custom-weight-loader", "enable-flashinfer-moe", "model", "model-loader-extra-config",
        "weight-loader-disable-mmap",
    ), ()),
    ("0.4.9.post6", (
        "crash-dump-folder", "decode-attention-backend", "disable-hybrid-swa-memory",
        "enable-flashinfer-allreduce-fusion", "enable-flashinfer-cutlass-moe", "enable-flashinfer-trtllm-moe",
        "enable-lora", "enable-metrics-for-all-schedulers", "enable-pdmux", "enable-triton-kernel-moe",
        "hicache-io-backend", "hicache-storage-backend", "hybrid-kvcache-ratio", "lora-target-modules",
        "max-lora-rank", "max-queued-requests", "model-impl", "nccl-port", "prefill-attention-backend",
        "skip-server-warmup", "sm-group-num", "swa-full-tokens-ratio",
    ), (
        "disable-overlap-cg-plan", "enable-flashinfer-moe", "impl",
    )),
    ("0.4.10.post2", (
        "enable-cudagraph-gc", "enable-symm-mem", "ep", "hicache-mem-layout", "max-loaded-loras", "moe-a2a-backend",
    ), ()),
    ("0.5.1.post3", (
        "disable-flashinfer-cutlass-moe-fp4-allgather", "enable-flashinfer-mxfp4-moe",
        "flashinfer-mxfp4-moe-precision", "gc-warning-threshold-secs", "hicache-storage-backend-extra-config",
        "hicache-storage-prefetch-policy", "moe-runner-backend", "offload-group-size", "offload-mode",
        "offload-num-in-group", "offload-prefetch-step", "scheduler-recv-interval",
        "tbo-token-distribution-threshold", "tool-server", "weight-version",
    ), ()),
    ("0.5.2", (
        "enable-lmcache", "eplb-min-rebalancing-utilization-threshold", "generation-tokens-buckets",
        "mamba-ssm-dtype", "max-mamba-cache-size", "numa-node", "prefill-round-robin-balance",
        "prompt-tokens-buckets", "speculative-attention-mode", "speculative-draft-model",
        "speculative-draft-model-revision", "tokenizer-worker-num",
    ), (
        "pdlb-url",
    )),
    ("0.5.3.post3", (
        "config", "constrained-json-disable-any-whitespace", "crash-on-nan",
        "disaggregation-decode-enable-offload-kvcache", "disaggregation-decode-polling-interval",
        "dynamic-batch-tokenizer-batch-size", "dynamic-batch-tokenizer-batch-timeout", "elastic-ep-backend",
        "enable-beta-spec", "enable-deterministic-inference", "enable-dynamic-batch-tokenizer",
        "enable-flashinfer-cutedsl-moe", "enable-fp32-lm-head", "enable-piecewise-cuda-graph",
        "enable-priority-scheduling", "enable-single-batch-overlap", "enable-torch-symm-mem", "enable-trace",
        "enable-weights-cpu-backup", "grpc-mode", "keep-mm-feature-on-device", "load-watch-interval",
        "lora-eviction-policy", "mamba-full-memory-ratio", "max-lora-chunk-size", "modelopt-checkpoint-restore-path",
        "modelopt-checkpoint-save-path", "modelopt-quant", "mooncake-ib-device", "multi-item-scoring-delimiter",
        "nsa-decode", "nsa-prefill", "oltp-traces-endpoint", "pdmux-config-path", "piecewise-cuda-graph-max-tokens",
        "piecewise-cuda-graph-tokens", "pp-max-micro-batch-size", "priority-scheduling-preemption-threshold",
        "radix-eviction-policy", "remote-instance-weight-loader-seed-instance-ip",
        "remote-instance-weight-loader-seed-instance-service-port",
        "remote-instance-weight-loader-send-weights-group-ports", "sampling-defaults",
        "schedule-low-priority-values-first", "speculative-draft-load-format", "speculative-ngram-branch-length",
        "speculative-ngram-capacity", "speculative-ngram-match-type", "speculative-ngram-max-bfs-breadth",
        "speculative-ngram-max-match-window-size", "speculative-ngram-min-bfs-breadth",
        "speculative-ngram-min-match-window-size", "tokenizer-metrics-allowed-custom-labels",
        "tokenizer-metrics-custom-labels-header", "triton-attention-split-tile-size",
    ), (
        "debug-tensor-dump-prefill-only", "max-micro-batch-size",
    )),
    ("0.5.4.post3", (
        "abort-on-priority-when-disabled", "checkpoint-engine-wait-weights-before-ready", "debug-tensor-dump-layers",
        "decrypted-config-file", "decrypted-draft-config-file", "disable-tokenizer-batch-decode", "kt-amx-method",
        "kt-amx-weight-path", "kt-cpuinfer", "kt-num-gpu-experts", "kt-threadpool-count", "mm-max-concurrent-calls",
        "mm-per-request-timeout", "modelopt-export-path", "nsa-decode-backend", "nsa-prefill-backend",
        "otlp-traces-endpoint", "piecewise-cuda-graph-compiler", "quantize-and-serve", "rl-on-policy-target",
        "speculative-moe-runner-backend",
    ), (
        "crash-on-nan", "enable-beta-spec", "enable-deepep-moe", "enable-ep-moe", "enable-flashinfer-cutedsl-moe",
        "enable-flashinfer-cutlass-moe", "enable-flashinfer-mxfp4-moe", "enable-flashinfer-trtllm-moe",
        "enable-triton-kernel-moe", "nsa-decode", "nsa-prefill", "oltp-traces-endpoint",
    )),
    ("0.5.5.post3", (
        "enable-attn-tp-input-scattered", "enable-broadcast-mm-inputs-process", "enable-draft-weights-cpu-backup",
        "enable-layerwise-nvtx-marker", "export-metrics-to-file", "export-metrics-to-file-dir",
        "kt-max-deferred-experts-per-token", "kt-method", "kt-weight-path",
    ), (
        "kt-amx-method", "kt-amx-weight-path",
    )),
    ("0.5.6.post2", (
        "dllm-algorithm", "dllm-algorithm-config", "enable-flashinfer-autotune", "enable-fused-qk-norm-rope",
        "enable-nsa-prefill-context-parallel", "enable-torch-compile-debug-mode", "fastapi-root-path",
        "forward-hooks", "fp8-gemm-backend", "mm-enable-dp-encoder", "mm-process-config", "rl-quant-profile",
        "speculative-moe-a2a-backend",
    ), ()),
    ("0.5.7", (
        "custom-sigquit-handler", "disable-flashinfer-autotune", "disaggregation-decode-enable-fake-auto",
        "enable-dynamic-chunking", "enable-multi-layer-eagle", "enable-precise-embedding-interpolation",
        "enable-prefix-mm-cache", "enable-return-routed-experts", "encoder-only", "encoder-transfer-backend",
        "encoder-urls", "language-only", "limit-mm-data-per-request", "log-requests-format",
        "mamba-scheduler-strategy", "mamba-track-interval", "pp-async-batch-depth", "prefill-max-requests",
        "remote-instance-weight-loader-backend", "remote-instance-weight-loader-start-seed-via-transfer-engine",
        "soft-watchdog-timeout", "speculative-draft-attention-backend", "speculative-draft-model-quantization",
    ), (
        "enable-flashinfer-autotune", "load-watch-interval",
    )),
    ("0.5.8.post1", (
        "admin-api-key", "disable-hicache-numa-detect", "enable-lora-overlap-loading", "enable-prefill-delayer",
        "fp4-gemm-backend", "hf-chat-template-name", "hierarchical-sparse-attention-extra-config",
        "log-requests-target", "model-checksum", "nsa-prefill-cp-mode", "prefill-delayer-forward-passes-buckets",
        "prefill-delayer-max-delay-passes", "prefill-delayer-token-usage-low-watermark",
        "prefill-delayer-wait-seconds-buckets", "uvicorn-access-log-exclude-prefixes",
    ), ()),
    ("0.5.9", (
        "attention-context-parallel-size", "attn-cp-size", "extra-metric-labels", "mamba-backend",
        "moe-data-parallel-size", "moe-dp-size",
    ), (
        "disaggregation-decode-enable-fake-auto",
    )),
    ("0.5.10.post1", (
        "default-priority-value", "disable-piecewise-cuda-graph", "disable-priority-preemption",
        "enable-adaptive-dispatch-to-encoder", "enable-aiter-allreduce-fusion", "enable-elastic-expert-backup",
        "enable-fused-moe-sum-all-reduce", "enable-hisparse", "enable-mfu-metrics", "enable-mm-global-cache",
        "enable-prefill-context-parallel", "enable-ssl-refresh", "enable-streaming-session",
        "enforce-disable-flashinfer-allreduce-fusion", "enforce-piecewise-cuda-graph", "engine-info-bootstrap-port",
        "experts-shared-outer-loras", "gc-threshold", "hisparse-config", "incremental-streaming-output",
        "linear-attn-backend", "linear-attn-decode-backend", "linear-attn-prefill-backend", "modelexpress-config",
        "no-experts-shared-outer-loras", "pre-warm-nccl", "prefill-cp-mode", "speculative-ngram-max-trie-depth",
        "ssl-ca-certs", "ssl-certfile", "ssl-keyfile", "ssl-keyfile-password",
        "stream-response-default-include-usage", "use-ray",
    ), (
        "disable-hicache-numa-detect", "disaggregation-decode-dp", "disaggregation-decode-tp",
        "disaggregation-prefill-pp", "hierarchical-sparse-attention-extra-config", "mm-max-concurrent-calls",
        "mm-per-request-timeout", "speculative-ngram-branch-length", "speculative-ngram-max-match-window-size",
        "speculative-ngram-min-match-window-size",
    )),
    ("0.5.11", (
        "batch-notify-size", "debug-cuda-graph", "disaggregation-decode-enable-radix-cache", "elastic-ep-rejoin",
        "enable-breakable-cuda-graph", "enable-dp-attention-local-control-broadcast", "enable-http2", "enable-mis",
        "enable-quant-communications", "enforce-shared-experts-fusion", "grpc-http-sidecar-port",
        "lora-strict-loading", "lora-use-virtual-experts", "msprobe-dump-config", "no-lora-strict-loading",
        "no-record-nolora-graph", "record-nolora-graph", "speculative-adaptive", "speculative-adaptive-config",
        "speculative-dflash-block-size", "speculative-dflash-draft-window-size",
        "speculative-ngram-external-corpus-max-tokens", "speculative-ngram-external-corpus-path",
        "speculative-ngram-external-sam-budget", "speculative-skip-dp-mlp-sync", "strip-thinking-cache",
        "tokenizer-backend", "weight-loader-prefetch-checkpoints", "weight-loader-prefetch-num-threads",
    ), (
        "ds-channel-config-path", "ds-heavy-channel-num", "ds-heavy-channel-type", "ds-heavy-token-num",
        "ds-sparse-decode-threshold", "enable-double-sparsity", "multi-item-scoring-delimiter",
    )),
    ("0.5.12.post1", (
        "detokenizer-worker-num", "enable-deepep-waterfill", "enable-forward-pass-metrics",
        "enable-return-indexer-topk", "enable-strict-thinking", "forward-pass-metrics-ipc-name",
        "forward-pass-metrics-worker-id", "hierarchical-sparse-attention-extra-config", "lora-drain-wait-threshold",
        "model-config-parser", "prefill-delayer-max-delay-ms", "prefill-delayer-queue-min-ratio",
        "prefill-only-disable-kv-cache", "speculative-draft-window-size", "weight-loader-drop-cache-after-load",
    ), ()),
    ("0.5.13.post1", (
        "asr-max-buffer-seconds", "asr-max-concurrent-sessions", "deepep-dispatcher-output-dtype",
        "disable-attn-tp-gather", "dsa-decode-backend", "dsa-prefill-backend", "dsa-prefill-cp-mode",
        "dsa-topk-backend", "enable-deepseek-v4-fp4-indexer", "enable-dsa-prefill-context-parallel",
        "encoder-bootstrap-port", "encoder-register-urls", "kv-canary", "kv-canary-real-data",
        "kv-canary-sweep-interval", "lmcache-config-file", "load-snapshot-publish-interval",
        "optimistic-prefill-retries", "radix-cache-backend", "trace-modules",
    ), (
        "enable-nan-detection", "no-record-nolora-graph", "record-nolora-graph",
    )),
    ("0.5.14", (
        "cp-strategy", "cuda-graph-backend-decode", "cuda-graph-backend-prefill", "cuda-graph-bs-decode",
        "cuda-graph-bs-prefill", "cuda-graph-config", "cuda-graph-max-bs-decode", "cuda-graph-max-bs-prefill",
        "cuda-graph-tc-compiler", "disable-decode-cuda-graph", "disable-prefill-cuda-graph",
        "disaggregation-decode-extra-slots", "enable-int8-mamba-checkpoint", "enable-prefill-cp",
        "flashinfer-allreduce-fusion-backend", "int8-mamba-ckpt-size", "mamba-radix-cache-strategy",
        "speculative-use-rejection-sampling",
    ), (
        "custom-sigquit-handler", "debug-tensor-dump-inject", "enable-piecewise-cuda-graph", "hybrid-kvcache-ratio",
    )),
    ("0.5.15.post1", (
        "bf16-gemm-backend", "dcp-size", "decode-context-parallel-size", "decoupled-spec-bind-endpoint",
        "decoupled-spec-connect-endpoints", "decoupled-spec-rank", "decoupled-spec-role",
        "dsa-paged-mqa-logits-backend", "enable-linear-replayssm", "enable-mamba-cache-stochastic-rounding",
        "enable-page-major-kv-layout", "enable-session-radix-cache", "enable-tf32-matmul", "enable-unified-memory",
        "linear-replayssm-cache-len", "mamba-cache-philox-rounds", "min-free-slots-delay", "spec-trace-dir",
    ), ()),
    ("0.5.16", (
        "default-chat-template-kwargs", "dllm-fdfo", "elastic-ep-initial-size", "elastic-ep-join-mode",
        "elastic-ep-join-rank-offset", "elastic-ep-scale-timeout", "enable-dsa-cache-layer-split", "enable-flexkv",
        "enable-gdn-replayssm-spec", "enable-scattered-sconv", "enable-waterfill", "flexkv-config-file",
        "fuseep-mode", "grpc-port", "max-ep-size", "mm-feature-transport", "no-dllm-fdfo",
        "optimistic-prefill-attempts", "retraction-policy", "sidecar", "sidecar-args", "smg-grpc-mode",
        "smg-http-sidecar-port", "speculative-dspark-align-verify-tokens-to-graph-tier",
        "speculative-dspark-block-size", "speculative-dspark-confidence-sts-path",
        "speculative-dspark-sps-table-path",
    ), (
        "enable-deepep-waterfill", "optimistic-prefill-retries",
    )),
    ("0.5.17", (
        "dcp-comm-backend", "dcp-replicate-q-proj", "dwdp-size", "enable-cp-decode-attn-tp",
        "enable-linear-replayssm-spec", "flashinfer-autotune-skip-ops", "linear-attn-verify-backend",
        "mamba-max-states-per-path", "mm-io-worker-num", "mm-processor-worker-num", "no-dcp-replicate-q-proj",
        "return-hidden-states-mode", "weight-cache-mode", "weight-cache-socket", "weight-cache-timeout",
    ), ()),
    ("0.5.18", (
        "allowed-media-domains", "c128-page-size", "disaggregation-decode-retraction-backup",
        "enable-tp-lm-head-all-to-all", "expert-balancedness-report-mode", "http2-max-concurrent-streams",
        "image-processor-backend", "language-model-only", "media-url-max-file-size-mb", "mlx-enable-sampling",
        "mm-global-cache-backend", "mm-preprocess-cache-size-mb", "no-enable-tp-lm-head-all-to-all",
        "speculative-draft-kv-cache-dtype", "startup-weight-load-mode", "trust-mm-content-hashes",
    ), (
        "torchao-config",
    )),
    ("0.5.19", (
        "deepep-v2-mode", "dsv4-prefill-backend", "enable-dense-mlp-attn-tp", "enable-layernorm-sp",
        "enable-lean-attention", "enable-shared-experts-attn-tp", "enable-w4a4-mxfp4-megamoe", "gated-launch-port",
        "hicache-host-memory-mode", "hicache-storage-prefetch-retry-max-attempts",
        "hicache-storage-prefetch-retry-poll-interval", "http2-initial-connection-window-size",
        "load-publish-endpoint", "prefill-decode-interval", "speculative-dsa-topk-backend",
    ), ()),
    ("0.5.20", (
        "dsv4-attn-backend", "enable-response-store", "enable-unified-cache-external-linker",
        "flashinfer-a2a-dispatch-type", "no-ple-offload-embedding", "ple-offload-backend", "ple-offload-dir",
        "ple-offload-embedding", "radix-eviction-policy-config", "return-input-ids", "return-output-ids",
        "sampling-mask-max-tokens", "speculative-domino-candidate-pool-size", "unified-cache-external-linker-backend",
        "uno-lora-path",
    ), (
        "collect-tokens-histogram", "cuda-graph-bs", "cuda-graph-max-bs", "disable-piecewise-cuda-graph",
        "dsa-prefill-cp-mode", "enable-breakable-cuda-graph", "enable-dsa-prefill-context-parallel",
        "enable-expert-distribution-metrics", "enable-gdn-replayssm-spec", "enable-nsa-prefill-context-parallel",
        "enable-prefill-context-parallel", "enforce-piecewise-cuda-graph", "mamba-scheduler-strategy",
        "nsa-decode-backend", "nsa-prefill-backend", "nsa-prefill-cp-mode", "piecewise-cuda-graph-compiler",
        "piecewise-cuda-graph-max-tokens", "piecewise-cuda-graph-tokens", "prefill-cp-mode",
        "prefill-round-robin-balance", "speculative-dflash-draft-window-size", "stream-output",
    )),
    ("0.5.21", (
        "boundary-reduction", "constrained-json-max-whitespace-cnt", "context-bucket",
        "cuda-graph-max-seq-len-prefill", "cuda-graph-prefill-max-context",
        "disable-aiter-allreduce-fusion-in-decode", "disable-aiter-allreduce-fusion-in-prefill",
        "disaggregation-decode-host-receive-threshold", "disaggregation-enable-kv-checksum",
        "enable-decoder-swa-bounded-replay", "enable-encoder-swa-bounded-replay", "enable-linker-mla-dedup",
        "enable-pd-role-switch", "grpc-response-timeout-secs", "hicache-host-memory-fraction", "otlp-service-name",
        "prefill-kv-cache-dequant-dtype", "shared-experts-tp-size", "speculative-draft-sink-size", "swa-prefix-tails",
        "trust-request-chat-template",
    ), (
        "elastic-ep-rejoin", "keep-mm-feature-on-device",
    )),
    ("0.5.22", (
        "attention-data-parallel-size", "attn-dp-size", "disaggregation-decode-allocation-policy", "dsa-triton-union",
        "enable-dsa-fused-indexer", "enable-kv-cache-sharding", "enable-watermark", "no-enable-dsa-fused-indexer",
        "no-speculative-enable-w4a4-mxfp4-megamoe", "qsa-indexer-dtype", "speculative-enable-w4a4-mxfp4-megamoe",
        "speculative-use-block-verification", "watermark-config",
    ), (
        "cuda-graph-tc-compiler",
    )),
    ("0.5.23", (
        "enable-amd-monokernel", "enable-hicache", "enable-http-worker-reuseport", "enable-megamoe-for-layernorm-sp",
        "enable-nvidia-megakernel", "enable-paged-experts", "enable-return-aux-hidden-states", "monokernel-backend",
        "no-enable-decoder-swa-bounded-replay", "no-enable-fused-qk-norm-rope", "no-enable-tf32-matmul",
        "no-mm-enable-dp-encoder", "paged-experts-num-resident", "prefill-decode-interval-min-bs",
        "return-aux-hidden-state-layer-ids", "unified-cache-external-linker-config",
    ), (
        "speculative-skip-dp-mlp-sync",
    )),
)
SGLANG_OPTIONS_RELEASES = tuple(release for release, _added, _removed in SGLANG_OPTION_CHANGES)


def options_by_release(changes: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]) -> dict[str, frozenset[str]]:
    """{release read: its options} from the changes between the releases read (oldest first)."""
    options: set[str] = set()
    by_release = {}
    for release, added, removed in changes:
        options = (options | set(added)) - set(removed)
        by_release[release] = frozenset(options)
    return by_release


# {release read: the options of its parser}
SGLANG_OPTIONS_BY_RELEASE = options_by_release(SGLANG_OPTION_CHANGES)
SGLANG_OPTIONS = frozenset().union(*SGLANG_OPTIONS_BY_RELEASE.values())


# Options in a release's parser that stop the server all the same: SGLang's DeprecatedAction
# (python/sglang/srt/server_args.py) raised `ValueError(self.help)` when given, up to 0.5.7 (0.5.8
# made it warn), and from 0.5.18 (srt/arg_groups/argparse_actions.py) calls `parser.error` when
# registered with an `error_message`. {release read: its options registered so}, from the wheels.
SGLANG_REFUSED_OPTIONS_BY_RELEASE: dict[str, frozenset[str]] = {
    "0.4.5.post3": frozenset({"enable-flashinfer-mla", "enable-flashmla"}),
    "0.4.6.post5": frozenset({"enable-flashinfer-mla", "enable-flashmla"}),
    "0.5.3.post3": frozenset({
        "enable-ep-moe", "enable-deepep-moe", "enable-flashinfer-cutlass-moe", "enable-flashinfer-cutedsl-moe",
        "enable-flashinfer-trtllm-moe", "enable-triton-kernel-moe", "enable-flashinfer-mxfp4-moe"}),
    "0.5.18": frozenset({"enable-expert-distribution-metrics"}),
    "0.5.19": frozenset({"enable-expert-distribution-metrics"}),
}

# What replaces an option SGLang retired, as its own deprecation says (the option's help, the
# `new_flag` of its Deprecated*Action, or the `error_message`), in the wheels of the releases that
# deprecate it; each is gone from the parser after (SGLANG_OPTION_CHANGES).
SGLANG_RETIRED_OPTIONS: dict[str, str] = {
    # 0.4.5.post3 .. 0.4.6.post5 help "--enable-flashinfer-mla is deprecated. Please use
    # '--attention-backend flashinfer' instead." (and flashmla); gone in 0.4.7.post1
    "enable-flashinfer-mla": "--attention-backend flashinfer",
    "enable-flashmla": "--attention-backend flashmla",
    # 0.5.3.post3 help "Please set `--ep-size` to the same value as `--tp-size` instead." and
    # "Please set `--moe-a2a-backend` to 'deepep'" / `--moe-runner-backend` to ...; gone in 0.5.4.post3
    "enable-ep-moe": "--ep-size set to the --tp-size value",
    "enable-deepep-moe": "--moe-a2a-backend deepep",
    "enable-flashinfer-cutlass-moe": "--moe-runner-backend flashinfer_cutlass",
    "enable-flashinfer-cutedsl-moe": "--moe-runner-backend flashinfer_cutedsl",
    "enable-flashinfer-trtllm-moe": "--moe-runner-backend flashinfer_trtllm",
    "enable-triton-kernel-moe": "--moe-runner-backend triton_kernel",
    "enable-flashinfer-mxfp4-moe": "--moe-runner-backend flashinfer_mxfp4",
    # 0.5.8.post1 .. 0.5.13.post1 help "Please use --swa-full-tokens-ratio instead."; gone in 0.5.14
    "hybrid-kvcache-ratio": "--swa-full-tokens-ratio",
    # 0.5.14 .. 0.5.19 `new_flag` of the deprecated spellings (0.5.18-0.5.19 error_message for the
    # expert metrics, the help for the token histograms); all gone in 0.5.20
    "enable-expert-distribution-metrics": "--expert-balancedness-report-mode (off, server_log, prometheus or both)",
    "collect-tokens-histogram": "--enable-metrics, which collects the token histograms",
    "stream-output": "--incremental-streaming-output",
    "nsa-prefill-backend": "--dsa-prefill-backend",
    "nsa-decode-backend": "--dsa-decode-backend",
    "mamba-scheduler-strategy": "--mamba-radix-cache-strategy",
    "cuda-graph-max-bs": "--cuda-graph-max-bs-decode",
    "cuda-graph-bs": "--cuda-graph-bs-decode",
    "enable-breakable-cuda-graph": "--cuda-graph-backend-prefill=breakable",
    "disable-piecewise-cuda-graph": "--cuda-graph-backend-prefill=disabled",
    "enforce-piecewise-cuda-graph": "--cuda-graph-backend-prefill=tc_piecewise",
    "piecewise-cuda-graph-tokens": "--cuda-graph-bs-prefill",
    "piecewise-cuda-graph-max-tokens": "--cuda-graph-max-bs-prefill",
    "enable-prefill-context-parallel": "--enable-prefill-cp",
    "enable-dsa-prefill-context-parallel": "--enable-prefill-cp",
    "enable-nsa-prefill-context-parallel": "--enable-prefill-cp",
    "prefill-cp-mode": "--cp-strategy",
    "dsa-prefill-cp-mode": "--cp-strategy",
    "nsa-prefill-cp-mode": "--cp-strategy",
    "enable-gdn-replayssm-spec": "--enable-linear-replayssm-spec",
    # 0.5.11 added --speculative-dflash-draft-window-size, 0.5.12.post1 --speculative-draft-window-size
    # (read by DFLASH's compact draft KV cache and EAGLE-3's drafter attention alike); up to 0.5.19
    # server_args.py keeps the old spelling as `DeprecatedAliasStoreAction`, dest
    # speculative_draft_window_size, `new_flag="--speculative-draft-window-size"`; gone in 0.5.20
    "speculative-dflash-draft-window-size": "--speculative-draft-window-size",
}
