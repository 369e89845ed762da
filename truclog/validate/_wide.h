/* An export's rows of ``actions`` of the games the quick core cleared, made in C.
 *
 * A batch of an export holds, in its Facts (see _columns.h), the rows of its games' action
 * lines (LINE_SPEC), of their hands (HAND_SPEC) and of the actions statistics count
 * (ACTION_SPEC, with ACTION_MORE_SPEC). wide_actions() makes of them the final columns of
 * the ``actions`` table (truclog/stats/tables.py names them ACTIONS, in that order): each
 * line takes its game's fingerprint, id, date and names (given by the batch's seating),
 * its hand's number, scores and dealt ranks and its action's review by row, and works out
 * what tables._cleared_actions did in polars (the hand won, the points lost, the best
 * decisions as a list, the grade). The columns go to polars as one Arrow struct array (a
 * Table), with no Python object per value; the lines and the actions' more are emptied
 * (none are left, their room kept for the next batch), the hands and the actions stay for
 * the batch's other tables.
 *
 * Included by _quick.c, after _columns.h.
 */
#ifndef TRUCLOG_WIDE_H
#define TRUCLOG_WIDE_H

/* A column being made: Arrow's buffers, grown as rows are added. */
enum { W_INT, W_FLOAT, W_BOOL, W_TEXT, W_DATE, W_LIST };

typedef struct WideColumn {
    const char *name;
    int kind;
    Py_ssize_t rows, nulls;
    unsigned char *valid; /* a bit a row */
    void *data; /* int64, double, int32 (dates), bits (flags), views (text), int32 offsets (lists) */
    char *chars; /* the bytes of text longer than a view holds */
    Py_ssize_t chars_len, chars_cap;
    const char *last; /* the text of the last row kept in chars (the next may be the same) */
    Py_ssize_t last_n, last_at;
    struct WideColumn *items; /* a list's items */
} WideColumn;

/* Text is told as Arrow's string views: 16 bytes a row, its length and either the text
 * (12 bytes at most) or its first 4 bytes and where the rest is in the column's one buffer
 * of bytes, where the same text of rows one after another (a game's fingerprint) is kept
 * once. Polars keeps its text so: taken without a copy. */
enum { VIEW_INLINE = 12 };

static int wide_start(WideColumn *c, const char *name, int kind, Py_ssize_t n)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->kind = kind;
    size_t width = kind == W_INT || kind == W_FLOAT ? 8
                   : kind == W_BOOL                ? 0
                   : kind == W_TEXT                ? 16
                                                   : 4;
    c->valid = calloc((size_t)(n + 7) / 8 + 1, 1);
    c->data = width ? malloc((size_t)(n + 1) * width) : calloc((size_t)(n + 7) / 8 + 1, 1);
    if (!c->valid || !c->data) return 0;
    if (kind == W_LIST) ((int32_t *)c->data)[0] = 0;
    if (kind == W_LIST) { /* its items' room, in rows, kept in its chars_cap */
        c->items = malloc(sizeof(WideColumn));
        if (c->items) memset(c->items, 0, sizeof(WideColumn));
        if (!c->items || !wide_start(c->items, "item", W_TEXT, n)) return 0;
        c->chars_cap = n;
    }
    return 1;
}

/* A list column of ``n`` rows whose items (of ``item`` kind, neither list nor date) are
 * ``most`` at most; 0 when memory ran out. */
static int wide_list(WideColumn *c, const char *name, int item, Py_ssize_t n, Py_ssize_t most)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->kind = W_LIST;
    c->valid = calloc((size_t)(n + 7) / 8 + 1, 1);
    c->data = malloc((size_t)(n + 1) * 4);
    c->items = calloc(1, sizeof(WideColumn));
    if (!c->valid || !c->data || !c->items) return 0;
    ((int32_t *)c->data)[0] = 0;
    c->chars_cap = most;
    return wide_start(c->items, "item", item, most);
}

static void wide_free(WideColumn *c)
{
    free(c->valid);
    free(c->data);
    free(c->chars);
    if (c->items) {
        wide_free(c->items);
        free(c->items);
    }
    memset(c, 0, sizeof *c);
}

/* The next row, null or not. */
static void wide_mark(WideColumn *c, int given)
{
    if (given) c->valid[c->rows / 8] |= (unsigned char)(1u << (c->rows % 8));
    else c->nulls++;
}

/* The next row of a list column: the items added since the row before (``given`` 0:
 * null, and none were added). */
static void wide_close(WideColumn *c, int given)
{
    wide_mark(c, given);
    ((int32_t *)c->data)[++c->rows] = (int32_t)c->items->rows;
}

static void wide_int(WideColumn *c, int given, long long value)
{
    wide_mark(c, given);
    ((long long *)c->data)[c->rows++] = given ? value : 0;
}

static void wide_float(WideColumn *c, int given, double value)
{
    wide_mark(c, given);
    ((double *)c->data)[c->rows++] = given ? value : 0.0;
}

static void wide_bool(WideColumn *c, int given, int value)
{
    wide_mark(c, given);
    if (given && value) ((unsigned char *)c->data)[c->rows / 8] |= (unsigned char)(1u << (c->rows % 8));
    c->rows++;
}

static void wide_date(WideColumn *c, int given, long long days)
{
    wide_mark(c, given);
    ((int32_t *)c->data)[c->rows++] = given ? (int32_t)days : 0;
}

