/* The review of decisions of a game the quick core cleared, from its facts, in one pass.
 *
 * truclog review gives, of each decision of a cleared game (each card played, each
 * answer to a pending raise), a line of its JSON output, counts per player and kind,
 * and the decisions that may make its costliest list. truclog/stats/review.py did it
 * in Python, a tuple per decision from the facts' columns; decisions() does it from the
 * same columns (the lists scan gives with the review's facts) without a Python object
 * per decision: the line is written from the pieces review.py encodes once (the path,
 * the game, each player, with orjson), the counts go to a buffer per player, and the
 * grade is solver.grade.grade_place's (asked once per points lost and stake). Included by
 * _quick.c after the facts' columns (A_*) and the kinds (TYPES) are known.
 * tests/test_review.py holds its output to the Python reviewer's, byte for byte.
 */
#ifndef TRUCLOG_DECISIONS_H
#define TRUCLOG_DECISIONS_H

/* The counts of a player's decisions of one kind (review.TALLIES), a kind's after the
 * other (review.KINDS: play, accept, fold). */
enum { D_DECISIONS, D_JUDGED, D_RIGHT, D_KNOWN, D_SOUND, D_POINTS_LOST, D_GRADES, D_TALLIES = 10 };
enum { D_KINDS = 3 };

/* A growing buffer of bytes; ok is 0 once memory ran out. */
typedef struct {
    char *s;
    size_t n, size;
    int ok;
} Out;

static inline void out_put(Out *out, const char *s, size_t n)
{
    if (out->n + n > out->size) {
        if (!out->ok) return;
        size_t size = out->size ? out->size : 4096;
        while (size < out->n + n) size *= 2;
        char *grown = PyMem_Realloc(out->s, size);
        if (!grown) {
            out->ok = 0;
            return;
        }
        out->s = grown;
        out->size = size;
    }
    memcpy(out->s + out->n, s, n);
    out->n += n;
}

#define OUT_WORD(out, word) out_put(out, word, sizeof(word) - 1)

static void out_bytes(Out *out, PyObject *bytes)
{
    out_put(out, PyBytes_AS_STRING(bytes), (size_t)PyBytes_GET_SIZE(bytes));
}

/* A number as JSON (what snprintf's %lld writes, without its cost). */
static void out_number(Out *out, long long value)
{
    char digits[24];
    int n = 0;
    unsigned long long u = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (value < 0) digits[sizeof digits - 1 - n++] = '-';
    out_put(out, digits + sizeof digits - n, (size_t)n);
}

/* 1, 0 or -1 (null) as JSON. */
#define OUT_FLAG(out, flag) \
    ((flag) > 0 ? OUT_WORD(out, "true") : (flag) == 0 ? OUT_WORD(out, "false") : OUT_WORD(out, "null"))

/* The best ranks or answers (a tuple of str the core made, or None) as JSON; 0 with an
 * error set (a str JSON would escape: the core makes none). */
static int out_best(Out *out, PyObject *best)
{
    if (best == Py_None) {
        OUT_WORD(out, "null");
        return 1;
    }
    if (!PyTuple_Check(best)) {
        PyErr_SetString(PyExc_ValueError, "a decision's best is not a tuple");
        return 0;
    }
    OUT_WORD(out, "[");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(best); i++) {
        PyObject *word = PyTuple_GET_ITEM(best, i);
        Py_ssize_t n;
        const char *s = PyUnicode_Check(word) ? PyUnicode_AsUTF8AndSize(word, &n) : NULL;
        if (!s) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision's best is not a str");
            return 0;
        }
        for (Py_ssize_t j = 0; j < n; j++)
            if ((unsigned char)s[j] < 0x20 || (unsigned char)s[j] > 0x7e || s[j] == '"' || s[j] == '\\') {
                PyErr_SetString(PyExc_ValueError, "a decision's best is not plain ASCII");
                return 0;
            }
        if (i) OUT_WORD(out, ",");
        OUT_WORD(out, "\"");
        out_put(out, s, (size_t)n);
        OUT_WORD(out, "\"");
    }
    OUT_WORD(out, "]");
    return 1;
}

