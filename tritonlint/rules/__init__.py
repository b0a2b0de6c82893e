"""Rule packs: one module per pack, one small check per rule."""
