/* The facts statistics count, kept as rows of C values and handed to polars whole.
 *
 * A Facts object (truclog.validate._quick.Facts) holds the rows of two tables: the hands
 * of some games and their actions (raises, answers, redeals, plays), in the columns
 * truclog/stats/tables.py names _FACTS (and "g", the game's number in a batch) and
 * _NARROW_ACTIONS. scan() fills one per game it clears; a batch of statistics takes the
 * games' rows into its own (take, or take_lists for the rows of a game the Python
 * validator checked), then hands them to polars at once (flush) through the Arrow C data
 * interface, without a Python object per value. For an export, a Facts holds the rows of
 * a game's action lines too (LINE_SPEC), which a batch takes a range of at a time
 * (take_lines) and hands to polars the same way (flush_lines).
 *
 * Included by _quick.c: TYPES and POSITIONS are its interned names of action types and
 * of places in a trick.
 */
#ifndef TRUCLOG_COLUMNS_H
#define TRUCLOG_COLUMNS_H

#include <stdint.h>
#include <stdlib.h>

/* --- the Arrow C data interface (its ABI, as the Arrow project defines it) ------------- */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_NULLABLE 2

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif

/* --- rows ----------------------------------------------------------------------------- */

/* How a column's values are kept and told: numbers, a flag, a word (an action's type, a
 * place in a trick, a line's type), ranks or a card (at most 7 bytes), or text of any
 * length (kept in the rows' text: a cell holds where it starts and, from bit 40, its
 * length). */
enum { K_INT, K_INDEX, K_FLOAT, K_BOOL, K_TYPE, K_POSITION, K_RANKS, K_LINE, K_TEXT };
enum { TEXT_AT = 40 };

typedef struct {
    const char *name;
    int kind;
} ColumnSpec;

/* A hand's facts (tables._FACTS) and the number of its game in the batch. */
static const ColumnSpec HAND_SPEC[] = {
    {"hand", K_INT},     {"dealer", K_INT},    {"score_a", K_INT},   {"score_b", K_INT},
    {"winner", K_INT},   {"points", K_INT},    {"ending", K_INT},    {"reste", K_INT},
    {"tricks", K_INT},   {"first_trick", K_INT}, {"cards_0", K_RANKS}, {"cards_1", K_RANKS},
    {"cards_2", K_RANKS}, {"cards_3", K_RANKS}, {"g", K_INDEX},
};
enum { HAND_FACTS = 14, HAND_G = 14, HAND_SPEC_N = 15 };

/* An action's row (tables._NARROW_ACTIONS): "row" is its hand's row. */
static const ColumnSpec ACTION_SPEC[] = {
    {"row", K_INDEX},         {"seat", K_INT},       {"type", K_TYPE},
    {"reste", K_BOOL},        {"accepted", K_BOOL},  {"pending", K_INT},
    {"strength", K_FLOAT},    {"answer", K_TYPE},    {"answer_worth_accept", K_FLOAT},
    {"answer_worth_fold", K_FLOAT}, {"sound", K_BOOL}, {"right", K_BOOL},
    {"points_given", K_INT},  {"to", K_INT},         {"position", K_POSITION},
    {"lost", K_INT},          {"card", K_RANKS},     {"value_before", K_INT},
};
enum { ACTION_SPEC_N = 18 };

/* An export's row of an action line (tables._LINES): "row" is its hand's row and
 * "at_review" its action's row (null for a deal or a show); the seats by number. */
static const ColumnSpec LINE_SPEC[] = {
    {"row", K_INDEX},     {"line", K_INT},        {"seq", K_INT},      {"type", K_LINE},
    {"seat", K_INT},      {"card", K_RANKS},      {"to", K_INT},       {"reste", K_BOOL},
    {"accepted", K_BOOL}, {"trick", K_INT},       {"position", K_POSITION},
    {"value_before", K_INT}, {"pending", K_INT},  {"raiser", K_INT},   {"at_review", K_INT},
    {"t", K_TEXT},
};
enum { LINE_SPEC_N = 16, LINE_ROW = 0, LINE_REVIEW = 14, LINE_T = 15 };

/* More of an export's hand (tables._HAND_MORE): its value at the end, a redeal asked,
 * granted, its raises; and of an action statistics count: the best decisions joined by
 * commas, the points at stake. */
static const ColumnSpec HAND_MORE_SPEC[] = {
    {"value", K_INT}, {"redeal_asked", K_BOOL}, {"redeal_granted", K_BOOL}, {"raises", K_INT},
};
static const ColumnSpec ACTION_MORE_SPEC[] = {{"best", K_TEXT}, {"stake", K_INT}};
enum { HAND_MORE_SPEC_N = 4, ACTION_MORE_SPEC_N = 2, ACTION_MORE_BEST = 0 };

/* What the review of decisions needs more of each action (see _decisions.h): its line,
 * its best decisions joined by commas (given when judged) and the points at stake. */