/* Text (``text`` NULL: null), as a view (see VIEW_INLINE); 0 when memory ran out. */
static int wide_text(WideColumn *c, const char *text, Py_ssize_t n)
{
    unsigned char *view = (unsigned char *)c->data + 16 * c->rows;
    memset(view, 0, 16);
    wide_mark(c, text != NULL);
    c->rows++;
    if (!text) return 1;
    int32_t length = (int32_t)n;
    memcpy(view, &length, 4);
    if (n <= VIEW_INLINE) {
        memcpy(view + 4, text, (size_t)n);
        return 1;
    }
    if (text != c->last || n != c->last_n) { /* not the row before's: kept */
        if (c->chars_len + n > c->chars_cap) {
            Py_ssize_t cap = c->chars_cap ? c->chars_cap : 4096;
            while (cap < c->chars_len + n) cap *= 2;
            char *more = realloc(c->chars, (size_t)cap);
            if (!more) return 0;
            c->chars = more;
            c->chars_cap = cap;
        }
        memcpy(c->chars + c->chars_len, text, (size_t)n);
        c->last = text;
        c->last_n = n;
        c->last_at = c->chars_len;
        c->chars_len += n;
        if (c->chars_len > INT32_MAX) return 0;
    }
    int32_t at = (int32_t)c->last_at;
    memcpy(view + 4, text, 4); /* its prefix; buffer 0 (zeroed above), then where */
    memcpy(view + 12, &at, 4);
    return 1;
}

static int wide_word(WideColumn *c, const char *word)
{
    return wide_text(c, word, word ? (Py_ssize_t)strlen(word) : 0);
}

/* A list of the pieces of ``text`` between commas (as polars' str.split(",")); ``text``
 * NULL: null. 0 when memory ran out. */
static int wide_split(WideColumn *c, const char *text, Py_ssize_t n)
{
    WideColumn *items = c->items;
    if (text) {
        const char *at = text, *end = text + n;
        for (;;) {
            const char *comma = memchr(at, ',', (size_t)(end - at));
            const char *stop = comma ? comma : end;
            if (items->rows + 1 > c->chars_cap) { /* more room for the items */
                Py_ssize_t cap = 2 * c->chars_cap + 64;
                size_t had = (size_t)(c->chars_cap + 7) / 8 + 1, bits = (size_t)(cap + 7) / 8 + 1;
                unsigned char *valid = realloc(items->valid, bits);
                if (valid) items->valid = valid;
                void *offsets = realloc(items->data, (size_t)(cap + 1) * 16); /* views */
                if (offsets) items->data = offsets;
                if (!valid || !offsets) return 0;
                memset(valid + had, 0, bits - had);
                c->chars_cap = cap;
            }
            if (!wide_text(items, at, stop - at)) return 0;
            if (!comma) break;
            at = comma + 1;
        }
    }
    wide_mark(c, text != NULL);
    if (items->rows > INT32_MAX) return 0;
    ((int32_t *)c->data)[++c->rows] = (int32_t)items->rows;
    return 1;
}

static const char *wide_format(int kind)
{
    switch (kind) {
    case W_INT: return "l";
    case W_FLOAT: return "g";
    case W_BOOL: return "b";
    case W_DATE: return "tdD";
    case W_LIST: return "+l";
    default: return "vu";
    }
}

/* The column as an Arrow array and its field (buffers given away to the array, freed by
 * its release); 0 when memory ran out. */
static int wide_export(WideColumn *c, struct ArrowSchema *field, struct ArrowArray *out)
{
    int text = c->kind == W_TEXT;
    memset(field, 0, sizeof *field);
    memset(out, 0, sizeof *out);
    field->format = wide_format(c->kind);
    field->name = c->name;
    field->flags = ARROW_FLAG_NULLABLE;
    field->release = release_schema;
    out->release = release_array;
    out->length = c->rows;
    out->null_count = c->nulls;
    const void **buffers = calloc(4, sizeof(void *));
    if (!buffers) return 0;
    out->buffers = buffers;
    out->n_buffers = text ? 4 : 2; /* views: the bytes' one buffer, and its size */
    buffers[0] = c->valid;
    buffers[1] = c->data;
    c->valid = NULL;
    c->data = NULL;
    if (text) {
        int64_t *sizes = malloc(sizeof(int64_t));
        buffers[2] = c->chars ? (void *)c->chars : malloc(1);
        buffers[3] = sizes;
        c->chars = NULL;
        if (!buffers[2] || !sizes) return 0;
        *sizes = c->chars_len;
    }
    if (c->kind == W_LIST) {
        field->children = calloc(1, sizeof(struct ArrowSchema *));
        out->children = calloc(1, sizeof(struct ArrowArray *));
        if (!field->children || !out->children) return 0;
        struct ArrowSchema *item_field = calloc(1, sizeof *item_field);
        struct ArrowArray *items = calloc(1, sizeof *items);
        if (item_field) field->children[field->n_children++] = item_field;
        if (items) out->children[out->n_children++] = items;
        if (!item_field || !items) return 0;
        return wide_export(c->items, item_field, items);
    }
    return 1;
}

/* What a batch's game gives its lines: its names' UTF-8 (NULL: None), its date. */
typedef struct {
    const char *text[8]; /* fingerprint, game, team_a, team_b, player_0 to player_3 */
    Py_ssize_t len[8];
    long long day, rules; /* the rules' number (tables._Memo.key_of) */
    int dated, size;
} WideGame;

enum { WG_FINGERPRINT, WG_GAME, WG_TEAMS, WG_PLAYERS = 4 };

/* The games of ``seating`` (tuples of tables._SEATING: fingerprint, game, date, size,
 * rules key, teams, four players) with their ``days`` (days since 1970, or None), into
 * ``games``. The texts point into the tuples' str, which the caller holds. 0 with an
 * error set. */
