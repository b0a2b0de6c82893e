"""Importing this module registers every rule pack."""

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
