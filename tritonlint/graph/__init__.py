"""Ensemble graphs: the models of a repository and the tensors its ensembles pass between
them, with the findings about each, drawn for people and given as data to editors.

``model`` holds the data, ``build`` makes it from the engine's check of a repository (with
``attach`` placing each finding on the node or edge it is about, and ``smoke_report`` reading
the refusals of a smoke run), ``selection`` cuts it down to one model (``--model``),
``drawing`` turns it into boxes, clusters and arrows, and ``mermaid``, ``dot``, ``html``
(with ``layout``) and ``json_data`` write them out, ``render`` choosing one. Nothing below
this package imports it.
"""
