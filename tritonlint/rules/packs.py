"""Every rule pack, listed once: its name, what it checks, and the modules that hold its rules.

The registry files the rules each module declares under the pack that lists the module here. A
pack's name is shown by ``tritonlint rules``, in docs/rules.md, README's pack table and SARIF
reports; rule selectors (``select``, ``ignore``, suppression comments) name codes and rules,
never packs.
"""

from types import ModuleType
from typing import NamedTuple

from tritonlint.rules import (
    agents,
    backends,
    batch_io,
    batching,
    file_problems,
    instances,
    io,
    layout,
    metrics,
    naming,
    parameters,
    platform,
    responses,
    schema,
    sequence,
    smoke,
    suppressions,
    syntax,
    warmup,
)
from tritonlint.rules.ensemble import across_models, data_flow, structure
from tritonlint.rules.model_comparison import (
    labels,
    names,
    plans,
    python,
    pytorch,
    readable,
    tensors,
)


class Pack(NamedTuple):
    name: str
    #: What the pack checks, in a line (README's pack table; ``tritonlint rules --markdown-packs``).
    summary: str
    #: The modules whose declarations are the pack's rules.
    modules: tuple[ModuleType, ...]


#: Every pack, in the order of their codes.
PACKS: tuple[Pack, ...] = (
    Pack(
        "files", "unreadable, binary, non-UTF-8, oversized files; symlink loops", (file_problems,)
    ),
    Pack(
        "syntax",
        (
            "protobuf text-format syntax (every error in a file, with what was expected); unfilled "
            "`${...}` template placeholders; JSON or Python source pasted into config.pbtxt"
        ),
        (syntax,),
    ),
    Pack(
        "suppressions",
        "a `# tritonlint: disable=...` comment that suppresses nothing",
        (suppressions,),
    ),
    Pack(
        "smoke",
        (
            "what a real tritonserver said when the smoke stage loaded the model: refused (with "
            "the rule that predicts the message), backend missing, needs a GPU, timed out, "
            "crashed; and how the loaded model answered one inference request: failed, an output "
            "not as configured, an output missing ([docs/smoke.md](docs/smoke.md))"
        ),
        (smoke,),
    ),
    Pack(
        "schema",
        (
            'unknown fields (with "did you mean", and the release that added a field the targeted '
            "release lacks), wrong value types, bad literals, integer ranges, unknown enum values, "
            "duplicate fields, oneof conflicts, duplicate map keys"
        ),
        (schema,),
    ),
    Pack("naming", "`name` against the folder; names clients cannot address", (naming,)),
    Pack(
        "layout",
        (
            "missing config (or one under another name), version folders (missing, ignored, "
            "malformed), version policy, the model file each backend loads (and the TensorRT plans "
            "`cc_model_filenames` names per GPU), label files, hidden "
            "folders, file names no file can have, a config.pbtxt in a version folder"
        ),
        (layout,),
    ),
    Pack(
        "platform",
        (
            "platform/backend pairs as the server completes them; misspelt backend names; "
            "`runtime` paths"
        ),
        (platform,),
    ),
    Pack(
        "io",
        (
            "names, data types, dims and reshape of inputs and outputs; image formats, shape "
            "tensors, duplicate or numeric names, a batch dimension written twice"
        ),
        (io,),
    ),
    Pack("batch_io", "ragged-batching batch inputs and outputs", (batch_io,)),
    Pack(
        "batching",
        (
            "max_batch_size, preferred batch sizes, priority levels, ordering, batchers that "
            "cannot batch"
        ),
        (batching,),
    ),
    Pack(
        "sequence",
        "sequence-batching control tensors, strategies, implicit state and its initial values",
        (sequence,),
    ),
    Pack(
        "instances",
        (
            "instance-group kinds, GPU ids, counts, profiles, secondary devices, rate-limiter "
            "resources"
        ),
        (instances,),
    ),
    Pack(
        "ensemble",
        (
            "ensemble structure, data flow between steps, every step against its model's config "
            "(tensor names, data types, shapes, batch sizes, versions, cycles), and steps whose "
            "model is refused"
        ),
        (structure, data_flow, across_models),
    ),
    Pack(
        "warmup",
        (
            "warmup samples against the model's inputs: names, types, shapes, batch sizes, data "
            "files (missing, too small, too large)"
        ),
        (warmup,),
    ),
    Pack(
        "serving",
        (
            "response cache, Python environments, backend parameters, decoupled policies, model "
            "metrics, repository agents"
        ),
        (responses, parameters, metrics, agents),
    ),
    Pack(
        "backends",
        (
            "what the PyTorch, ONNX Runtime, TensorRT, TensorFlow and Python backends refuse "
            "(marked as backend checks: only the smoke stage with the real backend confirms them)"
        ),
        (backends,),
    ),
    Pack(
        "modelfile",
        (
            "the config against the model file its backend loads, read statically: names, data "
            'types, ranks and dimensions of inputs and outputs (with "did you mean"), inputs '
            "the config lacks, batching a model cannot do, PyTorch forward() arguments, label "
            "file sizes, Python models that do not compile or lack `execute`, TensorRT plans of "
            "one model built with different TensorRT versions or with another TensorRT than "
            "the targeted release's (read from their headers), unreadable model files (backend "
            "checks)"
        ),
        (readable, names, tensors, pytorch, labels, python, plans),
    ),
)
