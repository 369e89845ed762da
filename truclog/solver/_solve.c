/* The double-dummy solver of truclog/solver/strength.py in C: one call per question.
 *
 * odds() and outcome() answer what strength.py's Python solver answers (the
 * reference, and the fallback of a build without a C compiler), from the same
 * arguments, with the same ValueErrors for impossible positions. Cards are powers:
 * the lowest rank of the order is 1, the highest len(order). The rest of a hand is
 * played with both hands face up, every line of play explored, the player (the
 * raiser in strength.py's words) taking the best and the opponent the worst.
 * Values are in halves of a point: 2 a win, 1 a draw, 0 a loss. Counts are exact
 * integers. tests/test_solve.py compares both solvers on random positions of every
 * preset's order. The functions behind odds() and outcome() are exported to other C
 * code (the quick core's facts) as the capsule SOLVER: see _solve.h.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../engine/_trick.h"
#include "_solve.h"

#define MAX_RANKS SOLVE_MAX_RANKS
#define CARDS 3 /* in a hand, and tricks in a hand */
#define PER_RANK 4
enum { PLAYER = 0, OPPONENT = 1, TIED = TRICK_TIED };
enum { NO_CARD = -1 };

typedef SolveOrder Order;
typedef SolveText Text;

/* --- ranks ------------------------------------------------------------------------ */

/* The power of each rank of a text, the first ``cap`` sorted low to high, each taken
 * from ``left`` (unseen cards of each power) if given: the number of ranks, or -1 (the
 * rank not in this deck in ``bad``). */
static int powers_of(Text text, const Order *order, int *out, int cap, int *left, int *bad)
{
    for (size_t i = 0; i < text.n; i++) {
        int rank = text.s[i];
        int p = rank < 128 ? order->power[rank] : 0;
        if (!p) {
            *bad = rank;
            return -1;
        }
        if (left) left[p]--;
        if ((int)i < cap) { /* insertion sort: three cards at most */
            int j = (int)i;
            for (; j > 0 && out[j - 1] > p; j--) out[j] = out[j - 1];
            out[j] = p;
        }
    }
    return text.n > MAX_RANKS * PER_RANK ? MAX_RANKS * PER_RANK : (int)text.n;
}

/* Trick results from the player's side (W won, L lost, T tied): their number, or -1
 * and the error in ``error``. */
static int results_of(Text text, signed char *out, int *error)
{
    for (size_t i = 0; i < text.n; i++) {
        int c = text.s[i];
        if (c != 'W' && c != 'L' && c != 'T') {
            *error = SOLVE_BAD_RESULT;
            return -1;
        }
        if (i < CARDS) out[i] = c == 'W' ? PLAYER : c == 'L' ? OPPONENT : TIED;
    }
    if (text.n > CARDS) {
        *error = SOLVE_FOUR_TRICKS;
        return -1;
    }
    return (int)text.n;
}

/* --- the play --------------------------------------------------------------------- */

typedef struct {
    int tied; /* halves */
    int cut;  /* stop at the first best value: no line of play can run out of cards */
    signed char results[CARDS];
} Play;

/* Whether every line of play from a position reaches the end of the hand: each player
 * holds a card for each trick left (but the one on the table). Then a player may stop
 * looking at a line that wins outright; otherwise every line is played, since one of
 * them running out of cards makes the position impossible. */
static int complete(int n_results, int n_mine, int n_theirs, int leader, int followed)
{
    int left = CARDS - n_results;
    int mine = left - (followed && leader == PLAYER), theirs = left - (followed && leader == OPPONENT);
    return n_mine >= mine && n_theirs >= theirs;
}

/* The value of the rest of the hand for the player, in halves, both hands face up
 * (sorted powers); ``table`` the card on it or NO_CARD; -1: a player has no card
 * left to play before the hand is decided. */