static const ColumnSpec DECIDED_SPEC[] = {{"line", K_INT}, {"best", K_TEXT}, {"stake", K_INT}};
enum { DECIDED_SPEC_N = 3, DECIDED_LINE = 0, DECIDED_BEST = 1, DECIDED_STAKE = 2 };

typedef union {
    long long i; /* a number, a flag, a word's index, or ranks (bytes 0-6, their count in 7) */
    double f;
} Cell;

/* Rows of one table, column by column: each column's cells and whether each is given
 * (0: null). Kept with malloc, as Arrow's buffers are, which they become. */
enum { MAX_COLUMNS = 18 };
typedef struct {
    const ColumnSpec *spec;
    int ncols;
    Cell *cells[MAX_COLUMNS];
    unsigned char *given[MAX_COLUMNS];
    Py_ssize_t rows, capacity;
    Py_ssize_t handed; /* the rows handed to polars last: a batch makes room for as many */
    char *text; /* the bytes of the K_TEXT cells */
    Py_ssize_t text_len, text_cap;
} Rows;

static void clear_rows(Rows *r)
{
    for (int col = 0; col < r->ncols; col++) {
        free(r->cells[col]);
        free(r->given[col]);
        r->cells[col] = NULL;
        r->given[col] = NULL;
    }
    free(r->text);
    r->text = NULL;
    r->rows = r->capacity = r->text_len = r->text_cap = 0;
}

/* A MemoryError set, the GIL held or not (a scan makes rows without it): taken for it. */
static void no_memory(void)
{
    PyGILState_STATE held = PyGILState_Ensure();
    PyErr_NoMemory();
    PyGILState_Release(held);
}

/* Room for ``more`` rows; 0 (MemoryError set) when there is none. */
static int reserve(Rows *r, Py_ssize_t more)
{
    if (r->rows + more <= r->capacity) return 1;
    Py_ssize_t capacity = r->capacity ? r->capacity : 8 * r->ncols; /* most games fit */
    if (capacity < r->handed) capacity = r->handed;
    while (capacity < r->rows + more) capacity *= 2;
    for (int col = 0; col < r->ncols; col++) {
        Cell *cells = realloc(r->cells[col], (size_t)capacity * sizeof(Cell));
        if (cells) r->cells[col] = cells;
        unsigned char *given = realloc(r->given[col], (size_t)capacity);
        if (given) r->given[col] = given;
        if (!cells || !given) {
            no_memory();
            return 0;
        }
    }
    r->capacity = capacity;
    return 1;
}

/* A new row, every cell null; its number, or -1 (MemoryError set) without room. */
static Py_ssize_t new_row(Rows *r)
{
    if (!reserve(r, 1)) return -1;
    for (int col = 0; col < r->ncols; col++) {
        r->cells[col][r->rows].i = 0;
        r->given[col][r->rows] = 0;
    }
    return r->rows++;
}

static void set_cell(Rows *r, Py_ssize_t row, int col, Cell value)
{
    r->cells[col][row] = value;
    r->given[col][row] = 1;
}

/* Room for ``n`` more bytes of text; 0 (MemoryError set) when there is none. */
static int text_room(Rows *r, Py_ssize_t n)
{
    if (r->text_len + n <= r->text_cap) return 1;
    Py_ssize_t cap = r->text_cap ? r->text_cap : 1024;
    while (cap < r->text_len + n) cap *= 2;
    char *more = realloc(r->text, (size_t)cap);
    if (!more) {
        no_memory();
        return 0;
    }
    r->text = more;
    r->text_cap = cap;
    return 1;
}

/* Text as the cell of column ``col`` (K_TEXT) of ``row``; 0 (MemoryError set) without room. */
static int set_text(Rows *r, Py_ssize_t row, int col, const char *text, Py_ssize_t n)
{
    if (!text_room(r, n)) return 0;
    memcpy(r->text + r->text_len, text, (size_t)n);
    set_cell(r, row, col, (Cell){.i = r->text_len | ((long long)n << TEXT_AT)});
    r->text_len += n;
    return 1;
}

/* Where a K_TEXT cell's bytes start in the rows' text, and how many there are. */
static Py_ssize_t text_at(Cell cell) { return (Py_ssize_t)(cell.i & ((1LL << TEXT_AT) - 1)); }
static Py_ssize_t text_length(Cell cell) { return (Py_ssize_t)(cell.i >> TEXT_AT); }

static PyObject *TYPES[5], *POSITIONS[4]; /* by event kind, by place in the trick */
static const char *const KIND_NAMES[5] = {"redeal", "raise", "accept", "fold", "play"};
static const char *const POSITION_NAMES[4] = {"leader", "follower", "third", "fourth"};
/* The actions' types, by the line types of _quick.c (T_DEAL is 2, T_SHOW 8). */
static const char *const LINE_NAMES[9] = {NULL, NULL, "deal", "redeal", "raise",
                                          "accept", "fold", "play", "show"};

