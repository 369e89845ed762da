/* The double-dummy solver of truclog/strength.py in C: one call per question.
 *
 * odds() and outcome() answer what strength.py's Python solver answers (the
 * reference, and the fallback of a build without a C compiler), from the same
 * arguments, with the same ValueErrors for impossible positions. Cards are powers:
 * the lowest rank of the order is 1, the highest len(order). The rest of a hand is
 * played with both hands face up, every line of play explored, the player (the
 * raiser in strength.py's words) taking the best and the opponent the worst.
 * Values are in halves of a point: 2 a win, 1 a draw, 0 a loss. Counts are exact
 * integers. tests/test_solve.py compares both solvers on random positions of every
 * preset's order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_RANKS 64
#define CARDS 3 /* in a hand, and tricks in a hand */
#define PER_RANK 4
enum { PLAYER = 0, OPPONENT = 1, TIED = 2 };
enum { NO_CARD = -1 };

typedef struct {
    signed char power[128]; /* by ASCII rank; 0: not in the deck */
    int n;
} Order;

/* --- arguments -------------------------------------------------------------------- */

static int read_text(PyObject *o, const char *what, const Py_UCS1 **s, Py_ssize_t *n)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.50s", what, Py_TYPE(o)->tp_name);
        return 0;
    }
    *n = PyUnicode_GET_LENGTH(o);
    *s = PyUnicode_IS_ASCII(o) ? PyUnicode_1BYTE_DATA(o) : NULL;
    return 1;
}

static int read_order(PyObject *o, Order *order)
{
    const Py_UCS1 *s;
    Py_ssize_t n;
    if (!read_text(o, "order", &s, &n)) return 0;
    if (!s || n > MAX_RANKS) {
        PyErr_SetString(PyExc_ValueError, "an order is at most 64 ASCII ranks");
        return 0;
    }
    memset(order->power, 0, sizeof order->power);
    for (Py_ssize_t i = 0; i < n; i++) order->power[s[i]] = (signed char)(n - i);
    order->n = (int)n;
    return 1;
}

/* The power of each rank of a str, the first ``cap`` sorted low to high, each taken
 * from ``left`` (unseen cards of each power) if given: the number of ranks, or -1 and
 * ValueError("rank X is not in this deck"). */
static int read_powers(PyObject *o, const Order *order, int *out, int cap, int *left)
{
    const Py_UCS1 *s;
    Py_ssize_t n;
    if (!read_text(o, "ranks", &s, &n)) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int rank = s ? s[i] : (int)PyUnicode_READ_CHAR(o, i);
        int p = rank < 128 ? order->power[rank] : 0;
        if (!p) {
            PyErr_Format(PyExc_ValueError, "rank %c is not in this deck", rank);
            return -1;
        }
        if (left) left[p]--;
        if (i < cap) { /* insertion sort: three cards at most */
            Py_ssize_t j = i;
            for (; j > 0 && out[j - 1] > p; j--) out[j] = out[j - 1];
            out[j] = p;
        }
    }
    return n > MAX_RANKS * PER_RANK ? MAX_RANKS * PER_RANK : (int)n;
}

/* Trick results from the player's side (W won, L lost, T tied), or -1 and the error. */
static int read_results(PyObject *o, signed char *out)
{
    const Py_UCS1 *s;
    Py_ssize_t n;
    if (!read_text(o, "results", &s, &n)) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = s ? s[i] : (int)PyUnicode_READ_CHAR(o, i);
        if (c != 'W' && c != 'L' && c != 'T') {
            PyErr_Format(PyExc_ValueError, "trick results are W, L or T, not %R", o);
            return -1;
        }
        if (i < CARDS) out[i] = c == 'W' ? PLAYER : c == 'L' ? OPPONENT : TIED;
    }
    if (n > CARDS) {
        PyErr_Format(PyExc_ValueError, "a hand has three tricks, not %zd", n);
        return -1;
    }
    return (int)n;
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

/* --- the play --------------------------------------------------------------------- */

/* Whether the tricks so far decide the hand (as truclog/trick.py decide), and for whom:
 * PLAYER, OPPONENT, or TIED for three tied tricks. -1: not decided. */
