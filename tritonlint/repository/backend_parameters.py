"""The ``parameters`` keys that Triton's own backends read from a model's config.

Every value of ``parameters`` is a string; a backend looks up the keys it knows and ignores
the rest. What each backend reads was taken from its repository under
github.com/triton-inference-server, at the place where the key string is looked up, and from
the parameter section of its README or docs:

- ``python``: python_backend ``src/python_be.cc`` (``src/python.cc`` in older releases),
  README "Creating Custom Execution Environments" and "Input Tensor Device Placement".
- ``pytorch``: pytorch_backend ``src/libtorch.cc`` (``src/pt/model_state.cc`` in newer
  releases: ``ParseParameters``), ``src/model.py`` (the Python runtime used with
  ``runtime: "model.py"``), README "Parameters" and "Customization".
- ``onnxruntime``: onnxruntime_backend ``src/onnxruntime.cc`` (session options, the
  deprecated CUDA provider keys and the run options), README "Other Optimization Options
  with ONNX Runtime" and "Deprecated Parameters"; onnxruntime's
  ``onnxruntime_run_options_config_keys.h`` for the shrinkage value's format.
- ``openvino``: openvino_backend ``src/openvino.cc`` (``ParseParameters``,
  ``ParseParameterHelper``), README "Parameters".
- ``tensorflow``: tensorflow_backend ``src/tensorflow.cc`` (``ParseParameters``), README
  "Parameters".
- ``tensorrt``: tensorrt_backend ``src/model_state.cc`` (``ParseParameters``,
  ``ParseMultiDeviceParameters``), README "Parameters", ``docs/multi_device.md``.
- ``fil``: fil_backend ``src/shared_state.h`` (``load``), ``src/serialization.h``,
  ``src/fil_config.h``, ``src/nvforest_config.h``, ``docs/model_config.md``; booleans are
  parsed by rapids-triton's ``get_config_param`` (exactly ``true`` or ``false``).
- ``dali``: dali_backend ``src/parameters.h`` (``ModelParameters``), ``docs/config.md``.
- ``vllm``: vllm_backend ``src/model.py`` (``_get_bool_config_param``), README and
  ``docs/health_check.md``.

Booleans read with the backend library's ``ParseBoolValue`` (PyTorch, ONNX Runtime,
TensorFlow) accept ``true``/``on``/``1`` and ``false``/``off``/``0`` in any case.

Which releases read a key was found by looking for the key in each backend's release
branch (``rYY.MM``, the Triton release named by the server's ``TRITON_VERSION`` on the same
branch): :attr:`Parameter.since` and :attr:`Parameter.until` record the changes within the
releases tritonlint covers. A key whose values changed has an entry for each span.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from tritonlint.schema.releases import release_key

#: How a path parameter names a place inside the model folder (the backends replace it with the
#: folder's path).
MODEL_DIRECTORY = "$$TRITON_MODEL_DIRECTORY"


class ValueKind(Enum):
    """What a key's string holds."""

    BOOL = "bool-like string"
    #: OpenVINO's switches: ``YES`` (any case) turns them on, anything else leaves them off.
    YES_NO = "YES or NO"
    INTEGER = "integer"
    NUMBER = "number"
    STRING = "string"
    PATH = "path"
    JSON = "JSON object"


class Choice(NamedTuple):
    value: str
    meaning: str = ""


#: The values offered for a key of a kind whose values the kind itself names.
_KIND_CHOICES = {
    ValueKind.BOOL: (Choice("true"), Choice("false")),
    ValueKind.YES_NO: (Choice("YES"), Choice("NO")),
}


class Parameter(NamedTuple):
    key: str
    kind: ValueKind
    #: What the key does, in a line.
    meaning: str
    #: The values the backend documents, where it names them (empty: any value of the kind).
    choices: tuple[Choice, ...] = ()
    #: The first Triton release whose backend reads the key (None: every release covered).
    since: str | None = None
    #: The first Triton release whose backend no longer reads it (None: still read).
    until: str | None = None

    @property
    def values(self) -> tuple[Choice, ...]:
        """The values worth offering: the documented ones, or those the kind names."""
        return self.choices or _KIND_CHOICES.get(self.kind, ())

    def read_in(self, release: str) -> bool:
        """Whether the backend of Triton ``release`` reads this key."""
        at = release_key(release)
        if self.since is not None and at < release_key(self.since):
            return False
        return self.until is None or at < release_key(self.until)


_P = Parameter
_K = ValueKind
_C = Choice