/* The index of the str ``value`` among ``names`` (interned as ``known``), or -1. */
static int word_index(PyObject *value, PyObject *const *known, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (value == known[i]) return i;
    for (int i = 0; PyUnicode_Check(value) && i < n; i++)
        if (PyUnicode_CompareWithASCIIString(value, names[i]) == 0) return i;
    return -1;
}

/* ``value`` (a Python object of a column of ``kind``) as a cell: 1, or 0 for None, or -1
 * with an error set. */
static int cell_of(int kind, PyObject *value, Cell *cell)
{
    if (value == Py_None) return 0;
    switch (kind) {
    case K_INT:
    case K_INDEX:
        cell->i = PyLong_AsLongLong(value);
        return cell->i == -1 && PyErr_Occurred() ? -1 : 1;
    case K_FLOAT:
        cell->f = PyFloat_AsDouble(value);
        return cell->f == -1.0 && PyErr_Occurred() ? -1 : 1;
    case K_BOOL: {
        int truth = PyObject_IsTrue(value);
        cell->i = truth;
        return truth < 0 ? -1 : 1;
    }
    case K_TYPE:
    case K_POSITION: {
        int types = kind == K_TYPE;
        cell->i = word_index(value, types ? TYPES : POSITIONS, types ? KIND_NAMES : POSITION_NAMES,
                             types ? 5 : 4);
        if (cell->i >= 0) return 1;
        PyErr_Format(PyExc_ValueError, "not a known %s: %R", types ? "action" : "place", value);
        return -1;
    }
    default: { /* K_RANKS */
        Py_ssize_t n;
        const char *text = PyUnicode_Check(value) ? PyUnicode_AsUTF8AndSize(value, &n) : NULL;
        if (!text || n > 7) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "not ranks: %R", value);
            return -1;
        }
        cell->i = 0;
        memcpy(&cell->i, text, (size_t)n);
        ((unsigned char *)&cell->i)[7] = (unsigned char)n;
        return 1;
    }
    }
}

/* Ranks as a cell (see cell_of). */
static Cell ranks_cell(const char *text, int n)
{
    Cell cell = {0};
    memcpy(&cell.i, text, (size_t)n);
    ((unsigned char *)&cell.i)[7] = (unsigned char)n;
    return cell;
}

/* A row of Python values (``values[i]`` for column i, None for null); 0 with an error set. */
static int put_values(Rows *r, PyObject *const *values)
{
    Py_ssize_t row = new_row(r);
    if (row < 0) return 0;
    for (int col = 0; col < r->ncols; col++) {
        Cell cell;
        int found = cell_of(r->spec[col].kind, values[col], &cell);
        if (found < 0) {
            r->rows--;
            return 0;
        }
        if (found) set_cell(r, row, col, cell);
    }
    return 1;
}

/* A hand's row: its ten numbers and each of four seats' three ranks (NULL: None). */
static int hand_row(Rows *r, const long long values[10], const char *const cards[4])
{
    Py_ssize_t row = new_row(r);
    if (row < 0) return 0;
    for (int i = 0; i < 10; i++) set_cell(r, row, i, (Cell){.i = values[i]});
    for (int s = 0; s < 4; s++)
        if (cards[s]) set_cell(r, row, 10 + s, ranks_cell(cards[s], 3));
    return 1;
}

/* --- the Facts type -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Rows hands, actions, lines, hands_more, actions_more; /* the last three: an export's */
    Rows decided; /* the review of decisions' (DECIDED_SPEC), a row per action */
} Facts;

static PyTypeObject FactsType;

/* The room of the rows of games' Facts gone, kept for the next games' (each game's
 * Facts lives until a batch takes its rows: the same room serves game after game). Room
 * for 64: when an export queued games read ahead (chunks of 8), about 48 games' Facts
 * were alive at once; now that its reading thread gathers each game into its batch as it
 * is read, 8 and 64 gave the same peak and CPU (the 150 MB log, the 12,000-hand game). */
enum { SPARE = 64, SPARE_ROWS = 1 << 12 };
enum { HAND_ROWS, ACTION_ROWS, LINE_ROWS, HAND_MORE_ROWS, ACTION_MORE_ROWS, DECIDED_ROWS, TABLES };
static const struct {
    const ColumnSpec *spec;
    int ncols;
} TABLE_SPECS[TABLES] = {
    {HAND_SPEC, HAND_SPEC_N},           {ACTION_SPEC, ACTION_SPEC_N},
    {LINE_SPEC, LINE_SPEC_N},           {HAND_MORE_SPEC, HAND_MORE_SPEC_N},
    {ACTION_MORE_SPEC, ACTION_MORE_SPEC_N}, {DECIDED_SPEC, DECIDED_SPEC_N},
};
static Rows spare[TABLES][SPARE];
static int spares[TABLES];

