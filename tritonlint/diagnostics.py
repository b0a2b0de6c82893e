"""What every stage reports: diagnostics with a code, a severity and a place."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tritonlint.span import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


class RelatedLocation(BaseModel):
    """Another place that explains a finding (the composing model's input, the first duplicate)."""

    model_config = ConfigDict(frozen=True)

    path: Path
    span: Span | None = None
    message: str


class Diagnostic(BaseModel):
    """One finding about one file or folder."""

    model_config = ConfigDict(frozen=True)

    code: str
    name: str
    severity: Severity
    message: str
    path: Path
    span: Span | None = None
    related: tuple[RelatedLocation, ...] = ()

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        line = self.span.line if self.span else 0
        column = self.span.column if self.span else 0
        return (str(self.path), line, column, self.code)
