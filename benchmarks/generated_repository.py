"""Generate a large model repository from the example repository in ``fixtures/``.

Each group copies every model of ``fixtures/model_repository`` under a suffixed name
(``preprocess_00042``), with the ensemble's steps renamed to the copies of its group, so a
repository of N models holds N/8 ensembles, each running three models of its own group.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "model_repository"


def example_models() -> list[Path]:
    return sorted(p for p in EXAMPLE.iterdir() if (p / "config.pbtxt").is_file())


def generate(destination: Path, models: int) -> Path:
    """Write a repository of (about) ``models`` models under ``destination``; returns it."""
    originals = example_models()
    names = [model.name for model in originals]
    renames = re.compile(r'"(' + "|".join(map(re.escape, names)) + r')"')
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    for group in range(max(1, models // len(originals))):
        suffix = f"_{group:05d}"
        for model in originals:
            target = destination / (model.name + suffix)
            shutil.copytree(model, target)
            config = target / "config.pbtxt"
            text = config.read_text(encoding="utf-8")
            renamed = renames.sub(lambda m, end=suffix: f'"{m.group(1)}{end}"', text)
            config.write_text(renamed, encoding="utf-8")
    return destination


if __name__ == "__main__":
    import sys

    print(generate(Path(sys.argv[1]), int(sys.argv[2])))