static void new_rows(Rows *r, int table)
{
    if (spares[table]) {
        *r = spare[table][--spares[table]];
        return;
    }
    memset(r, 0, sizeof(Rows));
    r->spec = TABLE_SPECS[table].spec;
    r->ncols = TABLE_SPECS[table].ncols;
}

static void drop_rows(Rows *r, int table)
{
    if (r->capacity && r->capacity <= SPARE_ROWS && spares[table] < SPARE) {
        r->rows = r->text_len = 0;
        spare[table][spares[table]++] = *r;
    } else {
        clear_rows(r);
    }
}

static Facts *new_facts_rows(void)
{
    Facts *self = PyObject_New(Facts, &FactsType);
    if (!self) return NULL;
    new_rows(&self->hands, HAND_ROWS);
    new_rows(&self->actions, ACTION_ROWS);
    new_rows(&self->lines, LINE_ROWS);
    new_rows(&self->hands_more, HAND_MORE_ROWS);
    new_rows(&self->actions_more, ACTION_MORE_ROWS);
    new_rows(&self->decided, DECIDED_ROWS);
    return self;
}

static PyObject *facts_new(PyTypeObject *Py_UNUSED(type), PyObject *args, PyObject *kwds)
{
    if (PyTuple_GET_SIZE(args) || (kwds && PyDict_GET_SIZE(kwds))) {
        PyErr_SetString(PyExc_TypeError, "Facts() takes no arguments");
        return NULL;
    }
    return (PyObject *)new_facts_rows();
}

static void facts_dealloc(Facts *self)
{
    drop_rows(&self->hands, HAND_ROWS);
    drop_rows(&self->actions, ACTION_ROWS);
    drop_rows(&self->lines, LINE_ROWS);
    drop_rows(&self->hands_more, HAND_MORE_ROWS);
    drop_rows(&self->actions_more, ACTION_MORE_ROWS);
    drop_rows(&self->decided, DECIDED_ROWS);
    PyObject_Free(self);
}

/* Append rows ``a`` to ``b`` of ``from`` (of the same table), room made. */
static void append_rows(Rows *r, const Rows *from, Py_ssize_t a, Py_ssize_t b)
{
    if (b <= a) return; /* rows never made have no cells: memcpy is given none */
    for (int col = 0; col < r->ncols; col++) {
        memcpy(r->cells[col] + r->rows, from->cells[col] + a, (size_t)(b - a) * sizeof(Cell));
        memcpy(r->given[col] + r->rows, from->given[col] + a, (size_t)(b - a));
    }
    r->rows += b - a;
}

/* The first of the action rows of ``game`` whose hand is ``hand`` or later (they come
 * in the order of their hands). */
static Py_ssize_t first_action(const Facts *game, Py_ssize_t hand)
{
    Py_ssize_t low = 0, high = game->actions.rows;
    while (low < high) {
        Py_ssize_t mid = low + (high - low) / 2;
        if (game->actions.cells[0][mid].i < hand) low = mid + 1;
        else high = mid;
    }
    return low;
}

/* Append the rows of hands ``h0`` to ``h1`` of ``game`` and of their actions, its hands
 * as game ``g``: its actions' hand rows move with them. 0 (MemoryError set) without room. */
static int take_rows(Facts *self, const Facts *game, long long g, Py_ssize_t h0, Py_ssize_t h1)
{
    Py_ssize_t first = self->hands.rows, at = self->actions.rows;
    Py_ssize_t a0 = first_action(game, h0), a1 = first_action(game, h1);
    if (!reserve(&self->hands, h1 - h0) || !reserve(&self->actions, a1 - a0)) return 0;
    append_rows(&self->hands, &game->hands, h0, h1);
    append_rows(&self->actions, &game->actions, a0, a1);
    for (Py_ssize_t i = first; i < self->hands.rows; i++) set_cell(&self->hands, i, HAND_G, (Cell){.i = g});
    for (Py_ssize_t i = at; i < self->actions.rows; i++) self->actions.cells[0][i].i += first - h0;
    return 1;
}

static PyObject *facts_take(Facts *self, PyObject *args)
{
    Facts *game;
    long long g;
    Py_ssize_t h0 = 0, h1 = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "O!L|nn", &FactsType, &game, &g, &h0, &h1)) return NULL;
    if (game == self) {
        PyErr_SetString(PyExc_ValueError, "a batch cannot take its own rows");
        return NULL;
    }
    h1 = h1 > game->hands.rows ? game->hands.rows : h1;
    h0 = h0 < 0 ? 0 : h0 > h1 ? h1 : h0;
    return take_rows(self, game, g, h0, h1) ? Py_NewRef(Py_None) : NULL;
}

/* Append the rows ``start`` to ``stop`` of ``from`` (of the same table, its text in
 * the order of its rows); 0 (MemoryError set) without room. */
