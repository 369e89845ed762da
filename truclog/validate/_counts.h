/* The statistics of the games the quick core cleared, counted as each game is added.
 *
 * A Counts keeps, per player and per team of four-player games (a team is its two
 * players and the name they played under), the counts of truclog/stats/players.py
 * (counts.COUNTS, in COUNT_NAMES order) of the games whose Facts it is given, so that
 * truclog stats makes no table rows for them: one row per player and team comes out at
 * the end. Each count is the one players.py makes of the tables of tables.py, from the
 * same facts; tests/test_stats_counts.py holds both to the same numbers on every kind
 * of log. A game whose names would make the tables tell sides apart by name otherwise
 * than by seat (two seats or both sides with the same name, a side named "tie" as a
 * tied first trick is told) is declined, and counted from the tables.
 */
#ifndef TRUCLOG_COUNTS_H
#define TRUCLOG_COUNTS_H

/* The counts, in the order of counts.COUNTS. */
enum {
    C_GAMES, C_HANDS_PLAYED, C_HANDS_WON, C_HANDS_DRAWN, C_HANDS_KNOWN, C_POINTS_WON,
    C_POINTS_LOST, C_FIRST_PLAYED, C_FIRST_WON, C_BANDS, /* band_hands_i, band_won_i */
    C_RAISES = C_BANDS + 8, C_RAISES_FACED, C_ACCEPTS, C_FOLDS_TO_RAISE, C_FOLDS_UNPROMPTED,
    C_RAISES_KNOWN, C_BLUFFS, C_BLUFFS_FOLDED, C_VALUE_RAISES, C_RESTE_MADE, C_RESTE_WON,
    C_REDEALS_ASKED, C_REDEALS_GRANTED, C_ANSWERS_KNOWN, C_ANSWERS_SOUND, C_ANSWERS_JUDGED,
    C_ANSWERS_RIGHT, C_FOLDS_JUDGED, C_FOLDS_RIGHT, C_ACCEPTS_JUDGED, C_ACCEPTS_RIGHT,
    C_POINTS_GIVEN, C_PLAYS_KNOWN, C_PLAYS_SOUND, C_PLAYS_JUDGED, C_PLAYS_RIGHT,
    C_PLAY_POINTS_LOST, C_REVIEW_POINTS_LOST, COUNT_N
};

static const char *const COUNT_NAMES[COUNT_N] = {
    "games", "hands_played", "hands_won", "hands_drawn", "hands_known", "points_won",
    "points_lost", "first_tricks_played", "first_tricks_won", "band_hands_0", "band_won_0",
    "band_hands_1", "band_won_1", "band_hands_2", "band_won_2", "band_hands_3", "band_won_3",
    "raises", "raises_faced", "accepts", "folds_to_raise", "folds_unprompted", "raises_known",
    "bluffs", "bluffs_folded", "value_raises", "reste_made", "reste_won", "redeals_asked",
    "redeals_granted", "answers_known", "answers_sound", "answers_judged", "answers_right",
    "folds_judged", "folds_right", "accepts_judged", "accepts_right", "points_given",
    "plays_known", "plays_sound", "plays_judged", "plays_right", "play_points_lost",
    "review_points_lost",
};

/* The columns of a hand row (HAND_SPEC) and of an action row (ACTION_SPEC) counted. */
enum { CH_DEALER = 1, CH_WINNER = 4, CH_POINTS, CH_ENDING, CH_RESTE, CH_TRICKS, CH_FIRST, CH_CARDS };
enum {
    CA_ROW, CA_SEAT, CA_TYPE, CA_RESTE, CA_ACCEPTED, CA_PENDING, CA_STRENGTH, CA_ANSWER,
    CA_SOUND = 10, CA_RIGHT, CA_POINTS_GIVEN, CA_LOST = 15,
};
enum { CK_REDEAL, CK_RAISE, CK_ACCEPT, CK_FOLD, CK_PLAY }; /* KIND_NAMES */
enum { CENDING_UNFINISHED = 0, CENDING_DRAW = 3 };      /* tables._ENDINGS */

/* The band of each dealt hand's strength already asked (tables._Memo.dealt), by rules,
 * ranks and whether the seat dealt: -1 for none (a strength outside [0, 1]). */
enum { BAND_SLOTS = 1 << 12 };
typedef struct {
    long long ranks; /* a ranks cell; 0: an empty slot */
    long long rules;
    int dealer;
    int band;
} BandSlot;

