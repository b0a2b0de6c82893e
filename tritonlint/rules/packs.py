"""Importing this module registers every rule pack."""

from tritonlint.rules import (  # noqa: F401
    batching,
    ensemble,
    files,
    io,
    layout,
    naming,
    platform,
    schema,
    syntax,
    warmup,
)
