"""Level families at a fixed length n: two feature bases, two readouts (THEORY §2 U4).

Three parts, read in this order:

- :mod:`.families`: a family (basis, readout, signs), its weights and readout table, and
  the exact worst error of a member over every level class;
- :mod:`.search`: the exact strict rows of a support, float LP proposals rounded to exact
  rationals, exact Motzkin refutations, the least-rank support search;
- :mod:`.verdicts`: the `level-family` certificate, every family at once, the committed
  least-rank certificate, restriction to fewer bits, the literal head of a certificate.

Every name is re-exported here, so ``from kernelbounds.upperbounds import levelfamily as lf``
reaches all of them.
"""

from .families import (
    BASES,
    DENOMINATORS,
    HALF,
    READOUTS,
    LevelFamily,
    classes,
    cost,
    differences,
    exact_worst_error,
    families,
    level_distance,
    readout_table,
    value_dim,
    weights,
)
from .supports import (
    Found,
    Proposal,
    Refutation,
    System,
    _eliminated_eps,
    _exact_multipliers,
    _round,
    _shrink,
    brute_force,
    columns,
    least,
    maximal_below,
    propose,
    prove_minimal,
    rationalise,
    refute,
    supports_below,
    supports_of_cost,
    system,
    verify_refutation,
)
from .verdicts import (
    SMALL_CLASSES,
    SUBSET_MAX_CLASSES,
    Result,
    _multiplier_json,
    _solve_job,
    best,
    certificate,
    explicit_head,
    filename,
    least_certificate,
    restrict,
    solve_families,
    solve_family,
)
