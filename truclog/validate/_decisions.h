/* The review of decisions of a game the quick core cleared, from its facts, in one pass.
 *
 * truclog review gives, of each decision of a cleared game (each card played, each
 * answer to a pending raise), a line of its JSON output, counts per player and kind,
 * and the decisions that may make its costliest list. truclog/stats/review.py did it
 * in Python, a tuple per decision from the facts' columns; decisions() does it from the
 * same columns (the lists scan gives with the review's facts) without a Python object
 * per decision: the line is written from the pieces review.py encodes once (the path,
 * the game, each player, with orjson), the counts go to a buffer per player, and the
 * grade is review.py's (a callable asked once per points lost and stake). Included by
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

static void out_put(Out *out, const char *s, size_t n)
{
    if (!out->ok) return;
    if (out->n + n > out->size) {
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

/* An int as JSON; 0 with an error set (not an int, or past 64 bits). */
static int out_int(Out *out, PyObject *value)
{
    int overflow = 0;
    long long i = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : 0;
    if (!PyLong_Check(value) || overflow || (i == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision's number is not a 64-bit int");
        return 0;
    }
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", i);
    out_put(out, text, (size_t)n);
    return 1;
}

/* True, false or None as JSON. */
static void out_flag(Out *out, PyObject *value)
{
    if (value == Py_True) OUT_WORD(out, "true");
    else if (value == Py_False) OUT_WORD(out, "false");
    else OUT_WORD(out, "null");
}

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

/* The grades asked of review.py's grade(lost, stake) so far, by points lost and stake. */
enum { GRADE_SLOTS = 1 << 8 };
typedef struct {
    long long lost, stake;
    int grade; /* its place in solver.grade.Grade; -1: an empty slot */
} GradeSlot;
static GradeSlot GRADE_MEMO[GRADE_SLOTS];
static PyObject *GRADE_OF; /* the callable the memo holds the answers of */

/* The grade (0 to 3) of a decision that lost ``lost`` of ``stake``; -1 with an error set. */
static int grade_at(PyObject *grade, PyObject *lost, PyObject *stake)
{
    if (grade != GRADE_OF) {
        for (int i = 0; i < GRADE_SLOTS; i++) GRADE_MEMO[i].grade = -1;
        Py_XSETREF(GRADE_OF, Py_NewRef(grade));
    }
    int o1 = 1, o2 = 1;
    long long l = PyLong_Check(lost) ? PyLong_AsLongLongAndOverflow(lost, &o1) : 0;
    long long s = PyLong_Check(stake) ? PyLong_AsLongLongAndOverflow(stake, &o2) : 0;
    if (PyErr_Occurred()) return -1;
    int memo = !o1 && !o2;
    GradeSlot *slot = &GRADE_MEMO[(unsigned long long)(l * 31 + s) % GRADE_SLOTS];
    if (memo && slot->grade >= 0 && slot->lost == l && slot->stake == s) return slot->grade;
    PyObject *told = PyObject_CallFunctionObjArgs(grade, lost, stake, NULL);
    long found = told ? PyLong_AsLong(told) : -1;
    Py_XDECREF(told);
    if (found == -1 && PyErr_Occurred()) return -1;
    if (found < 0 || found >= D_TALLIES - D_GRADES) {
        PyErr_SetString(PyExc_ValueError, "grade() gave no place of a grade");
        return -1;
    }
    if (memo) *slot = (GradeSlot){l, s, (int)found};
    return (int)found;
}

PyDoc_STRVAR(decisions_doc,
"decisions(actions, numbers, players, tallies, head, game, lines, floor, min_lost, grade)\n"
"-> (bytes | None, int, list): the review of a cleared game's decisions from its facts\n"
"(actions: the action columns scan gives with the review's facts, numbers: its hands'\n"
"numbers). Each card played and each answer to a pending raise of a seat whose\n"
"players[seat] is not None (else the decision is left out) is counted into\n"
"tallies[seat] (a buffer of 30 int64: review.TALLIES of each of review.KINDS), its grade\n"
"asked of grade(lost, stake) (its place in Grade), once per lost and stake. With lines,\n"
"each decision that lost min_lost or more (None: every decision) is written as\n"
"truclog review --format json writes it: head (the path, up to the line number), its\n"
"line, game (the game, up to the hand's number), its hand, players[seat] (the player,\n"
"up to the kind), then its kind and judgements; lines joined by a comma and an indent\n"
"(None when none). Then the number of decisions counted, and of those listed that lost\n"
"more than floor (-1: none), the place in the actions and among those counted of each,\n"
"one after the other.");

static PyObject *decisions(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *actions, *numbers, *players, *tallies, *head, *game, *min_lost, *grade;
    int lines;
    long long floor;
    if (!PyArg_ParseTuple(args, "O!O!O!O!SSpLOO", &PyTuple_Type, &actions, &PyList_Type, &numbers,
                          &PyTuple_Type, &players, &PyTuple_Type, &tallies, &head, &game, &lines,
                          &floor, &min_lost, &grade))
        return NULL;
    if (PyTuple_GET_SIZE(actions) != ACTION_COLUMNS + REVIEW_EXTRA) {
        PyErr_SetString(PyExc_ValueError, "not the action columns of the review's facts");
        return NULL;
    }
    Py_ssize_t seats = PyTuple_GET_SIZE(players);
    if (PyTuple_GET_SIZE(tallies) != seats || seats > 4) {
        PyErr_SetString(PyExc_ValueError, "a tally for each seat, up to four");
        return NULL;
    }
    double least = 0;
    int any = min_lost == Py_None;
    if (!any && (least = PyFloat_AsDouble(min_lost)) == -1 && PyErr_Occurred()) return NULL;
    PyObject *col[ACTION_COLUMNS + REVIEW_EXTRA];
    Py_ssize_t rows = -1;
    for (int i = 0; i < ACTION_COLUMNS + REVIEW_EXTRA; i++) {
        col[i] = PyTuple_GET_ITEM(actions, i);
        if (!PyList_Check(col[i]) || (rows >= 0 && PyList_GET_SIZE(col[i]) != rows)) {
            PyErr_SetString(PyExc_ValueError, "the action columns are not lists of a length");
            return NULL;
        }
        rows = PyList_GET_SIZE(col[i]);
    }
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
        PyObject *type = PyList_GET_ITEM(col[A_TYPE], at);
        int kind = type == TYPES[E_PLAY] ? 0 : type == TYPES[E_ACCEPT] ? 1 : type == TYPES[E_FOLD] ? 2 : -1;
        if (kind != 0 && PyList_GET_ITEM(col[A_PENDING], at) == Py_None)
            continue; /* a raise, a redeal, a fold with no raise to answer */
        if (kind < 0) {
            PyErr_SetString(PyExc_ValueError, "an answer to a raise neither accepted nor folded");
            ok = 0;
            break;
        }
        Py_ssize_t seat = PyLong_AsSsize_t(PyList_GET_ITEM(col[A_SEAT], at));
        if (seat < 0 || seat >= seats) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision of a seat not in the game");
            ok = 0;
            break;
        }
        if (!tally[seat]) continue; /* a player not chosen */
        PyObject *sound = PyList_GET_ITEM(col[A_REVIEW + 2], at);
        PyObject *right = PyList_GET_ITEM(col[A_REVIEW + 3], at);
        PyObject *lost = PyList_GET_ITEM(col[kind ? A_REVIEW + 4 : A_LOST], at);
        long long *t = tally[seat] + kind * D_TALLIES, points = 0;
        if (lost != Py_None) {
            int overflow = 0;
            points = PyLong_Check(lost) ? PyLong_AsLongLongAndOverflow(lost, &overflow) : -1;
            if (!PyLong_Check(lost) || overflow || (points == -1 && PyErr_Occurred())) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "points lost not a 64-bit int");
                ok = 0;
                break;
            }
        }
        t[D_DECISIONS]++;
        if (right != Py_None) {
            t[D_JUDGED]++;
            t[D_RIGHT] += right == Py_True;
            t[D_POINTS_LOST] += points;
        }
        if (sound != Py_None) {
            t[D_KNOWN]++;
            t[D_SOUND] += sound == Py_True;
        }
        if (lost != Py_None) {
            int g = grade_at(grade, lost, PyList_GET_ITEM(col[A_STAKE], at));
            if (g < 0) {
                ok = 0;
                break;
            }
            t[D_GRADES + g]++;
        }
        Py_ssize_t place = counted++;
        int listed = any || (lost != Py_None && (double)points >= least);
        if (!listed) continue;
        if (floor >= 0 && lost != Py_None && points > floor) {
            PyObject *pair = Py_BuildValue("(nn)", at, place);
            ok = pair && PyList_Append(found, pair) == 0;
            Py_XDECREF(pair);
        }
        if (!ok || !lines) continue;
        if (out.n) OUT_WORD(&out, ",\n  ");
        out_bytes(&out, head);
        ok = out_int(&out, PyList_GET_ITEM(col[A_LINE], at));
        out_bytes(&out, game);
        Py_ssize_t hand = ok ? PyLong_AsSsize_t(PyList_GET_ITEM(col[A_HAND], at)) : -1;
        if (ok && (hand < 0 || hand >= PyList_GET_SIZE(numbers))) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision of a hand not in the game");
            ok = 0;
        }
        ok = ok && out_int(&out, PyList_GET_ITEM(numbers, hand));
        if (!ok) break;
        out_bytes(&out, PyTuple_GET_ITEM(players, seat));
        const char *named = KIND_NAMES[kind == 0 ? E_PLAY : kind == 1 ? E_ACCEPT : E_FOLD];
        out_put(&out, named, strlen(named));
        OUT_WORD(&out, "\",\"sound\":");
        out_flag(&out, sound);
        OUT_WORD(&out, ",\"right\":");
        out_flag(&out, right);
        OUT_WORD(&out, ",\"lost\":");
        if (lost == Py_None) OUT_WORD(&out, "null");
        else ok = out_int(&out, lost);
        OUT_WORD(&out, ",\"best\":");
        ok = ok && out_best(&out, PyList_GET_ITEM(col[A_BEST], at));
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

#endif