static int wide_fill(PyObject *seating, PyObject *days, WideGame *games, Py_ssize_t n)
{
    static const int at[8] = {0, 1, 5, 6, 7, 8, 9, 10};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(seating, i), *day = PyList_GET_ITEM(days, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 11) {
            PyErr_SetString(PyExc_ValueError, "a game's seating: a tuple of 11");
            return 0;
        }
        for (int k = 0; k < 8; k++) {
            PyObject *value = PyTuple_GET_ITEM(row, at[k]);
            games[i].text[k] = NULL;
            games[i].len[k] = 0;
            if (value == Py_None) continue;
            if (!(games[i].text[k] = PyUnicode_AsUTF8AndSize(value, &games[i].len[k]))) return 0;
        }
        games[i].size = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 3));
        games[i].rules = PyLong_AsLongLong(PyTuple_GET_ITEM(row, 4));
        if (PyErr_Occurred()) return 0;
        if (games[i].size != 2 && games[i].size != 4) {
            PyErr_SetString(PyExc_ValueError, "a game's seating: two or four players");
            return 0;
        }
        games[i].dated = day != Py_None;
        games[i].day = games[i].dated ? PyLong_AsLongLong(day) : 0;
        if (games[i].day == -1 && PyErr_Occurred()) return 0;
    }
    return 1;
}

/* The games of ``seating`` and ``days`` (as many) as wide_fill makes them, in memory to
 * free with PyMem_Free; NULL with an error set. */
static WideGame *wide_games(PyObject *seating, PyObject *days)
{
    Py_ssize_t n = PyList_GET_SIZE(seating);
    if (PyList_GET_SIZE(days) != n) {
        PyErr_SetString(PyExc_ValueError, "a day for each game of the seating");
        return NULL;
    }
    WideGame *games = PyMem_Calloc((size_t)(n ? n : 1), sizeof(WideGame));
    if (!games) return (WideGame *)PyErr_NoMemory();
    if (!wide_fill(seating, days, games, n)) {
        PyMem_Free(games);
        return NULL;
    }
    return games;
}

enum {
    WA_FINGERPRINT, WA_GAME, WA_DATE, WA_LINE, WA_HAND, WA_SEQ, WA_TYPE, WA_PLAYER, WA_TEAM,
    WA_OPPONENT, WA_CARD, WA_TO, WA_RESTE, WA_ACCEPTED, WA_TRICK, WA_POSITION, WA_VALUE,
    WA_PENDING, WA_RAISER, WA_SCORE, WA_OTHER_SCORE, WA_KNOWN, WA_STRENGTH, WA_ANSWER,
    WA_WON, WA_WORTH_ACCEPT, WA_WORTH_FOLD, WA_SOUND, WA_RIGHT, WA_GIVEN, WA_LOST, WA_BEST,
    WA_GRADE, WA_T, WA_N
};

/* The columns of tables.ACTIONS, in order. */
static const struct {
    const char *name;
    int kind;
} WIDE_ACTIONS[WA_N] = {
    {"fingerprint", W_TEXT}, {"game", W_TEXT}, {"date", W_DATE}, {"line", W_INT},
    {"hand", W_INT}, {"seq", W_INT}, {"type", W_TEXT}, {"player", W_TEXT}, {"team", W_TEXT},
    {"opponent", W_TEXT}, {"card", W_TEXT}, {"to", W_INT}, {"reste", W_BOOL},
    {"accepted", W_BOOL}, {"trick", W_INT}, {"position", W_TEXT}, {"value_before", W_INT},
    {"pending", W_INT}, {"pending_raiser", W_TEXT}, {"score_before", W_INT},
    {"opponent_score_before", W_INT}, {"known", W_BOOL}, {"strength", W_FLOAT},
    {"answer", W_TEXT}, {"hand_won", W_BOOL}, {"answer_worth_accept", W_FLOAT},
    {"answer_worth_fold", W_FLOAT}, {"sound", W_BOOL}, {"right", W_BOOL},
    {"points_given", W_INT}, {"lost", W_INT}, {"best", W_LIST}, {"grade", W_TEXT},
    {"t", W_TEXT},
};

/* Of each column of WIDE_ACTIONS: the line's column it is (-1: none), and the column of
 * the line's action's row (ACTION_SPEC) it is (-1: none). */
enum { AR_GIVEN = 12, AR_LOST = 15 };
static const int LINE_OF[WA_N] = {
    [WA_FINGERPRINT] = -1, [WA_GAME] = -1, [WA_DATE] = -1, [WA_LINE] = L_LINE, [WA_HAND] = -1,
    [WA_SEQ] = L_SEQ, [WA_TYPE] = L_TYPE, [WA_PLAYER] = -1, [WA_TEAM] = -1, [WA_OPPONENT] = -1,
    [WA_CARD] = L_CARD, [WA_TO] = L_TO, [WA_RESTE] = L_RESTE, [WA_ACCEPTED] = L_ACCEPTED,
    [WA_TRICK] = L_TRICK, [WA_POSITION] = L_POSITION, [WA_VALUE] = L_VALUE,
    [WA_PENDING] = L_PENDING, [WA_RAISER] = -1, [WA_SCORE] = -1, [WA_OTHER_SCORE] = -1,
    [WA_KNOWN] = -1, [WA_STRENGTH] = -1, [WA_ANSWER] = -1, [WA_WON] = -1,
    [WA_WORTH_ACCEPT] = -1, [WA_WORTH_FOLD] = -1, [WA_SOUND] = -1, [WA_RIGHT] = -1,
    [WA_GIVEN] = -1, [WA_LOST] = -1, [WA_BEST] = -1, [WA_GRADE] = -1, [WA_T] = L_T,
};
static const int REVIEW_OF[WA_N] = {
    [WA_FINGERPRINT] = -1, [WA_GAME] = -1, [WA_DATE] = -1, [WA_LINE] = -1, [WA_HAND] = -1,
    [WA_SEQ] = -1, [WA_TYPE] = -1, [WA_PLAYER] = -1, [WA_TEAM] = -1, [WA_OPPONENT] = -1,
    [WA_CARD] = -1, [WA_TO] = -1, [WA_RESTE] = -1, [WA_ACCEPTED] = -1, [WA_TRICK] = -1,
    [WA_POSITION] = -1, [WA_VALUE] = -1, [WA_PENDING] = -1, [WA_RAISER] = -1, [WA_SCORE] = -1,
    [WA_OTHER_SCORE] = -1, [WA_KNOWN] = -1, [WA_STRENGTH] = 6, [WA_ANSWER] = 7, [WA_WON] = -1,
    [WA_WORTH_ACCEPT] = 8, [WA_WORTH_FOLD] = 9, [WA_SOUND] = 10, [WA_RIGHT] = 11,
    [WA_GIVEN] = AR_GIVEN, [WA_LOST] = -1, [WA_BEST] = -1, [WA_GRADE] = -1, [WA_T] = -1,
};

