"""The hub: the one answer to "what is known about r*(m, n)?" (docs/index-format.md).

- :mod:`.answer`: both sides of r*(m, n) for a variant and kernel class, closed under
  restriction in m, its invariants enforced (lower <= upper <= upper_nonnegative);
- :mod:`.index`: the shipped index (the checker's claims on the committed files) and user
  folders of certificates, each file checked before its claim is used;
- :mod:`.stored`: the stored computed sources (COMPUTED) and how they are rebuilt;
- :mod:`.catalog`: the committed set, one entry per file and the generator call behind it;
- :mod:`.workflow`: regenerate, check, compare and reindex the committed set;
- :mod:`.report`: the two-sided tables, the generated docs tables and the plots.
"""
