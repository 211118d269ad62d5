"""A user's head: rational tables over tokens (``tables``), families of inputs to evaluate it
on (``inputs``; ``Family.all`` for every input), the exact evaluation (``evaluate``), the
extreme-class route that decides every input without listing them (``everyinput``) and the L1
explanation of a failure (``explain``), THEORY §1 and §3 L1."""