#: Backend → the keys it reads, in the order its documentation lists them.
BACKEND_PARAMETERS: dict[str, tuple[Parameter, ...]] = {
    "python": (
        _P(
            "EXECUTION_ENV_PATH",
            _K.PATH,
            "A conda-pack archive of the Python environment the model runs in (newer releases "
            "also take the unpacked folder); a leading `$$TRITON_MODEL_DIRECTORY` stands for "
            "the model folder.",
        ),
        _P(
            "FORCE_CPU_ONLY_INPUT_TENSORS",
            _K.STRING,
            "Whether inputs are always copied to CPU memory before `execute` sees them "
            "(`yes`, the default) or handed over wherever they are (`no`).",
            (_C("yes", "inputs always in CPU memory"), _C("no", "inputs in CPU or GPU memory")),
        ),
    ),
    "pytorch": (
        _P(
            "DISABLE_OPTIMIZED_EXECUTION",
            _K.BOOL,
            "Turns off TorchScript's optimized execution, whose first calls are slow.",
        ),
        _P(
            "INFERENCE_MODE",
            _K.BOOL,
            "Runs the model under PyTorch's InferenceMode, which skips autograd bookkeeping.",
        ),
        _P(
            "DISABLE_CUDNN",
            _K.BOOL,
            "Turns off cuDNN for this model.",
            since="2.47.0",
        ),
        _P(
            "ENABLE_WEIGHT_SHARING",
            _K.BOOL,
            "Lets the instances on one device share the model's weights (not for stateful models).",
            since="2.21.0",
        ),
        _P(
            "ENABLE_CACHE_CLEANING",
            _K.BOOL,
            "Empties PyTorch's CUDA cache after every execution: less GPU memory held, at a "
            "cost in speed.",
            since="2.24.0",
        ),
        _P(
            "INTER_OP_THREAD_COUNT",
            _K.INTEGER,
            "Threads that run separate ops at once; set once for the whole backend (the first "
            "model to set it wins).",
            since="2.46.0",
        ),
        _P(
            "INTRA_OP_THREAD_COUNT",
            _K.INTEGER,
            "Threads that share the work inside one op; set once for the whole backend (the "
            "first model to set it wins).",
            since="2.46.0",
        ),
        _P(
            "ENABLE_NVFUSER",
            _K.BOOL,
            "Uses the NvFuser CUDA fuser for TorchScript models; overrides `ENABLE_TENSOR_FUSER`.",
            until="2.41.0",
        ),
        _P(
            "ENABLE_JIT_EXECUTOR",
            _K.BOOL,
            "Switches TorchScript's JIT executor on or off (unset: PyTorch's default).",
        ),
        _P(
            "ENABLE_JIT_PROFILING",
            _K.BOOL,
            "Switches TorchScript's profiling executor on or off (unset: PyTorch's default).",
        ),
        _P(
            "ENABLE_TENSOR_FUSER",
            _K.BOOL,
            "Switches TorchScript's tensor fuser on or off (unset: PyTorch's default).",
        ),
        _P(
            "NUM_THREADS",
            _K.INTEGER,
            'With `runtime: "model.py"`: `torch.set_num_threads`, the CPU threads inside one '
            "op (1 when unset).",
            since="2.42.0",
        ),
        _P(
            "NUM_INTEROP_THREADS",
            _K.INTEGER,
            'With `runtime: "model.py"`: `torch.set_num_interop_threads`, the CPU threads '
            "across ops (1 when unset).",
            since="2.42.0",
        ),
        _P(
            "TORCH_COMPILE_OPTIONAL_PARAMETERS",
            _K.JSON,
            'With `runtime: "model.py"`: keyword arguments for `torch.compile` (`fullgraph`, '
            "`dynamic`, `backend`, `mode`, `options`, `disable`).",
            since="2.42.0",
        ),
    ),
    "onnxruntime": (
        _P(
            "intra_op_thread_count",
            _K.INTEGER,
            "Threads that share the work inside one node; 0 lets ONNX Runtime choose (ignored "
            "when the backend uses a global thread pool).",
        ),
        _P(
            "inter_op_thread_count",
            _K.INTEGER,
            "Threads that run separate nodes at once in parallel mode; 0 lets ONNX Runtime "
            "choose (ignored when the backend uses a global thread pool).",
        ),
        _P(
            "execution_mode",
            _K.INTEGER,
            "Whether the graph's nodes run one after another or in parallel.",
            (_C("0", "sequential (the default)"), _C("1", "parallel")),
        ),
        _P(
            "enable_mem_arena",
            _K.BOOL,
            "Switches ONNX Runtime's CPU memory arena on or off.",
            since="2.21.0",
        ),
        _P(
            "enable_mem_pattern",
            _K.BOOL,
            "Switches ONNX Runtime's memory pattern optimization on or off.",
            since="2.21.0",
        ),
        _P(
            "memory.enable_memory_arena_shrinkage",
            _K.STRING,
            "The memory arenas to shrink after each run, as `device:id` pairs separated by "
            "`;` (such as `cpu:0;gpu:0`).",
            since="2.21.0",
        ),
        _P(
            "session.use_device_allocator_for_initializers",
            _K.STRING,
            "Whether the model's initializers are allocated with the device allocator.",
            (_C("1", "use the device allocator"), _C("0", "do not (the default)")),
            since="2.55.0",
        ),
        _P(
            "cudnn_conv_algo_search",
            _K.INTEGER,
            "How the CUDA provider picks convolution algorithms (deprecated: set it on the "
            "CUDA execution accelerator instead).",
            (
                _C("0", "EXHAUSTIVE: benchmark them all (the default)"),
                _C("1", "HEURISTIC: a quick heuristic search"),
                _C("2", "DEFAULT: the implicit precomputed GEMM algorithm"),
            ),
        ),
        _P(
            "gpu_mem_limit",
            _K.INTEGER,
            "The most GPU memory, in bytes, the CUDA provider's arena may take (deprecated: "
            "set it on the CUDA execution accelerator instead).",
        ),
        _P(
            "arena_extend_strategy",
            _K.INTEGER,
            "How the CUDA provider's memory arena grows (deprecated: set it on the CUDA "
            "execution accelerator instead).",
            (_C("0", "kNextPowerOfTwo (the default)"), _C("1", "kSameAsRequested")),
        ),
        _P(
            "do_copy_in_default_stream",
            _K.STRING,
            "Whether the CUDA provider copies data on its compute stream (deprecated: set it "
            "on the CUDA execution accelerator instead).",
            (_C("1", "copy on the compute stream (the default)"), _C("0", "separate streams")),
        ),
    ),
    "openvino": (
        _P(
            "PERFORMANCE_HINT",
            _K.STRING,
            "Presets OpenVINO's tuning for few concurrent requests or for many.",
            (
                _C("LATENCY", "few concurrent requests"),
                _C("THROUGHPUT", "many concurrent requests"),
                _C("CUMULATIVE_THROUGHPUT", "many requests over several devices"),
            ),
            since="2.40.0",
        ),
        _P(
            "CPU_EXTENSION_PATH",
            _K.PATH,
            "A shared library with the kernels of custom CPU layers.",
        ),
        _P(
            "INFERENCE_NUM_THREADS",
            _K.INTEGER,
            "The most threads inference may use (not negative).",
            since="2.26.0",
        ),
        _P(
            "COMPILATION_NUM_THREADS",
            _K.INTEGER,
            "The most threads compiling the model may use (not negative).",
            since="2.26.0",
        ),
        _P(
            "HINT_BF16",
            _K.STRING,
            "Asks the device to infer in bfloat16 precision; `YES` is the only value taken.",
            (_C("YES", "infer in bfloat16"),),
            since="2.26.0",
        ),
        _P(
            "NUM_STREAMS",
            _K.STRING,
            "How many streams (logical partitions) execute requests: `AUTO`, `NUMA`, or (Triton "
            "2.40.0 on) a number.",
            (
                _C("AUTO", "the fewest streams that perform well"),
                _C("NUMA", "as many streams as NUMA nodes need"),
            ),
            since="2.26.0",
        ),
        _P(
            "SKIP_OV_DYNAMIC_BATCHSIZE",
            _K.YES_NO,
            "`YES` skips OpenVINO's dynamic batch size, for models whose topology does not "
            "allow it.",
        ),
        _P(
            "ENABLE_BATCH_PADDING",
            _K.YES_NO,
            "`YES` pads batches smaller than `max_batch_size` instead of refusing them.",
        ),
        _P(
            "RESHAPE_IO_LAYERS",
            _K.YES_NO,
            "`YES` reshapes the model's inputs and outputs to the dims of this config.",
        ),
        _P(
            "TARGET_DEVICE",
            _K.STRING,
            "The OpenVINO device that runs the model: `CPU` (the default), `GPU`, `NPU`, or a "
            "virtual device such as `AUTO`, `MULTI` or `HETERO`.",
            since="2.62.0",
        ),
        _P(
            "CPU_THREADS_NUM",
            _K.INTEGER,
            "Threads for inference on the CPU (not negative).",
            until="2.26.0",
        ),
        _P(
            "ENFORCE_BF16",
            _K.STRING,
            "Whether floating point operations run in bfloat16 where the CPU supports it.",
            (_C("YES"), _C("NO")),
            until="2.26.0",
        ),
        _P(
            "CPU_BIND_THREAD",
            _K.STRING,
            "How CPU inference threads are pinned.",
            (_C("YES", "threads to cores"), _C("NUMA", "threads to NUMA nodes"), _C("NO")),
            until="2.26.0",
        ),
        _P(
            "CPU_THROUGHPUT_STREAMS",
            _K.STRING,
            "How many streams execute requests on the CPU: a number, `AUTO` or `NUMA`.",
            (_C("AUTO"), _C("NUMA")),
            until="2.26.0",
        ),
    ),
    "tensorflow": (
        _P(
            "TF_NUM_INTRA_THREADS",
            _K.INTEGER,
            "Threads that share the work inside one op (not negative; TensorFlow chooses when "
            "unset).",
        ),
        _P(
            "TF_NUM_INTER_THREADS",
            _K.INTEGER,
            "How many ops may run at once (TensorFlow chooses when unset).",
        ),
        _P(
            "TF_USE_PER_SESSION_THREADS",
            _K.BOOL,
            "Gives each TensorFlow session thread pools of its own.",
        ),
        _P(
            "TF_GRAPH_TAG",
            _K.STRING,
            "The tag of the SavedModel meta graph to load.",
        ),
        _P(
            "TF_SIGNATURE_DEF",
            _K.STRING,
            "The SavedModel signature def to serve.",
        ),
        _P(
            "MAX_SESSION_SHARE_COUNT",
            _K.INTEGER,
            "How many instances may share one TensorFlow session (a positive number; 1, the "
            "default, gives each instance its own).",
        ),
        _P(
            "TF_INIT_OPS_FILE",
            _K.PATH,
            "A JSON file (in the version folder or the model folder) whose `init_ops` list "
            "names the operations to run when the model loads.",
            since="2.24.0",
        ),
    ),
    "tensorrt": (
        _P(
            "execution_context_allocation_strategy",
            _K.STRING,
            "How an execution context allocates the device memory of its activations.",
            (
                _C("STATIC", "once, the most any profile needs (the default)"),
                _C("ON_PROFILE_CHANGE", "again whenever another profile is selected"),
            ),
            since="2.58.0",
        ),
        _P(
            "enable_multi_device",
            _K.BOOL,
            "Shards execution over several GPUs in one process (`true` or `1`; needs "
            "`KIND_MODEL` instances and `multi_device_gpus`).",
            since="2.70.0",
        ),
        _P(
            "multi_device_gpus",
            _K.STRING,
            "With `enable_multi_device`: the GPU ids to use, separated by commas (at least two).",
            since="2.70.0",
        ),
        _P(
            "multi_device_per_rank_engines",
            _K.BOOL,
            "With `enable_multi_device`: each rank r loads its own engine, `<model file>.rank<r>`.",
            since="2.70.0",
        ),
    ),
    "fil": (
        _P(
            "model_type",
            _K.STRING,
            "The format of the model file (`xgboost` when unset).",
            (
                _C("xgboost", "XGBoost binary (legacy), `xgboost.model`"),
                _C("xgboost_json", "XGBoost JSON, `xgboost.json`"),
                _C("xgboost_ubj", "XGBoost UBJSON, `xgboost.ubj` (Triton 2.51.0 on)"),
                _C("lightgbm", "LightGBM text, `model.txt`"),
                _C("treelite_checkpoint", "Treelite checkpoint, `checkpoint.tl`"),
            ),
        ),
        _P(
            "output_class",
            _K.BOOL,
            "Whether the model is a classifier (`true`) or a regressor (`false`); required.",
            until="2.61.0",
        ),
        _P(
            "is_classifier",
            _K.BOOL,
            "Whether the model is a classifier (`true`) or a regressor (`false`); required.",
            since="2.61.0",
        ),
        _P(
            "predict_proba",
            _K.BOOL,
            "For classifiers: return a score for each class rather than the class id.",
        ),
        _P(
            "xgboost_allow_unknown_field",
            _K.BOOL,
            "For XGBoost JSON models: ignore unknown fields instead of refusing the file.",
            since="2.39.0",
        ),
        _P(
            "threshold",
            _K.NUMBER,
            "For binary classifiers: the score from which a prediction counts as positive "
            "(the source reads it as required for classifiers; its docs say 0.5 when unset).",
        ),
        _P(
            "use_experimental_optimizations",
            _K.BOOL,
            "Turns on FIL's experimental optimizations (CPU deployments).",
            since="2.21.0",
        ),
        _P(
            "threads_per_tree",
            _K.INTEGER,
            "GPU only: consecutive CUDA threads that evaluate one tree (a power of 2, 1 to 32).",
            until="2.61.0",
        ),
        _P(
            "storage_type",
            _K.STRING,
            "GPU only: how trees are stored in device memory.",
            (
                _C("AUTO", "DENSE unless that clearly takes much more memory (the default)"),
                _C("DENSE", "more memory, sometimes faster"),
                _C("SPARSE", "less memory"),
                _C("SPARSE8", "experimental, least memory"),
            ),
            until="2.61.0",
        ),
        _P(
            "algo",
            _K.STRING,
            "GPU only: how tree nodes are laid out and traversed.",
            (
                _C("ALGO_AUTO", "NAIVE for sparse storage, BATCH_TREE_REORG for dense"),
                _C("NAIVE", "breadth-first layout"),
                _C("TREE_REORG", "trees rearranged for coalesced memory access"),
                _C("BATCH_TREE_REORG", "TREE_REORG over several rows at once"),
            ),
            until="2.61.0",
        ),
        _P(
            "blocks_per_sm",
            _K.INTEGER,
            "GPU only, experimental: CUDA blocks to launch per streaming multiprocessor (above 0).",
            until="2.61.0",
        ),
        _P(
            "chunk_size",
            _K.INTEGER,
            "GPU only: how finely a batch is split for parallel work (a power of 2, 1 to 32).",
            since="2.61.0",
        ),
        _P(
            "layout",
            _K.STRING,
            "GPU only: how the nodes of the trees are ordered in memory.",
            (
                _C("depth_first", "the default; tends to suit deeper trees"),
                _C("breadth_first", "tends to suit shallow trees"),
                _C("layered", "nodes of all trees interleaved level by level"),
            ),
            since="2.61.0",
        ),
        _P(
            "transfer_threshold",
            _K.INTEGER,
            "GPU deployments: the number of rows above which data is moved to the GPU.",
        ),
        _P(
            "cpu_nthread",
            _K.INTEGER,
            "Threads for inference on the CPU (-1, the default, lets the library choose).",
            since="2.20.0",
        ),
    ),
    "dali": (
        _P(
            "num_threads",
            _K.INTEGER,
            "CPU threads of the DALI pipeline, as the pipeline's own `num_threads`.",
        ),
        _P(
            "split_along_outer_axis",
            _K.STRING,
            "Outputs, separated by `:`, whose outer dimension is split into separate samples.",
            since="2.29.0",
        ),
    ),
    "vllm": (
        _P(
            "REPORT_CUSTOM_METRICS",
            _K.STRING,
            "`yes` reports vLLM's engine metrics to Triton's metrics endpoint.",
            (_C("yes", "report them"),),
            since="2.49.0",
            until="2.53.0",
        ),
        _P(
            "REPORT_CUSTOM_METRICS",
            _K.BOOL,
            "`true` reports vLLM's engine metrics to Triton's metrics endpoint.",
            since="2.53.0",
        ),
        _P(
            "ENABLE_VLLM_HEALTH_CHECK",
            _K.BOOL,
            "`true` checks the vLLM engine's health with each request; an unhealthy engine "
            "makes the model not ready.",
            since="2.53.0",
        ),
    ),
}


def parameters_of(backend: str, release: str) -> tuple[Parameter, ...]:
    """The keys ``backend`` reads in Triton ``release`` (none for a backend not known here)."""
    return tuple(p for p in BACKEND_PARAMETERS.get(backend, ()) if p.read_in(release))


def parameter(backend: str, key: str, release: str | None = None) -> Parameter | None:
    """What ``backend`` makes of ``key`` in ``release`` or, where none is given, in the first
    releases that read it (a key whose values changed has an entry for each span); None
    for a key the backend never read."""
    for known in BACKEND_PARAMETERS.get(backend, ()):
        if known.key == key and (release is None or known.read_in(release)):
            return known
    return None
