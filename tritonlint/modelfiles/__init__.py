"""What a model's own files say about it: tensor names, types and shapes, read statically.

Readers here never execute or import anything from a model file (no unpickling, no framework
imports): they read the bytes of the files the repository walk found, the way each format lays
out its metadata, and stop at the first thing that does not fit that layout with a
:class:`~tritonlint.modelfiles.signature.ModelFileProblem`.
"""