/* The grades asked of grade(lost, stake) (solver.grade.grade_place) so far, by points lost and stake. */
enum { GRADE_SLOTS = 1 << 8 };
typedef struct {
    long long lost, stake;
    int grade; /* its place in solver.grade.Grade; -1: an empty slot */
} GradeSlot;
static GradeSlot GRADE_MEMO[GRADE_SLOTS];
static PyObject *GRADE_OF; /* the callable the memo holds the answers of */

/* The grade (0 to 3) of a decision that lost ``lost`` of ``stake``; -1 with an error set. */
static int grade_at(PyObject *grade, long long lost, long long stake)
{
    if (grade != GRADE_OF) {
        for (int i = 0; i < GRADE_SLOTS; i++) GRADE_MEMO[i].grade = -1;
        Py_XSETREF(GRADE_OF, Py_NewRef(grade));
    }
    GradeSlot *slot = &GRADE_MEMO[(unsigned long long)(lost * 31 + stake) % GRADE_SLOTS];
    if (slot->grade >= 0 && slot->lost == lost && slot->stake == stake) return slot->grade;
    PyObject *l = PyLong_FromLongLong(lost), *s = PyLong_FromLongLong(stake);
    PyObject *told = l && s ? PyObject_CallFunctionObjArgs(grade, l, s, NULL) : NULL;
    Py_XDECREF(l);
    Py_XDECREF(s);
    long found = told ? PyLong_AsLong(told) : -1;
    Py_XDECREF(told);
    if (found == -1 && PyErr_Occurred()) return -1;
    if (found < 0 || found >= D_TALLIES - D_GRADES) {
        PyErr_SetString(PyExc_ValueError, "grade() gave no place of a grade");
        return -1;
    }
    *slot = (GradeSlot){lost, stake, (int)found};
    return (int)found;
}

