"""A Performer (FAVOR+) head taken from performer-pytorch, evaluated by kernelbounds
(docs/api.md, "Heads from linear-attention libraries"): on the certified m = 24, n = 3
witness family (r >= 8) and on every input at m = 8, n = 3.  Run from the repository root:

    python docs/examples/performer_head.py

Needs kernelbounds[torch] (torch, performer-pytorch).  The head here is untrained (seeded
random weights); a trained model goes through the same three lines.
"""

import torch
from performer_pytorch import SelfAttention

import kernelbounds as kb
from kernelbounds import adapters

DIM = 16


def performer_head(m, tokens=None, features=6, seed=0):
    """The user's model: embedding bits -> DIM, one Performer head, a residual and a scalar readout."""
    torch.manual_seed(seed)
    embed, readout = torch.nn.Linear(m, DIM), torch.nn.Linear(DIM, 1)
    attention = SelfAttention(dim=DIM, heads=1, dim_head=DIM, nb_features=features).eval()
    module = adapters.performer(attention, embed, readout, residual=True)
    return kb.Head.from_torch(module, tokens, m=m)  # float32 module, converted exactly


# 1. the certified family: 190 inputs on which every head of feature rank < 8 must fail (THEORY L4)
family = kb.witness(24, 3, 8)
tokens = [kb.Token.to_str(x, 24) for x in kb.family_tokens(family.to_certificate())]
small = performer_head(24, tokens)
result = kb.evaluate(small, family)
print("m = 24 witness family:", result)
assert small.rank == 6 and not result.solves and not result.contradiction  # rank 6 < 8 fails, as proved

# 2. every input of length 3 over {0,1}^8, every position (16,777,216 inputs, extreme-class route)
everything = kb.evaluate(performer_head(8), kb.Family.all(8, 3))
print("every input at m = 8:", everything)
print("worst input:", everything.worst_input)
for line in everything.l1_violations[:1]:
    print(line)
assert not everything.solves  # an untrained head fails; a head that solved would get everything.to_certificate()