static int play(Play *g, const int *mine, int n_mine, const int *theirs, int n_theirs,
                int n_results, int leader, int table)
{
    int team = hand_decided(g->results, n_results); /* ../engine/_trick.h */
    if (team >= 0) return team == TIED ? g->tied : team == PLAYER ? 2 : 0;
    int to_move = table == NO_CARD ? leader : 1 - leader;
    const int *cards = to_move == PLAYER ? mine : theirs;
    int n = to_move == PLAYER ? n_mine : n_theirs;
    if (n == 0) return -1;
    int best = to_move == PLAYER ? -1 : 3;
    for (int i = 0; i < n; i++) {
        if (i > 0 && cards[i] == cards[i - 1]) continue; /* the same card again */
        int rest[CARDS], k = 0, card = cards[i], value;
        for (int j = 0; j < n; j++)
            if (j != i) rest[k++] = cards[j];
        const int *m = to_move == PLAYER ? rest : mine, *t = to_move == PLAYER ? theirs : rest;
        int nm = to_move == PLAYER ? k : n_mine, nt = to_move == PLAYER ? n_theirs : k;
        if (table == NO_CARD) {
            value = play(g, m, nm, t, nt, n_results, leader, card);
        } else {
            int next = table == card ? leader : table > card ? leader : to_move;
            g->results[n_results] = table == card ? TIED : next;
            value = play(g, m, nm, t, nt, n_results + 1, next, NO_CARD);
        }
        if (value < 0) return -1;
        if (to_move == PLAYER ? value > best : value < best) best = value;
        if (g->cut && best == (to_move == PLAYER ? 2 : 0)) break; /* none better */
    }
    return best;
}

/* --- odds ------------------------------------------------------------------------- */

static long long choose(int n, int k)
{
    static const long long ways[PER_RANK + 1][CARDS + 1] = {
        {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}, {1, 4, 6, 4},
    };
    return ways[n][k];
}

typedef struct {
    Play play;
    const int *left; /* unseen cards of each power */
    int n_ranks, n_mine, n_results, leader, table, error;
    const int *mine;
    int theirs[CARDS];
    long long wins, draws, weights;
} Holdings;

/* Each holding of ``in_hand`` more cards of powers ``from``..n_ranks, weighted. */
static void deal(Holdings *h, int from, int count, int in_hand, long long weight)
{
    if (count == in_hand) {
        int value = play(&h->play, h->mine, h->n_mine, h->theirs, in_hand, h->n_results,
                         h->leader, h->table);
        if (value < 0) h->error = 1;
        else if (value == 2) h->wins += weight;
        else if (value == 1) h->draws += weight;
        h->weights += weight;
        return;
    }
    for (int p = from; p <= h->n_ranks && !h->error; p++) {
        if (!h->left[p]) continue;
        for (int k = 1; count + k <= in_hand && k <= h->left[p] && !h->error; k++) {
            for (int j = 0; j < k; j++) h->theirs[count + j] = p;
            deal(h, p + 1, count + k, in_hand, weight * choose(h->left[p], k));
        }
    }
}

/* strength.py's _ranks: a SOLVE_ error, the odds in ``out`` when SOLVE_OK. */
static int odds_of(const Order *order, Text hand, Text held, Text opponent_played,
                   Text results, int table, int tied, int to_move, SolveOdds *out, int *bad)
{
    /* the player's cards played: the hand less those held (by rank, as text) */
    int played[256] = {0};
    for (size_t i = 0; i < hand.n; i++) played[hand.s[i]]++;
    for (size_t i = 0; i < held.n; i++) played[held.s[i]]--;
    if (table) {
        int found = to_move ? memchr(opponent_played.s, table, opponent_played.n) != NULL
                            : played[table] > 0;
        if (!found) return SOLVE_TABLE_NOT_PLAYED;
    }
    int subset = hand.n == CARDS;
    for (int c = 0; c < 256 && subset; c++) subset = played[c] >= 0;
    if (!subset) return SOLVE_NOT_IN_HAND;
    Play g;
    memset(&g, 0, sizeof g);
    int error = SOLVE_OK, n_results = results_of(results, g.results, &error);
    if (n_results < 0) return error;
    int left[MAX_RANKS + 1], hand_powers[CARDS], mine[CARDS], opponent[CARDS];
    left[0] = 0;
    for (int p = 1; p <= order->n; p++) left[p] = PER_RANK;
    if (powers_of(hand, order, hand_powers, CARDS, left, bad) < 0) return SOLVE_NOT_IN_DECK;
    int n_mine = powers_of(held, order, mine, CARDS, NULL, bad);
    if (n_mine < 0) return SOLVE_NOT_IN_DECK;
    int n_played = powers_of(opponent_played, order, opponent, CARDS, left, bad);
    if (n_played < 0) return SOLVE_NOT_IN_DECK;
    int on_table = table ? order->power[table] : NO_CARD;
    if (!on_table) { /* a rank played, so in the deck: unreachable */
        *bad = table;
        return SOLVE_NOT_IN_DECK;
    }
    for (int p = 1; p <= order->n; p++)
        if (left[p] < 0) return SOLVE_FIVE_OF_A_RANK;
    if (n_played > CARDS) return SOLVE_FOUR_PLAYED;
    g.tied = tied;
    Holdings h;
    memset(&h, 0, sizeof h);
    h.play = g;
    h.left = left;
    h.n_ranks = order->n;
    h.mine = mine;
    h.n_mine = n_mine;
    h.n_results = n_results;
    h.table = on_table;
    int on_turn = to_move ? PLAYER : OPPONENT;
    h.leader = table ? 1 - on_turn : on_turn;
    h.play.cut = complete(n_results, n_mine, CARDS - n_played, h.leader, table != 0);
    deal(&h, 1, 0, CARDS - n_played, 1);
    if (h.error) return SOLVE_NO_CARD;
    if (!h.weights) return SOLVE_NO_HOLDING;
    out->wins = h.wins;
    out->draws = h.draws;
    out->weights = h.weights;
    return SOLVE_OK;
}