typedef struct {
    PyObject_HEAD
    PyObject *index;  /* a player's name, or (members, team name): its row */
    PyObject *keys;   /* the key of each row, in row order */
    PyObject *names;  /* every player and team name of the games counted (a dict as a set) */
    PyObject *dealt;  /* dealt(rules, ranks, dealer) -> the strength of a dealt hand */
    double threshold; /* of a bluff */
    long long *counts;
    Py_ssize_t rows, capacity;
    BandSlot *bands;
    Py_ssize_t banded;
} Counts;

static PyTypeObject CountsType;

/* The row of ``key`` (made, all zero, if new); -1 with an error set. */
static Py_ssize_t count_row(Counts *self, PyObject *key)
{
    PyObject *found = PyDict_GetItemWithError(self->index, key);
    if (found) return PyLong_AsSsize_t(found);
    if (PyErr_Occurred()) return -1;
    if (self->rows == self->capacity) {
        Py_ssize_t capacity = self->capacity ? 2 * self->capacity : 16;
        long long *more = realloc(self->counts, (size_t)capacity * COUNT_N * sizeof(long long));
        if (!more) {
            PyErr_NoMemory();
            return -1;
        }
        self->counts = more;
        self->capacity = capacity;
    }
    PyObject *row = PyLong_FromSsize_t(self->rows);
    int bad = !row || PyDict_SetItem(self->index, key, row) < 0 || PyList_Append(self->keys, key) < 0;
    Py_XDECREF(row);
    if (bad) return -1;
    memset(self->counts + self->rows * COUNT_N, 0, COUNT_N * sizeof(long long));
    return self->rows++;
}

/* The band of the strength of ``ranks`` dealt (``dealer``: to the dealer) under
 * ``rules``, asked of ``dealt`` once; -1 for none, -2 with an error set. */
static int dealt_band(Counts *self, long long rules, Cell ranks, int dealer)
{
    size_t at = (size_t)((unsigned long long)(ranks.i * 31 + rules * 7 + dealer)
                         * 0x9E3779B97F4A7C15ULL >> 52) & (BAND_SLOTS - 1);
    for (;; at = (at + 1) & (BAND_SLOTS - 1)) {
        BandSlot *slot = &self->bands[at];
        if (!slot->ranks) break;
        if (slot->ranks == ranks.i && slot->rules == rules && slot->dealer == dealer)
            return slot->band;
    }
    int n = (int)((unsigned long long)ranks.i >> 56);
    PyObject *strength = PyObject_CallFunction(self->dealt, "Ls#O", rules, (const char *)&ranks.i,
                                               (Py_ssize_t)n, dealer ? Py_True : Py_False);
    double s = strength ? PyFloat_AsDouble(strength) : -1.0;
    Py_XDECREF(strength);
    if (!strength || (s == -1.0 && PyErr_Occurred())) return -2;
    int band = -1; /* counts.BANDS: [0, .25), [.25, .5), [.5, .75), [.75, 1] */
    for (int i = 0; i < 4; i++) {
        double low = 0.25 * i, high = 0.25 * (i + 1);
        if (s >= low && (i < 3 ? s < high : s <= high)) band = i;
    }
    if (2 * self->banded >= BAND_SLOTS) { /* half full: start again */
        memset(self->bands, 0, BAND_SLOTS * sizeof(BandSlot));
        self->banded = 0;
    }
    for (;; at = (at + 1) & (BAND_SLOTS - 1))
        if (!self->bands[at].ranks) break;
    self->bands[at] = (BandSlot){ranks.i, rules, dealer, band};
    self->banded++;
    return band;
}

static long long cell_int(const Rows *r, int col, Py_ssize_t row, long long otherwise)
{
    return r->given[col][row] ? r->cells[col][row].i : otherwise;
}

/* A hand's counts for one seat's row (players._hand_counts): its side ``side`` won the
 * hand, lost it or drew; the seat's ranks ``known``; ``band`` of its dealt strength (-1:
 * none). */
