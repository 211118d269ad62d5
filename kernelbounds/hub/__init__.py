"""The hub answers "what is known about r*(m, n)?" from checked claims only
(docs/index-format.md); it computes nothing at query time and writes nothing.

- :mod:`.answer`: both sides of r*(m, n) for a variant and kernel class, closed under
  restriction in m, its invariants enforced (lower <= upper <= upper_nonnegative);
- :mod:`.index`: the shipped index (the checker's claims on the committed files) and user
  folders of certificates, each file checked before its claim is used;
- :mod:`.entrycheck`: an index entry checked whole and consistent when it is read;
- :mod:`.stored`: the stored computed sources (COMPUTED), looked up by cell;
- :mod:`.folders` and :mod:`.cache`: a user's folder of certificates and the checker's
  verdicts on it, cached on disk.

Maintaining the committed set (catalog, regeneration, the COMPUTED build and its
verification, the set check) is :mod:`kernelbounds.release`; tables and plots drawn from
the hub's answers are :mod:`kernelbounds.reports`.
"""
