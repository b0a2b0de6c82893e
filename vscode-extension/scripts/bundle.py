"""Bundle tritonlint and its pure-Python dependencies into bundled/libs, for the .vsix.

Run from vscode-extension/ (``npm run bundle``; ``npm run package`` runs it first):

    python3 scripts/bundle.py [--source REPOSITORY]

The source is the tritonlint repository whose wheel is bundled: ``--source``, else
``$TRITONLINT_CHECKOUT``, else the folder above vscode-extension/. Its wheel is built with
``pip wheel --no-deps`` and installed without its dependencies; the dependencies of its
pyproject.toml are installed as wheels for any platform (``--platform any --implementation
py``), so the bundle runs on every operating system and every Python from 3.10 on. A
dependency's environment marker is not evaluated (pip would evaluate it for the Python running
this script, not the oldest one the bundle serves): every dependency is bundled.

Left out: the dependencies' console scripts. The bundle is then checked: a compiled file, or a wheel
that is not pure Python, fails the build.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

EXTENSION = Path(__file__).resolve().parent.parent
LIBS = EXTENSION / "bundled" / "libs"
#: The oldest Python the bundle serves: the wheels are chosen for it.
OLDEST_PYTHON = "3.10"
#: Dependencies of dependencies that only the oldest Python needs, behind a marker that pip
#: would evaluate for the Python running this script (cattrs needs exceptiongroup before 3.11).
FOR_OLDEST_PYTHON = ["exceptiongroup"]
#: Suffixes of compiled files: none may be bundled.
COMPILED = (".so", ".pyd", ".dylib", ".dll", ".exe")


class BundleError(Exception):
    """What went wrong, said to the user without a traceback."""


def source_folder(given: str | None) -> Path:
    """The tritonlint repository to bundle; its pyproject.toml must name tritonlint."""
    folder = Path(given or os.environ.get("TRITONLINT_CHECKOUT") or EXTENSION.parent).resolve()
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        raise BundleError(f"{folder} has no pyproject.toml: pass the repository with --source")
    project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    if project.get("name") != "tritonlint":
        name = project.get("name")
        raise BundleError(f"{pyproject} is not tritonlint's (project.name is {name!r})")
    return folder


def dependencies(folder: Path) -> list[str]:
    """The project's dependencies, without markers, plus those that only the oldest Python
    needs."""
    pyproject = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = pyproject["project"]["dependencies"]
    return [line.split(";", 1)[0].strip() for line in requirements] + FOR_OLDEST_PYTHON


def pip(*args: str | Path) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *map(str, args)]
    print("+", " ".join(command), flush=True)
    if subprocess.run(command, check=False).returncode != 0:
        raise BundleError(f"pip {args[0]} failed (its output is above)")


def build(folder: Path, work: Path) -> None:
    """Installs the wheel of ``folder`` and the dependencies into bundled/libs."""
    wheels = work / "wheel"
    pip("wheel", "--no-deps", "--wheel-dir", wheels, folder)
    (wheel,) = wheels.glob("tritonlint-*.whl")
    neutral = ["--only-binary=:all:", "--platform", "any", "--implementation", "py"]
    staged = work / "libs"
    pip("install", "--no-compile", "--no-deps", "--target", staged, wheel)
    pip(
        "install",
        "--no-compile",
        "--upgrade",
        "--target",
        staged,
        *neutral,
        "--python-version",
        OLDEST_PYTHON,
        *dependencies(folder),
    )
    shutil.rmtree(staged / "bin", ignore_errors=True)  # console scripts, for the build's Python
    shutil.rmtree(LIBS, ignore_errors=True)
    LIBS.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(staged, LIBS)


def problems(libs: Path) -> list[str]:
    """What makes the bundle other than pure Python, or incomplete."""
    found = [
        f"compiled file {path.relative_to(libs)}"
        for path in sorted(libs.rglob("*"))
        if path.is_file() and path.name.lower().endswith(COMPILED)
    ]
    for wheel in sorted(libs.glob("*.dist-info/WHEEL")):
        text = wheel.read_text(encoding="utf-8")
        if "Root-Is-Purelib: true" not in text:
            found.append(f"{wheel.parent.name} is not a pure-Python wheel")
        tags = re.findall(r"^Tag: (\S+)$", text, flags=re.MULTILINE)
        if any(not tag.endswith("-none-any") for tag in tags):
            found.append(f"{wheel.parent.name} is tagged {', '.join(tags)}, not for any platform")
    if not (libs / "tritonlint" / "__init__.py").is_file():
        found.append("tritonlint/__init__.py is missing")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", help="the tritonlint repository (default: see above)")
    parser.add_argument(
        "--check", action="store_true", help="check the existing bundle only, build nothing"
    )
    options = parser.parse_args()
    try:
        if not options.check:
            folder = source_folder(options.source)
            with tempfile.TemporaryDirectory(prefix="tritonlint-bundle-") as work:
                build(folder, Path(work))
        if not LIBS.is_dir():
            raise BundleError(f"there is no bundle at {LIBS}: run npm run bundle")
        found = problems(LIBS)
        if found:
            raise BundleError("the bundle is not pure Python:\n  " + "\n  ".join(found))
    except BundleError as error:
        print(f"bundle.py: {error}", file=sys.stderr)
        return 1
    distributions = sorted(
        path.name.removesuffix(".dist-info") for path in LIBS.glob("*.dist-info")
    )
    size = sum(path.stat().st_size for path in LIBS.rglob("*") if path.is_file())
    print(f"bundled/libs: {len(distributions)} distributions, {size / 1e6:.1f} MB, pure Python")
    print("  " + " ".join(distributions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
