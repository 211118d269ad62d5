"""The committed certificate set and how it is maintained (docs/index-format.md).

- :mod:`.catalog`: one entry per committed file, naming the generator call that rebuilds it;
- :mod:`.workflow`: regenerate, check, compare and reindex the committed set (INDEX, COMPUTED);
- :mod:`.regeneration`: the deterministic sample of the set that CI regenerates;
- :mod:`.storedcheck`: `certificates --verify`, every stored COMPUTED row rebuilt and re-checked;
- :mod:`.shipped`: the shipped set by name, and checking it as it is (`certificates --check`).

The hub (:mod:`kernelbounds.hub`) only reads what this room writes.
"""
