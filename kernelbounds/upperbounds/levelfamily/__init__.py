"""Level families at a fixed length n: two feature bases, two readouts (THEORY §2 U4).

Three parts, read in this order:

- :mod:`.families`: a family (basis, readout, signs), its weights and readout table, and
  the exact worst error of a member over every level class;
- :mod:`.supports`: the exact strict rows of a support, float LP proposals rounded to exact
  rationals, exact Motzkin refutations, the least-rank support search;
- :mod:`.verdicts`: the `level-family` certificate, every family at once, the committed
  least-rank certificate, restriction to fewer bits, the literal head of a certificate.

Each name is imported from the module that defines it (this package re-exports nothing).
"""