/* A cell of ``r`` (``row`` -1: none) and whether it is given. */
static int wide_cell(const Rows *r, Py_ssize_t row, int col, Cell *cell)
{
    if (row < 0 || row >= r->rows || !r->given[col][row]) return 0;
    *cell = r->cells[col][row];
    return 1;
}

/* A number of a cell of ``r`` (``row`` -1: none) into the column. */
static void wide_int_of(WideColumn *c, const Rows *r, Py_ssize_t row, int col)
{
    Cell v = {0};
    int given = wide_cell(r, row, col, &v);
    wide_int(c, given, v.i);
}

/* Column ``col`` of ``r`` at rows ``at`` (NULL: rows 0 to n; -1: null) as the whole
 * column, n rows; 0 when memory ran out. */
static int wide_gather(WideColumn *c, const Rows *r, int col, const Py_ssize_t *at, Py_ssize_t n)
{
    const Cell *cells = r->cells[col];
    const unsigned char *given = r->given[col];
    Py_ssize_t rows = r->rows;
    if (c->kind == W_INT || c->kind == W_FLOAT || c->kind == W_BOOL) {
        int flags = c->kind == W_BOOL;
        long long *out = c->data;
        unsigned char *bits = c->data;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t j = at ? at[i] : i;
            if (j < 0 || j >= rows || !given[j]) {
                c->nulls++;
                if (!flags) out[i] = 0;
                continue;
            }
            c->valid[i / 8] |= (unsigned char)(1u << (i % 8));
            if (!flags) out[i] = cells[j].i; /* a double's bits, as they are */
            else if (cells[j].i) bits[i / 8] |= (unsigned char)(1u << (i % 8));
        }
        c->rows = n;
        return 1;
    }
    int kind = r->spec[col].kind;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t j = at ? at[i] : i;
        if (j < 0 || j >= rows || !given[j]) {
            if (!wide_text(c, NULL, 0)) return 0;
            continue;
        }
        char text[16];
        int ok = kind == K_TEXT ? wide_text(c, r->text + text_at(cells[j]), text_length(cells[j]))
                                : wide_text(c, text, cell_text(r, kind, cells[j], text));
        if (!ok) return 0;
    }
    return 1;
}

/* The name ``k`` of game ``game`` (NULL: none) into the column. */
static int wide_name(WideColumn *c, const WideGame *game, int k)
{
    return wide_text(c, game ? game->text[k] : NULL, game ? game->len[k] : 0);
}

/* The ``k`` columns of ``n`` rows as a Table (their buffers given away to it); NULL when
 * memory ran out (no error set). */
static PyObject *wide_table(WideColumn *cols, int k, Py_ssize_t n)
{
    Table *table = PyObject_New(Table, &TableType);
    if (!table) return NULL;
    table->schema = calloc(1, sizeof(struct ArrowSchema));
    table->array = calloc(1, sizeof(struct ArrowArray));
    struct ArrowSchema *schema = table->schema;
    struct ArrowArray *array = table->array;
    int ok = schema && array;
    if (ok) {
        schema->format = "+s";
        schema->name = "";
        schema->release = release_schema;
        array->release = release_array;
        array->length = n;
        schema->children = calloc((size_t)k, sizeof(struct ArrowSchema *));
        array->children = calloc((size_t)k, sizeof(struct ArrowArray *));
        array->buffers = calloc(1, sizeof(void *));
        array->n_buffers = 1;
        ok = schema->children && array->children && array->buffers;
    }
    for (int i = 0; ok && i < k; i++) {
        struct ArrowSchema *field = calloc(1, sizeof *field);
        struct ArrowArray *values = calloc(1, sizeof *values);
        if (field) schema->children[schema->n_children++] = field;
        if (values) array->children[array->n_children++] = values;
        ok = field && values && wide_export(&cols[i], field, values);
    }
    if (!ok) {
        Py_DECREF(table);
        return NULL;
    }
    return (PyObject *)table;
}

/* The Table of the ``k`` columns ``cols`` of ``n`` rows when ``ok`` (all made), else NULL
 * with an error set; the columns are freed either way. */
static PyObject *wide_made(WideColumn *cols, int k, Py_ssize_t n, int ok)
{
    PyObject *table = ok ? wide_table(cols, k, n) : NULL;
    for (int col = 0; col < k; col++) wide_free(&cols[col]);
    if (!table && !PyErr_Occurred()) PyErr_NoMemory();
    return table;
}