/* --- outcome ---------------------------------------------------------------------- */

/* strength.py's outcome_of: a SOLVE_ error, the value in halves in ``value`` when
 * SOLVE_OK. */
static int outcome_of(const Order *order, Text held, Text opponent_held, Text results,
                      int table, int tied, int to_move, int *value, int *bad)
{
    Play g;
    memset(&g, 0, sizeof g);
    int error = SOLVE_OK, n_results = results_of(results, g.results, &error);
    if (n_results < 0) return error;
    int mine[CARDS], theirs[CARDS];
    int n_mine = powers_of(held, order, mine, CARDS, NULL, bad);
    if (n_mine < 0) return SOLVE_NOT_IN_DECK;
    int n_theirs = powers_of(opponent_held, order, theirs, CARDS, NULL, bad);
    if (n_theirs < 0) return SOLVE_NOT_IN_DECK;
    int on_table = NO_CARD;
    if (table) {
        on_table = table < 128 ? order->power[table] : 0;
        if (!on_table) {
            *bad = table;
            return SOLVE_NOT_IN_DECK;
        }
    }
    if (n_mine > CARDS || n_theirs > CARDS) return SOLVE_FOUR_HELD;
    g.tied = tied;
    int on_turn = to_move ? PLAYER : OPPONENT;
    int leader = table ? 1 - on_turn : on_turn;
    g.cut = complete(n_results, n_mine, n_theirs, leader, table != 0);
    *value = play(&g, mine, n_mine, theirs, n_theirs, n_results, leader, on_table);
    return *value < 0 ? SOLVE_NO_CARD : SOLVE_OK;
}

/* --- the Python side -------------------------------------------------------------- */

static int read_order(PyObject *o, Order *order)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "order must be a str, not %.50s", Py_TYPE(o)->tp_name);
        return 0;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    if (!PyUnicode_IS_ASCII(o) || n > MAX_RANKS) {
        PyErr_SetString(PyExc_ValueError, "an order is at most 64 ASCII ranks");
        return 0;
    }
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(o);
    memset(order->power, 0, sizeof order->power);
    for (Py_ssize_t i = 0; i < n; i++) order->power[s[i]] = (signed char)(n - i);
    order->n = (int)n;
    return 1;
}

/* A str argument as ASCII text: 1, or 0 and a TypeError; a str with other characters
 * is the text of its first one, NUL, which no order ranks (rank errors follow). */
static int read_text(PyObject *o, const char *what, Text *text)
{
    static const unsigned char foreign[1] = {0};
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.50s", what, Py_TYPE(o)->tp_name);
        return 0;
    }
    if (PyUnicode_IS_ASCII(o)) {
        text->s = PyUnicode_1BYTE_DATA(o);
        text->n = (size_t)PyUnicode_GET_LENGTH(o);
    } else {
        text->s = foreign;
        text->n = 1;
    }
    return 1;
}

/* A card on the table: its rank, 0 for None, -1 (TypeError) or 1 ('\1', in no deck)
 * for a str that is not one ASCII rank. */
static int read_table_card(PyObject *o)
{
    if (o == Py_None) return 0;
    Text text;
    if (!read_text(o, "table", &text)) return -1;
    return text.n == 1 && text.s[0] ? text.s[0] : 1;
}

/* What three tied tricks are worth to the player, in halves: 0.0, 0.5 or 1.0. */
static int read_tied(PyObject *o)
{
    double tied = PyFloat_AsDouble(o);
    if (tied == -1.0 && PyErr_Occurred()) return -1;
    if (tied != 0.0 && tied != 0.5 && tied != 1.0) {
        PyErr_SetString(PyExc_ValueError, "three tied tricks are worth 0, 0.5 or 1");
        return -1;
    }
    return (int)(tied * 2);
}

