"""The rules whose findings a pipeline stage reports, rather than a check function.

The walker, the config loader, the parser, the binder, the dependency pass, the suppression
pass and the smoke stage each report problems of a few fixed kinds. They name them with these
members, so that a misspelt rule is a type error, not a lookup that fails at run time; the
registry documents each member under its code (see ``tritonlint/rules/file_problems.py`` and
the other declaring packs).
"""

from __future__ import annotations

from enum import Enum


class StageRule(str, Enum):
    """A rule reported by a pipeline stage; the value is the rule's name."""

    # files: the walker and the config loader
    NOT_UTF8 = "not-utf8"
    BINARY_FILE = "binary-file"
    FILE_TOO_LARGE = "file-too-large"
    UNREADABLE_PATH = "unreadable-path"
    SYMLINK_LOOP = "symlink-loop"
    # syntax: the parser
    SYNTAX_ERROR = "syntax-error"
    TEMPLATE_PLACEHOLDER = "template-placeholder"
    JSON_CONFIG = "json-config"
    PYTHON_SOURCE = "python-source"
    # suppression comments
    UNUSED_SUPPRESSION = "unused-suppression"
    # smoke: what a real server said
    SMOKE_LOAD_FAILED = "smoke-load-failed"
    SMOKE_BACKEND_MISSING = "smoke-backend-missing"
    SMOKE_NEEDS_GPU = "smoke-needs-gpu"
    SMOKE_LOAD_TIMEOUT = "smoke-load-timeout"
    SMOKE_SERVER_CRASHED = "smoke-server-crashed"
    SMOKE_INFER_FAILED = "smoke-infer-failed"
    SMOKE_OUTPUT_MISMATCH = "smoke-output-mismatch"
    SMOKE_OUTPUT_MISSING = "smoke-output-missing"
    # schema: the binder
    UNKNOWN_FIELD = "unknown-field"
    WRONG_VALUE_TYPE = "wrong-value-type"
    INVALID_VALUE = "invalid-value"
    INTEGER_OUT_OF_RANGE = "integer-out-of-range"
    UNKNOWN_ENUM_VALUE = "unknown-enum-value"
    UNKNOWN_ENUM_NUMBER = "unknown-enum-number"
    DUPLICATE_FIELD = "duplicate-field"
    OVERRIDDEN_FIELD = "overridden-field"
    ONEOF_CONFLICT = "oneof-conflict"
    DUPLICATE_MAP_KEY = "duplicate-map-key"
    # ensembles: the dependency pass after the rules
    ENSEMBLE_COMPOSING_MODEL_REFUSED = "ensemble-composing-model-refused"