static void count_hand(long long *c, const Rows *h, Py_ssize_t row, int side, int known, int band)
{
    long long ending = h->cells[CH_ENDING][row].i, reste = cell_int(h, CH_RESTE, row, 0);
    int decided = (reste != 0 && ending != CENDING_DRAW) || ending != CENDING_UNFINISHED;
    long long winner = cell_int(h, CH_WINNER, row, -1), first = cell_int(h, CH_FIRST, row, -2);
    int won = winner == side, lost = (winner == 0 || winner == 1) && winner != side;
    c[C_HANDS_PLAYED] += decided;
    c[C_HANDS_WON] += won;
    c[C_HANDS_DRAWN] += decided && !won && !lost;
    c[C_HANDS_KNOWN] += known;
    if (h->given[CH_POINTS][row] && (won || lost))
        c[won ? C_POINTS_WON : C_POINTS_LOST] += h->cells[CH_POINTS][row].i;
    c[C_FIRST_PLAYED] += h->given[CH_TRICKS][row] && h->cells[CH_TRICKS][row].i >= 1;
    c[C_FIRST_WON] += first == side;
    if (decided && band >= 0) {
        c[C_BANDS + 2 * band] += 1;
        c[C_BANDS + 2 * band + 1] += won;
    }
}

/* An action's counts (players._action_counts): ``known``, the actor's ranks are known;
 * ``won``, the actor's side won the hand. */
static void count_action(long long *c, const Rows *a, Py_ssize_t row, int known, int won,
                         double threshold)
{
    long long type = a->cells[CA_TYPE][row].i;
    int is_raise = type == CK_RAISE, fold = type == CK_FOLD, accept = type == CK_ACCEPT;
    int play = type == CK_PLAY, pending = a->given[CA_PENDING][row];
    int answer = (accept || fold) && pending;
    int sound_given = a->given[CA_SOUND][row], right_given = a->given[CA_RIGHT][row];
    int sound = sound_given && a->cells[CA_SOUND][row].i, right = right_given && a->cells[CA_RIGHT][row].i;
    int reste = a->given[CA_RESTE][row] && a->cells[CA_RESTE][row].i;
    c[C_RAISES] += is_raise;
    c[C_RAISES_FACED] += answer;
    c[C_ACCEPTS] += answer && accept;
    c[C_FOLDS_TO_RAISE] += answer && fold;
    c[C_FOLDS_UNPROMPTED] += fold && !pending;
    if (is_raise && known && a->given[CA_STRENGTH][row]) {
        int bluff = a->cells[CA_STRENGTH][row].f < threshold;
        c[C_RAISES_KNOWN] += 1;
        c[C_BLUFFS] += bluff;
        c[C_BLUFFS_FOLDED] += bluff && a->given[CA_ANSWER][row] && a->cells[CA_ANSWER][row].i == CK_FOLD;
        c[C_VALUE_RAISES] += a->cells[CA_STRENGTH][row].f >= threshold;
    }
    c[C_RESTE_MADE] += is_raise && reste;
    c[C_RESTE_WON] += is_raise && reste && won;
    c[C_REDEALS_ASKED] += type == CK_REDEAL;
    c[C_REDEALS_GRANTED] += type == CK_REDEAL && a->given[CA_ACCEPTED][row] && a->cells[CA_ACCEPTED][row].i;
    int given = a->given[CA_POINTS_GIVEN][row];
    long long points = a->cells[CA_POINTS_GIVEN][row].i;
    if (answer) {
        c[C_ANSWERS_KNOWN] += sound_given;
        c[C_ANSWERS_SOUND] += sound;
        c[C_ANSWERS_JUDGED] += right_given;
        c[C_ANSWERS_RIGHT] += right_given && right;
        c[fold ? C_FOLDS_JUDGED : C_ACCEPTS_JUDGED] += right_given;
        c[fold ? C_FOLDS_RIGHT : C_ACCEPTS_RIGHT] += right_given && right;
        if (right_given && given) {
            c[C_POINTS_GIVEN] += points;
            c[C_REVIEW_POINTS_LOST] += points;
        }
    }
    if (play) {
        c[C_PLAYS_KNOWN] += sound_given;
        c[C_PLAYS_SOUND] += sound;
        c[C_PLAYS_JUDGED] += right_given;
        c[C_PLAYS_RIGHT] += right_given && right;
        if (right_given && a->given[CA_LOST][row]) {
            c[C_PLAY_POINTS_LOST] += a->cells[CA_LOST][row].i;
            c[C_REVIEW_POINTS_LOST] += a->cells[CA_LOST][row].i;
        }
    }
}

