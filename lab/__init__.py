"""Tools around the product, outside the package and never shipped in the wheel: the spec
oracles, fuzzers, hostile generators and SMT proofs the tests use, and the training
experiments and research probes the scripts run (`python -m lab.NAME` from the repository
root).  Nothing in kernelbounds/ imports this folder.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The repository root: the lab reads the committed certificates from REPO / "certificates"."""
