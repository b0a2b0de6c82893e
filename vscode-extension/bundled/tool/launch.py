"""Runs the tritonlint bundled with the extension (bundled/libs), whatever the Python has.

The extension starts it as ``python -I <extension>/bundled/tool/launch.py lsp``: ``-I`` keeps
the working folder, ``PYTHONPATH`` and the user's site-packages off ``sys.path``, and the
bundled libraries go first on it, so a tritonlint (or a dependency of it) installed in that
Python's own environment is never imported in place of the bundled one.

Written for any Python 3: an older one is told what is needed instead of failing on syntax.
"""

import os
import sys

#: The exit status when the Python is older than tritonlint supports (the extension then tries
#: the next Python it knows of).
TOO_OLD_PYTHON = 3


def main() -> None:
    # Checked, and said without f-strings, for the older Pythons that reach this line.
    if sys.version_info < (3, 10):  # noqa: UP036
        sys.stderr.write(
            "tritonlint needs Python 3.10 or newer, not %d.%d (%s)\n"  # noqa: UP031
            % (sys.version_info[0], sys.version_info[1], sys.executable)
        )
        sys.exit(TOO_OLD_PYTHON)
    libs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
    sys.path.insert(0, libs)
    from tritonlint.__main__ import run

    run()


if __name__ == "__main__":
    main()
