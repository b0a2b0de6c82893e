"""``python -m tritonlint.cli``: the ``tritonlint`` command."""

import sys

from tritonlint.cli.dispatch import main

if __name__ == "__main__":
    sys.exit(main())