static PyObject *wide_actions(PyObject *Py_UNUSED(module), PyObject *args)
{
    Facts *self;
    PyObject *seating, *days;
    PyObject *grade;
    const char *grades[4];
    if (!PyArg_ParseTuple(args, "O!O!O!O(ssss)", &FactsType, &self, &PyList_Type, &seating,
                          &PyList_Type, &days, &grade, &grades[0], &grades[1], &grades[2],
                          &grades[3]))
        return NULL;
    WideGame *games = wide_games(seating, days);
    if (!games) return NULL;
    Py_ssize_t ngames = PyList_GET_SIZE(seating);
    const Rows *lines = &self->lines, *hands = &self->hands, *acts = &self->actions;
    const Rows *more = &self->actions_more;
    Py_ssize_t n = lines->rows;
    WideColumn cols[WA_N];
    memset(cols, 0, sizeof cols);
    int ok = 1;
    for (int k = 0; ok && k < WA_N; k++) ok = wide_start(&cols[k], WIDE_ACTIONS[k].name, WIDE_ACTIONS[k].kind, n);
    /* each line's hand, action reviewed (-1: none), seat (-1: none) and game, then the
     * columns one at a time (a column's few sources stay in the cache) */
    Py_ssize_t *hand_of = malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *review_of = malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    int *seat_of = malloc((size_t)(n + 1) * sizeof(int));
    const WideGame **game_of = malloc((size_t)(n + 1) * sizeof(WideGame *));
    ok = ok && hand_of && review_of && seat_of && game_of;
    /* made without the GIL (an export's reading thread runs meanwhile), but the grades:
     * grade() is Python's, and its memory (grade_at) is the GIL's; their column last */
    PyThreadState *unheld = PyEval_SaveThread();
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        Cell v;
        hand_of[i] = wide_cell(lines, i, LINE_ROW, &v) ? (Py_ssize_t)v.i : -1;
        review_of[i] = wide_cell(lines, i, LINE_REVIEW, &v) ? (Py_ssize_t)v.i : -1;
        seat_of[i] = wide_cell(lines, i, L_SEAT, &v) && v.i >= 0 && v.i < 4 ? (int)v.i : -1;
        game_of[i] = wide_cell(hands, hand_of[i], HAND_G, &v) && v.i >= 0 && v.i < ngames
                         ? &games[v.i]
                         : NULL;
    }
    for (int j = 0; ok && j < WA_N; j++) {
        int k = j == WA_N - 1 ? WA_GRADE : j < WA_GRADE ? j : j + 1;
        if (k == WA_GRADE) {
            PyEval_RestoreThread(unheld);
            unheld = NULL;
        }
        WideColumn *c = &cols[k];
        if (LINE_OF[k] >= 0) { /* the line's own */
            ok = wide_gather(c, lines, LINE_OF[k], NULL, n);
            continue;
        }
        if (REVIEW_OF[k] >= 0) { /* its action's review */
            ok = wide_gather(c, acts, REVIEW_OF[k], review_of, n);
            continue;
        }
        if (k == WA_HAND) {
            ok = wide_gather(c, hands, 0, hand_of, n);
            continue;
        }
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            const WideGame *game = game_of[i];
            Py_ssize_t hand = hand_of[i], review = review_of[i];
            int seat = seat_of[i], side = seat % 2;
            const WideGame *seated = seat >= 0 ? game : NULL;
            Cell v = {0};
            switch (k) {
            case WA_FINGERPRINT: ok = wide_name(c, game, WG_FINGERPRINT); break;
            case WA_GAME: ok = wide_name(c, game, WG_GAME); break;
            case WA_DATE: wide_date(c, game && game->dated, game ? game->day : 0); break;
            case WA_PLAYER: ok = wide_name(c, seated, WG_PLAYERS + (seat >= 0 ? seat : 0)); break;
            case WA_TEAM: ok = wide_name(c, seated, WG_TEAMS + (seat >= 0 ? side : 0)); break;
            case WA_OPPONENT: ok = wide_name(c, seated, WG_TEAMS + (seat >= 0 ? 1 - side : 0)); break;
            case WA_RAISER: {
                int raised = wide_cell(lines, i, L_RAISER, &v) && v.i >= 0 && v.i < 4;
                ok = wide_name(c, raised ? game : NULL, WG_PLAYERS + (raised ? (int)v.i : 0));
                break;
            }
            case WA_SCORE: wide_int_of(c, hands, seat >= 0 ? hand : -1, 2 + (seat >= 0 ? side : 0)); break;
            case WA_OTHER_SCORE:
                wide_int_of(c, hands, seat >= 0 ? hand : -1, 3 - (seat >= 0 ? side : 0));
                break;
            case WA_KNOWN: {
                int known = seat >= 0 && wide_cell(hands, hand, 10 + seat, &v);
                wide_bool(c, 1, known);
                break;
            }
            case WA_WON: {
                int won = seat >= 0 && wide_cell(hands, hand, 4, &v) && v.i >= 0;
                int ours = won && v.i == side;
                wide_bool(c, won, ours);
                break;
            }
            case WA_LOST: { /* an answer's points given, or a play's points lost */
                int judged = wide_cell(acts, review, AR_GIVEN, &v) || wide_cell(acts, review, AR_LOST, &v);
                wide_int(c, judged, v.i);
                break;
            }
            case WA_BEST: {
                int has = wide_cell(more, review, ACTION_MORE_BEST, &v);
                ok = wide_split(c, has ? more->text + text_at(v) : NULL, has ? text_length(v) : 0);
                break;
            }
            case WA_GRADE: {
                int judged = wide_cell(acts, review, AR_GIVEN, &v) || wide_cell(acts, review, AR_LOST, &v);
                long long lost = v.i;
                long long stake = wide_cell(more, review, 1, &v) ? v.i : 0; /* 0: the whole lost */
                int at = judged ? grade_at(grade, lost, stake) : 0;
                ok = at >= 0 && wide_word(c, judged ? grades[at] : NULL);
                break;
            }
            default: ok = 0; /* every column is made above */
            }
        }
    }
    if (unheld) PyEval_RestoreThread(unheld);
    free(hand_of);
    free(review_of);
    free(seat_of);
    free(game_of);
    PyMem_Free(games);
    PyObject *table = wide_made(cols, WA_N, n, ok);
    if (!table) return NULL;
    emptied(&self->lines);
    emptied(&self->actions_more);
    return table;
}

