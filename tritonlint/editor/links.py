"""Links from a config to the files it names: label files and warmup data files.

A name becomes a link only when the file is there: the server joins it to the folder as
written (so ``../`` and ``/`` work as they do for the server), and a missing file is
already a diagnostic (TL218, TL804) rather than a link that opens an
empty buffer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tritonlint.document import parse_config
from tritonlint.editor.context import Source
from tritonlint.repository.model import path_problem
from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.schema.releases import Schema
    from tritonlint.schema.source_map import Path as FieldPath


class Link(NamedTuple):
    #: The file name as written, quotes included.
    span: Span
    target: Path


def document_links(source: Source, schema: Schema, folder: Path) -> list[Link]:
    """The files ``source`` (the config of the model in ``folder``) names that exist, in
    document order: each output's ``label_filename`` in ``folder``, each warmup input's
    ``input_data_file`` in ``folder/warmup``."""
    document = (
        parse_config(folder / "config.pbtxt", source, schema) if isinstance(source, str) else source
    )
    config: Any = document.config
    if config is None or document.bound is None:
        return []
    named: list[tuple[FieldPath, str, Path]] = [
        (("output", index, "label_filename"), output.label_filename, folder)
        for index, output in enumerate(config.output)
    ]
    for index, warmup in enumerate(config.model_warmup):
        for key, value in warmup.inputs.items():
            if value.WhichOneof("input_data_type") == "input_data_file":
                place = ("model_warmup", index, "inputs", key, "value", "input_data_file")
                named.append((place, value.input_data_file, folder / "warmup"))
    links = []
    for field_path, name, base in named:
        location = document.bound.source_map.get(field_path)
        if location is None or path_problem(name) is not None:
            continue
        target = Path(f"{base}/{name}")
        if target.is_file():
            links.append(Link(location.value, target))
    return sorted(links, key=lambda link: link.span.start)
