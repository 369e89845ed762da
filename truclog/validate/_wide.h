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
 * Table), with no Python object per value; the lines and the actions' more are given away
 * (none are left), the hands and the actions stay for the batch's other tables.
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
    void *data;           /* int64, double, int32 (dates), bits (flags), int32 offsets (text, lists) */
    char *chars;          /* text's bytes */
    Py_ssize_t chars_len, chars_cap;
    struct WideColumn *items; /* a list's items (text) */
} WideColumn;

static int wide_start(WideColumn *c, const char *name, int kind, Py_ssize_t n)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->kind = kind;
    size_t width = kind == W_INT || kind == W_FLOAT ? 8
                   : kind == W_BOOL                ? 0
                                                   : 4;
    c->valid = calloc((size_t)(n + 7) / 8 + 1, 1);
    c->data = width ? malloc((size_t)(n + 1) * width) : calloc((size_t)(n + 7) / 8 + 1, 1);
    if (!c->valid || !c->data) return 0;
    if (kind == W_TEXT || kind == W_LIST) ((int32_t *)c->data)[0] = 0;
    if (kind == W_LIST) { /* its items' room, in rows, kept in its chars_cap */
        c->items = malloc(sizeof(WideColumn));
        if (c->items) memset(c->items, 0, sizeof(WideColumn));
        if (!c->items || !wide_start(c->items, "item", W_TEXT, n)) return 0;
        c->chars_cap = n;
    }
    return 1;
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

/* Text (``text`` NULL: null); 0 when memory ran out. */
static int wide_text(WideColumn *c, const char *text, Py_ssize_t n)
{
    if (text && c->chars_len + n > c->chars_cap) {
        Py_ssize_t cap = c->chars_cap ? c->chars_cap : 4096;
        while (cap < c->chars_len + n) cap *= 2;
        char *more = realloc(c->chars, (size_t)cap);
        if (!more) return 0;
        c->chars = more;
        c->chars_cap = cap;
    }
    wide_mark(c, text != NULL);
    if (text) {
        memcpy(c->chars + c->chars_len, text, (size_t)n);
        c->chars_len += n;
    }
    if (c->chars_len > INT32_MAX) return 0;
    ((int32_t *)c->data)[++c->rows] = (int32_t)c->chars_len;
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
                void *offsets = realloc(items->data, (size_t)(cap + 1) * 4);
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
    default: return "u";
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
    const void **buffers = calloc(3, sizeof(void *));
    if (!buffers) return 0;
    out->buffers = buffers;
    out->n_buffers = text ? 3 : 2;
    buffers[0] = c->valid;
    buffers[1] = c->data;
    c->valid = NULL;
    c->data = NULL;
    if (text) {
        buffers[2] = c->chars ? (void *)c->chars : malloc(1);
        c->chars = NULL;
        if (!buffers[2]) return 0;
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
    long long day;
    int dated;
} WideGame;

enum { WG_FINGERPRINT, WG_GAME, WG_TEAMS, WG_PLAYERS = 4 };

/* The games of ``seating`` (tuples of tables._SEATING: fingerprint, game, date, size,
 * rules key, teams, four players) with their ``days`` (days since 1970, or None). The
 * texts point into the tuples' str, which the caller holds. 0 with an error set. */
static int wide_games(PyObject *seating, PyObject *days, WideGame *games, Py_ssize_t n)
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
        games[i].dated = day != Py_None;
        games[i].day = games[i].dated ? PyLong_AsLongLong(day) : 0;
        if (games[i].day == -1 && PyErr_Occurred()) return 0;
    }
    return 1;
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
    Py_ssize_t ngames = PyList_GET_SIZE(seating);
    if (PyList_GET_SIZE(days) != ngames) {
        PyErr_SetString(PyExc_ValueError, "a day for each game of the seating");
        return NULL;
    }
    WideGame *games = PyMem_Calloc((size_t)(ngames ? ngames : 1), sizeof(WideGame));
    if (!games) return PyErr_NoMemory();
    if (!wide_games(seating, days, games, ngames)) {
        PyMem_Free(games);
        return NULL;
    }
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
    Table *table = ok ? PyObject_New(Table, &TableType) : NULL;
    if (table) {
        table->schema = calloc(1, sizeof(struct ArrowSchema));
        table->array = calloc(1, sizeof(struct ArrowArray));
    }
    struct ArrowSchema *schema = table ? table->schema : NULL;
    struct ArrowArray *array = table ? table->array : NULL;
    ok = schema && array;
    if (ok) {
        schema->format = "+s";
        schema->name = "";
        schema->release = release_schema;
        array->release = release_array;
        array->length = n;
        schema->children = calloc(WA_N, sizeof(struct ArrowSchema *));
        array->children = calloc(WA_N, sizeof(struct ArrowArray *));
        array->buffers = calloc(1, sizeof(void *));
        array->n_buffers = 1;
        ok = schema->children && array->children && array->buffers;
    }
    for (int k = 0; ok && k < WA_N; k++) {
        struct ArrowSchema *field = calloc(1, sizeof *field);
        struct ArrowArray *values = calloc(1, sizeof *values);
        if (field) schema->children[schema->n_children++] = field;
        if (values) array->children[array->n_children++] = values;
        ok = field && values && wide_export(&cols[k], field, values);
    }
    for (int k = 0; k < WA_N; k++) wide_free(&cols[k]);
    if (!ok) {
        Py_XDECREF(table);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    handed(&self->lines);
    handed(&self->actions_more);
    return (PyObject *)table;
}

PyDoc_STRVAR(wide_actions_doc,
             "wide_actions(facts, seating, days, grade, grades) -> Table: the rows of\n"
             "tables.ACTIONS of the lines a batch's Facts holds (an export's), as a table for\n"
             "polars.DataFrame; its games' seating (tuples of tables._SEATING) and days (since\n"
             "1970, or None), the place of a decision's grade (solver.grade.grade_place, asked\n"
             "once per points lost and stake) and the grades' names (best, inaccuracy,\n"
             "mistake, blunder). The lines and the actions' more are given away.");

#endif
