"""Importing this module registers every rule pack."""

from tritonlint.rules import (  # noqa: F401
    ensemble,
    files,
    layout,
    naming,
    platform,
    schema,
    syntax,
)
