"""The one type of a usage error: the user asked for something tritonlint cannot do.

Every command raises it (or a subclass: a bad settings file or environment variable, a
report that cannot be written or merged, a smoke run that cannot start) with a message of
one line, and the command line catches it in one place: ``tritonlint: error: <message>`` on
standard error, exit status 2. It imports nothing, so that any module may raise it.
"""

from __future__ import annotations


class UsageError(Exception):
    """A mistake in how tritonlint was called or set up; its message is one line."""
