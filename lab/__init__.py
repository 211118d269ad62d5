"""The lab: tools around the core (training, experiments, fuzzing, SMT proofs).

Nothing in the core package or the checker imports this subpackage.
"""