PyDoc_STRVAR(wide_actions_doc,
             "wide_actions(facts, seating, days, grade, grades) -> Table: the rows of\n"
             "tables.ACTIONS of the lines a batch's Facts holds (an export's), as a table for\n"
             "polars.DataFrame; its games' seating (tuples of tables._SEATING) and days (since\n"
             "1970, or None), the place of a decision's grade (solver.grade.grade_place, asked\n"
             "once per points lost and stake) and the grades' names (best, inaccuracy,\n"
             "mistake, blunder). The lines and the actions' more are emptied (their room kept).");

/* --- hands ------------------------------------------------------------------------------ */

enum {
    WH_FINGERPRINT, WH_GAME, WH_DATE, WH_HAND, WH_DEALER, WH_PLAYERS, WH_TEAMS, WH_OPPONENTS,
    WH_SCORE, WH_VALUE, WH_WINNER, WH_POINTS, WH_ENDING, WH_RESTE, WH_REDEAL_ASKED,
    WH_REDEAL_GRANTED, WH_RAISES, WH_TRICKS, WH_FIRST_TRICK, WH_CARDS, WH_STRENGTH, WH_N
};

/* The columns of tables.HANDS, in order (a list's items: W_TEXT unless said). */
static const struct {
    const char *name;
    int kind, item;
} WIDE_HANDS[WH_N] = {
    {"fingerprint", W_TEXT, 0}, {"game", W_TEXT, 0}, {"date", W_DATE, 0}, {"hand", W_INT, 0},
    {"dealer", W_TEXT, 0}, {"players", W_LIST, W_TEXT}, {"teams", W_LIST, W_TEXT},
    {"opponents", W_LIST, W_TEXT}, {"score_before", W_LIST, W_INT}, {"value", W_INT, 0},
    {"winner", W_TEXT, 0}, {"points", W_INT, 0}, {"ending", W_TEXT, 0}, {"reste", W_BOOL, 0},
    {"redeal_asked", W_BOOL, 0}, {"redeal_granted", W_BOOL, 0}, {"raises", W_INT, 0},
    {"tricks", W_INT, 0}, {"first_trick", W_TEXT, 0}, {"cards", W_LIST, W_TEXT},
    {"strength", W_LIST, W_FLOAT},
};

/* Of each column of WIDE_HANDS: the hand's column (HAND_SPEC) it is, or its more's
 * (HAND_MORE_SPEC) plus 100; -1: neither. */
static const int HAND_OF[WH_N] = {
    [WH_FINGERPRINT] = -1, [WH_GAME] = -1, [WH_DATE] = -1, [WH_HAND] = 0, [WH_DEALER] = -1,
    [WH_PLAYERS] = -1, [WH_TEAMS] = -1, [WH_OPPONENTS] = -1, [WH_SCORE] = -1,
    [WH_VALUE] = 100, [WH_WINNER] = -1, [WH_POINTS] = 5, [WH_ENDING] = -1, [WH_RESTE] = -1,
    [WH_REDEAL_ASKED] = 101, [WH_REDEAL_GRANTED] = 102, [WH_RAISES] = 103, [WH_TRICKS] = 8,
    [WH_FIRST_TRICK] = -1, [WH_CARDS] = -1, [WH_STRENGTH] = -1,
};

/* How a hand ended, by tables._ENDINGS (a hand won on a reste is told "reste" but drawn). */
static const char *const ENDING_NAMES[4] = {"unfinished", "tricks", "fold", "draw"};
enum { ENDING_DRAWN = 3 };

/* The strength of ranks dealt to a seat, asked of ``known`` (a dict: the number of the
 * question, see wide_hands_doc, to a float) or, not there, of ``ask`` (which keeps its
 * answer in ``known``). 0 with an error set. */
static int dealt_strength(PyObject *known, PyObject *ask, long long rules, Cell ranks, int dealer,
                          double *strength)
{
    const unsigned char *b = (const unsigned char *)&ranks.i;
    if (b[7] != 3) {
        PyErr_SetString(PyExc_ValueError, "dealt ranks: three of them");
        return 0;
    }
    long long question = (rules << 32) | ((long long)(dealer != 0) << 24) | b[0] | (b[1] << 8) | (b[2] << 16);
    PyObject *key = PyLong_FromLongLong(question);
    if (!key) return 0;
    PyObject *found = PyDict_GetItemWithError(known, key); /* borrowed */
    if (found) Py_INCREF(found);
    else if (!PyErr_Occurred()) found = PyObject_CallOneArg(ask, key);
    Py_DECREF(key);
    if (!found) return 0;
    *strength = PyFloat_AsDouble(found);
    Py_DECREF(found);
    return !(*strength == -1.0 && PyErr_Occurred());
}

/* Column ``k`` of WIDE_HANDS of the ``n`` hands of ``hands`` (with their ``more``), each
 * of its game ``game_of``: only the strength column asks Python (``known``, ``ask``),
 * the others are made without the GIL. 0 when memory ran out (or an error set). */