/* The ValueError of a SOLVE_ error. */
static PyObject *refuse(int error, int bad)
{
    static const char *const why[] = {
        [SOLVE_TABLE_NOT_PLAYED] = "the card on the table is not among the right side's plays",
        [SOLVE_NOT_IN_HAND] = "the cards held are not part of the hand",
        [SOLVE_BAD_RESULT] = "trick results are W, L or T",
        [SOLVE_FOUR_TRICKS] = "a hand has three tricks",
        [SOLVE_FIVE_OF_A_RANK] = "more than four cards of one rank",
        [SOLVE_FOUR_PLAYED] = "the opponent played more than three cards",
        [SOLVE_FOUR_HELD] = "a player holds three cards at most",
        [SOLVE_NO_CARD] = "a player has no card left to play",
        [SOLVE_NO_HOLDING] = "the opponent cannot hold that many unseen cards",
    };
    if (error == SOLVE_NOT_IN_DECK)
        return PyErr_Format(PyExc_ValueError, "rank %c is not in this deck", bad ? bad : '?');
    PyErr_SetString(PyExc_ValueError, why[error]);
    return NULL;
}

PyDoc_STRVAR(odds_doc,
"odds(order, hand, held, opponent_played, results, table, tied, to_move)\n"
"-> (wins, draws, weights): strength.py's _ranks, in C.");

static PyObject *odds(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8) return PyErr_Format(PyExc_TypeError, "odds takes 8 arguments, not %zd", nargs);
    Order order;
    Text hand, held, played, results;
    if (!read_order(args[0], &order) || !read_text(args[1], "hand", &hand)
        || !read_text(args[2], "held", &held) || !read_text(args[3], "opponent_played", &played)
        || !read_text(args[4], "results", &results))
        return NULL;
    int table = read_table_card(args[5]), tied = table < 0 ? -1 : read_tied(args[6]);
    int to_move = tied < 0 ? -1 : PyObject_IsTrue(args[7]);
    if (to_move < 0) return NULL;
    SolveOdds found;
    int bad = 0, error = odds_of(&order, hand, held, played, results, table, tied, to_move,
                                 &found, &bad);
    if (error) return refuse(error, bad);
    return Py_BuildValue("(LLL)", found.wins, found.draws, found.weights);
}

PyDoc_STRVAR(outcome_doc,
"outcome(order, held, opponent_held, results, table, tied, to_move) -> 1.0, 0.5 or 0.0:\n"
"strength.py's outcome_of, in C.");

static PyObject *outcome(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7)
        return PyErr_Format(PyExc_TypeError, "outcome takes 7 arguments, not %zd", nargs);
    Order order;
    Text held, theirs, results;
    if (!read_order(args[0], &order) || !read_text(args[1], "held", &held)
        || !read_text(args[2], "opponent_held", &theirs)
        || !read_text(args[3], "results", &results))
        return NULL;
    int table = read_table_card(args[4]), tied = table < 0 ? -1 : read_tied(args[5]);
    int to_move = tied < 0 ? -1 : PyObject_IsTrue(args[6]);
    if (to_move < 0) return NULL;
    int value = 0, bad = 0;
    int error = outcome_of(&order, held, theirs, results, table, tied, to_move, &value, &bad);
    if (error) return refuse(error, bad);
    return PyFloat_FromDouble(value / 2.0);
}

static const Solver SOLVER = {odds_of, outcome_of};

static PyMethodDef methods[] = {
    {"odds", (PyCFunction)(void (*)(void))odds, METH_FASTCALL, odds_doc},
    {"outcome", (PyCFunction)(void (*)(void))outcome, METH_FASTCALL, outcome_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "truclog.solver._solve",
    "The double-dummy solver of raise strength, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

#ifndef SOLVE_SOURCE
#define SOLVE_SOURCE ""
#endif

PyMODINIT_FUNC PyInit__solve(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE", SOLVE_SOURCE) < 0) Py_CLEAR(m);
    PyObject *solver = m ? PyCapsule_New((void *)&SOLVER, SOLVE_CAPSULE, NULL) : NULL;
    if (m && (!solver || PyModule_AddObjectRef(m, "SOLVER", solver) < 0)) Py_CLEAR(m);
    Py_XDECREF(solver);
    return m; /* SOURCE: the SHA-256 of the _solve.c it was built from; SOLVER: _solve.h */
}