/* A long long of a Python int; 0 with an error set (not an int, or past 64 bits). */
static int as_number(PyObject *value, long long *number)
{
    int overflow = 0;
    *number = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : -1;
    if (!PyLong_Check(value) || overflow || (*number == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision's number is not a 64-bit int");
        return 0;
    }
    return 1;
}

/* One decision of a game's facts, as decisions() reads it from either form of them. */
typedef struct {
    int kind;            /* 0 play, 1 accept, 2 fold (review.KINDS) */
    Py_ssize_t seat;
    int sound, right;    /* 1, 0, or -1: null */
    int judged;          /* lost (and stake) given */
    long long lost, stake;
} Decision;

/* The facts a decision is read from: the lists scan gives with the review's facts
 * (REVIEW), or a Facts (REVIEW_ROWS) with its rows of decisions. */
typedef struct {
    Facts *rows;
    PyObject *col[ACTION_COLUMNS + REVIEW_EXTRA];
    PyObject *numbers;
} Source;

static int kind_of(int type) { return type == E_PLAY ? 0 : type == E_ACCEPT ? 1 : type == E_FOLD ? 2 : -1; }

/* The decision in action row ``at``: 1, or -1 when the row is none (a raise, a redeal,
 * a fold with no raise to answer), or 0 with an error set. */
static int decision_at(const Source *src, Py_ssize_t at, Decision *d)
{
    int answer;
    if (src->rows) {
        const Rows *a = &src->rows->actions, *more = &src->rows->decided;
        d->kind = kind_of((int)a->cells[A_TYPE][at].i);
        answer = a->given[A_PENDING][at];
        d->seat = (Py_ssize_t)a->cells[A_SEAT][at].i;
        d->sound = a->given[A_REVIEW + 2][at] ? (int)a->cells[A_REVIEW + 2][at].i : -1;
        d->right = a->given[A_REVIEW + 3][at] ? (int)a->cells[A_REVIEW + 3][at].i : -1;
        int lost = d->kind ? A_REVIEW + 4 : A_LOST;
        d->judged = a->given[lost][at];
        d->lost = a->cells[lost][at].i;
        if (d->kind && !answer) return -1;
        if (d->judged && !more->given[DECIDED_STAKE][at]) {
            PyErr_SetString(PyExc_ValueError, "a decision judged without its stake");
            return 0;
        }
        d->stake = more->cells[DECIDED_STAKE][at].i;
    } else {
        PyObject *type = PyList_GET_ITEM(src->col[A_TYPE], at);
        d->kind = type == TYPES[E_PLAY] ? 0 : type == TYPES[E_ACCEPT] ? 1 : type == TYPES[E_FOLD] ? 2 : -1;
        answer = PyList_GET_ITEM(src->col[A_PENDING], at) != Py_None;
        if (d->kind && !answer) return -1;
        PyObject *sound = PyList_GET_ITEM(src->col[A_REVIEW + 2], at);
        PyObject *right = PyList_GET_ITEM(src->col[A_REVIEW + 3], at);
        PyObject *lost = PyList_GET_ITEM(src->col[d->kind ? A_REVIEW + 4 : A_LOST], at);
        d->sound = sound == Py_None ? -1 : sound == Py_True;
        d->right = right == Py_None ? -1 : right == Py_True;
        d->seat = PyLong_AsSsize_t(PyList_GET_ITEM(src->col[A_SEAT], at));
        if (d->seat == -1 && PyErr_Occurred()) return 0;
        d->judged = lost != Py_None;
        d->lost = d->stake = 0;
        if (d->judged && (!as_number(lost, &d->lost)
                          || !as_number(PyList_GET_ITEM(src->col[A_STAKE], at), &d->stake)))
            return 0;
    }
    if (d->kind < 0) {
        if (answer) PyErr_SetString(PyExc_ValueError, "an answer to a raise neither accepted nor folded");
        return answer ? 0 : -1;
    }
    return 1;
}

/* The line and hand number of the decision in action row ``at``; 0 with an error set. */
static int where_at(const Source *src, Py_ssize_t at, long long *line, long long *hand)
{
    if (src->rows) {
        const Facts *f = src->rows;
        Py_ssize_t row = (Py_ssize_t)f->actions.cells[A_HAND][at].i;
        if (!f->decided.given[DECIDED_LINE][at] || row < 0 || row >= f->hands.rows) {
            PyErr_SetString(PyExc_ValueError, "a decision without its line or hand");
            return 0;
        }
        *line = f->decided.cells[DECIDED_LINE][at].i;
        *hand = f->hands.cells[0][row].i;
        return 1;
    }
    Py_ssize_t row = PyLong_AsSsize_t(PyList_GET_ITEM(src->col[A_HAND], at));
    if (row < 0 || row >= PyList_GET_SIZE(src->numbers)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision of a hand not in the game");
        return 0;
    }
    return as_number(PyList_GET_ITEM(src->col[A_LINE], at), line)
           && as_number(PyList_GET_ITEM(src->numbers, row), hand);
}

/* The best ranks or answers, joined by commas, as a JSON list of str. */
static void out_best_text(Out *out, const char *s, Py_ssize_t n)
{
    OUT_WORD(out, "[");
    Py_ssize_t from = 0;
    for (Py_ssize_t i = 0; n && i <= n; i++) {
        if (i < n && s[i] != ',') continue;
        if (from) OUT_WORD(out, ",");
        OUT_WORD(out, "\"");
        out_put(out, s + from, (size_t)(i - from));
        OUT_WORD(out, "\"");
        from = i + 1;
    }
    OUT_WORD(out, "]");
}

/* The best of the decision in action row ``at`` as JSON; 0 with an error set. */
static int out_best_at(Out *out, const Source *src, Py_ssize_t at)
{
    if (!src->rows) return out_best(out, PyList_GET_ITEM(src->col[A_BEST], at));
    const Rows *more = &src->rows->decided;
    if (!more->given[DECIDED_BEST][at]) {
        OUT_WORD(out, "null");
        return 1;
    }
    Cell cell = more->cells[DECIDED_BEST][at];
    out_best_text(out, more->text + text_at(cell), text_length(cell));
    return 1;
}

PyDoc_STRVAR(decisions_doc,
"decisions(facts, numbers, players, tallies, head, game, lines, floor, min_lost, grade)\n"
"-> (bytes | None, int, list): the review of a cleared game's decisions from its facts\n"
"(facts: the action columns scan gives with the review's facts, and numbers its hands'\n"
"numbers; or the Facts scan gives with REVIEW_ROWS, and numbers None). Each card played\n"
"and each answer to a pending raise of a seat whose players[seat] is not None (else the\n"
"decision is left out) is counted into tallies[seat] (a buffer of 30 int64:\n"
"review.TALLIES of each of review.KINDS), its grade asked of grade(lost, stake) (its\n"
"place in Grade), once per lost and stake. With lines, each decision that lost\n"
"min_lost or more (None: every decision) is written as truclog review --format json\n"
"writes it: head (the path, up to the line number), its line, game (the game, up to the\n"
"hand's number), its hand, players[seat] (the player, up to the kind), then its kind and\n"
"judgements; lines joined by a comma and an indent (None when none). Then the number of\n"
"decisions counted, and of those listed that lost more than floor (-1: none), the place\n"
"in the actions and among those counted of each, one after the other.");

static PyObject *decisions(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *facts, *numbers, *players, *tallies, *head, *game, *min_lost, *grade;
    int lines;
    long long floor;
    if (!PyArg_ParseTuple(args, "OOO!O!SSpLOO", &facts, &numbers, &PyTuple_Type, &players,
                          &PyTuple_Type, &tallies, &head, &game, &lines, &floor, &min_lost, &grade))
        return NULL;
    Source src = {NULL, {NULL}, NULL};
    Py_ssize_t rows = -1;
    if (Py_IS_TYPE(facts, &FactsType)) {
        src.rows = (Facts *)facts;
        rows = src.rows->actions.rows;
        if (numbers != Py_None || src.rows->decided.rows != rows) {
            PyErr_SetString(PyExc_ValueError, "not the Facts of the review's facts (REVIEW_ROWS)");
            return NULL;
        }
    } else {
        if (!PyTuple_Check(facts) || PyTuple_GET_SIZE(facts) != ACTION_COLUMNS + REVIEW_EXTRA
            || !PyList_Check(numbers)) {
            PyErr_SetString(PyExc_ValueError, "not the action columns of the review's facts");
            return NULL;
        }
        src.numbers = numbers;
        for (int i = 0; i < ACTION_COLUMNS + REVIEW_EXTRA; i++) {
            src.col[i] = PyTuple_GET_ITEM(facts, i);
            if (!PyList_Check(src.col[i]) || (rows >= 0 && PyList_GET_SIZE(src.col[i]) != rows)) {
                PyErr_SetString(PyExc_ValueError, "the action columns are not lists of a length");
                return NULL;
            }
            rows = PyList_GET_SIZE(src.col[i]);
        }
    }
    Py_ssize_t seats = PyTuple_GET_SIZE(players);
    if (PyTuple_GET_SIZE(tallies) != seats || seats > 4) {
        PyErr_SetString(PyExc_ValueError, "a tally for each seat, up to four");
        return NULL;
    }
    double least = 0;
    int any = min_lost == Py_None;
    if (!any && (least = PyFloat_AsDouble(min_lost)) == -1 && PyErr_Occurred()) return NULL;
    Py_buffer view[4];
    long long *tally[4] = {NULL, NULL, NULL, NULL};
    int viewed = 0, ok = 1;
    for (; ok && viewed < seats; viewed++) {
        PyObject *t = PyTuple_GET_ITEM(tallies, viewed), *p = PyTuple_GET_ITEM(players, viewed);
        if (t == Py_None || p == Py_None) {
            view[viewed].obj = NULL;
            continue;
        }
        if (PyObject_GetBuffer(t, &view[viewed], PyBUF_WRITABLE | PyBUF_FORMAT) < 0) {
            view[viewed].obj = NULL;
            ok = 0;
        } else if (view[viewed].len != (Py_ssize_t)(D_KINDS * D_TALLIES * sizeof(long long))
                   || view[viewed].itemsize != (Py_ssize_t)sizeof(long long)) {
            PyErr_SetString(PyExc_ValueError, "a tally is not 30 int64");
            ok = 0;
        } else if (!PyBytes_Check(p)) {
            PyErr_SetString(PyExc_ValueError, "a player's piece is not bytes");
            ok = 0;
        } else {
            tally[viewed] = view[viewed].buf;
        }
    }
    Out out = {NULL, 0, 0, 1};
    PyObject *found = ok ? PyList_New(0) : NULL;
    Py_ssize_t counted = 0;
    ok = found != NULL;
    for (Py_ssize_t at = 0; ok && at < rows; at++) {
        Decision d;
        int got = decision_at(&src, at, &d);
        if (got < 0) continue; /* a raise, a redeal, a fold with no raise to answer */
        if (!got) {
            ok = 0;
            break;
        }
        if (d.seat < 0 || d.seat >= seats) {
            PyErr_SetString(PyExc_ValueError, "a decision of a seat not in the game");
            ok = 0;
            break;
        }
        if (!tally[d.seat]) continue; /* a player not chosen */
        long long *t = tally[d.seat] + d.kind * D_TALLIES;
        t[D_DECISIONS]++;
        if (d.right >= 0) {
            t[D_JUDGED]++;
            t[D_RIGHT] += d.right;
            t[D_POINTS_LOST] += d.judged ? d.lost : 0;
        }
        if (d.sound >= 0) {
            t[D_KNOWN]++;
            t[D_SOUND] += d.sound;
        }
        if (d.judged) {
            int g = grade_at(grade, d.lost, d.stake);
            if (g < 0) {
                ok = 0;
                break;
            }
            t[D_GRADES + g]++;
        }
        Py_ssize_t place = counted++;
        int listed = any || (d.judged && (double)d.lost >= least);
        if (!listed) continue;
        if (floor >= 0 && d.judged && d.lost > floor) {
            PyObject *pair = Py_BuildValue("(nn)", at, place);
            ok = pair && PyList_Append(found, pair) == 0;
            Py_XDECREF(pair);
        }
        if (!ok || !lines) continue;
        long long line, hand;
        if (!where_at(&src, at, &line, &hand)) {
            ok = 0;
            break;
        }
        if (out.n) OUT_WORD(&out, ",\n  ");
        out_bytes(&out, head);
        out_number(&out, line);
        out_bytes(&out, game);
        out_number(&out, hand);
        out_bytes(&out, PyTuple_GET_ITEM(players, d.seat));
        const char *named = KIND_NAMES[d.kind == 0 ? E_PLAY : d.kind == 1 ? E_ACCEPT : E_FOLD];
        out_put(&out, named, strlen(named));
        OUT_WORD(&out, "\",\"sound\":");
        OUT_FLAG(&out, d.sound);
        OUT_WORD(&out, ",\"right\":");
        OUT_FLAG(&out, d.right);
        OUT_WORD(&out, ",\"lost\":");
        if (d.judged) out_number(&out, d.lost);
        else OUT_WORD(&out, "null");
        OUT_WORD(&out, ",\"best\":");
        ok = out_best_at(&out, &src, at);
        OUT_WORD(&out, "}");
        if (ok && !out.ok) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    for (int s = 0; s < viewed; s++)
        if (view[s].obj) PyBuffer_Release(&view[s]);
    PyObject *result = NULL;
    if (ok) {
        PyObject *text = out.n ? PyBytes_FromStringAndSize(out.s, (Py_ssize_t)out.n) : Py_NewRef(Py_None);
        result = text ? Py_BuildValue("(NnO)", text, counted, found) : NULL;
    }
    PyMem_Free(out.s);
    Py_XDECREF(found);
    return result;
}

PyDoc_STRVAR(review_lists_doc,
"review_lists(facts) -> (hands, actions): the rows of a Facts scan gave with REVIEW_ROWS\n"
"as the lists scan gives with REVIEW (2): 14 of its hands, 18 + 3 of its actions, the\n"
"same values (the best decisions as a tuple of str), for the few decisions put in words.");

/* A list of the cells of column ``col`` of ``r`` as Python values of ``kind``. */
static PyObject *cells_list(const Rows *r, int col, int kind)
{
    PyObject *list = PyList_New(r->rows);
    for (Py_ssize_t i = 0; list && i < r->rows; i++) {
        PyObject *value = cell_object(kind, r->cells[col][i], r->given[col][i]);
        if (!value) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, value);
    }
    return list;
}

static PyObject *review_lists(PyObject *Py_UNUSED(self), PyObject *facts)
{
    if (!Py_IS_TYPE(facts, &FactsType) || ((Facts *)facts)->decided.rows != ((Facts *)facts)->actions.rows) {
        PyErr_SetString(PyExc_TypeError, "not the Facts of the review's facts (REVIEW_ROWS)");
        return NULL;
    }
    const Facts *f = (const Facts *)facts;
    PyObject *hands = PyTuple_New(HAND_COLUMNS), *actions = PyTuple_New(ACTION_COLUMNS + REVIEW_EXTRA);
    int ok = hands && actions;
    for (int col = 0; ok && col < HAND_COLUMNS; col++) {
        PyObject *list = cells_list(&f->hands, col, HAND_SPEC[col].kind);
        ok = list != NULL;
        if (ok) PyTuple_SET_ITEM(hands, col, list);
    }
    for (int col = 0; ok && col < ACTION_COLUMNS; col++) {
        PyObject *list = cells_list(&f->actions, col, ACTION_SPEC[col].kind);
        ok = list != NULL;
        if (ok) PyTuple_SET_ITEM(actions, col, list);
    }
    const Rows *more = &f->decided;
    PyObject *line = ok ? cells_list(more, DECIDED_LINE, K_INT) : NULL;
    PyObject *stake = line ? cells_list(more, DECIDED_STAKE, K_INT) : NULL;
    PyObject *best = stake ? PyList_New(more->rows) : NULL;
    for (Py_ssize_t i = 0; best && i < more->rows; i++) {
        PyObject *value = Py_NewRef(Py_None);
        if (more->given[DECIDED_BEST][i]) {
            Cell cell = more->cells[DECIDED_BEST][i];
            PyObject *text = PyUnicode_DecodeASCII(more->text + text_at(cell), text_length(cell), NULL);
            PyObject *split = text && text_length(cell) ? PyUnicode_Split(text, COMMA, -1) : NULL;
            Py_SETREF(value, text && !text_length(cell) ? PyTuple_New(0)
                             : split ? PyList_AsTuple(split) : NULL);
            Py_XDECREF(text);
            Py_XDECREF(split);
        }
        if (!value) Py_CLEAR(best);
        else PyList_SET_ITEM(best, i, value);
    }
    ok = best != NULL;
    if (ok) {
        PyTuple_SET_ITEM(actions, A_LINE, line);
        PyTuple_SET_ITEM(actions, A_BEST, best);
        PyTuple_SET_ITEM(actions, A_STAKE, stake);
    } else {
        Py_XDECREF(line);
        Py_XDECREF(stake);
    }
    PyObject *result = ok ? Py_BuildValue("(NN)", hands, actions) : NULL;
    if (!ok) {
        Py_XDECREF(hands);
        Py_XDECREF(actions);
    }
    return result;
}

#endif