static int decided(const signed char *results, int n)
{
    if (n < 2) return -1;
    int wins[2] = {0, 0}, first = -1;
    for (int i = 0; i < n; i++)
        if (results[i] != TIED) {
            if (++wins[results[i]] >= 2) return results[i];
            if (first < 0) first = results[i];
        }
    if (results[0] == TIED) return first >= 0 ? first : n == CARDS ? TIED : -1;
    if (results[1] == TIED || n == CARDS) return results[0];
    return -1;
}

typedef struct {
    int tied; /* halves */
    signed char results[CARDS];
} Play;

/* The value of the rest of the hand for the player, in halves, both hands face up
 * (sorted powers); ``table`` the card on it or NO_CARD; -1: a player has no card
 * left to play before the hand is decided. */
static int play(Play *g, const int *mine, int n_mine, const int *theirs, int n_theirs,
                int n_results, int leader, int table)
{
    int team = decided(g->results, n_results);
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
    }
    return best;
}

static PyObject *no_card(void)
{
    PyErr_SetString(PyExc_ValueError, "a player has no card left to play");
    return NULL;
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

PyDoc_STRVAR(odds_doc,
"odds(order, hand, held, opponent_played, results, table, tied, to_move)\n"
"-> (wins, draws, weights): strength.py's _ranks, in C.");

static PyObject *odds(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8) return PyErr_Format(PyExc_TypeError, "odds takes 8 arguments, not %zd", nargs);
    Order order;
    if (!read_order(args[0], &order)) return NULL;
    PyObject *hand = args[1], *held = args[2], *opponent_played = args[3], *table = args[5];
    int to_move = PyObject_IsTrue(args[7]);
    if (to_move < 0) return NULL;
    const Py_UCS1 *hs, *ds, *os;
    Py_ssize_t hn, dn, on;
    if (!read_text(hand, "hand", &hs, &hn) || !read_text(held, "held", &ds, &dn) ||
        !read_text(opponent_played, "opponent_played", &os, &on))
        return NULL;
    /* the player's cards played: the hand less those held (by rank, as text) */
    Py_ssize_t played[128] = {0};
    int foreign = !hs || !ds;
    if (!foreign) {
        for (Py_ssize_t i = 0; i < hn; i++) played[hs[i]]++;
        for (Py_ssize_t i = 0; i < dn; i++) played[ds[i]]--;
    }
    int followed = table != Py_None;
    if (followed) {
        const Py_UCS1 *ts;
        Py_ssize_t tn;
        if (!read_text(table, "table", &ts, &tn)) return NULL;
        int found = 0;
        if (tn == 1 && ts) {
            if (to_move) found = os ? memchr(os, ts[0], (size_t)on) != NULL : 0;
            else found = !foreign && played[ts[0]] > 0;
        }
        if (!found) {
            PyErr_Format(PyExc_ValueError, "the card on the table (%U) is not among the %s plays",
                         table, to_move ? "opponent's" : "player's");
            return NULL;
        }
    }
    int subset = hn == CARDS && !foreign;
    for (int c = 0; c < 128 && subset; c++) subset = played[c] >= 0;
    if (!subset) {
        PyErr_Format(PyExc_ValueError, "the raiser holds %R, which is not part of the hand %R",
                     held, hand);
        return NULL;
    }
    Play g;
    memset(&g, 0, sizeof g);
    int n_results = read_results(args[4], g.results);
    if (n_results < 0) return NULL;
    int left[MAX_RANKS + 1], hand_powers[CARDS], mine[CARDS], opponent[CARDS];
    left[0] = 0;
    for (int p = 1; p <= order.n; p++) left[p] = PER_RANK;
    if (read_powers(hand, &order, hand_powers, CARDS, left) < 0) return NULL;
    int n_mine = read_powers(held, &order, mine, CARDS, NULL);
    if (n_mine < 0) return NULL;
    int n_played = read_powers(opponent_played, &order, opponent, CARDS, left);
    if (n_played < 0) return NULL;
    int on_table = followed ? order.power[PyUnicode_1BYTE_DATA(table)[0]] : NO_CARD;
    if (!on_table) /* a rank played, so in the deck: unreachable */
        return PyErr_Format(PyExc_ValueError, "rank %U is not in this deck", table);
    for (int p = 1; p <= order.n; p++)
        if (left[p] < 0) {
            PyErr_SetString(PyExc_ValueError, "more than four cards of one rank");
            return NULL;
        }
    if (n_played > CARDS) {
        PyErr_SetString(PyExc_ValueError, "the opponent played more than three cards");
        return NULL;
    }
    int tied = read_tied(args[6]);
    if (tied < 0) return NULL;
    g.tied = tied;
    Holdings h;
    memset(&h, 0, sizeof h);
    h.play = g;
    h.left = left;
    h.n_ranks = order.n;
    h.mine = mine;
    h.n_mine = n_mine;
    h.n_results = n_results;
    h.table = on_table;
    int on_turn = to_move ? PLAYER : OPPONENT;
    h.leader = followed ? 1 - on_turn : on_turn;
    deal(&h, 1, 0, CARDS - n_played, 1);
    if (h.error) return no_card();
    if (!h.weights) {
        PyErr_SetString(PyExc_ValueError, "the opponent cannot hold that many unseen cards");
        return NULL;
    }
    return Py_BuildValue("(LLL)", h.wins, h.draws, h.weights);
}

