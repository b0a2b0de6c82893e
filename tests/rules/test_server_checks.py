"""Rules mirroring the server's remaining checks, across models: a rate limiter's resources,
an ensemble step's version. Every rule's cases are in tests/rules/cases/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import Files, codes, lint, locate, with_code

Repo = Callable[[Files], Path]

ONNX = 'platform: "onnxruntime_onnx"\n'
IO = (
    'input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
    'output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
)


def test_ensemble_step_without_model_version_is_a_warning(repo: Repo) -> None:
    clf = ONNX + IO
    step = (
        '{ model_name: "clf" input_map { key: "INPUT__0" value: "IN" } '
        'output_map { key: "OUTPUT__0" value: "OUT" } }'
    )
    pipeline = (
        'platform: "ensemble"\n'
        'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        f"ensemble_scheduling {{ step [ {step} ] }}\n"
    )
    files: Files = {
        "clf/config.pbtxt": clf,
        "clf/0/model.onnx": b"",
        "p/config.pbtxt": pipeline,
        "p/1/.gitkeep": b"",
    }
    found = with_code(lint(repo(files)), "TL719")
    assert len(found) == 1 and found[0].severity.value == "warning"
    assert (found[0].span.line, found[0].span.column) == locate(pipeline, '"clf"')  # type: ignore[union-attr]
    fixed = dict(
        files, **{"p/config.pbtxt": pipeline.replace('"clf" ', '"clf" model_version: -1 ')}
    )
    assert "TL719" not in codes(lint(repo(fixed)))


def test_rate_limiter_resource_both_global_and_per_device(repo: Repo) -> None:
    def config(is_global: str) -> str:
        return (
            ONNX + IO + "instance_group [ { kind: KIND_CPU rate_limiter { resources [ "
            f'{{ name: "R" global: {is_global} count: 1 }} ] }} }} ]\n'
        )

    files: Files = {
        "a/config.pbtxt": config("true"),
        "a/1/model.onnx": b"",
        "b/config.pbtxt": config("false"),
        "b/1/model.onnx": b"",
    }
    found = with_code(lint(repo(files)), "TL609")
    assert len(found) == 1
    assert found[0].severity.value == "warning"
    assert found[0].path.parent.name == "b"
    assert 'Resource "R" is present as both global and device-specific resource' in (
        found[0].message
    )
    same = dict(files, **{"b/config.pbtxt": config("true")})
    assert "TL609" not in codes(lint(repo(same)))
