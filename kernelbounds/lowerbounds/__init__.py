"""The lower side of the bound, THEORY §3 and §4: gap domination (L1, ``domination``),
amplification along chains (L2, ``amplification``), the approximate-identity rank bound
(L3, ``rankbound``), codes and their automorphisms (``codes``, ``symmetry``), the assembled
witness families and certificates (L4-L6, ``assemble``), the rank-one Farkas certificates
(THEORY U5, ``rankonefarkas``) and the transcript bound (§4, ``transcript``).  Nothing here imports :mod:`kernelbounds.upperbounds`."""