/* Whether the tables would tell this game's sides and seats by name as by number. */
static int plainly_named(PyObject *players, PyObject *teams)
{
    Py_ssize_t size = PyTuple_GET_SIZE(players);
    for (int side = 0; side < 2; side++) {
        int tie = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(teams, side), "tie");
        if (tie == 0 || (tie == -1 && PyErr_Occurred())) return tie == 0 ? 0 : -1;
    }
    int same = PyUnicode_Compare(PyTuple_GET_ITEM(teams, 0), PyTuple_GET_ITEM(teams, 1));
    if (same != 1 && same != -1) return same == 0 ? 0 : -1;
    for (Py_ssize_t i = 0; i < size; i++)
        for (Py_ssize_t j = i + 1; j < size; j++) {
            same = PyUnicode_Compare(PyTuple_GET_ITEM(players, i), PyTuple_GET_ITEM(players, j));
            if (same == 0 || (same == -1 && PyErr_Occurred())) return same == 0 ? 0 : -1;
        }
    return 1;
}

/* The row of the team of ``side`` in a four-player game: its players in name order
 * joined by the unit separator (players.MEMBERS), and its name. */
static Py_ssize_t team_row(Counts *self, PyObject *players, PyObject *teams, int side)
{
    PyObject *a = PyTuple_GET_ITEM(players, side), *b = PyTuple_GET_ITEM(players, side + 2);
    int order = PyUnicode_Compare(a, b);
    if (order == -1 && PyErr_Occurred()) return -1;
    PyObject *members = PyUnicode_FromFormat("%U\x1f%U", order < 0 ? a : b, order < 0 ? b : a);
    PyObject *key = members ? PyTuple_Pack(2, members, PyTuple_GET_ITEM(teams, side)) : NULL;
    Py_XDECREF(members);
    if (!key) return -1;
    Py_ssize_t row = count_row(self, key);
    Py_DECREF(key);
    return row;
}

static PyObject *counts_add(Counts *self, PyObject *args)
{
    Facts *facts;
    PyObject *players, *teams;
    long long rules;
    if (!PyArg_ParseTuple(args, "O!O!O!L", &FactsType, &facts, &PyTuple_Type, &players,
                          &PyTuple_Type, &teams, &rules))
        return NULL;
    Py_ssize_t size = PyTuple_GET_SIZE(players);
    if ((size != 2 && size != 4) || PyTuple_GET_SIZE(teams) != 2) Py_RETURN_FALSE;
    for (Py_ssize_t i = 0; i < size; i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(players, i))) Py_RETURN_FALSE;
    for (int i = 0; i < 2; i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(teams, i))) Py_RETURN_FALSE;
    int plain = plainly_named(players, teams);
    if (plain <= 0) return plain < 0 ? NULL : Py_NewRef(Py_False);
    const Rows *h = &facts->hands, *a = &facts->actions;
    if (!h->rows) Py_RETURN_TRUE; /* no hand: nobody sat in a counted hand */
    Py_ssize_t rows[6]; /* each seat's, then each team's */
    for (Py_ssize_t s = 0; s < size; s++) {
        PyObject *name = PyTuple_GET_ITEM(players, s);
        if ((rows[s] = count_row(self, name)) < 0 || PyDict_SetItem(self->names, name, Py_None) < 0)
            return NULL;
    }
    for (int side = 0; side < 2; side++) {
        if (PyDict_SetItem(self->names, PyTuple_GET_ITEM(teams, side), Py_None) < 0) return NULL;
        if (size == 4 && (rows[4 + side] = team_row(self, players, teams, side)) < 0) return NULL;
    }
    for (Py_ssize_t row = 0; row < h->rows; row++) {
        long long dealer = h->cells[CH_DEALER][row].i;
        for (Py_ssize_t s = 0; s < size; s++) {
            int known = h->given[CH_CARDS + s][row], band = -1;
            if (known && size == 2
                && (band = dealt_band(self, rules, h->cells[CH_CARDS + s][row], dealer == s)) < -1)
                return NULL;
            count_hand(self->counts + rows[s] * COUNT_N, h, row, (int)(s % 2), known, band);
        }
        for (int side = 0; size == 4 && side < 2; side++) /* the team's first seat tells */
            count_hand(self->counts + rows[4 + side] * COUNT_N, h, row, side,
                       h->given[CH_CARDS + side][row], -1);
    }
    for (Py_ssize_t row = 0; row < a->rows; row++) {
        Py_ssize_t hand = a->cells[CA_ROW][row].i, seat = a->cells[CA_SEAT][row].i;
        if (hand < 0 || hand >= h->rows || seat < 0 || seat >= size) {
            PyErr_Format(PyExc_ValueError, "an action of a seat or hand not in the game");
            return NULL;
        }
        int known = h->given[CH_CARDS + seat][hand];
        int won = cell_int(h, CH_WINNER, hand, -1) == seat % 2;
        count_action(self->counts + rows[seat] * COUNT_N, a, row, known, won, self->threshold);
        if (size == 4)
            count_action(self->counts + rows[4 + seat % 2] * COUNT_N, a, row, known, won,
                         self->threshold);
    }
    for (Py_ssize_t s = 0; s < (size == 4 ? 6 : 2); s++) self->counts[rows[s] * COUNT_N + C_GAMES] += 1;
    Py_RETURN_TRUE;
}