static int copy_rows(Rows *r, const Rows *from, Py_ssize_t start, Py_ssize_t stop)
{
    Py_ssize_t n = stop - start, at = r->rows;
    if (n <= 0) return 1;
    if (!reserve(r, n)) return 0;
    for (int col = 0; col < r->ncols; col++) {
        memcpy(r->cells[col] + at, from->cells[col] + start, (size_t)n * sizeof(Cell));
        memcpy(r->given[col] + at, from->given[col] + start, (size_t)n);
        if (r->spec[col].kind != K_TEXT) continue;
        Py_ssize_t first = -1, end = 0; /* the text of the rows, from first to end */
        for (Py_ssize_t i = start; i < stop; i++) {
            if (!from->given[col][i]) continue;
            if (first < 0) first = text_at(from->cells[col][i]);
            end = text_at(from->cells[col][i]) + text_length(from->cells[col][i]);
        }
        if (first < 0) continue;
        if (!text_room(r, end - first)) return 0;
        memcpy(r->text + r->text_len, from->text + first, (size_t)(end - first));
        for (Py_ssize_t i = at; i < at + n; i++)
            if (r->given[col][i]) r->cells[col][i].i += r->text_len - first;
        r->text_len += end - first;
    }
    r->rows += n;
    return 1;
}

/* The first row of ``r`` (in the order of its column ``col``) whose ``col`` is at least
 * ``value``. */
