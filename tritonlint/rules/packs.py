"""Importing this module registers every rule pack; :data:`PACK_SUMMARIES` says what each checks."""

from tritonlint.rules import (  # noqa: F401
    backends,
    batch_io,
    batching,
    ensemble,
    files,
    instances,
    io,
    layout,
    misc,
    naming,
    platform,
    schema,
    sequence,
    smoke,
    suppressions,
    syntax,
    warmup,
)

#: What each pack checks, in a line (README's pack table; ``tritonlint rules --markdown-packs``).
PACK_SUMMARIES: dict[str, str] = {
    "files": "unreadable, binary, non-UTF-8, oversized files; symlink loops",
    "syntax": (
        "protobuf text-format syntax (every error in a file, with what was expected); unfilled "
        "`${...}` template placeholders; JSON or Python source pasted into config.pbtxt"
    ),
    "suppressions": "a `# tritonlint: disable=...` comment that suppresses nothing",
    "smoke": (
        "what a real tritonserver said when the smoke stage loaded the model: refused (with the "
        "rule that predicts the message), backend missing, needs a GPU, timed out, crashed "
        "([docs/smoke.md](docs/smoke.md))"
    ),
    "schema": (
        'unknown fields (with "did you mean", and the release that added a field the targeted '
        "release lacks), wrong value types, bad literals, integer ranges, unknown enum values, "
        "duplicate fields, oneof conflicts, duplicate map keys"
    ),
    "naming": "`name` against the folder; names clients cannot address",
    "layout": (
        "missing config, version folders (missing, ignored, malformed), version policy, the model "
        "file each backend loads, label files, hidden folders, file names no file can have, a "
        "config.pbtxt in a version folder"
    ),
    "platform": (
        "platform/backend pairs as the server completes them; misspelt backend names; `runtime` "
        "paths"
    ),
    "io": (
        "names, data types, dims and reshape of inputs and outputs; image formats, shape tensors, "
        "duplicate or numeric names, a batch dimension written twice"
    ),
    "batch_io": "ragged-batching batch inputs and outputs",
    "batching": (
        "max_batch_size, preferred batch sizes, priority levels, ordering, batchers that cannot "
        "batch"
    ),
    "sequence": (
        "sequence-batching control tensors, strategies, implicit state and its initial values"
    ),
    "instances": (
        "instance-group kinds, GPU ids, counts, profiles, secondary devices, rate-limiter resources"
    ),
    "ensemble": (
        "ensemble structure, data flow between steps, every step against its model's config "
        "(tensor names, data types, shapes, batch sizes, versions, cycles), and steps whose model "
        "is refused"
    ),
    "warmup": (
        "warmup samples against the model's inputs: names, types, shapes, batch sizes, data files "
        "(missing, too small, too large)"
    ),
    "misc": (
        "response cache, Python environments, backend parameters, decoupled policies, model "
        "metrics, repository agents"
    ),
    "backends": (
        "what the PyTorch, ONNX Runtime, TensorRT, TensorFlow and Python backends refuse (marked "
        "as backend checks: only the smoke stage with the real backend confirms them)"
    ),
}
