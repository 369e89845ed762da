"""The double-dummy solver: how strong a hand is at a raise
(:mod:`~truclog.solver.strength`) and whether an answer to a raise was right
(:mod:`~truclog.solver.answer`), in C (``truclog.solver._solve``) when it is built."""
