"""``tritonlint check --fix``: apply the fixes findings carry, check again, and write.

:func:`fix_paths` fixes in memory, in the engine's overlay, round after round
(:mod:`tritonlint.fixing.rounds`), refusing any fix that breaks the file or changes fields
its finding is not about (:mod:`tritonlint.fixing.verify`); :func:`write_fixes` writes all
changed files or none.
"""

from tritonlint.fixing.rounds import MAX_ROUNDS, Applied, Refused
from tritonlint.fixing.run import FixRun, fix_paths, write_fixes

__all__ = ["MAX_ROUNDS", "Applied", "FixRun", "Refused", "fix_paths", "write_fixes"]
