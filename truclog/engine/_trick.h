/* How the tricks so far decide a hand (truclog/engine/trick.py decide and
 * all_tied_winner), for the C cores: the quick core (truclog/validate/_quick.c) and
 * the solver (truclog/solver/_solve.c) include it, so that both decide a hand by
 * the one function. A trick's result is the side that took it, 0 or 1, or
 * TRICK_TIED; tests/test_quick.py and tests/test_solve.py hold both to the engine.
 */
#ifndef TRUCLOG_TRICK_H
#define TRUCLOG_TRICK_H

#define TRICK_TIED 2 /* a tied ("spoiled") trick; as a hand's decision: three of them */
#define HAND_TRICKS 3

/* Whether the trick results so far decide the hand, and for whom: 0 or 1, TRICK_TIED
 * for three tied tricks (all_tied says who takes it), or -1: not decided (rule 5). */
static int hand_decided(const signed char *results, int n)
{
    if (n < 2) return -1; /* one trick never decides */
    int wins[2] = {0, 0}, first = -1;
    for (int i = 0; i < n; i++)
        if (results[i] != TRICK_TIED) {
            if (++wins[results[i]] >= 2) return results[i];
            if (first < 0) first = results[i];
        }
    if (results[0] == TRICK_TIED) return first >= 0 ? first : n == HAND_TRICKS ? TRICK_TIED : -1;
    if (results[1] == TRICK_TIED || n == HAND_TRICKS) return results[0];
    return -1;
}

/* Who takes a hand of three tied tricks when side ``dealer_side`` dealt: the other
 * side under all_tied: non_dealer, nobody (-1, a drawn hand) under all_tied: draw. */
static int all_tied_winner(int non_dealer, int dealer_side)
{
    return non_dealer ? 1 - dealer_side : -1;
}

#endif
