/* The double-dummy solver of truclog/solver/_solve.c as other C code calls it.
 *
 * truclog.solver._solve exports its solver as the capsule SOLVE_CAPSULE (a Solver), so that
 * the quick core (truclog/validate/_quick.c) answers the strength of raises and the review of
 * answers with the very functions behind _solve.odds and _solve.outcome: one solver,
 * compared with strength.py's Python one by tests/test_solve.py. Ranks are ASCII text
 * (the bytes of a str, not NUL-terminated); a card on the table is one rank, or 0 for
 * none; three tied tricks are worth ``tied`` halves of a point to the player.
 */
#ifndef TRUCLOG_SOLVE_H
#define TRUCLOG_SOLVE_H

#include <stddef.h>

#define SOLVE_CAPSULE "truclog.solver._solve.SOLVER"
#define SOLVE_MAX_RANKS 64

typedef struct {
    signed char power[128]; /* by ASCII rank; 0: not in the deck */
    int n;
} SolveOrder;

typedef struct {
    const unsigned char *s;
    size_t n;
} SolveText;

typedef struct {
    long long wins, draws, weights;
} SolveOdds;

/* Why a question has no answer: strength.py's ValueErrors. */
enum {
    SOLVE_OK,
    SOLVE_TABLE_NOT_PLAYED, /* the card on the table is not among the right side's plays */
    SOLVE_NOT_IN_HAND,      /* the cards held are not part of the hand */
    SOLVE_BAD_RESULT,       /* a trick result is not W, L or T */
    SOLVE_FOUR_TRICKS,      /* more than three trick results */
    SOLVE_NOT_IN_DECK,      /* a rank not in the order (the rank in ``bad``) */
    SOLVE_FIVE_OF_A_RANK,
    SOLVE_FOUR_PLAYED,      /* the opponent played more than three cards */
    SOLVE_FOUR_HELD,        /* a player holds more than three cards */
    SOLVE_NO_CARD,          /* a player has no card left to play */
    SOLVE_NO_HOLDING,       /* the opponent cannot hold that many unseen cards */
};

typedef struct {
    /* The player's odds over the opponent's holdings (strength.py's _ranks): the
     * dealt ``hand``, the cards still ``held``, the opponent's plays this hand. */
    int (*odds)(const SolveOrder *order, SolveText hand, SolveText held, SolveText opponent_played,
                SolveText results, int table, int tied, int to_move, SolveOdds *out, int *bad);
    /* The rest of the hand face up (strength.py's outcome_of), in halves: 2, 1 or 0. */
    int (*outcome)(const SolveOrder *order, SolveText held, SolveText opponent_held,
                   SolveText results, int table, int tied, int to_move, int *value, int *bad);
} Solver;

#endif