static Py_ssize_t first_at(const Rows *r, int col, long long value)
{
    Py_ssize_t lo = 0, hi = r->rows;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (r->cells[col][mid].i < value) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Append the line rows ``start`` to ``stop`` of ``game``, their hand rows from ``row`` on
 * and their action rows from ``review`` on (added to theirs). 0 (an error set) if not. */
static int take_lines(Facts *self, const Facts *game, Py_ssize_t start, Py_ssize_t stop,
                      long long row, long long review)
{
    const Rows *from = &game->lines;
    Rows *r = &self->lines;
    if (start < 0 || stop > from->rows || start > stop) {
        PyErr_SetString(PyExc_IndexError, "lines out of range");
        return 0;
    }
    Py_ssize_t at = r->rows;
    if (!copy_rows(r, from, start, stop)) return 0;
    for (Py_ssize_t i = at; i < r->rows; i++) {
        r->cells[LINE_ROW][i].i += row;
        if (r->given[LINE_REVIEW][i]) r->cells[LINE_REVIEW][i].i += review;
    }
    return 1;
}

/* Append the hands ``start`` to ``stop`` of ``game`` (an export's facts), as game ``g``, with
 * their more, their actions and theirs more, and their lines. 0 (an error set) if not. */
static int take_hands(Facts *self, const Facts *game, long long g, long long start, long long stop)
{
    const Rows *hands = &game->hands;
    if (start < 0 || stop > hands->rows || start > stop || game->hands_more.rows != hands->rows
        || game->actions_more.rows != game->actions.rows) {
        PyErr_SetString(PyExc_IndexError, "hands out of range, or not an export's");
        return 0;
    }
    Py_ssize_t first = self->hands.rows, acted = self->actions.rows;
    Py_ssize_t from = first_at(&game->actions, 0, start), to = first_at(&game->actions, 0, stop);
    Py_ssize_t line = first_at(&game->lines, LINE_ROW, start);
    Py_ssize_t last = first_at(&game->lines, LINE_ROW, stop);
    if (!copy_rows(&self->hands, hands, start, stop)
        || !copy_rows(&self->hands_more, &game->hands_more, start, stop)
        || !copy_rows(&self->actions, &game->actions, from, to)
        || !copy_rows(&self->actions_more, &game->actions_more, from, to))
        return 0;
    for (Py_ssize_t i = first; i < self->hands.rows; i++) set_cell(&self->hands, i, HAND_G, (Cell){.i = g});
    for (Py_ssize_t i = acted; i < self->actions.rows; i++) self->actions.cells[0][i].i += first - start;
    return take_lines(self, game, line, last, first - start, acted - from);
}

static PyObject *facts_take_hands(Facts *self, PyObject *args)
{
    Facts *game;
    long long g, start, stop;
    if (!PyArg_ParseTuple(args, "O!LLL", &FactsType, &game, &g, &start, &stop)) return NULL;
    if (game == self) {
        PyErr_SetString(PyExc_ValueError, "a batch cannot take its own rows");
        return NULL;
    }
    Py_ssize_t lines = self->lines.rows;
    return take_hands(self, game, g, start, stop) ? PyLong_FromSsize_t(self->lines.rows - lines) : NULL;
}

/* The hand row of each line row, as a list (a long game is cut between hands by them). */
static PyObject *facts_line_hands(Facts *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *hands = PyList_New(self->lines.rows);
    for (Py_ssize_t i = 0; hands && i < self->lines.rows; i++) {
        PyObject *row = PyLong_FromLongLong(self->lines.cells[LINE_ROW][i].i);
        if (!row) Py_CLEAR(hands);
        else PyList_SET_ITEM(hands, i, row);
    }
    return hands;
}

/* Rows given as columns (a sequence of lists of one length), appended: with ``value``
 * added to column ``col`` of each when ``add``, else given as that column (which
 * ``columns`` lacks). 0 with an error set. */
static int put_columns(Rows *r, PyObject *columns, int col, long long value, int add)
{
    PyObject *fast = PySequence_Fast(columns, "facts as columns");
    if (!fast) return 0;
    int given = (int)PySequence_Fast_GET_SIZE(fast), ok = 1;
    if (given != r->ncols - !add) {
        PyErr_Format(PyExc_ValueError, "%d columns of facts given, %d wanted", given, r->ncols - !add);
        Py_DECREF(fast);
        return 0;
    }
    PyObject **lists = PySequence_Fast_ITEMS(fast);
    Py_ssize_t n = given ? PyList_Check(lists[0]) ? PyList_GET_SIZE(lists[0]) : -1 : 0;
    for (int i = 0; ok && i < given; i++)
        ok = PyList_Check(lists[i]) && PyList_GET_SIZE(lists[i]) == n;
    if (!ok) PyErr_SetString(PyExc_ValueError, "facts as lists of one length");
    ok = ok && reserve(r, n);
    for (Py_ssize_t row = 0; ok && row < n; row++) {
        PyObject *values[32];
        for (int i = 0; i < given; i++) values[i] = PyList_GET_ITEM(lists[i], row);
        if (!add) values[given] = Py_None;
        ok = put_values(r, values);
        if (!ok) break;
        if (add) r->cells[col][r->rows - 1].i += value;
        else set_cell(r, r->rows - 1, col, (Cell){.i = value});
    }
    Py_DECREF(fast);
    return ok;
}

static PyObject *facts_take_lists(Facts *self, PyObject *args)
{
    PyObject *hands, *actions, *more = Py_None;
    long long g;
    if (!PyArg_ParseTuple(args, "OOL|O", &hands, &actions, &g, &more)) return NULL;
    Py_ssize_t first = self->hands.rows, acted = self->actions.rows;
    Py_ssize_t told = self->hands_more.rows;
    if (!put_columns(&self->hands, hands, HAND_G, g, 0)
        || !put_columns(&self->actions, actions, 0, first, 1)
        || (more != Py_None && !put_columns(&self->hands_more, more, 0, 0, 1))) {
        self->hands.rows = first; /* nothing of the game is kept */
        self->actions.rows = acted;
        self->hands_more.rows = told;
        return NULL;
    }
    return Py_NewRef(Py_None);
}

/* --- to Arrow -------------------------------------------------------------------------- */

static void release_schema(struct ArrowSchema *schema)
{
    for (int64_t i = 0; i < schema->n_children; i++) {
        struct ArrowSchema *child = schema->children[i];
        if (child->release) child->release(child);
        free(child);
    }
    free(schema->children);
    schema->release = NULL;
}

static void release_array(struct ArrowArray *array)
{
    for (int64_t i = 0; i < array->n_children; i++) {
        struct ArrowArray *child = array->children[i];
        if (child->release) child->release(child);
        free(child);
    }
    for (int64_t i = 0; i < array->n_buffers; i++) free((void *)array->buffers[i]);
    free(array->children);
    free(array->buffers);
    array->release = NULL;
}

static const char *arrow_format(int kind)
{
    switch (kind) {
    case K_INT: return "l";
    case K_INDEX: return "I";
    case K_FLOAT: return "g";
    case K_BOOL: return "b";
    default: return "u"; /* words, ranks and text */
    }
}

/* The text of a word or ranks cell of ``r`` into ``out`` (room for 8, or for the cell's
 * text); its length. */
static Py_ssize_t cell_text(const Rows *r, int kind, Cell cell, char *out)
{
    if (kind == K_TEXT) {
        memcpy(out, r->text + text_at(cell), (size_t)text_length(cell));
        return text_length(cell);
    }
    const char *word = kind == K_TYPE       ? KIND_NAMES[cell.i]
                       : kind == K_POSITION ? POSITION_NAMES[cell.i]
                       : kind == K_LINE     ? LINE_NAMES[cell.i]
                                            : NULL;
    if (word) {
        size_t n = strlen(word);
        memcpy(out, word, n);
        return (int)n;
    }
    int n = ((unsigned char *)&cell.i)[7];
    memcpy(out, &cell.i, (size_t)n);
    return n;
}

/* One column of ``r`` as an Arrow array (its buffers malloc'd, freed by its release): a
 * column of numbers gives its cells away (``r`` keeps none). 0 when memory ran out. */
static int export_column(Rows *r, int col, struct ArrowArray *out)
{
    int kind = r->spec[col].kind;
    int text = kind == K_TYPE || kind == K_POSITION || kind == K_RANKS || kind == K_LINE
               || kind == K_TEXT;
    Py_ssize_t n = r->rows, bits = (n + 7) / 8 + 1, nulls = 0;
    const Cell *cells = r->cells[col];
    const unsigned char *given = r->given[col];
    const void **buffers = calloc(3, sizeof(void *));
    unsigned char *valid = calloc((size_t)bits, 1);
    memset(out, 0, sizeof *out);
    out->release = release_array;
    out->length = n;
    if (!buffers || !valid) {
        free(buffers);
        free(valid);
        return 0;
    }
    out->buffers = buffers;
    out->n_buffers = text ? 3 : 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (given[i]) valid[i / 8] |= (unsigned char)(1u << (i % 8));
        else nulls++;
    }
    out->null_count = nulls;
    if (nulls) buffers[0] = valid;
    else free(valid);
    if (text) {
        Py_ssize_t room = kind == K_TEXT ? r->text_len : n * 8;
        if (room > INT32_MAX) return 0;
        int32_t *offsets = malloc((size_t)(n + 1) * sizeof(int32_t));
        char *chars = malloc((size_t)room + 1);
        buffers[1] = offsets;
        buffers[2] = chars;
        if (!offsets || !chars) return 0;
        int32_t at = 0;
        offsets[0] = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (given[i]) at += (int32_t)cell_text(r, kind, cells[i], chars + at);
            offsets[i + 1] = at;
        }
        return 1;
    }
    if (kind == K_INT || kind == K_FLOAT) { /* a long long's and a double's bits, as Arrow's */
        buffers[1] = n ? (void *)cells : malloc(8);
        if (n) r->cells[col] = NULL;
        return buffers[1] != NULL;
    }
    void *data = kind == K_INDEX ? malloc((size_t)n * sizeof(uint32_t) + 8) : calloc((size_t)bits, 1);
    buffers[1] = data;
    if (!data) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (kind == K_INDEX) ((uint32_t *)data)[i] = (uint32_t)cells[i].i;
        else if (given[i] && cells[i].i) ((unsigned char *)data)[i / 8] |= (unsigned char)(1u << (i % 8));
    }
    return 1;
}