static int wide_hand_column(WideColumn *c, int k, const Rows *hands, const Rows *more,
                            const WideGame *const *game_of, Py_ssize_t n, PyObject *known,
                            PyObject *ask)
{
    int ok = 1;
    if (HAND_OF[k] >= 0) { /* the hand's own, or its more's */
        ok = HAND_OF[k] < 100 ? wide_gather(c, hands, HAND_OF[k], NULL, n)
                              : wide_gather(c, more, HAND_OF[k] - 100, NULL, n);
        return ok;
    }
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        const WideGame *game = game_of[i];
        int size = game->size;
        Cell v = {0}, w = {0};
        switch (k) {
        case WH_FINGERPRINT: ok = wide_name(c, game, WG_FINGERPRINT); break;
        case WH_GAME: ok = wide_name(c, game, WG_GAME); break;
        case WH_DATE: wide_date(c, game->dated, game->day); break;
        case WH_DEALER: {
            int dealt = wide_cell(hands, i, 1, &v) && v.i >= 0 && v.i < size;
            ok = wide_name(c, dealt ? game : NULL, WG_PLAYERS + (dealt ? (int)v.i : 0));
            break;
        }
        case WH_PLAYERS:
        case WH_TEAMS:
        case WH_OPPONENTS:
            for (int s = 0; ok && s < size; s++) {
                int name = k == WH_PLAYERS ? WG_PLAYERS + s
                           : k == WH_TEAMS ? WG_TEAMS + s % 2
                                           : WG_TEAMS + 1 - s % 2;
                ok = wide_name(c->items, game, name);
            }
            wide_close(c, 1);
            break;
        case WH_SCORE:
            for (int side = 0; side < 2; side++) {
                int given = wide_cell(hands, i, 2 + side, &v);
                wide_int(c->items, given, v.i);
            }
            wide_close(c, 1);
            break;
        case WH_WINNER:
        case WH_FIRST_TRICK: { /* a side as its team; a first trick tied */
            int side = wide_cell(hands, i, k == WH_WINNER ? 4 : 9, &v) ? (int)v.i : -2;
            if (k == WH_FIRST_TRICK && side == -1) ok = wide_word(c, "tie");
            else ok = wide_name(c, side == 0 || side == 1 ? game : NULL, WG_TEAMS + (side == 1));
            break;
        }
        case WH_ENDING: {
            int ended = wide_cell(hands, i, 6, &v) && v.i >= 0 && v.i < 4;
            int reste = ended && wide_cell(hands, i, 7, &w) && w.i != 0 && v.i != ENDING_DRAWN;
            ok = wide_word(c, reste ? "reste" : ended ? ENDING_NAMES[v.i] : NULL);
            break;
        }
        case WH_RESTE: {
            int given = wide_cell(hands, i, 7, &v);
            wide_bool(c, given, v.i != 0);
            break;
        }
        case WH_CARDS:
            for (int s = 0; ok && s < size; s++) {
                char text[8];
                int dealt = wide_cell(hands, i, 10 + s, &v);
                ok = wide_text(c->items, dealt ? text : NULL, dealt ? cell_text(hands, K_RANKS, v, text) : 0);
            }
            wide_close(c, 1);
            break;
        case WH_STRENGTH: { /* of a two-player game's seats: each seat's dealt ranks */
            int dealer = wide_cell(hands, i, 1, &w) ? (int)w.i : -1;
            for (int s = 0; ok && s < size; s++) {
                double strength = 0;
                int dealt = size == 2 && wide_cell(hands, i, 10 + s, &v);
                ok = !dealt || dealt_strength(known, ask, game->rules, v, dealer == s, &strength);
                wide_float(c->items, dealt, strength);
            }
            wide_close(c, 1);
            break;
        }
        default: ok = 0; /* every column is made above */
        }
    }
    return ok;
}

static PyObject *wide_hands(PyObject *Py_UNUSED(module), PyObject *args)
{
    Facts *self;
    PyObject *seating, *days, *known, *ask;
    int give;
    if (!PyArg_ParseTuple(args, "O!O!O!O!Op", &FactsType, &self, &PyList_Type, &seating,
                          &PyList_Type, &days, &PyDict_Type, &known, &ask, &give))
        return NULL;
    const Rows *hands = &self->hands, *more = &self->hands_more;
    Py_ssize_t n = hands->rows;
    if (more->rows != n) {
        PyErr_SetString(PyExc_ValueError, "more of each hand");
        return NULL;
    }
    WideGame *games = wide_games(seating, days);
    if (!games) return NULL;
    Py_ssize_t ngames = PyList_GET_SIZE(seating);
    WideColumn cols[WH_N];
    memset(cols, 0, sizeof cols);
    int ok = 1;
    for (int k = 0; ok && k < WH_N; k++)
        ok = WIDE_HANDS[k].kind == W_LIST
                 ? wide_list(&cols[k], WIDE_HANDS[k].name, WIDE_HANDS[k].item, n, 4 * n)
                 : wide_start(&cols[k], WIDE_HANDS[k].name, WIDE_HANDS[k].kind, n);
    const WideGame **game_of = malloc((size_t)(n + 1) * sizeof(WideGame *));
    ok = ok && game_of;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        Cell v;
        game_of[i] = wide_cell(hands, i, HAND_G, &v) && v.i >= 0 && v.i < ngames ? &games[v.i] : NULL;
        if (!game_of[i]) {
            PyErr_SetString(PyExc_ValueError, "a hand of no game of the seating");
            ok = 0;
        }
    }
    Py_BEGIN_ALLOW_THREADS /* the columns of C values: the reading of a batch goes on */
    for (int k = 0; ok && k < WH_N; k++)
        if (k != WH_STRENGTH) ok = wide_hand_column(&cols[k], k, hands, more, game_of, n, known, ask);
    Py_END_ALLOW_THREADS
    ok = ok && wide_hand_column(&cols[WH_STRENGTH], WH_STRENGTH, hands, more, game_of, n, known, ask);
    free(game_of);
    PyMem_Free(games);
    PyObject *table = wide_made(cols, WH_N, n, ok);
    if (!table) return NULL;
    if (give) {
        emptied(&self->hands);
        emptied(&self->actions);
    }
    emptied(&self->hands_more);
    return table;
}

