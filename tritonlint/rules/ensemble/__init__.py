"""The ensemble pack, by topic: an ensemble's structure, the data flow between its steps, and
each step against the config of the model it runs (across models)."""