/* ``r`` as an Arrow struct array of its columns and its schema; 0 when memory ran out
 * (what was made is released by the caller through the release callbacks). */
static int export_rows(Rows *r, struct ArrowSchema *schema, struct ArrowArray *array)
{
    int n = r->ncols;
    memset(schema, 0, sizeof *schema);
    memset(array, 0, sizeof *array);
    schema->format = "+s";
    schema->name = "";
    schema->release = release_schema;
    array->release = release_array;
    array->length = r->rows;
    schema->children = calloc((size_t)n, sizeof(struct ArrowSchema *));
    array->children = calloc((size_t)n, sizeof(struct ArrowArray *));
    array->buffers = calloc(1, sizeof(void *));
    array->n_buffers = 1;
    if (!schema->children || !array->children || !array->buffers) return 0;
    for (int col = 0; col < n; col++) {
        struct ArrowSchema *field = calloc(1, sizeof *field);
        struct ArrowArray *values = calloc(1, sizeof *values);
        if (field) {
            schema->children[schema->n_children++] = field;
            field->format = arrow_format(r->spec[col].kind);
            field->name = r->spec[col].name;
            field->flags = ARROW_FLAG_NULLABLE;
            field->release = release_schema;
        }
        if (values) array->children[array->n_children++] = values;
        if (!field || !values || !export_column(r, col, values)) return 0;
    }
    return 1;
}

/* A table handed to polars: its Arrow schema and array, given away once by
 * __arrow_c_array__ (the Arrow PyCapsule interface). */
typedef struct {
    PyObject_HEAD
    struct ArrowSchema *schema;
    struct ArrowArray *array;
} Table;

static PyTypeObject TableType;

static void free_schema(struct ArrowSchema *schema)
{
    if (schema && schema->release) schema->release(schema);
    free(schema);
}

static void free_array(struct ArrowArray *array)
{
    if (array && array->release) array->release(array);
    free(array);
}

static void table_dealloc(Table *self)
{
    free_schema(self->schema);
    free_array(self->array);
    PyObject_Free(self);
}

static void schema_capsule_free(PyObject *capsule)
{
    free_schema(PyCapsule_GetPointer(capsule, "arrow_schema"));
}

static void array_capsule_free(PyObject *capsule)
{
    free_array(PyCapsule_GetPointer(capsule, "arrow_array"));
}

static PyObject *table_arrow(Table *self, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", names, &requested)) return NULL;
    if (!self->schema || !self->array) {
        PyErr_SetString(PyExc_ValueError, "the table was given away already");
        return NULL;
    }
    PyObject *schema = PyCapsule_New(self->schema, "arrow_schema", schema_capsule_free);
    if (!schema) return NULL;
    self->schema = NULL;
    PyObject *array = PyCapsule_New(self->array, "arrow_array", array_capsule_free);
    if (!array) {
        Py_DECREF(schema);
        return NULL;
    }
    self->array = NULL;
    return Py_BuildValue("(NN)", schema, array);
}