/* --- outcome ---------------------------------------------------------------------- */

PyDoc_STRVAR(outcome_doc,
"outcome(order, held, opponent_held, results, table, tied, to_move) -> 1.0, 0.5 or 0.0:\n"
"strength.py's outcome_of, in C.");

static PyObject *outcome(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7)
        return PyErr_Format(PyExc_TypeError, "outcome takes 7 arguments, not %zd", nargs);
    Order order;
    if (!read_order(args[0], &order)) return NULL;
    Play g;
    memset(&g, 0, sizeof g);
    int n_results = read_results(args[3], g.results);
    if (n_results < 0) return NULL;
    int mine[CARDS], theirs[CARDS];
    int n_mine = read_powers(args[1], &order, mine, CARDS, NULL);
    if (n_mine < 0) return NULL;
    int n_theirs = read_powers(args[2], &order, theirs, CARDS, NULL);
    if (n_theirs < 0) return NULL;
    int table = NO_CARD;
    if (args[4] != Py_None) {
        const Py_UCS1 *ts;
        Py_ssize_t tn;
        if (!read_text(args[4], "table", &ts, &tn)) return NULL;
        table = tn == 1 && ts && ts[0] < 128 ? order.power[ts[0]] : 0;
        if (!table)
            return PyErr_Format(PyExc_ValueError, "rank %U is not in this deck", args[4]);
    }
    if (n_mine > CARDS || n_theirs > CARDS) {
        PyErr_SetString(PyExc_ValueError, "a player holds three cards at most");
        return NULL;
    }
    int tied = read_tied(args[5]);
    if (tied < 0) return NULL;
    g.tied = tied;
    int to_move = PyObject_IsTrue(args[6]);
    if (to_move < 0) return NULL;
    int on_turn = to_move ? PLAYER : OPPONENT;
    int leader = table != NO_CARD ? 1 - on_turn : on_turn;
    int value = play(&g, mine, n_mine, theirs, n_theirs, n_results, leader, table);
    if (value < 0) return no_card();
    return PyFloat_FromDouble(value / 2.0);
}

static PyMethodDef methods[] = {
    {"odds", (PyCFunction)(void (*)(void))odds, METH_FASTCALL, odds_doc},
    {"outcome", (PyCFunction)(void (*)(void))outcome, METH_FASTCALL, outcome_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "truclog._solve", "The double-dummy solver of raise strength, in C.",
    -1, methods, NULL, NULL, NULL, NULL,
};

#ifndef SOLVE_SOURCE
#define SOLVE_SOURCE ""
#endif

PyMODINIT_FUNC PyInit__solve(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE", SOLVE_SOURCE) < 0) Py_CLEAR(m);
    return m; /* SOURCE: the SHA-256 of the _solve.c it was built from */
}
