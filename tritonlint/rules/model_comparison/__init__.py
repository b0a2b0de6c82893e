"""The modelfile pack: a config against the model file its backend loads, read statically.

The backends compare a config with the model when they load it, minutes into a server's start
for a large model; these rules make the same comparisons, in the backends' words, from what
:mod:`tritonlint.modelfiles` reads (``ModelContext.model_file``). Where the model file is an
empty placeholder, absent, or of a backend whose files are not read, they stay quiet.
"""