static PyObject *table_of(Rows *r)
{
    Table *table = PyObject_New(Table, &TableType);
    if (!table) return NULL;
    table->schema = calloc(1, sizeof(struct ArrowSchema));
    table->array = calloc(1, sizeof(struct ArrowArray));
    if (!table->schema || !table->array || !export_rows(r, table->schema, table->array)) {
        Py_DECREF(table);
        return PyErr_NoMemory();
    }
    return (PyObject *)table;
}

/* The rows handed to polars: none are left, and the next batch's room is made at once. */
static void handed(Rows *r)
{
    Py_ssize_t rows = r->rows;
    clear_rows(r);
    r->handed = rows;
}

/* The rows copied into a batch's columns (see _wide.h): none are left, their room kept
 * for the next batch's (made anew, it was mostly page faults and the allocator's work). */
static void emptied(Rows *r)
{
    r->handed = r->rows;
    r->rows = r->text_len = 0;
}

static PyObject *facts_flush(Facts *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *hands = table_of(&self->hands);
    PyObject *actions = hands ? table_of(&self->actions) : NULL;
    handed(&self->hands);
    handed(&self->actions);
    if (!actions) {
        Py_XDECREF(hands);
        return NULL;
    }
    return Py_BuildValue("(NN)", hands, actions);
}

static PyObject *facts_flush_more(Facts *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *hands = table_of(&self->hands_more);
    PyObject *actions = hands ? table_of(&self->actions_more) : NULL;
    PyObject *lines = actions ? table_of(&self->lines) : NULL;
    handed(&self->hands_more);
    handed(&self->actions_more);
    handed(&self->lines);
    if (!lines) {
        Py_XDECREF(hands);
        Py_XDECREF(actions);
        return NULL;
    }
    return Py_BuildValue("(NNN)", hands, actions, lines);
}

static PyObject *facts_hands(Facts *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->hands.rows);
}

static PyObject *facts_actions(Facts *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->actions.rows);
}

static PyObject *facts_lines(Facts *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->lines.rows);
}

static PyMethodDef facts_methods[] = {
    {"take", (PyCFunction)facts_take, METH_VARARGS,
     "take(game, g, start=0, stop=all): append the rows of another Facts (a game's), its\n"
     "hands as game g: of its hands start to stop (by index) and of their actions."},
    {"take_lists", (PyCFunction)facts_take_lists, METH_VARARGS,
     "take_lists(hands, actions, g, more=None): append a game's rows given as lists, one per\n"
     "column (tables._FACTS without g; tables._NARROW_ACTIONS, rows counted in the game;\n"
     "an export's tables._HAND_MORE), as game g."},
    {"flush", (PyCFunction)facts_flush, METH_NOARGS,
     "flush() -> (hands, actions): the rows as two tables for polars.DataFrame (the Arrow\n"
     "PyCapsule interface); the Facts is empty again."},
    {"take_hands", (PyCFunction)facts_take_hands, METH_VARARGS,
     "take_hands(game, g, start, stop) -> int: append the hands start to stop of another\n"
     "Facts (a game's, an export's) as game g, with their actions, lines and more; the\n"
     "lines appended."},
    {"line_hands", (PyCFunction)facts_line_hands, METH_NOARGS,
     "line_hands() -> list: the hand row of each line row."},
    {"flush_more", (PyCFunction)facts_flush_more, METH_NOARGS,
     "flush_more() -> (hands_more, actions_more, lines): an export's rows beyond the facts,\n"
     "as tables for polars.DataFrame; none are left."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef facts_getset[] = {
    {"hands", (getter)facts_hands, NULL, "the hand rows held", NULL},
    {"actions", (getter)facts_actions, NULL, "the action rows held", NULL},
    {"lines", (getter)facts_lines, NULL, "the line rows held (an export's)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject FactsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "truclog.validate._quick.Facts",
    .tp_basicsize = sizeof(Facts),
    .tp_dealloc = (destructor)facts_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The facts of some games' hands and actions, as rows of C values (see _columns.h).",
    .tp_methods = facts_methods,
    .tp_getset = facts_getset,
    .tp_new = facts_new,
};

static PyMethodDef table_methods[] = {
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))table_arrow, METH_VARARGS | METH_KEYWORDS,
     "The table's Arrow schema and array as PyCapsules, given away once."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "truclog.validate._quick.Table",
    .tp_basicsize = sizeof(Table),
    .tp_dealloc = (destructor)table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rows of facts for polars.DataFrame, through the Arrow PyCapsule interface.",
    .tp_methods = table_methods,
};

#endif
