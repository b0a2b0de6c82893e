"""How every framework stand-in answers the requests of one ``execute()`` call.

Each request gets its own response: the model's output tensors, or, where running the model
on that request raised, an error response with the message (as the real backends answer a
request they cannot run, without failing the others). It runs inside the python backend's stub
process only, where ``triton_python_backend_utils`` exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]


def respond(requests: Sequence[Any], run: Callable[[Any], list[Any]]) -> list[Any]:
    """``run`` on each request: its output tensors as the request's response."""
    responses = []
    for request in requests:
        try:
            tensors = run(request)
        except Exception as error:
            message = pb_utils.TritonError(str(error).strip())
            responses.append(pb_utils.InferenceResponse(output_tensors=[], error=message))
        else:
            responses.append(pb_utils.InferenceResponse(output_tensors=tensors))
    return responses
