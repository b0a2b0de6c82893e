"""The rules: pack modules of small checks, one topic each, listed by pack in ``packs.py``;
the types rules are made of (``base.py``); the registry of them all (``registry.py``); what a
check sees (``context.py``) and the helpers checks share."""