static PyObject *counts_rows(Counts *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyList_New(self->rows);
    for (Py_ssize_t row = 0; out && row < self->rows; row++) {
        PyObject *values = PyTuple_New(COUNT_N + 1);
        if (!values) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(values, 0, Py_NewRef(PyList_GET_ITEM(self->keys, row)));
        for (int i = 0; i < COUNT_N; i++) {
            PyObject *count = PyLong_FromLongLong(self->counts[row * COUNT_N + i]);
            if (!count) {
                Py_DECREF(values);
                Py_CLEAR(out);
                return NULL;
            }
            PyTuple_SET_ITEM(values, i + 1, count);
        }
        PyList_SET_ITEM(out, row, values);
    }
    return out;
}

static PyObject *counts_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *words[] = {"dealt", "threshold", NULL};
    PyObject *dealt;
    double threshold;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Od", words, &dealt, &threshold)) return NULL;
    if (!PyCallable_Check(dealt)) {
        PyErr_SetString(PyExc_TypeError, "dealt must be callable");
        return NULL;
    }
    Counts *self = (Counts *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->index = PyDict_New();
    self->keys = PyList_New(0);
    self->names = PyDict_New();
    self->bands = calloc(BAND_SLOTS, sizeof(BandSlot));
    self->dealt = Py_NewRef(dealt);
    self->threshold = threshold;
    if (!self->index || !self->keys || !self->names || !self->bands) {
        int memory = !self->bands;
        Py_DECREF(self);
        return memory ? PyErr_NoMemory() : NULL;
    }
    return (PyObject *)self;
}

static void counts_dealloc(Counts *self)
{
    Py_XDECREF(self->index);
    Py_XDECREF(self->keys);
    Py_XDECREF(self->names);
    Py_XDECREF(self->dealt);
    free(self->counts);
    free(self->bands);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef counts_methods[] = {
    {"add", (PyCFunction)counts_add, METH_VARARGS,
     "add(facts, players, teams, rules) -> bool: count a cleared game's Facts (its seats'\n"
     "players, its two sides' names, a number for its rules that dealt() is asked with);\n"
     "False, counting nothing, for a game whose names the tables would need."},
    {"rows", (PyCFunction)counts_rows, METH_NOARGS,
     "rows() -> list: (key, *counts) of each player (key: the name) and team (key:\n"
     "(members, team name)), counts in COUNT_NAMES order."},
    {NULL, NULL, 0, NULL},
};

static PyObject *counts_named(Counts *self, void *Py_UNUSED(closure))
{
    return PyDict_Keys(self->names);
}

static PyGetSetDef counts_getset[] = {
    {"names", (getter)counts_named, NULL, "every player and team name of the games counted", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CountsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "truclog.validate._quick.Counts",
    .tp_basicsize = sizeof(Counts),
    .tp_dealloc = (destructor)counts_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Counts(dealt, threshold): the statistics of cleared games, per player and team.",
    .tp_methods = counts_methods,
    .tp_getset = counts_getset,
    .tp_new = counts_new,
};

/* COUNT_NAMES as a tuple, for the module. */
static PyObject *count_names(void)
{
    PyObject *names = PyTuple_New(COUNT_N);
    for (int i = 0; names && i < COUNT_N; i++) {
        PyObject *name = PyUnicode_FromString(COUNT_NAMES[i]);
        if (!name) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    return names;
}

#endif
