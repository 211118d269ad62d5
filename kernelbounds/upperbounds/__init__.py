"""The upper side of the bound, THEORY §2: the constructions U1-U3 (``constructions``), the
level families U4/U4' (``levelfamily``), general heads at small m (U5, ``generalheads``) and
the rank-one heads (U5, ``rankone``).  Nothing here imports
:mod:`kernelbounds.lowerbounds`."""