PyDoc_STRVAR(wide_hands_doc,
             "wide_hands(facts, seating, days, known, ask, give) -> Table: the rows of tables.HANDS\n"
             "of the hands a batch's Facts holds (an export's, their more beside them), as a\n"
             "table for polars.DataFrame; its games' seating and days as for wide_actions. A\n"
             "two-player hand's strength of each seat's dealt ranks is asked by the number\n"
             "rules << 32 | dealer << 24 | ranks (three bytes, high to low): of the dict\n"
             "``known``, else of ``ask(number)``, which keeps its float there. The hands' more\n"
             "are emptied, and the hands and their actions if ``give`` (the hands are\n"
             "wide_actions' too: call it first).");

/* --- rows of Python values ------------------------------------------------------------- */

/* The kinds of wide_rows' columns: text, int, flag, date, a list of text or of ints. */
static int wide_kind(char kind)
{
    switch (kind) {
    case 't': return W_TEXT;
    case 'i': return W_INT;
    case 'b': return W_BOOL;
    case 'd': return W_DATE;
    case 'T':
    case 'I': return W_LIST;
    default: return -1;
    }
}

enum { ROWS_MAX = 32 };
static const long long EPOCH_ORDINAL = 719163; /* date(1970, 1, 1).toordinal() */

/* The value of a row's column of ``kind`` (a wide_rows kind) into the column; 0 with an
 * error set (or memory out, no error set). */
static int wide_value(WideColumn *c, char kind, PyObject *value)
{
    int given = value != Py_None;
    switch (kind) {
    case 't': {
        Py_ssize_t n = 0;
        const char *text = given ? PyUnicode_AsUTF8AndSize(value, &n) : NULL;
        if (given && !text) return 0;
        return wide_text(c, text, n);
    }
    case 'i': {
        long long number = given ? PyLong_AsLongLong(value) : 0;
        if (number == -1 && PyErr_Occurred()) return 0;
        wide_int(c, given, number);
        return 1;
    }
    case 'b': {
        int truth = given ? PyObject_IsTrue(value) : 0;
        if (truth < 0) return 0;
        wide_bool(c, given, truth);
        return 1;
    }
    case 'd': {
        PyObject *ordinal = given ? PyObject_CallMethod(value, "toordinal", NULL) : NULL;
        long long day = ordinal ? PyLong_AsLongLong(ordinal) : 0;
        Py_XDECREF(ordinal);
        if (given && (!ordinal || (day == -1 && PyErr_Occurred()))) return 0;
        wide_date(c, given, day - EPOCH_ORDINAL);
        return 1;
    }
    default: { /* a list (or a tuple) of text or of ints */
        PyObject *items = given ? PySequence_Fast(value, "a list of a row") : NULL;
        if (given && !items) return 0;
        Py_ssize_t n = given ? PySequence_Fast_GET_SIZE(items) : 0;
        int ok = 1;
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(items, i);
            ok = c->items->rows < c->chars_cap && wide_value(c->items, kind == 'T' ? 't' : 'i', item);
            if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a list longer than told");
        }
        Py_XDECREF(items);
        if (ok) wide_close(c, given);
        return ok;
    }
    }
}

static PyObject *wide_rows(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rows, *names;
    const char *kinds;
    if (!PyArg_ParseTuple(args, "O!O!s", &PyList_Type, &rows, &PyTuple_Type, &names, &kinds))
        return NULL;
    int k = (int)strlen(kinds);
    Py_ssize_t n = PyList_GET_SIZE(rows);
    const char *name[ROWS_MAX];
    if (k > ROWS_MAX || PyTuple_GET_SIZE(names) != k) {
        PyErr_SetString(PyExc_ValueError, "a name for each kind, 32 columns at most");
        return NULL;
    }
    for (int col = 0; col < k; col++) {
        PyObject *told = PyTuple_GET_ITEM(names, col);
        if (!PyUnicode_Check(told) || !(name[col] = PyUnicode_AsUTF8(told))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "names: str");
            return NULL;
        }
        if (wide_kind(kinds[col]) < 0) {
            PyErr_Format(PyExc_ValueError, "not a kind of column: %c", kinds[col]);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(rows, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != k) {
            PyErr_Format(PyExc_ValueError, "a row: a tuple of %d", k);
            return NULL;
        }
    }
    WideColumn cols[ROWS_MAX];
    memset(cols, 0, sizeof cols);
    int ok = 1;
    for (int col = 0; ok && col < k; col++) {
        if (wide_kind(kinds[col]) != W_LIST) {
            ok = wide_start(&cols[col], name[col], wide_kind(kinds[col]), n);
            continue;
        }
        Py_ssize_t most = 0; /* the lists' items, all told */
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *value = PyTuple_GET_ITEM(PyList_GET_ITEM(rows, i), col);
            if (value == Py_None) continue;
            Py_ssize_t size = PySequence_Size(value);
            if (size < 0) {
                ok = 0;
                break;
            }
            most += size;
        }
        ok = ok && wide_list(&cols[col], name[col], kinds[col] == 'T' ? W_TEXT : W_INT, n, most);
    }
    for (int col = 0; ok && col < k; col++)
        for (Py_ssize_t i = 0; ok && i < n; i++)
            ok = wide_value(&cols[col], kinds[col], PyTuple_GET_ITEM(PyList_GET_ITEM(rows, i), col));
    return wide_made(cols, k, n, ok);
}

PyDoc_STRVAR(wide_rows_doc,
             "wide_rows(rows, names, kinds) -> Table: rows (a list of tuples, a value a column)\n"
             "as a table for polars.DataFrame, its columns named by ``names`` and of the\n"
             "``kinds`` told a letter a column: t text, i int, b flag, d date, T a list of\n"
             "text, I a list of ints (None: null).");

#endif
