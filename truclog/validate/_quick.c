/* The quick core of truclog validate: whole games checked in one call.
 *
 * scan() reads the lines that follow a game line and replays them with the rules of
 * truclog/engine/state.py and the checks of truclog/validate/checker.py, for lines of the simple
 * shapes that writers emit. It never decides anything the Python validator would
 * report: at the first line it cannot read (a long number, a deep value) or that
 * breaks a rule or a claim, it gives up ("bail") and the Python validator checks the
 * whole game again, line by line, and reports it. So it is a shortcut, never a second
 * opinion: tests/test_quick.py compares both on legal and broken logs. Asked for
 * them, it also gives the facts statistics count of each hand of a game it clears
 * (truclog stats; tests/test_stats_facts.py compares the tables built from them with
 * those of the engine's replay).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __APPLE__
#include <xlocale.h>
#endif

#include "../engine/_trick.h"
#include "../solver/_solve.h"
#include "_blake2b.h"
#include "_columns.h"
#include "_counts.h"

/* --- a line as JSON --------------------------------------------------------------- */

enum { J_OBJ, J_ARR, J_STR, J_INT, J_FLOAT, J_TRUE, J_FALSE, J_NULL };

typedef struct {
    int kind;
    const char *s; /* a string's text (between its quotes) */
    Py_ssize_t n;
    long long v; /* an integer's value */
    const char *k; /* the key, for a member of an object */
    Py_ssize_t kn;
    int child, next, count;
    int escaped, kescaped; /* the string (the key) had escapes: its text is decoded */
    int key;               /* the key's KEY_ word, for a member of an object */
} Node;

/* The keys the core looks for, known once as a line is read (KEY_EXT: an extension, "_..."). */
enum {
    KEY_OTHER, KEY_EXT, KEY_TYPE, KEY_T, KEY_NOTE, KEY_MARKS, KEY_PLAYER, KEY_CARD, KEY_CARDS, KEY_DEALER, KEY_HAND,
    KEY_TO, KEY_RESTE, KEY_ACCEPTED, KEY_WINNER, KEY_POINTS, KEY_SCORE, KEY_ABANDONED
};
static const char *const KEY_WORDS[] = {
    [KEY_TYPE] = "type",     [KEY_T] = "t",           [KEY_NOTE] = "note",     [KEY_MARKS] = "marks",
    [KEY_PLAYER] = "player", [KEY_CARD] = "card",     [KEY_CARDS] = "cards",   [KEY_DEALER] = "dealer",
    [KEY_HAND] = "hand",     [KEY_TO] = "to",         [KEY_RESTE] = "reste",   [KEY_ACCEPTED] = "accepted",
    [KEY_WINNER] = "winner", [KEY_POINTS] = "points", [KEY_SCORE] = "score",   [KEY_ABANDONED] = "abandoned",
};
#define KEY_WORDS_END ((int)(sizeof KEY_WORDS / sizeof *KEY_WORDS))
static int KEY_RANK[KEY_WORDS_END]; /* each word's place in the order of their bytes */

static void know_keys(void)
{
    for (int a = KEY_TYPE; a < KEY_WORDS_END; a++)
        for (int b = KEY_TYPE; b < KEY_WORDS_END; b++)
            KEY_RANK[a] += strcmp(KEY_WORDS[b], KEY_WORDS[a]) < 0;
}

#define KEY_WORD(text, id) if (memcmp(k, text, sizeof text - 1) == 0) return id

static int key_of(const char *k, Py_ssize_t kn)
{
    if (kn > 0 && k[0] == '_') return KEY_EXT;
    switch (kn) {
    case 1: KEY_WORD("t", KEY_T); break;
    case 2: KEY_WORD("to", KEY_TO); break;
    case 4:
        KEY_WORD("type", KEY_TYPE);
        KEY_WORD("note", KEY_NOTE);
        KEY_WORD("card", KEY_CARD);
        KEY_WORD("hand", KEY_HAND);
        break;
    case 5:
        KEY_WORD("marks", KEY_MARKS);
        KEY_WORD("cards", KEY_CARDS);
        KEY_WORD("reste", KEY_RESTE);
        KEY_WORD("score", KEY_SCORE);
        break;
    case 6:
        KEY_WORD("player", KEY_PLAYER);
        KEY_WORD("dealer", KEY_DEALER);
        KEY_WORD("winner", KEY_WINNER);
        KEY_WORD("points", KEY_POINTS);
        break;
    case 8: KEY_WORD("accepted", KEY_ACCEPTED); break;
    case 9: KEY_WORD("abandoned", KEY_ABANDONED); break;
    }
    return KEY_OTHER;
}

#define MAX_NODES 128
#define MAX_DEPTH 4
#define MAX_DIGITS 15
#define SCRATCH 8192

typedef struct {
    Node nodes[MAX_NODES];
    int used;
    const char *p, *end;
    char scratch[SCRATCH]; /* the decoded text of strings with escapes */
    Py_ssize_t scratch_used;
} Parser;

static void skip_ws(Parser *P)
{
    if (P->p < P->end && (unsigned char)*P->p > ' ') return; /* most often: no space at all */
    while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\r' || *P->p == '\n'))
        P->p++;
}

/* Length of one well-formed UTF-8 character at p, or 0. */
static int utf8_char(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0];
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (end - p < len) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return len;
}

static int hex4(const unsigned char *p, const unsigned char *end, unsigned *value)
{
    *value = 0;
    if (end - p < 4) return 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        *value = *value * 16 + (unsigned)d;
    }
    return 1;
}

/* One escape after its backslash, decoded into out (UTF-8); its length in the line, or 0.
 * A lone surrogate is refused, as the models refuse it. */
static int unescape(const unsigned char *p, const unsigned char *end, char *out, int *written)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *at = p < end && *p ? strchr(from, *p) : NULL;
    if (at) {
        out[0] = to[at - from];
        *written = 1;
        return 1;
    }
    unsigned code, low;
    if (p >= end || *p != 'u' || !hex4(p + 1, end, &code)) return 0;
    int used = 5;
    if (code >= 0xDC00 && code <= 0xDFFF) return 0;
    if (code >= 0xD800 && code <= 0xDBFF) {
        if (end - p < 11 || p[5] != '\\' || p[6] != 'u' || !hex4(p + 7, end, &low)) return 0;
        if (low < 0xDC00 || low > 0xDFFF) return 0;
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        used = 11;
    }
    int n = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (int i = n - 1; i > 0; i--, code >>= 6) out[i] = (char)(0x80 | (code & 0x3F));
    out[0] = (char)(n == 1 ? code : (lead[n] | code));
    *written = n;
    return used;
}

static unsigned char PLAIN[256]; /* an ASCII byte that stands for itself in a JSON string */

static void know_plain(void)
{
    for (int c = 0x20; c < 0x80; c++) PLAIN[c] = c != '"' && c != '\\';
}

/* A string in valid UTF-8 without control characters; with escapes, its text is
 * decoded into the parser's scratch space. */
static int parse_string_slow(Parser *P, const char **s, Py_ssize_t *n, int *escaped)
{
    const unsigned char *p = (const unsigned char *)P->p + 1;
    const unsigned char *end = (const unsigned char *)P->end;
    const unsigned char *start = p;
    char *out = NULL;
    *escaped = 0;
    while (p < end) {
        unsigned char c = *p;
        int len, written = 0;
        if (c == '"') {
            *s = out ? P->scratch + P->scratch_used : (const char *)start;
            *n = out ? out - *s : (const char *)p - *s;
            if (out) P->scratch_used += *n;
            P->p = (const char *)p + 1;
            return 1;
        }
        if (c < 0x20) return 0;
        if (c < 0x80 && c != '\\') { /* plain ASCII: one byte, as utf8_char reads it */
            if (out) {
                if (out - P->scratch > SCRATCH - 8) return 0;
                *out++ = (char)c;
                p++;
            } else /* nothing to copy: on to the next byte that is not plain */
                for (p++; p < end && PLAIN[*p]; p++) {}
            continue;
        }
        if (c == '\\' && !out) { /* from here on, decode: copy what came before */
            if (P->scratch_used + (p - start) > SCRATCH - 8) return 0;
            out = P->scratch + P->scratch_used;
            memcpy(out, start, (size_t)(p - start));
            out += p - start;
            *escaped = 1;
        }
        if (c == '\\') {
            if (out - P->scratch > SCRATCH - 8) return 0;
            len = unescape(p + 1, end, out, &written);
            if (!len) return 0;
            out += written;
            p += len + 1;
            continue;
        }
        len = utf8_char(p, end);
        if (!len) return 0;
        if (out) {
            if (out - P->scratch > SCRATCH - 8) return 0;
            memcpy(out, p, (size_t)len);
            out += len;
        }
        p += len;
    }
    return 0;
}

/* parse_string, in one pass for the most common string: plain ASCII to its quote. */
static inline int parse_string(Parser *P, const char **s, Py_ssize_t *n, int *escaped)
{
    const unsigned char *start = (const unsigned char *)P->p + 1, *p = start;
    const unsigned char *end = (const unsigned char *)P->end;
    while (p < end && PLAIN[*p]) p++;
    if (p == end || *p != '"') return parse_string_slow(P, s, n, escaped);
    *s = (const char *)start;
    *n = p - start;
    *escaped = 0;
    P->p = (const char *)p + 1;
    return 1;
}

static int new_node(Parser *P, int kind)
{
    if (P->used >= MAX_NODES) return -1;
    Node *node = &P->nodes[P->used];
    memset(node, 0, sizeof(Node));
    node->kind = kind;
    node->child = node->next = -1;
    return P->used++;
}

static int parse_value(Parser *P, int depth);

/* Whether two members have the same key (the words of KEY_TYPE on: by their word alone). */
static int same_key(const Node *a, const Node *b)
{
    if (a->key != b->key) return 0;
    return a->key >= KEY_TYPE || (a->kn == b->kn && memcmp(a->k, b->k, (size_t)a->kn) == 0);
}

/* Members or elements of an object or array, after its opening bracket. */
static int parse_items(Parser *P, int self, int depth, char close)
{
    int last = -1;
    skip_ws(P);
    if (P->p < P->end && *P->p == close) {
        P->p++;
        return self;
    }
    for (;;) {
        Node named = {.k = NULL, .kn = 0, .kescaped = 0, .key = KEY_OTHER};
        if (close == '}') {
            if (P->p >= P->end || *P->p != '"' || !parse_string(P, &named.k, &named.kn, &named.kescaped))
                return -1;
            named.key = key_of(named.k, named.kn);
            skip_ws(P);
            if (P->p >= P->end || *P->p != ':') return -1;
            P->p++;
            for (int i = P->nodes[self].child; i >= 0; i = P->nodes[i].next)
                if (same_key(&P->nodes[i], &named)) return -1; /* a key twice */
        }
        skip_ws(P);
        int item = parse_value(P, depth + 1);
        if (item < 0) return -1;
        P->nodes[item].k = named.k;
        P->nodes[item].kn = named.kn;
        P->nodes[item].kescaped = named.kescaped;
        P->nodes[item].key = named.key;
        if (last < 0) P->nodes[self].child = item;
        else P->nodes[last].next = item;
        last = item;
        P->nodes[self].count++;
        skip_ws(P);
        if (P->p >= P->end) return -1;
        if (*P->p == ',') {
            P->p++;
            skip_ws(P);
            continue;
        }
        if (*P->p == close) {
            P->p++;
            return self;
        }
        return -1;
    }
}

static const char *skip_digits(const char *p, const char *end)
{
    while (p < end && *p >= '0' && *p <= '9') p++;
    return p;
}

/* Numbers read as the C locale reads them (a "." before the decimals), whatever the
 * process's locale, without the GIL: PyOS_string_to_double needs it. Like it, strtod
 * rounds correctly and gives an infinity past the largest double. */
#if defined(_WIN32)
static _locale_t c_numeric;
static void know_numbers(void)
{
    if (!c_numeric) c_numeric = _create_locale(LC_NUMERIC, "C");
}
static double c_strtod(const char *text, char **stop)
{
    return c_numeric ? _strtod_l(text, stop, c_numeric) : strtod(text, stop);
}
#elif defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) \
    || defined(__OpenBSD__)
static locale_t c_numeric;
static void know_numbers(void)
{
    if (!c_numeric) c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}
static double c_strtod(const char *text, char **stop)
{
    return c_numeric ? strtod_l(text, stop, c_numeric) : strtod(text, stop);
}
#else
static void know_numbers(void) {}
static double c_strtod(const char *text, char **stop) { return strtod(text, stop); }
#endif

/* A float, for an extension field: well formed, and finite as orjson reads it. */
static int parse_float(Parser *P, const char *start, const char *p)
{
    char text[64], *stop;
    if (p < P->end && *p == '.') {
        const char *digits = p + 1;
        p = skip_digits(digits, P->end);
        if (p == digits) return -1;
    }
    if (p < P->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < P->end && (*p == '+' || *p == '-')) p++;
        const char *digits = p;
        p = skip_digits(digits, P->end);
        if (p == digits) return -1;
    }
    if (p - start >= (Py_ssize_t)sizeof text) return -1;
    memcpy(text, start, (size_t)(p - start));
    text[p - start] = 0;
    double value = c_strtod(text, &stop);
    if (stop == text || *stop || !Py_IS_FINITE(value)) return -1;
    int node = new_node(P, J_FLOAT);
    if (node < 0) return -1;
    P->p = p;
    return node;
}

static int parse_int(Parser *P)
{
    const char *p = P->p, *start = p;
    int negative = 0, digits = 0;
    long long v = 0;
    if (*p == '-') {
        negative = 1;
        p++;
    }
    if (p >= P->end || *p < '0' || *p > '9') return -1;
    if (*p == '0' && p + 1 < P->end && p[1] >= '0' && p[1] <= '9') return -1;
    while (p < P->end && *p >= '0' && *p <= '9') {
        if (++digits > MAX_DIGITS) return -1;
        v = v * 10 + (*p - '0');
        p++;
    }
    if (p < P->end && (*p == '.' || *p == 'e' || *p == 'E')) return parse_float(P, start, p);
    int node = new_node(P, J_INT);
    if (node < 0) return -1;
    P->nodes[node].v = negative ? -v : v;
    P->nodes[node].s = start;
    P->nodes[node].n = p - start;
    P->p = p;
    return node;
}

static int parse_word(Parser *P, const char *word, int kind)
{
    size_t len = strlen(word);
    if ((size_t)(P->end - P->p) < len || memcmp(P->p, word, len) != 0) return -1;
    P->p += len;
    return new_node(P, kind);
}

static int parse_value(Parser *P, int depth)
{
    if (P->p >= P->end || depth > MAX_DEPTH) return -1;
    char c = *P->p;
    if (c == '{' || c == '[') {
        int node = new_node(P, c == '{' ? J_OBJ : J_ARR);
        if (node < 0) return -1;
        P->p++;
        return parse_items(P, node, depth, c == '{' ? '}' : ']');
    }
    if (c == '"') {
        int node = new_node(P, J_STR);
        Node *str = node < 0 ? NULL : &P->nodes[node];
        if (!str || !parse_string(P, &str->s, &str->n, &str->escaped)) return -1;
        return node;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_int(P);
    if (c == 't') return parse_word(P, "true", J_TRUE);
    if (c == 'f') return parse_word(P, "false", J_FALSE);
    if (c == 'n') return parse_word(P, "null", J_NULL);
    return -1;
}

/* The line as one object, or -1. */
static int parse_line(Parser *P, const char *start, const char *end)
{
    P->used = 0;
    P->scratch_used = 0;
    P->p = start;
    P->end = end;
    skip_ws(P);
    if (P->p >= P->end || *P->p != '{') return -1;
    int root = parse_value(P, 0);
    if (root < 0) return -1;
    skip_ws(P);
    return P->p == P->end ? root : -1;
}

/* The member of an object with the key ``key`` (a K_ word), or NULL. */
static const Node *member(const Parser *P, int obj, int key)
{
    for (int i = P->nodes[obj].child; i >= 0; i = P->nodes[i].next)
        if (P->nodes[i].key == key) return &P->nodes[i];
    return NULL;
}

/* --- the line as duplicates compare it (truclog.format.shapes.comparable) --------- */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Buffer;

static int grow(Buffer *b, Py_ssize_t n)
{
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *grown = PyMem_RawRealloc(b->data, (size_t)cap); /* no GIL needed (see scan) */
    if (!grown) return 0;
    b->data = grown;
    b->cap = cap;
    return 1;
}

static inline int put(Buffer *b, const char *s, Py_ssize_t n)
{
    if (b->len + n > b->cap && !grow(b, n)) return 0;
    char *to = b->data + b->len;
    if (n <= 16) /* most of what a line holds: copied in place, without a call */
        for (Py_ssize_t i = 0; i < n; i++) to[i] = s[i];
    else
        memcpy(to, s, (size_t)n);
    b->len += n;
    return 1;
}

static int key_before(const Node *a, const Node *b)
{
    if (a->key >= KEY_TYPE && b->key >= KEY_TYPE) return KEY_RANK[a->key] < KEY_RANK[b->key];
    if (a->kn && b->kn && a->k[0] != b->k[0])
        return (unsigned char)a->k[0] < (unsigned char)b->k[0];
    Py_ssize_t n = a->kn < b->kn ? a->kn : b->kn;
    int c = memcmp(a->k, b->k, (size_t)n);
    return c < 0 || (c == 0 && a->kn < b->kn);
}

/* A string as orjson writes it: decoded text is escaped again where JSON needs it. */
static int emit_text(Buffer *b, const char *s, Py_ssize_t n, int escaped)
{
    if (!escaped) return put(b, s - 1, n + 2); /* as it is written, between its quotes */
    if (!put(b, "\"", 1)) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char code[8];
        const char *short_form = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                               : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\f' ? "\\f"
                               : c == '\r' ? "\\r" : NULL;
        if (short_form) {
            if (!put(b, short_form, 2)) return 0;
        } else if (c < 0x20) {
            if (!put(b, code, snprintf(code, sizeof code, "\\u%04x", c))) return 0;
        } else if (!put(b, (const char *)&s[i], 1)) return 0;
    }
    return put(b, "\"", 1);
}

/* An integer in decimal digits, '-' first when negative (as orjson writes it). */
static int emit_int(Buffer *b, long long v)
{
    char digits[24], *at = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--at = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--at = '-';
    return put(b, at, digits + sizeof digits - at);
}

/* Sorted keys, no spaces: as orjson.dumps(..., OPT_SORT_KEYS) writes what it read.
 * At the top (``top``), ``t``, ``note``, ``marks`` and extensions are left out (copies.comparable);
 * a float is never written (only an extension may hold one). */
static int emit(Buffer *b, const Parser *P, int index, int top)
{
    const Node *node = &P->nodes[index];
    switch (node->kind) {
    case J_STR:
        return emit_text(b, node->s, node->n, node->escaped);
    case J_INT:
        return emit_int(b, node->v);
    case J_TRUE:
        return put(b, "true", 4);
    case J_FALSE:
        return put(b, "false", 5);
    case J_NULL:
        return put(b, "null", 4);
    case J_FLOAT:
        return 0;
    case J_ARR: {
        if (!put(b, "[", 1)) return 0;
        for (int i = node->child; i >= 0; i = P->nodes[i].next) {
            if (i != node->child && !put(b, ",", 1)) return 0;
            if (!emit(b, P, i, 0)) return 0;
        }
        return put(b, "]", 1);
    }
    default: {
        int order[MAX_NODES], count = 0;
        for (int i = node->child; i >= 0; i = P->nodes[i].next) {
            const Node *m = &P->nodes[i];
            if (top && (m->key == KEY_T || m->key == KEY_NOTE || m->key == KEY_MARKS || m->key == KEY_EXT))
                continue;
            int at = count++;
            while (at > 0 && key_before(m, &P->nodes[order[at - 1]])) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = i;
        }
        if (!put(b, "{", 1)) return 0;
        for (int j = 0; j < count; j++) {
            const Node *m = &P->nodes[order[j]];
            if ((j && !put(b, ",", 1)) || !emit_text(b, m->k, m->kn, m->kescaped)
                || !put(b, ":", 1) || !emit(b, P, order[j], 0))
                return 0;
        }
        return put(b, "}", 1);
    }
    }
}

/* --- times and cards ---------------------------------------------------------------- */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int two(const char *s, int lo, int hi)
{
    if (!is_digit(s[0]) || !is_digit(s[1])) return 0;
    int v = (s[0] - '0') * 10 + (s[1] - '0');
    return v >= lo && v <= hi;
}

static int month_day(int month, int day)
{
    if (day >= 1 && day <= 29) return 1;
    if (day == 30) return month != 2;
    return day == 31
        && (month == 1 || month == 3 || month == 5 || month == 7 || month == 8 || month == 10
            || month == 12);
}

/* truclog.format.events.TIMESTAMP_PATTERN: an RFC 3339 date-time with an offset. */
static int timestamp(const char *s, Py_ssize_t n)
{
    if (n < 20) return 0;
    for (int i = 0; i < 4; i++)
        if (!is_digit(s[i])) return 0;
    if (s[4] != '-' || !two(s + 5, 1, 12) || s[7] != '-' || !two(s + 8, 0, 99)) return 0;
    if (!month_day((s[5] - '0') * 10 + s[6] - '0', (s[8] - '0') * 10 + s[9] - '0')) return 0;
    if ((s[10] != 'T' && s[10] != 't') || !two(s + 11, 0, 23) || s[13] != ':'
        || !two(s + 14, 0, 59) || s[16] != ':' || !two(s + 17, 0, 60))
        return 0;
    Py_ssize_t i = 19;
    if (s[i] == '.') {
        i++;
        if (i >= n || !is_digit(s[i])) return 0;
        while (i < n && is_digit(s[i])) i++;
    }
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == n;
    if (i + 6 != n || (s[i] != '+' && s[i] != '-')) return 0;
    return two(s + i + 1, 0, 23) && s[i + 3] == ':' && two(s + i + 4, 0, 59);
}

typedef struct {
    signed char rank, suit; /* rank: index in RANKS, -1 for an unseen card; suit -1: none */
} Card;

static const char RANKS[] = "6789TJQKA";

static signed char RANK_AT[256]; /* each byte's rank in RANKS, either case, or -1 */

static void know_ranks(void)
{
    memset(RANK_AT, -1, sizeof RANK_AT);
    for (int i = 0; RANKS[i]; i++) {
        RANK_AT[(unsigned char)RANKS[i]] = (signed char)i;
        if (RANKS[i] >= 'A' && RANKS[i] <= 'Z') /* a letter's lower case too */
            RANK_AT[(unsigned char)(RANKS[i] - 'A' + 'a')] = (signed char)i;
    }
}

static int rank_of(char c)
{
    return RANK_AT[(unsigned char)c];
}

static int suit_of(char c)
{
    switch (c) {
    case 'c': case 'C': return 0;
    case 'd': case 'D': return 1;
    case 'h': case 'H': return 2;
    case 's': case 'S': return 3;
    default: return -1;
    }
}

/* truclog.engine.cards.parse_card as the models use it (no spaces), or "??" when dealt. */
static int read_card(const Node *node, int dealt, Card *card)
{
    if (!node || node->kind != J_STR) return 0;
    const char *s = node->s;
    Py_ssize_t n = node->n;
    if (dealt && n == 2 && s[0] == '?' && s[1] == '?') {
        card->rank = card->suit = -1;
        return 1;
    }
    int rank;
    if (n >= 2 && s[0] == '1' && s[1] == '0') {
        rank = 4;
        s += 2;
        n -= 2;
    } else if (n >= 1) {
        rank = rank_of(s[0]);
        s += 1;
        n -= 1;
    } else return 0;
    if (rank < 0 || n > 1) return 0;
    int suit = n ? suit_of(s[0]) : -1;
    if (n && suit < 0) return 0;
    card->rank = (signed char)rank;
    card->suit = (signed char)suit;
    return 1;
}

static int same_card(Card a, Card b) { return a.rank == b.rank && a.suit == b.suit; }

/* --- the game ----------------------------------------------------------------------- */

enum { DEAL, REDEAL, PLAY, HAND_OVER, GAME_OVER };

/* A raise, an answer, a redeal or a play of the hand on, as statistics count it (see
 * note_raise, note_answer, note_redeal, note_play). A hand of more than MAX_NOTED raises,
 * answers and redeals goes to the Python validator; its plays (twelve at most) have
 * room of their own. */
enum { MAX_NOTED = 64, MAX_EVENTS = MAX_NOTED + 12 };
typedef struct {
    int kind, seat;
    int flag;  /* a raise's reste; whether an answer's raise was pending; a redeal granted;
                  whether an accepted reste rides on a play's hand */
    int place; /* a raise's or a play's cards on the table; an answer's place in the trick */
    long long to, previous; /* a raise's; a play's ``to`` is the hand's value */
    unsigned char card; /* a play's rank */
    unsigned char mine[12], theirs[12], results[3], table; /* a raise's position (0: none) */
    int n_mine, n_theirs, n_results;
    Py_ssize_t line; /* the line it is written on */
} Event;

typedef struct {
    Card dealt[3];
    Card revealed[3];
    int played[3];
    int slot_of[3];
    int count; /* cards revealed */
} Holding;

typedef struct {
    /* the table */
    int n;
    const char *name[4];
    Py_ssize_t name_len[4];
    const char *team[2];
    Py_ssize_t team_len[2];
    int strength[9]; /* by rank; 0: not in the deck */
    SolveOrder order; /* the same, by ASCII rank, for the solver */
    int doubles, cap, alternate, reste, refused_game, tied_non_dealer, fold_anytime;
    int redeal; /* 0 rest, 1 reshuffle, 2 none */
    long long max_value, target;
    int resumed; /* the game line gave a score */
    /* the state (truclog.engine.State) */
    long long score[2];
    int dealer, phase;
    long long hand_no, value;
    int pending, raiser, pend_reste;
    long long pend_to, pend_previous;
    int last_raiser_team, reste_accepted, redeal_asked, acted;
    Holding hold[4];
    Card prior[64];
    int nprior;
    int trick_seat[4];
    Card trick_card[4];
    int ntrick;
    int results[3], nresults;
    int leader, turn;
    int outcome, out_winner; /* a hand has ended; its winning team, -1 for none */
    long long out_points;
    /* the validator */
    int hands, result_given, ended;
    /* the facts statistics count (only when asked for: facts is not NULL) */
    PyObject *facts; /* the game's hands so far */
    int review;      /* the facts of the review of decisions too (see REVIEW_EXTRA) */
    Py_ssize_t line; /* the number of the line being checked */
    Event event[MAX_EVENTS]; /* the events of the hand on, if hand_on */
    int nevents, hand_on;
    int decided, ending, out_reste; /* the hand on was decided: how (an ENDING), with reste */
    long long start_score[2];
    int nplays, play_seat[12];
    signed char play_rank[12];
    char first_day[10]; /* the date of the first time given on a line of a hand */
    int dated;
    /* the rows of an export (only when asked for: wide), see note_line */
    int wide;
    long long seq; /* the lines of the hand on so far */
    int raised, redeal_said, redeal_granted; /* of the hand on: raises, a redeal asked, granted */
} Game;

enum { UNFINISHED, BY_TRICKS, BY_FOLD, DRAWN }; /* how a hand ended, for its facts */

static int team_of(int seat) { return seat % 2; }

static int seat_of(const Game *g, const Node *node)
{
    if (!node || node->kind != J_STR) return -1;
    for (int i = 0; i < g->n; i++)
        if (node->n == g->name_len[i] && memcmp(node->s, g->name[i], (size_t)node->n) == 0)
            return i;
    return -1;
}

static int team_named(const Game *g, const Node *node)
{
    for (int t = 0; t < 2; t++)
        if (node->n == g->team_len[t] && memcmp(node->s, g->team[t], (size_t)node->n) == 0)
            return t;
    return -1;
}

static void clear_hand(Game *g)
{
    g->value = 1;
    g->pending = 0;
    g->last_raiser_team = -1;
    g->reste_accepted = g->redeal_asked = g->acted = 0;
    g->nprior = 0;
    g->ntrick = 0;
    g->nresults = 0;
    g->nplays = 0;
    g->decided = 0;
    g->leader = g->turn = (g->dealer + 1) % g->n;
}

/* A holding's dealt cards with what was revealed of them (Holding.cards). */
static void holding_cards(const Holding *h, const Card *revealed, const int *slots, int count,
                          Card out[3])
{
    for (int i = 0; i < 3; i++) out[i] = h->dealt[i];
    for (int i = 0; i < count; i++) {
        Card r = revealed[i];
        Card *d = &out[slots[i]];
        if (!(d->rank >= 0 && r.suit < 0)) *d = r; /* holding.merged */
    }
}

/* The physical cards of this deal known so far, but those of ``skip``. */
static int deal_cards(const Game *g, int skip, Card *out)
{
    int count = 0;
    for (int i = 0; i < g->nprior; i++) out[count++] = g->prior[i];
    for (int seat = 0; seat < g->n; seat++) {
        if (seat == skip) continue;
        const Holding *h = &g->hold[seat];
        Card cards[3];
        holding_cards(h, h->revealed, h->slot_of, h->count, cards);
        for (int i = 0; i < 3; i++)
            if (cards[i].rank >= 0) out[count++] = cards[i];
    }
    return count;
}

/* holding.deal_problem: every rank in the deck, no card twice, at most four of a rank. */
static int deal_ok(const Game *g, const Card *cards, int count)
{
    int per_rank[9] = {0};
    for (int i = 0; i < count; i++) {
        Card c = cards[i];
        if (!g->strength[(int)c.rank] || ++per_rank[(int)c.rank] > 4) return 0;
        if (c.suit >= 0)
            for (int j = 0; j < i; j++)
                if (same_card(cards[j], c)) return 0;
    }
    return 1;
}

static int fits(Card revealed, Card dealt)
{
    return dealt.rank < 0
        || (dealt.rank == revealed.rank
            && (dealt.suit < 0 || revealed.suit < 0 || dealt.suit == revealed.suit));
}

/* Whether the deal allows ``card`` revealed from seat's holding ``h`` at ``slots``. */
static int placement_ok(const Game *g, int seat, const Holding *h, Card card, const int *slots)
{
    Card revealed[4], mine[3], all[64];
    for (int i = 0; i < h->count; i++) revealed[i] = h->revealed[i];
    revealed[h->count] = card;
    holding_cards(h, revealed, slots, h->count + 1, mine);
    int count = deal_cards(g, seat, all);
    for (int i = 0; i < 3; i++)
        if (mine[i].rank >= 0) all[count++] = mine[i];
    return deal_ok(g, all, count);
}

/* Holding.place: where ``card`` goes among the dealt cards, cheapest first; 0 if nowhere. */
static int place(const Game *g, int seat, const Holding *h, Card card, int *slots)
{
    int k = h->count, used[3] = {0, 0, 0};
    if (k >= 3) return 0;
    for (int i = 0; i < k; i++) used[h->slot_of[i]] = 1;
    for (int i = 0; i < k; i++) slots[i] = h->slot_of[i];
    for (int i = 0; i < 3; i++)
        if (!used[i] && same_card(h->dealt[i], card) && h->dealt[i].rank >= 0) {
            slots[k] = i; /* the very card dealt: place_dealt, no check needed */
            return 1;
        }
    if (g->strength[(int)card.rank] == 0) return 0;
    if (h->dealt[0].rank < 0 && h->dealt[1].rank < 0 && h->dealt[2].rank < 0) {
        for (int i = 0; i < 3; i++)
            if (!used[i]) {
                slots[k] = i;
                return placement_ok(g, seat, h, card, slots);
            }
        return 0;
    }
    /* Holding.ways: permutations of the slots in lexicographic order, by cost. */
    Card cards[4];
    for (int i = 0; i < k; i++) cards[i] = h->revealed[i];
    cards[k] = card;
    int ways[6][3], costs[6], count = 0, take = k + 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) {
                int perm[3] = {a, b, c};
                if ((take > 1 && b == a) || (take > 2 && (c == a || c == b))) continue;
                if ((take < 2 && b) || (take < 3 && c)) continue;
                int ok = 1, cost = 0;
                for (int i = 0; i < take; i++) {
                    if (!fits(cards[i], h->dealt[perm[i]])) ok = 0;
                    cost += h->dealt[perm[i]].rank < 0;
                }
                if (!ok) continue;
                memcpy(ways[count], perm, sizeof perm);
                costs[count++] = cost;
            }
    for (int cost = 0; cost <= 3; cost++)
        for (int w = 0; w < count; w++) {
            if (costs[w] != cost) continue;
            if (placement_ok(g, seat, h, card, ways[w])) {
                memcpy(slots, ways[w], sizeof(int) * (size_t)take);
                return 1;
            }
        }
    return 0;
}

static void reveal(Holding *h, Card card, int played, const int *slots)
{
    h->revealed[h->count] = card;
    h->played[h->count] = played;
    h->count++;
    for (int i = 0; i < h->count; i++) h->slot_of[i] = slots[i];
}

/* What a side with ``before`` points scores by winning a hand worth ``value``, or
 * going to the target (engine.points_won). */
static long long points_won(const Game *g, long long before, long long value, int to_target)
{
    long long goal = to_target ? g->target : before + value;
    return goal > before ? goal - before : 0;
}

static void end_hand(Game *g, int team, int to_game, int ending, int reste)
{
    long long points = 0;
    g->decided = 1;
    g->ending = ending;
    g->out_reste = reste;
    if (team >= 0) {
        points = points_won(g, g->score[team], g->value, to_game || g->reste_accepted);
        g->score[team] += points;
    }
    g->pending = 0;
    long long top = g->score[0] > g->score[1] ? g->score[0] : g->score[1];
    g->phase = top >= g->target ? GAME_OVER : HAND_OVER;
    g->outcome = 1;
    g->out_winner = team;
    g->out_points = points;
}

/* trick.trick_winner and trick.decide, then the hand's end (State._do_play). */
static void close_trick(Game *g)
{
    int best = -1, top[4], ntop = 0;
    for (int i = 0; i < g->ntrick; i++) {
        int s = g->strength[(int)g->trick_card[i].rank];
        if (s > best) {
            best = s;
            ntop = 0;
        }
        if (s == best) top[ntop++] = g->trick_seat[i];
    }
    int tied = 0;
    for (int i = 1; i < ntop; i++)
        if (team_of(top[i]) != team_of(top[0])) tied = 1;
    int result = tied ? -1 : team_of(top[0]);
    g->leader = g->turn = tied ? g->trick_seat[0] : top[0];
    g->results[g->nresults++] = result;
    g->ntrick = 0;
    signed char tricks[HAND_TRICKS];
    for (int i = 0; i < g->nresults; i++) tricks[i] = g->results[i] < 0 ? TRICK_TIED : g->results[i];
    int team = hand_decided(tricks, g->nresults); /* ../engine/_trick.h */
    if (team < 0) return;
    if (team == TRICK_TIED) team = all_tied_winner(g->tied_non_dealer, team_of(g->dealer));
    end_hand(g, team, 0, team < 0 ? DRAWN : BY_TRICKS, g->reste_accepted);
}

/* --- the lines ---------------------------------------------------------------------- */

enum { T_OTHER, T_GAME, T_DEAL, T_REDEAL, T_RAISE, T_ACCEPT, T_FOLD, T_PLAY, T_SHOW, T_RESULT, T_END };

#define TYPE_WORD(text, id) if (memcmp(s, text, sizeof text - 1) == 0) return id

static int line_type(const Node *node)
{
    if (!node || node->kind != J_STR) return T_OTHER;
    const char *s = node->s;
    switch (node->n) {
    case 4:
        TYPE_WORD("play", T_PLAY);
        TYPE_WORD("deal", T_DEAL);
        TYPE_WORD("game", T_GAME);
        TYPE_WORD("fold", T_FOLD);
        TYPE_WORD("show", T_SHOW);
        break;
    case 5: TYPE_WORD("raise", T_RAISE); break;
    case 6:
        TYPE_WORD("accept", T_ACCEPT);
        TYPE_WORD("result", T_RESULT);
        TYPE_WORD("redeal", T_REDEAL);
        break;
    case 8: TYPE_WORD("game_end", T_END); break;
    }
    return T_OTHER;
}

static int is_name(const Node *node) { return node && node->kind == J_STR && node->n > 0; }

static int is_null(const Node *node) { return !node || node->kind == J_NULL; }

static int is_bool(const Node *node) { return node->kind == J_TRUE || node->kind == J_FALSE; }

/* Fields of each type beyond type, t, note, marks and extensions (the models' fields). */
#define KEYS(a, b, c) ((1u << (a)) | (1u << (b)) | (1u << (c)))
static int known_field(int type, const Node *m)
{
    static const unsigned fields[] = {
        [T_DEAL] = KEYS(KEY_DEALER, KEY_CARDS, KEY_HAND),
        [T_REDEAL] = KEYS(KEY_PLAYER, KEY_ACCEPTED, KEY_PLAYER),
        [T_RAISE] = KEYS(KEY_PLAYER, KEY_TO, KEY_RESTE),
        [T_ACCEPT] = KEYS(KEY_PLAYER, KEY_PLAYER, KEY_PLAYER),
        [T_FOLD] = KEYS(KEY_PLAYER, KEY_PLAYER, KEY_PLAYER),
        [T_PLAY] = KEYS(KEY_PLAYER, KEY_CARD, KEY_CARD),
        [T_SHOW] = KEYS(KEY_PLAYER, KEY_CARDS, KEY_CARDS),
        [T_RESULT] = KEYS(KEY_WINNER, KEY_POINTS, KEY_SCORE),
        [T_END] = KEYS(KEY_WINNER, KEY_SCORE, KEY_ABANDONED),
    };
    unsigned always = KEYS(KEY_EXT, KEY_TYPE, KEY_NOTE) | KEYS(KEY_T, KEY_MARKS, KEY_MARKS);
    return ((always | fields[type]) >> m->key) & 1u;
}

#define LONGEST_MARK 40 /* events.LONGEST_MARK */

/* Marks as the models take them: null, or a list of strings of 1 to LONGEST_MARK
 * characters (code points: a string's text is valid UTF-8 once decoded). */
static int good_marks(const Parser *P, const Node *m)
{
    if (m->kind == J_NULL) return 1;
    if (m->kind != J_ARR) return 0;
    for (int i = m->child; i >= 0; i = P->nodes[i].next) {
        const Node *mark = &P->nodes[i];
        if (mark->kind != J_STR) return 0;
        Py_ssize_t chars = 0;
        for (Py_ssize_t j = 0; j < mark->n; j++) chars += (mark->s[j] & 0xC0) != 0x80;
        if (chars < 1 || chars > LONGEST_MARK) return 0;
    }
    return 1;
}

/* A score object naming exactly both sides, each with its points as the engine has them. */
static int score_is(const Game *g, const Node *node, const Parser *P)
{
    if (!node || node->kind != J_OBJ || node->count != 2) return 0;
    for (int i = node->child; i >= 0; i = P->nodes[i].next) {
        const Node *m = &P->nodes[i];
        int t = -1;
        for (int s = 0; s < 2; s++)
            if (m->kn == g->team_len[s] && memcmp(m->k, g->team[s], (size_t)m->kn) == 0) t = s;
        if (t < 0 || m->kind != J_INT || m->v != g->score[t]) return 0;
    }
    return 1;
}

/* Whether a score object is well formed (names to whole numbers from 0). */
static int score_shape(const Node *node, const Parser *P)
{
    if (node->kind != J_OBJ) return 0;
    for (int i = node->child; i >= 0; i = P->nodes[i].next)
        if (P->nodes[i].kn == 0 || P->nodes[i].kind != J_INT || P->nodes[i].v < 0) return 0;
    return 1;
}

static int winner_team(const Game *g)
{
    if (g->phase != GAME_OVER) return -1;
    int best = g->score[1] > g->score[0] ? 1 : 0;
    return g->score[best] >= g->target ? best : -1;
}

static int next_hand(Game *g);

static int do_deal(Game *g, const Parser *P, int root)
{
    const Node *dealer = member(P, root, KEY_DEALER), *cards = member(P, root, KEY_CARDS),
               *hand = member(P, root, KEY_HAND);
    if (!is_name(dealer) || !(is_null(cards) || cards->kind == J_OBJ)
        || !(is_null(hand) || (hand->kind == J_INT && hand->v >= 1)))
        return 0;
    if (g->ended || g->phase == GAME_OVER || g->phase == PLAY) return 0;
    int redeal = g->phase == REDEAL, seat = seat_of(g, dealer);
    int expected = g->phase == HAND_OVER ? (g->dealer + 1) % g->n : g->dealer;
    if (seat != expected) return 0;
    long long number;
    if (redeal) number = g->hand_no;
    else if (!g->hand_no && g->resumed && !is_null(hand)) number = hand->v;
    else number = g->hand_no + 1;
    if (!is_null(hand) && hand->v != number) return 0;
    Card dealt[4][3], all[64];
    int given[4] = {0, 0, 0, 0}, count = 0, plain = 1;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 3; i++) dealt[s][i].rank = dealt[s][i].suit = -1;
    if (!is_null(cards))
        for (int i = cards->child; i >= 0; i = P->nodes[i].next) {
            const Node *m = &P->nodes[i];
            Node key = {.kind = J_STR, .s = m->k, .n = m->kn};
            int to = seat_of(g, &key);
            if (m->kn == 0 || m->kind != J_ARR || m->count != 3) return 0;
            int j = 0;
            for (int c = m->child; c >= 0; c = P->nodes[c].next, j++) {
                Card card;
                if (!read_card(&P->nodes[c], 1, &card)) return 0;
                if (to >= 0 && !given[to]) dealt[to][j] = card;
                if (card.rank < 0) plain = 0;
                else all[count++] = card;
                if (card.suit < 0) plain = 0;
            }
            if (to < 0) return 0; /* cards dealt to someone who is not a player */
            given[to] = 1;
        }
    int keep_seen = redeal && g->redeal == 0;
    if (keep_seen || !plain || !deal_ok(g, all, count)) {
        Card checked[96];
        int total = keep_seen ? deal_cards(g, -1, checked) : 0;
        for (int i = 0; i < count; i++) checked[total++] = all[i];
        if (!deal_ok(g, checked, total)) return 0;
    }
    /* the validator's hands: a granted redeal deals the same hand again */
    if (!(redeal && g->hands)) {
        if (g->facts && !next_hand(g)) return 0;
        g->hands++;
        g->result_given = 0;
    }
    Card prior[64];
    int nprior = keep_seen ? deal_cards(g, -1, prior) : 0;
    int asked = g->redeal_asked;
    if (g->phase == HAND_OVER) g->dealer = (g->dealer + 1) % g->n;
    clear_hand(g);
    for (int s = 0; s < g->n; s++) {
        memset(&g->hold[s], 0, sizeof(Holding));
        memcpy(g->hold[s].dealt, dealt[s], sizeof dealt[s]);
    }
    memcpy(g->prior, prior, sizeof(Card) * (size_t)nprior);
    g->nprior = nprior;
    g->redeal_asked = redeal && asked;
    if (!redeal) g->hand_no = number;
    g->phase = PLAY;
    return 1;
}

static int do_redeal(Game *g, int seat, const Node *accepted)
{
    if (!accepted || !is_bool(accepted)) return 0;
    if (g->redeal == 2 || seat != (g->dealer + 1) % g->n || g->redeal_asked || g->acted) return 0;
    g->redeal_asked = g->acted = 1;
    if (accepted->kind == J_TRUE) g->phase = REDEAL;
    return 1;
}

static int do_raise(Game *g, int seat, const Node *to, const Node *reste)
{
    int given_to = !is_null(to), is_reste = reste && reste->kind == J_TRUE;
    if ((given_to && to->kind != J_INT) || (!is_null(reste) && !is_bool(reste))) return 0;
    if (given_to == is_reste) return 0; /* exactly one of to and reste: true */
    int team = team_of(seat);
    if (g->pending || seat != g->turn || g->reste_accepted) return 0;
    if (g->alternate && g->last_raiser_team == team) return 0;
    long long remainder = g->target - g->score[team], value;
    if (is_reste) {
        if (!g->reste || remainder <= g->value || (g->max_value && remainder > g->max_value))
            return 0;
        value = remainder;
    } else {
        value = to->v;
        if (value <= g->value || (g->doubles && value != 2 * g->value)) return 0;
        if ((g->max_value && value > g->max_value) || (g->cap && value > remainder)) return 0;
    }
    g->pending = 1;
    g->raiser = seat;
    g->pend_to = value;
    g->pend_previous = g->value;
    g->pend_reste = is_reste;
    g->last_raiser_team = team;
    g->acted = 1;
    return 1;
}

static int do_answer(Game *g, int seat, int accept)
{
    if (!g->pending) {
        if (accept || !g->fold_anytime) return 0;
        end_hand(g, 1 - team_of(seat), 0, BY_FOLD, g->reste_accepted);
        return 1;
    }
    if (team_of(seat) == team_of(g->raiser)) return 0;
    g->pending = 0;
    if (accept) {
        g->value = g->pend_to;
        g->reste_accepted = g->pend_reste;
        return 1;
    }
    g->value = g->pend_previous;
    end_hand(g, team_of(g->raiser), g->pend_reste && g->refused_game, BY_FOLD, g->pend_reste);
    return 1;
}

static int do_play(Game *g, int seat, const Node *node)
{
    Card card;
    int slots[3];
    if (!read_card(node, 0, &card)) return 0;
    if (g->pending || seat != g->turn) return 0;
    if (!place(g, seat, &g->hold[seat], card, slots)) return 0;
    reveal(&g->hold[seat], card, 1, slots);
    g->acted = 1;
    if (g->nplays < 12) {
        g->play_seat[g->nplays] = seat;
        g->play_rank[g->nplays++] = card.rank;
    }
    g->trick_seat[g->ntrick] = seat;
    g->trick_card[g->ntrick++] = card;
    if (g->ntrick < g->n) g->turn = (seat + 1) % g->n;
    else close_trick(g);
    return 1;
}

static int do_show(Game *g, int seat, const Node *cards, const Parser *P)
{
    if (!cards || cards->kind != J_ARR || cards->count < 1 || cards->count > 3) return 0;
    if ((g->phase != HAND_OVER && g->phase != GAME_OVER) || !g->hand_no) return 0;
    const Holding *before = &g->hold[seat];
    Holding held = *before;
    for (int i = cards->child; i >= 0; i = P->nodes[i].next) {
        Card card;
        int slots[3], shown = 0;
        if (!read_card(&P->nodes[i], 0, &card)) return 0;
        for (int j = 0; j < before->count; j++)
            if (same_card(before->revealed[j], card) && !before->played[j]) shown = 1;
        if (shown) continue;
        if (!place(g, seat, &held, card, slots)) return 0;
        reveal(&held, card, 0, slots);
    }
    g->hold[seat] = held;
    return 1;
}

static int do_result(Game *g, const Parser *P, int root)
{
    const Node *winner = member(P, root, KEY_WINNER), *points = member(P, root, KEY_POINTS),
               *score = member(P, root, KEY_SCORE);
    if (!winner || !(winner->kind == J_NULL || is_name(winner))) return 0;
    if (!points || points->kind != J_INT || points->v < 0 || !score || !score_shape(score, P))
        return 0;
    if ((g->phase != HAND_OVER && g->phase != GAME_OVER) || !g->outcome || g->result_given)
        return 0;
    g->result_given = 1;
    int named = winner->kind == J_NULL ? -1 : team_named(g, winner);
    if (winner->kind != J_NULL && named < 0) return 0;
    return named == g->out_winner && points->v == g->out_points && score_is(g, score, P);
}

static int do_game_end(Game *g, const Parser *P, int root)
{
    const Node *winner = member(P, root, KEY_WINNER), *score = member(P, root, KEY_SCORE),
               *abandoned = member(P, root, KEY_ABANDONED);
    if (winner && !(winner->kind == J_NULL || is_name(winner))) return 0;
    if (score && !(score->kind == J_NULL || score_shape(score, P))) return 0;
    if (abandoned && !(abandoned->kind == J_NULL || is_bool(abandoned))) return 0;
    g->ended = 1;
    int over = g->phase == GAME_OVER, quit = abandoned && abandoned->kind == J_TRUE;
    if (quit == over) return 0;
    if (winner) {
        int named = winner->kind == J_NULL ? -1 : team_named(g, winner);
        if ((winner->kind != J_NULL && named < 0) || named != winner_team(g)) return 0;
    }
    return is_null(score) || score_is(g, score, P);
}

/* --- the strength of raises and the review of answers -------------------------------- */

/* truclog/solver/strength.py and truclog/solver/answer.py, answered with the solver of
 * truclog.solver._solve (its capsule, see _solve.h): tests/test_solve.py compares
 * strength() and review() below with strength_of and answer.judge on random positions. */
static const Solver *solver; /* imported at the first scan for facts */

/* The odds and outcomes already worked out, by question (see question_key and
 * outcome_key): a corpus asks the same few thousand over and over. Each question has a
 * bucket of four slots, the last asked or remembered first, that fills one cache line (a
 * question costs one miss); a new answer takes the place of the one asked longest ago.
 * The odds have a table of their own (``remembered``), and so do the face-up outcomes
 * (``outcomes_known``): those are asked by the order of their ranks alone (see
 * outcome_key), about 1,500 questions on a large log, in a table of 256 KB that keeps
 * them in the nearer caches and spreads them thin enough that none gives way. */
#define REMEMBERED (1 << 17)
#define OUTCOMES_KNOWN (1 << 14)
#define WAYS 4
typedef struct {
    unsigned long long key; /* 0: empty */
    unsigned answer;        /* the error (top byte), then wins + 1 (an outcome's value + 1) */
    unsigned short draws, weights;
} Remembered;
#ifdef __linux__
/* aligned to a huge page, which it fills (see solver_ready) */
static _Alignas(1 << 21) Remembered remembered[REMEMBERED];
#else
static _Alignas(64) Remembered remembered[REMEMBERED];
#endif
static _Alignas(64) Remembered outcomes_known[OUTCOMES_KNOWN];
_Static_assert(sizeof(Remembered) * WAYS <= 64, "a bucket fills one cache line");

/* The answers to a play's questions already worked out, by what they depend on alone
 * (see play_key): the plays of a large log come back to the same situations over and
 * over (on the 150 MB log of 40,000 games, 820,420 plays in 65,111 situations), and a
 * play found here asks nothing of the solver's memory and works out none of its
 * questions. Buckets of four (two cache lines, both fetched), the last asked first, as
 * the solver's memory (see recall): buckets of two missed a third more on that log. An
 * entry holds PlayAnswers with each rank as its place in the player's dealt ranks (so
 * that rules whose ranks differ but stand in the same order share it), and the halves
 * plus one, in two bits each. */
#define PLAYS_KNOWN (1 << 17)
#define PLAY_WAYS 4
typedef struct {
    unsigned long long key; /* 0: empty */
    unsigned short wins[3], draws[3], weights[3];
    unsigned char ranks, known, at, halves; /* at, halves: 2 bits a rank */
} PlayKnown;
_Static_assert(sizeof(PlayKnown) * PLAY_WAYS <= 128, "a bucket of plays fills two cache lines");
#ifdef __linux__
static _Alignas(1 << 21) PlayKnown plays_known[PLAYS_KNOWN]; /* two huge pages, see solver_ready */
#else
static _Alignas(128) PlayKnown plays_known[PLAYS_KNOWN];
#endif

/* The solver, imported once. The first time, the memory of its answers is asked to be
 * one huge page where the system has them (Linux, before any of it is used): questions
 * land all over its 2 MB, and with pages of 4 KB most of them also missed the cache of
 * addresses (the TLB), a walk of the page tables that costs most on a virtual machine.
 * So is the memory of plays (4 MB, two huge pages). */
static int solver_ready(void)
{
    if (solver) return 1;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(remembered, sizeof remembered, MADV_HUGEPAGE); /* advice: nothing if refused */
    madvise(plays_known, sizeof plays_known, MADV_HUGEPAGE);
#endif
    PyObject *module = PyImport_ImportModule("truclog.solver._solve");
    PyObject *capsule = module ? PyObject_GetAttrString(module, "SOLVER") : NULL;
    solver = capsule ? PyCapsule_GetPointer(capsule, SOLVE_CAPSULE) : NULL;
    Py_XDECREF(capsule); /* the module keeps it, and is kept by sys.modules */
    Py_XDECREF(module);
    return solver != NULL;
}

/* The solver's memory (remembered) is the core's own, and a scan asks it without the
 * GIL (see scan): every use of it holds this lock, taken with the GIL let go while it
 * waits (a thread that holds the lock may want the GIL). */
static PyThread_type_lock core_lock;

/* Take core_lock, the GIL held. */
static void core_hold(void)
{
    if (PyThread_acquire_lock(core_lock, NOWAIT_LOCK)) return;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(core_lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
}

static void core_let_go(void) { PyThread_release_lock(core_lock); }

enum { WINS_BITS = 24 };

/* Ranks as powers sorted, at most three, after their count, in ``key``: 0 if more. */
static int pack(const SolveOrder *order, SolveText text, unsigned long long *key)
{
    int p[3];
    if (text.n > 3) return 0;
    for (size_t i = 0; i < text.n; i++) {
        int power = text.s[i] < 128 ? order->power[text.s[i]] : 0;
        if (!power || power > 15) return 0;
        size_t j = i;
        for (; j > 0 && p[j - 1] > power; j--) p[j] = p[j - 1];
        p[j] = power;
    }
    *key = (*key << 2) | text.n;
    for (size_t i = 0; i < 3; i++) *key = (*key << 4) | (i < text.n ? (unsigned)p[i] : 0);
    return 1;
}

/* The ranks of a text as question_key packs them (14 bits: pack), or -1 if they do not
 * fit: a play's review packs each of its hands once for all its questions. */
static long long packed(const SolveOrder *order, SolveText text)
{
    unsigned long long key = 0;
    return pack(order, text, &key) ? (long long)key : -1;
}

/* The trick results (W, L or T each, three at most), the place of the card on the
 * table (0 for none, 15 at most), who is to move and what three tied tricks are worth,
 * after ``key``: 0 when they do not fit. */
static unsigned long long position_key(unsigned long long key, SolveText results, int place,
                                       int tied, int to_move)
{
    if (results.n > 3 || place < 0 || place > 15) return 0;
    for (size_t i = 0; i < 3; i++) {
        int c = i < results.n ? results.s[i] : 0;
        key = (key << 2) | (c == 'W' ? 1u : c == 'L' ? 2u : c == 'T' ? 3u : 0u);
        if (i < results.n && !(key & 3)) return 0;
    }
    key = (key << 4) | (unsigned)place;
    return (key << 3) | (unsigned)(tied * 2 + !!to_move);
}

/* The ranks packed (see packed) of ``n`` powers sorted low to high (each in 1 to 15, n
 * at most 3), less the first of power ``without`` (-1: none). */
static long long code_of(const int *powers, int n, int without)
{
    unsigned long long key = 0;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (powers[i] == without) {
            without = -1;
            continue;
        }
        key = (key << 4) | (unsigned)powers[i];
        kept++;
    }
    key <<= 4 * (3 - kept);
    return (long long)(key | (unsigned long long)kept << 12);
}

/* question_key of ``count`` hands already packed (``codes``, see packed). */
static unsigned long long packed_key(const SolveOrder *order, const long long *codes, int count,
                                     SolveText results, int table, int tied, int to_move)
{
    unsigned long long key = (unsigned long long)order->n; /* 4 bits */
    if (order->n > 15) return 0;
    for (int i = 0; i < count; i++) {
        if (codes[i] < 0) return 0;
        key = key << 14 | (unsigned long long)codes[i]; /* 3 x 14 bits at most */
    }
    int power = table > 0 && table < 128 ? order->power[table] : 0;
    if (table && !power) return 0;
    key = position_key(key, results, power, tied, to_move); /* 6 + 4 + 3 bits */
    return key ? key | 1ULL << 63 | (unsigned long long)(count == 3) << 62 : 0;
}

/* The place of each power (up to 15) among those of ``count`` packed hands (see packed)
 * and ``power`` (0 for none), the lowest 1, in ``place`` (by power; 0 for none). */
static void places_of(const long long *codes, int count, int power, unsigned char place[16])
{
    memset(place, 0, 16);
    place[power & 15] = 1;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < 3; j++) place[(codes[i] >> (8 - 4 * j)) & 15] = 1;
    for (int p = 1, seen = 0; p < 16; p++) place[p] = (unsigned char)(seen += place[p]);
    place[0] = 0;
}

/* The question of a face-up outcome (solver->outcome) of the hands ``held`` and
 * ``theirs`` (packed, see packed; the card on the table of power ``power``, 0 for none)
 * as one number, or 0 when it does not fit in one. Both hands are seen, no deck is
 * dealt: the solver only compares the ranks of the two hands and of the card on the
 * table with each other (higher, the same or lower), so each rank is asked as its
 * place (``place``, see places_of) among ranks that hold all of them: positions whose
 * ranks stand in the same order are one question, with one answer. On a log of 20,000
 * games, 1,459 questions where the ranks themselves make 52,287. */
static unsigned long long placed_key(const unsigned char place[16], long long held,
                                     long long theirs, SolveText results, int power, int tied,
                                     int to_move)
{
    if (held < 0 || theirs < 0 || power < 0 || power > 15) return 0;
    const long long codes[2] = {held, theirs};
    unsigned long long key = 1;
    for (int i = 0; i < 2; i++) {
        unsigned long long code = (unsigned long long)codes[i] >> 12; /* the count */
        for (int j = 0; j < 3; j++) code = (code << 4) | place[(codes[i] >> (8 - 4 * j)) & 15];
        key = key << 14 | code;
    }
    return position_key(key, results, place[power], tied, to_move);
}

/* placed_key of a position, the places those of its own ranks. */
static unsigned long long outcome_key(const SolveOrder *order, long long held, long long theirs,
                                      SolveText results, int table, int tied, int to_move)
{
    int power = table > 0 && table < 128 ? order->power[table] : 0;
    if (held < 0 || theirs < 0 || (table && (!power || power > 15))) return 0;
    const long long codes[2] = {held, theirs};
    unsigned char place[16];
    places_of(codes, 2, power, place);
    return placed_key(place, held, theirs, results, power, tied, to_move);
}

/* A question of the solver's as one number (its answer depends on nothing else): the
 * ranks of ``count`` (2 or 3) hands and the rest of the position, tagged with
 * ``count``; or 0 when it does not fit in one. */
static unsigned long long question_key(const SolveOrder *order, const SolveText *hands,
                                       int count, SolveText results, int table, int tied,
                                       int to_move)
{
    long long codes[3];
    for (int i = 0; i < count; i++) codes[i] = packed(order, hands[i]);
    return packed_key(order, codes, count, results, table, tied, to_move);
}

/* A memory of answers: its slots and their number. */
typedef struct {
    Remembered *slots;
    size_t size;
} Memory;

static const Memory ODDS_MEMORY = {remembered, REMEMBERED};
static const Memory OUTCOME_MEMORY = {outcomes_known, OUTCOMES_KNOWN};

static Remembered *bucket_of(Memory memory, unsigned long long key)
{
    return &memory.slots[(size_t)((key * 0x9E3779B97F4A7C15ULL) >> 47) & (memory.size - WAYS)];
}

/* The answer remembered of a question (moved first in its bucket), or NULL. */
static const Remembered *recall(Memory memory, unsigned long long key)
{
    if (!key) return NULL; /* worked out each time */
    Remembered *bucket = bucket_of(memory, key);
    if (bucket[0].key == key) return &bucket[0];
    for (int i = 1; i < WAYS; i++)
        if (bucket[i].key == key) {
            Remembered known = bucket[i];
            memmove(&bucket[1], &bucket[0], sizeof(Remembered) * (size_t)i);
            bucket[0] = known;
            return &bucket[0];
        }
    return NULL;
}

static int wins_of(const Remembered *known)
{
    return (int)(known->answer & ((1u << WINS_BITS) - 1)) - 1;
}

static int error_of(const Remembered *known) { return (int)(known->answer >> WINS_BITS); }

/* Remember the answer to a question, first in its bucket (unless it does not fit). */
static void remember(Memory memory, unsigned long long key, int wins, int draws, int weights,
                     int error)
{
    if (!key || wins < -1 || wins + 1 >= 1 << WINS_BITS || draws < 0 || draws > 0xFFFF
        || weights < 0 || weights > 0xFFFF || error < 0 || error > 0xFF)
        return;
    Remembered *bucket = bucket_of(memory, key);
    memmove(&bucket[1], &bucket[0], sizeof(Remembered) * (WAYS - 1));
    bucket[0] = (Remembered){key, (unsigned)error << WINS_BITS | (unsigned)(wins + 1),
                             (unsigned short)draws, (unsigned short)weights};
}

/* The odds of a position (solver->odds), asked as question ``key`` (question_key of the
 * three hands and the rest). */
static int odds_asked(const Game *g, unsigned long long key, SolveText hand, SolveText held,
                      SolveText played, SolveText results, int table, int tied, int to_move,
                      SolveOdds *out)
{
    const Remembered *known = recall(ODDS_MEMORY, key);
    if (known) {
        *out = (SolveOdds){wins_of(known), known->draws, known->weights};
        return error_of(known);
    }
    SolveOdds found = {0, 0, 0};
    int bad = 0;
    int error = solver->odds(&g->order, hand, held, played, results, table, tied, to_move, &found,
                             &bad);
    *out = found;
    if (found.weights < 1 << 30) /* always: C(60, 3) holdings at most */
        remember(ODDS_MEMORY, key, (int)found.wins, (int)found.draws, (int)found.weights, error);
    return error;
}

static int odds(const Game *g, SolveText hand, SolveText held, SolveText played,
                SolveText results, int table, int tied, int to_move, SolveOdds *out)
{
    const SolveText hands[3] = {hand, held, played};
    unsigned long long key = question_key(&g->order, hands, 3, results, table, tied, to_move);
    return odds_asked(g, key, hand, held, played, results, table, tied, to_move, out);
}

/* The rest of the hand face up, in halves (solver->outcome), remembered as odds are,
 * asked as question ``key`` (outcome_key of the two hands and the rest). */
static int outcome_asked(const Game *g, unsigned long long key, SolveText held, SolveText theirs,
                         SolveText results, int table, int tied, int to_move, int *value)
{
    const Remembered *known = recall(OUTCOME_MEMORY, key);
    if (known) {
        *value = wins_of(known);
        return error_of(known);
    }
    int bad = 0;
    *value = -1;
    int error = solver->outcome(&g->order, held, theirs, results, table, tied, to_move, value, &bad);
    remember(OUTCOME_MEMORY, key, *value, 0, 0, error);
    return error;
}

static int outcome(const Game *g, SolveText held, SolveText theirs, SolveText results, int table,
                   int tied, int to_move, int *value)
{
    unsigned long long key = outcome_key(&g->order, packed(&g->order, held),
                                         packed(&g->order, theirs), results, table, tied, to_move);
    return outcome_asked(g, key, held, theirs, results, table, tied, to_move, value);
}

/* Starts fetching the bucket of question ``key`` of ``memory``, to be asked soon (0: none). */
static void foresee(Memory memory, unsigned long long key)
{
    if (key) __builtin_prefetch(bucket_of(memory, key));
}

/* The position at a raise, from the raiser's side: the ranks the raiser and the others
 * played this deal, the finished tricks, the first card on the table (0 for none), and
 * whether the raiser dealt. */
typedef struct {
    SolveText mine, theirs, results;
    int table, dealer;
} AtRaise;

/* What three tied tricks are worth to a player, in halves (strength._tied): the player
 * as side 0, the dealer's side 0 when the player dealt. */
static int tied_worth(const Game *g, int dealer)
{
    int winner = all_tied_winner(g->tied_non_dealer, dealer ? 0 : 1);
    return winner < 0 ? 1 : winner == 0 ? 2 : 0;
}

/* ``hand`` less the ranks ``gone`` into ``out`` (answer.left_of): 0 if it did not hold
 * them or is not three ranks. */
static int left_of(SolveText hand, SolveText gone, unsigned char out[3], SolveText *left)
{
    if (hand.n != 3) return 0;
    int n = 3;
    memcpy(out, hand.s, 3);
    for (size_t i = 0; i < gone.n; i++) {
        int j = 0;
        while (j < n && out[j] != gone.s[i]) j++;
        if (j == n) return 0;
        memmove(out + j, out + j + 1, (size_t)(n - j - 1));
        n--;
    }
    left->s = out;
    left->n = (size_t)n;
    return 1;
}

/* The strength of a raise by a player dealt ``hand`` (strength.strength_of): 1 and the
 * strength, or 0 for an impossible position (None). */
static int raise_strength(const Game *g, SolveText hand, const AtRaise *at, double *strength)
{
    unsigned char cards[3];
    SolveText held;
    SolveOdds found;
    if (!left_of(hand, at->mine, cards, &held)
        || odds(g, hand, held, at->theirs, at->results, at->table, tied_worth(g, at->dealer), 1,
                &found))
        return 0;
    *strength = ((double)found.wins + 0.5 * (double)found.draws) / (double)found.weights;
    return 1;
}

/* Stakes past this many points go to the Python reviewer: accepting's worth in points
 * times holdings stays exact in a double. */
#define LARGEST_STAKE (1LL << 40)

enum { REVIEW_COLUMNS = 5 };

/* What the review of a decision adds to its judgements, as C values (made without the
 * GIL, see scan): ``best``, the ranks (high to low) or the answers that lose nothing in
 * hindsight, and ``stake``, the points that separate winning the hand from losing it
 * (grade.py). ``known``: JUDGED_NOTHING (no stake either: the review's NULL), JUDGED_STAKE
 * (the stake, the best not known: None), JUDGED_BEST (both). */
enum { JUDGED_NOTHING, JUDGED_STAKE, JUDGED_BEST };
typedef struct {
    int known;
    int answers; /* the best answers (an index of ANSWERS_BEST), or -1: the best ranks */
    char ranks[3];
    int n_ranks;
    long long stake;
} Judged;

static PyObject *ANSWERS_BEST[3]; /* ("accept",), ("fold",), ("accept", "fold") */
static const char *const ANSWERS_TEXT[3] = {"accept", "fold", "accept,fold"};

/* The best of a judgement as text, its words joined by commas (JUDGED_BEST only); its
 * length. ``out`` holds 16 bytes. */
static Py_ssize_t best_text(const Judged *judged, char out[16])
{
    if (judged->answers >= 0) {
        size_t n = strlen(ANSWERS_TEXT[judged->answers]);
        memcpy(out, ANSWERS_TEXT[judged->answers], n);
        return (Py_ssize_t)n;
    }
    Py_ssize_t n = 0;
    for (int i = 0; i < judged->n_ranks; i++) {
        if (i) out[n++] = ',';
        out[n++] = judged->ranks[i];
    }
    return n;
}

/* The best of a judgement as the review's lists hold it (a new reference, with the GIL):
 * a tuple of the answers or of the ranks (1-letter str), None when not known. */
static PyObject *best_object(const Judged *judged)
{
    if (judged->known != JUDGED_BEST) return Py_NewRef(Py_None);
    if (judged->answers >= 0) return Py_NewRef(ANSWERS_BEST[judged->answers]);
    PyObject *tuple = PyTuple_New(judged->n_ranks);
    for (Py_ssize_t i = 0; tuple && i < judged->n_ranks; i++) {
        PyObject *rank = PyUnicode_FromStringAndSize(&judged->ranks[i], 1);
        if (!rank) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, rank);
    }
    return tuple;
}

/* The review of an answer to a raise made at ``at`` (answer.judge, then the columns of
 * tables.answer_columns): ``scores`` the raiser's and the answerer's, ``hand`` and
 * ``raiser_hand`` each side's dealt ranks (n 0: not known). Sets the cells ``out`` of
 * the five columns (``given`` 0 for what is not known: None) and ``judged``; 0: stakes
 * past LARGEST_STAKE. No Python object is made (see scan). */
static int answer_review(const Game *g, int accepted, const long long scores[2], long long to,
                         long long previous, int reste, const AtRaise *at, SolveText hand,
                         SolveText raiser_hand, Cell out[REVIEW_COLUMNS],
                         unsigned char given[REVIEW_COLUMNS], Judged *judged)
{
    long long raised = points_won(g, scores[0], to, reste);
    long long gain = points_won(g, scores[1], to, reste);
    long long conceded = points_won(g, scores[0], previous, reste && g->refused_game);
    for (int i = 0; i < REVIEW_COLUMNS; i++) given[i] = 0;
    judged->known = JUDGED_NOTHING;
    judged->answers = -1;
    judged->n_ranks = 0;
    judged->stake = gain + raised;
    if (raised > LARGEST_STAKE || gain > LARGEST_STAKE || conceded > LARGEST_STAKE) return 0;
    judged->known = JUDGED_STAKE;
    /* the answerer's side: its plays, the raiser's, the tricks turned round */
    unsigned char cards[3], raiser_cards[3], turned[3];
    SolveText held, raiser_held, results = {turned, at->results.n};
    for (size_t i = 0; i < at->results.n && i < 3; i++) {
        unsigned char r = at->results.s[i];
        turned[i] = r == 'W' ? 'L' : r == 'L' ? 'W' : r;
    }
    int table = at->table && at->theirs.n ? at->theirs.s[at->theirs.n - 1] : 0;
    int tied = tied_worth(g, !at->dealer);
    SolveOdds found;
    if (at->results.n > 3 || !left_of(hand, at->theirs, cards, &held)
        || odds(g, hand, held, at->mine, results, table, tied, 0, &found))
        return 1;
    int value = -1;
    if (raiser_hand.n && left_of(raiser_hand, at->mine, raiser_cards, &raiser_held)
        && outcome(g, held, raiser_held, results, table, tied, 0, &value))
        value = -1;
    /* answer.AnswerReview */
    long long losses = found.weights - found.wins - found.draws;
    long long accept = found.wins * gain - losses * raised, fold = -conceded * found.weights;
    out[0].f = (double)accept / (double)found.weights;
    out[1].f = (double)-conceded;
    out[2].i = accepted ? accept >= fold : fold >= accept;
    given[0] = given[1] = given[2] = 1;
    if (value >= 0) {
        long long result = value == 1 ? 0 : value == 2 ? gain : -raised, folded = -conceded;
        long long chosen = accepted ? result : folded, other = accepted ? folded : result;
        out[3].i = chosen >= other;
        out[4].i = other > chosen ? other - chosen : 0;
        given[3] = given[4] = 1;
        judged->answers = result == folded ? 2 : result > folded ? 0 : 1;
        judged->known = JUDGED_BEST;
    }
    return 1;
}

/* --- the facts statistics count (truclog/stats/tables.py reads them) ---------------- */

enum { E_REDEAL, E_RAISE, E_ACCEPT, E_FOLD, E_PLAY, EVENT_KINDS };

/* A new event of the hand on, or NULL when it has too many (the game goes to Python). */
static Event *new_event(Game *g, int kind, int seat)
{
    if (g->nevents == MAX_EVENTS || (kind != E_PLAY && g->nevents - g->nplays >= MAX_NOTED))
        return NULL;
    Event *e = &g->event[g->nevents++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->seat = seat;
    e->line = g->line;
    return e;
}

/* A raise, with the position at it: the ranks the raiser and the others played this
 * deal, the finished tricks from the raiser's side, the first card on the table. */
static int note_raise(Game *g, int seat)
{
    Event *e = new_event(g, E_RAISE, seat);
    if (!e) return 0;
    e->to = g->pend_to;
    e->flag = g->pend_reste;
    e->previous = g->pend_previous;
    e->place = g->ntrick;
    for (int i = 0; i < g->nplays; i++) {
        unsigned char rank = (unsigned char)RANKS[(int)g->play_rank[i]];
        if (g->play_seat[i] == seat) e->mine[e->n_mine++] = rank;
        else e->theirs[e->n_theirs++] = rank;
    }
    for (int i = 0; i < g->nresults; i++)
        e->results[i] = g->results[i] < 0 ? 'T' : g->results[i] == team_of(seat) ? 'W' : 'L';
    e->n_results = g->nresults;
    if (g->ntrick) e->table = (unsigned char)RANKS[(int)g->trick_card[0].rank];
    return 1;
}

/* An accept or a fold (before it is applied): whether a raise was pending, and the
 * answerer's place in the trick (its leader: the first card's, else the raiser). */
static int note_answer(Game *g, int seat, int accept)
{
    Event *e = new_event(g, accept ? E_ACCEPT : E_FOLD, seat);
    if (!e) return 0;
    e->flag = g->pending;
    e->place = -1;
    if (g->pending) {
        int leader = g->ntrick ? g->trick_seat[0] : g->raiser;
        e->place = ((seat - leader) % g->n + g->n) % g->n;
    }
    return 1;
}

static int note_redeal(Game *g, int seat)
{
    Event *e = new_event(g, E_REDEAL, seat);
    if (e) e->flag = g->phase == REDEAL;
    return e != NULL;
}

/* A play (after it is applied): its rank, the hand's value and whether an accepted reste
 * rides on it, and the cards on the table before it (``place``). */
static int note_play(Game *g, int seat, long long value, int reste, int place)
{
    Event *e = new_event(g, E_PLAY, seat);
    if (!e) return 0;
    e->to = value;
    e->flag = reste;
    e->place = place;
    e->card = (unsigned char)RANKS[(int)g->play_rank[g->nplays - 1]];
    return 1;
}

static int higher(const Game *g, char a, char b)
{
    return g->strength[rank_of(a)] > g->strength[rank_of(b)];
}

/* --- the review of plays ------------------------------------------------------------ */

/* Stakes past this many points go to the Python reviewer: a play's worth in points
 * times holdings stays exact in a double. */
#define LARGEST_PLAY_STAKE (1LL << 36)
#define PLAY_TOLERANCE 1e-9 /* play.TOLERANCE */

/* A two-player hand's plays so far, for the review of the next (see play_review): the
 * ranks each seat played, the finished tricks from seat 0's side, the card on the
 * table (0 for none). */
typedef struct {
    unsigned char played[2][6];
    int n_played[2];
    unsigned char results[6];
    int n_results;
    int table;
} PlaysSoFar;

/* A play of ``card`` by ``seat`` joins the hand's plays; a card that follows ends the
 * trick, decided as trick.trick_winner decides it (the higher rank, else tied). */
static void add_play(const Game *g, PlaysSoFar *so_far, int seat, unsigned char card)
{
    if (so_far->n_played[seat] < 6) so_far->played[seat][so_far->n_played[seat]++] = card;
    if (!so_far->table) {
        so_far->table = card;
        return;
    }
    int won = higher(g, (char)card, (char)so_far->table), lost = higher(g, (char)so_far->table, (char)card);
    unsigned char result = !won && !lost ? 'T' : (won == (seat == 0)) ? 'W' : 'L';
    if (so_far->n_results < 6) so_far->results[so_far->n_results++] = result;
    so_far->table = 0;
}

/* The position just after the player plays ``card`` (strength.after_play): the trick
 * results (``results`` from the player's side, ``n`` of them, one more when the card
 * ends a trick), the card on the table, whether the player is on turn again. */
static void after_play(const Game *g, unsigned char card, unsigned char *results, size_t *n,
                       int *table, int *to_move)
{
    if (!*table) {
        *table = card;
        *to_move = 0;
        return;
    }
    int won = higher(g, (char)card, (char)*table), lost = higher(g, (char)*table, (char)card);
    results[(*n)++] = won ? 'W' : lost ? 'L' : 'T';
    *table = 0;
    *to_move = won;
}

/* The ranks of ``held`` whose ``worth`` is ``best``, from high to low, as the best of
 * ``judged``. */
static void best_ranks(const Game *g, const unsigned char *held, const long long *worth, int n,
                       long long best, Judged *judged)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (worth[i] != best) continue;
        int j = found++;
        for (; j > 0 && higher(g, (char)held[i], judged->ranks[j - 1]); j--)
            judged->ranks[j] = judged->ranks[j - 1];
        judged->ranks[j] = (char)held[i];
    }
    judged->n_ranks = found;
    judged->answers = -1;
    judged->known = JUDGED_BEST;
}

/* The questions of the review of a play (see play_questions): the position after each
 * distinct rank the player could play first (``rests``, ``afters``, ``tables``,
 * ``moves``) and its questions to the solver's memory, the player's odds and, when the
 * other hand is known (``known``), the face-up outcome; ``ready`` 0: the review knows
 * nothing of the play (no question). The held ranks are kept here, not pointed to. */
typedef struct {
    int ready, known, tied, ranks;
    unsigned char other_cards[3];
    size_t n_other;
    unsigned char distinct[3], rests[3][3], afters[3][7];
    size_t n_rest[3], n_after[3];
    int tables[3], moves[3];
    unsigned long long odds_key[3], outcome_key[3];
} PlayQuestions;

/* The questions of a play by ``seat`` after ``so_far`` by a player dealt ``hand``
 * against ``other_hand`` (n 0: not known; see play_review), their buckets in the
 * solver's memory fetched: they depend on the ranks alone, not on the stakes nor on the
 * rank played, so that a play's answers are remembered whole (see play_key). */
static void play_questions(const Game *g, const PlaysSoFar *so_far, int seat, SolveText hand,
                           SolveText other_hand, PlayQuestions *q)
{
    SolveText mine = {so_far->played[seat], (size_t)so_far->n_played[seat]};
    SolveText theirs = {so_far->played[1 - seat], (size_t)so_far->n_played[1 - seat]};
    unsigned char cards[3];
    SolveText held, other_held = {NULL, 0};
    q->ready = 0;
    if (so_far->n_results > 3 || !left_of(hand, mine, cards, &held) || !held.n) return;
    q->ready = 1;
    q->known = other_hand.n && left_of(other_hand, theirs, q->other_cards, &other_held);
    q->n_other = other_held.n;
    q->tied = tied_worth(g, seat == g->dealer);
    q->ranks = 0;
    long long hand_code = packed(&g->order, hand), theirs_code = packed(&g->order, theirs);
    long long other_code = q->known ? packed(&g->order, other_held) : -1;
    /* the places of the ranks of both hands held and of the card on the table, which
     * every position after a rank played keeps in their order (see placed_key) */
    int table_power = so_far->table && so_far->table < 128 ? g->order.power[so_far->table] : 0;
    unsigned char place[16];
    /* the powers held, sorted as pack sorts them, each rank's rest packed from them */
    int powers[3], fits = held.n <= 3;
    for (size_t i = 0; fits && i < held.n; i++) {
        int power = held.s[i] < 128 ? g->order.power[held.s[i]] : 0;
        fits = power && power <= 15;
        size_t j = i;
        for (; j > 0 && powers[j - 1] > power; j--) powers[j] = powers[j - 1];
        powers[j] = power;
    }
    const long long face_up[2] = {q->known && fits ? code_of(powers, (int)held.n, -1) : -1,
                                  other_code};
    int placed = face_up[0] >= 0 && face_up[1] >= 0 && table_power <= 15
                 && (!so_far->table || table_power);
    if (placed) places_of(face_up, 2, table_power, place);
    for (size_t i = 0; i < held.n; i++) { /* each distinct rank's position, its buckets fetched */
        unsigned char rank = held.s[i];
        size_t seen = 0;
        while (seen < i && held.s[seen] != rank) seen++;
        if (seen < i) continue; /* each distinct rank once */
        int at = q->ranks;
        size_t n = (size_t)so_far->n_results, m = 0;
        unsigned char *results = q->afters[at], *rest = q->rests[at];
        for (size_t j = 0; j < n; j++) {
            unsigned char r = so_far->results[j];
            results[j] = seat == 0 ? r : r == 'W' ? 'L' : r == 'L' ? 'W' : r;
        }
        q->tables[at] = so_far->table;
        after_play(g, rank, results, &n, &q->tables[at], &q->moves[at]);
        for (size_t j = 0, dropped = 0; j < held.n; j++) {
            if (held.s[j] == rank && !dropped) dropped = 1;
            else rest[m++] = held.s[j];
        }
        q->n_rest[at] = m;
        q->n_after[at] = n;
        SolveText left = {rest, m}, after = {results, n};
        long long left_code = !fits ? packed(&g->order, left)
                                    : code_of(powers, (int)held.n, g->order.power[rank]);
        const long long asked[3] = {hand_code, left_code, theirs_code};
        q->odds_key[at] = packed_key(&g->order, asked, 3, after, q->tables[at], q->tied,
                                     q->moves[at]);
        int power = q->tables[at] && q->tables[at] < 128 ? g->order.power[q->tables[at]] : 0;
        q->outcome_key[at] = !q->known ? 0
                             : placed  ? placed_key(place, left_code, other_code, after, power,
                                                    q->tied, q->moves[at])
                                       : outcome_key(&g->order, left_code, other_code, after,
                                                     q->tables[at], q->tied, q->moves[at]);
        foresee(ODDS_MEMORY, q->odds_key[at]);
        foresee(OUTCOME_MEMORY, q->outcome_key[at]);
        q->distinct[q->ranks++] = rank;
    }
}

/* What the solver answers a play's questions (see play_questions): the odds (wins,
 * draws, weights) after each distinct rank the player could play first (``rank``) and,
 * when ``known``, the face-up outcome in halves; ``ranks`` 0: the review marks nothing
 * (no position, or a question the solver refuses). */
typedef struct {
    int ranks, known;
    unsigned char rank[3];
    long long wins[3], draws[3], weights[3];
    int halves[3];
} PlayAnswers;

/* The answers to the questions ``q`` of the play by ``seat`` after ``so_far`` of a player
 * dealt ``hand``, asked of the solver's memory (play.play_marks asks them in this order:
 * an outcome the solver refuses leaves the other outcomes unasked). */
static void play_answers(const Game *g, const PlaysSoFar *so_far, int seat, SolveText hand,
                         const PlayQuestions *q, PlayAnswers *a)
{
    a->ranks = a->known = 0;
    if (!q->ready) return;
    SolveText theirs = {so_far->played[1 - seat], (size_t)so_far->n_played[1 - seat]};
    SolveText other_held = {q->other_cards, q->n_other};
    int known = q->known;
    for (int r = 0; r < q->ranks; r++) {
        SolveText left = {q->rests[r], q->n_rest[r]}, after = {q->afters[r], q->n_after[r]};
        SolveOdds found;
        if (odds_asked(g, q->odds_key[r], hand, left, theirs, after, q->tables[r], q->tied,
                       q->moves[r], &found))
            return;
        a->wins[r] = found.wins;
        a->draws[r] = found.draws;
        a->weights[r] = found.weights;
        a->halves[r] = -1;
        if (known
            && outcome_asked(g, q->outcome_key[r], left, other_held, after, q->tables[r], q->tied,
                             q->moves[r], &a->halves[r]))
            known = 0;
        a->rank[r] = q->distinct[r];
    }
    a->known = known;
    a->ranks = q->ranks;
}

/* Sound, right and lost of the play of ``card`` by ``seat`` at the hand's ``value`` (an
 * accepted reste riding on it or not), given the solver's ``answers`` to its questions:
 * play.play_marks, with the solver of the strength of raises, and what ``judged`` adds
 * (play.PlayReview's best, asked for the review of decisions alone, and stake). With
 * ``answers`` NULL, the play's questions are worked out here, after ``so_far``, by a
 * player dealt ``hand`` against ``other_hand`` (n 0: not known), and asked.
 * Sets the cells ``out`` (``given`` 0 for what is not known: None) and ``judged``; 0:
 * stakes past LARGEST_PLAY_STAKE (the game goes to Python). No Python object is made
 * (see scan). */
static int play_review(const Game *g, const PlaysSoFar *so_far, int seat, unsigned char card,
                       long long value, int reste, SolveText hand, SolveText other_hand,
                       Cell out[3], unsigned char given[3], Judged *judged,
                       const PlayAnswers *answers)
{
    long long gain = points_won(g, g->start_score[team_of(seat)], value, reste);
    long long loss = points_won(g, g->start_score[team_of(1 - seat)], value, reste);
    for (int i = 0; i < 3; i++) given[i] = 0;
    judged->known = JUDGED_NOTHING;
    judged->answers = -1;
    judged->n_ranks = 0;
    judged->stake = gain + loss;
    if (gain > LARGEST_PLAY_STAKE || loss > LARGEST_PLAY_STAKE) return 0;
    judged->known = JUDGED_STAKE;
    PlayAnswers own;
    const PlayAnswers *a = answers;
    if (!a) {
        PlayQuestions q;
        play_questions(g, so_far, seat, hand, other_hand, &q);
        play_answers(g, so_far, seat, hand, &q, &own);
        a = &own;
    }
    int ranks = a->ranks, chosen = -1;
    double average[3], best_average = 0;
    long long worth[3], best_worth = 0;
    for (int r = 0; r < ranks; r++) {
        long long losses = a->weights[r] - a->wins[r] - a->draws[r];
        average[r] = (double)(a->wins[r] * gain - losses * loss) / (double)a->weights[r];
        int halves = a->halves[r];
        worth[r] = halves == 2 ? gain : halves == 1 ? 0 : -loss;
        if (!r || average[r] > best_average) best_average = average[r];
        if (!r || worth[r] > best_worth) best_worth = worth[r];
        if (a->rank[r] == card) chosen = r;
    }
    if (chosen < 0) return 1;
    out[0].i = average[chosen] >= best_average - PLAY_TOLERANCE;
    given[0] = 1;
    if (a->known) {
        out[1].i = worth[chosen] == best_worth;
        out[2].i = best_worth - worth[chosen];
        given[1] = given[2] = 1;
        if (g->review || g->wide) /* statistics count no best ranks: none made for them */
            best_ranks(g, a->rank, worth, ranks, best_worth, judged);
    }
    return 1;
}


/* A two-player hand's plays so far as play_key holds them: each play's power (4 bits,
 * the oldest highest) and, in ``seats``, its seat (a bit each, the oldest highest). */
typedef struct {
    unsigned powers, seats;
    int count; /* past 5, or a rank past power 15: no key */
} PlayHistory;

/* A play of ``card`` by ``seat`` joins ``history``. */
static void add_history(const Game *g, PlayHistory *history, int seat, unsigned char card)
{
    int power = card < 128 ? g->order.power[card] : 0;
    if (power <= 0 || power > 15) history->count = 6; /* no key from here on */
    if (history->count >= 6) return;
    history->powers = history->powers << 4 | (unsigned)power;
    history->seats = history->seats << 1 | (unsigned)seat;
    history->count++;
}

/* The powers of three dealt ranks in 4 bits each, 0 when not three or a rank does not
 * fit (a hand not known, for the other side). */
static unsigned powers_of(const Game *g, SolveText hand)
{
    if (hand.n != 3) return 0;
    unsigned code = 0;
    for (int i = 0; i < 3; i++) {
        int power = hand.s[i] < 128 ? g->order.power[hand.s[i]] : 0;
        if (power <= 0 || power > 15) return 0;
        code = code << 4 | (unsigned)power;
    }
    return code;
}

/* What the review of a play by ``seat`` depends on but the stake, as one number, or 0
 * when it does not fit: the number of ranks in the order, what three tied tricks are
 * worth to the player, the powers of the player's dealt ranks ``hand`` and of the other
 * side's ``other`` (see powers_of; as finish_hand sorts them, so that a deal is one
 * key), and the hand's plays before it (``history``), each by power and by the player or
 * the other side: they make the player's ranks held, the other side's played, the trick
 * results and the card on the table, all that play_questions asks of (powers stand for
 * ranks, as in question_key). 4 + 2 + 12 + 12 + 3 + 20 + 5 bits. */
static unsigned long long play_key(const Game *g, int seat, unsigned hand, unsigned other,
                                   const PlayHistory *history)
{
    int count = history->count;
    if (!hand || count > 5 || g->order.n > 15) return 0;
    unsigned others = (seat ? ~history->seats : history->seats) & ((1u << count) - 1);
    unsigned long long key = (unsigned long long)g->order.n << 2;
    key |= (unsigned)tied_worth(g, seat == g->dealer);
    key = (key << 12 | hand) << 12 | other;
    key = key << 3 | (unsigned)count;
    key = key << 20 | history->powers;
    return key << 5 | others;
}

static PlayKnown *plays_bucket(unsigned long long key)
{
    return &plays_known[(size_t)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (PLAYS_KNOWN - PLAY_WAYS)];
}

/* The answers remembered of a play's ``key`` (moved first in its bucket) into ``a``,
 * each rank from the player's dealt ``hand``: 1, or 0 when not remembered. */
static int play_recall(unsigned long long key, SolveText hand, PlayAnswers *a)
{
    PlayKnown *bucket = plays_bucket(key);
    int i = 0;
    while (i < PLAY_WAYS && bucket[i].key != key) i++;
    if (i == PLAY_WAYS) return 0;
    PlayKnown known = bucket[i];
    if (i) {
        memmove(&bucket[1], &bucket[0], sizeof(PlayKnown) * (size_t)i);
        bucket[0] = known;
    }
    a->ranks = known.ranks;
    a->known = known.known;
    for (int r = 0; r < known.ranks; r++) {
        a->rank[r] = hand.s[(known.at >> 2 * r) & 3];
        a->wins[r] = known.wins[r];
        a->draws[r] = known.draws[r];
        a->weights[r] = known.weights[r];
        a->halves[r] = (int)((known.halves >> 2 * r) & 3) - 1;
    }
    return 1;
}

/* Remember the answers ``a`` of a play's ``key``, first in its bucket, each rank by its
 * place in the player's dealt ``hand`` (unless they do not fit). */
static void play_remember(unsigned long long key, SolveText hand, const PlayAnswers *a)
{
    PlayKnown known = {key, {0}, {0}, {0}, (unsigned char)a->ranks, (unsigned char)a->known, 0, 0};
    if (!key || a->ranks < 0 || a->ranks > 3) return;
    for (int r = 0; r < a->ranks; r++) {
        int at = 0;
        while (at < 3 && (size_t)at < hand.n && hand.s[at] != a->rank[r]) at++;
        if (at == 3 || (size_t)at >= hand.n || a->weights[r] > 0xFFFF || a->wins[r] < 0
            || a->draws[r] < 0 || a->wins[r] > 0xFFFF || a->draws[r] > 0xFFFF
            || a->halves[r] < -1 || a->halves[r] > 2)
            return;
        known.wins[r] = (unsigned short)a->wins[r];
        known.draws[r] = (unsigned short)a->draws[r];
        known.weights[r] = (unsigned short)a->weights[r];
        known.at |= (unsigned char)(at << 2 * r);
        known.halves |= (unsigned char)((a->halves[r] + 1) << 2 * r);
    }
    PlayKnown *bucket = plays_bucket(key);
    memmove(&bucket[1], &bucket[0], sizeof(PlayKnown) * (PLAY_WAYS - 1));
    bucket[0] = known;
}

/* The facts of a game, as columns (see scan_doc): its hands, and its actions statistics
 * count with the strength of its raises and the review of its answers; for the review
 * of decisions, REVIEW_EXTRA more: each action's line, and a decision's best and stake
 * (see Judged). */
enum { HAND_COLUMNS = 14, ACTION_COLUMNS = 18, REVIEW_EXTRA = 3 };
enum { A_HAND, A_SEAT, A_TYPE, A_RESTE, A_ACCEPTED, A_PENDING, A_STRENGTH, A_ANSWER, A_REVIEW,
       A_TO = A_REVIEW + REVIEW_COLUMNS, A_POSITION, A_LOST, A_CARD, A_VALUE, A_LINE, A_BEST,
       A_STAKE, ALL_COLUMNS };
enum { F_HANDS, F_ACTIONS };

/* An export's rows, beyond the facts, in its Facts (see note_line, finish_hand,
 * hand_actions): a row per action line (its hand, line, step in the hand, type, seat,
 * card, to, reste, accepted, trick, place in the trick, value and raise pending before
 * it, the raiser, its row of the actions statistics count, its time: LINE_SPEC), a row
 * per hand (HAND_MORE_SPEC) and a row per action statistics count (ACTION_MORE_SPEC). */
enum { L_HAND, L_LINE, L_SEQ, L_TYPE, L_SEAT, L_CARD, L_TO, L_RESTE, L_ACCEPTED, L_TRICK,
       L_POSITION, L_VALUE, L_PENDING, L_RAISER, L_EVENT, L_T };
_Static_assert((int)L_HAND == (int)LINE_ROW && (int)L_EVENT == (int)LINE_REVIEW
                   && (int)L_T == (int)LINE_T && (int)L_T + 1 == (int)LINE_SPEC_N,
               "the line columns of LINE_SPEC");
_Static_assert(T_DEAL == 2 && T_SHOW == 8, "the line types of LINE_NAMES");

static PyObject *columns(int n)
{
    PyObject *lists = PyTuple_New(n);
    for (int i = 0; lists && i < n; i++) {
        PyObject *list = PyList_New(0);
        if (!list) Py_CLEAR(lists);
        else PyTuple_SET_ITEM(lists, i, list);
    }
    return lists;
}

static PyObject *new_facts(int review)
{
    PyObject *hands = columns(HAND_COLUMNS);
    PyObject *actions = columns(ACTION_COLUMNS + (review ? REVIEW_EXTRA : 0));
    if (!hands || !actions) {
        Py_XDECREF(hands);
        Py_XDECREF(actions);
        return NULL;
    }
    return Py_BuildValue("(NN)", hands, actions);
}

/* Append a new reference to a column (a list), which takes it. */
static int put_in(PyObject *column, PyObject *value)
{
    if (!value) return 0;
    int ok = PyList_Append(column, value) == 0;
    Py_DECREF(value);
    return ok;
}

static PyObject *column(const Game *g, int part, int i)
{
    return PyTuple_GET_ITEM(PyTuple_GET_ITEM(g->facts, part), i);
}

/* The game's facts go to a Facts (rows of C values) rather than to lists. */
static Facts *rows_of(const Game *g)
{
    return Py_IS_TYPE(g->facts, &FactsType) ? (Facts *)g->facts : NULL;
}

/* The hands, or the actions, of the game so far. */
static Py_ssize_t facts_so_far(const Game *g, int part)
{
    Facts *rows = rows_of(g);
    if (rows) return part == F_HANDS ? rows->hands.rows : rows->actions.rows;
    return PyList_GET_SIZE(column(g, part, 0));
}

/* An action's row as C values (the ACTION_SPEC columns): each cell, and whether it is
 * given (0: None). */
typedef struct {
    Cell cell[ACTION_COLUMNS];
    unsigned char given[ACTION_COLUMNS];
} ActionCells;

/* A cell of a number, a flag or a word. */
static Cell cell_i(long long value) { return (Cell){.i = value}; }

static void cell_is(ActionCells *a, int col, Cell value)
{
    a->cell[col] = value;
    a->given[col] = 1;
}

/* A review's cell, if ``given`` (else the cell stays null), as the cell of ``col``. */
static void cell_given(ActionCells *a, int col, Cell value, int given)
{
    if (given) cell_is(a, col, value);
}

/* The Python value of a cell of ``kind`` (a new reference; None if not given). */
static PyObject *cell_object(int kind, Cell cell, int given)
{
    if (!given) return Py_NewRef(Py_None);
    switch (kind) {
    case K_FLOAT: return PyFloat_FromDouble(cell.f);
    case K_BOOL: return PyBool_FromLong((long)cell.i);
    case K_TYPE: return Py_NewRef(TYPES[cell.i]);
    case K_POSITION: return Py_NewRef(POSITIONS[cell.i]);
    case K_RANKS:
        return PyUnicode_FromStringAndSize((const char *)&cell.i,
                                           (Py_ssize_t)((unsigned long long)cell.i >> 56));
    default: return PyLong_FromLongLong(cell.i);
    }
}

/* A row of the review's rows of decisions (DECIDED_SPEC): an action's line, and what
 * ``judged`` says (its best joined by commas). 0 with an error set. */
static int decided_row(Rows *decided, Py_ssize_t line, const Judged *judged)
{
    Py_ssize_t row = new_row(decided);
    if (row < 0) return 0;
    set_cell(decided, row, DECIDED_LINE, (Cell){.i = line});
    if (judged->known == JUDGED_NOTHING) return 1;
    set_cell(decided, row, DECIDED_STAKE, (Cell){.i = judged->stake});
    if (judged->known != JUDGED_BEST) return 1;
    char text[16];
    return set_text(decided, row, DECIDED_BEST, text, best_text(judged, text));
}

/* A row of the game's actions: its cells, and for the review of decisions the line and
 * what ``judged`` says. 0 with an error set. */
static int put_action(Game *g, const ActionCells *a, Py_ssize_t line, const Judged *judged)
{
    Facts *rows = rows_of(g);
    if (rows) { /* new_row and set_cell of each cell given, in one pass */
        Rows *r = &rows->actions;
        if (!reserve(r, 1)) return 0;
        Py_ssize_t row = r->rows++;
        int col = 0;
        if (r->ncols >= ACTION_COLUMNS) /* a fixed count: the loop unrolled, no bound tested */
            for (; col < ACTION_COLUMNS; col++) {
                r->cells[col][row] = a->cell[col];
                r->given[col][row] = a->given[col];
            }
        for (; col < r->ncols && col < ACTION_COLUMNS; col++) { /* a cell not given is 0 */
            r->cells[col][row] = a->cell[col];
            r->given[col][row] = a->given[col];
        }
        for (; col < r->ncols; col++) {
            r->cells[col][row].i = 0;
            r->given[col][row] = 0;
        }
        return !g->review || decided_row(&rows->decided, line, judged);
    }
    int ok = 1;
    for (int col = 0; ok && col < ACTION_COLUMNS; col++)
        ok = put_in(column(g, F_ACTIONS, col),
                    cell_object(ACTION_SPEC[col].kind, a->cell[col], a->given[col]));
    if (ok && g->review) {
        int stake = judged->known != JUDGED_NOTHING;
        ok = put_in(column(g, F_ACTIONS, A_LINE), PyLong_FromSsize_t(line))
             && put_in(column(g, F_ACTIONS, A_BEST), best_object(judged))
             && put_in(column(g, F_ACTIONS, A_STAKE),
                       stake ? PyLong_FromLongLong(judged->stake) : Py_NewRef(Py_None));
    }
    return ok;
}

/* The answer (an event kind) to the raise of action row ``row``. */
static int answered(Game *g, Py_ssize_t row, int kind)
{
    Facts *rows = rows_of(g);
    if (rows) {
        set_cell(&rows->actions, row, A_ANSWER, (Cell){.i = kind});
        return 1;
    }
    return PyList_SetItem(column(g, F_ACTIONS, A_ANSWER), row, Py_NewRef(TYPES[kind])) == 0;
}

static PyObject *COMMA; /* what joins the review's best decisions (see review_lists) */

/* A str (ASCII) as the solver's text. */
static SolveText text_of(PyObject *o)
{
    SolveText text = {PyUnicode_1BYTE_DATA(o), (size_t)PyUnicode_GET_LENGTH(o)};
    return text;
}

/* The position at a raise event (see note_raise). */
static AtRaise at_raise_of(const Event *e, int dealer)
{
    AtRaise at = {{e->mine, (size_t)e->n_mine}, {e->theirs, (size_t)e->n_theirs},
                  {e->results, (size_t)e->n_results}, e->table, dealer};
    return at;
}

/* An export's row of more of an action (see ACTION_MORE_SPEC): its best decisions
 * joined by commas, the points at stake. 0 with an error set. */
static int action_more(Game *g, const Judged *judged)
{
    Rows *more = &rows_of(g)->actions_more;
    Py_ssize_t row = new_row(more);
    if (row < 0) return 0;
    if (judged->known != JUDGED_NOTHING) set_cell(more, row, 1, (Cell){.i = judged->stake});
    if (judged->known != JUDGED_BEST) return 1;
    char text[16];
    return set_text(more, row, ACTION_MORE_BEST, text, best_text(judged, text));
}

/* The plays of a hand whose keys (see play_key) hand_actions works out before reviewing
 * the first: a two-player hand has six at most. */
enum { PLAYS_ASKED = 6 };

/* The action rows of the hand on (its events), once its cards are known, with the
 * strength of its raises, the review of their answers and of its plays in a two-player
 * game: the rows tables.py's _facts_of makes of the same events. 0 with no error set:
 * the game is for the Python validator (see answer_review, play_review). */
static int hand_actions(Game *g, long hand, const SolveText cards[4])
{
    Py_ssize_t raised_row = -1;
    int raiser = 0, two = g->n == 2;
    long long raised_to = 0, raised_previous = 0;
    int raised_reste = 0, ok = 1;
    AtRaise at;
    PlaysSoFar so_far;
    memset(&at, 0, sizeof at);
    memset(&so_far, 0, sizeof so_far);
    /* every play's key first, their buckets fetched together: the misses overlap */
    unsigned long long keys[PLAYS_ASKED];
    int n_keys = 0, plays = 0;
    if (two) {
        const unsigned hands[2] = {powers_of(g, cards[0]), powers_of(g, cards[1])};
        PlayHistory history = {0, 0, 0};
        for (int e = 0; e < g->nevents && n_keys < PLAYS_ASKED; e++) {
            const Event *event = &g->event[e];
            if (event->kind != E_PLAY) continue;
            int seat = event->seat;
            keys[n_keys] = play_key(g, seat, hands[seat], hands[1 - seat], &history);
            if (keys[n_keys]) { /* both lines of its bucket */
                __builtin_prefetch(plays_bucket(keys[n_keys]));
                __builtin_prefetch(plays_bucket(keys[n_keys]) + 2);
            }
            n_keys++;
            add_history(g, &history, seat, event->card);
        }
    }
    for (int e = 0; ok && e < g->nevents; e++) {
        const Event *event = &g->event[e];
        int kind = event->kind, seat = event->seat;
        Py_ssize_t row = facts_so_far(g, F_ACTIONS);
        ActionCells value;
        Judged judged = {JUDGED_NOTHING, -1, {0, 0, 0}, 0, 0};
        memset(&value, 0, sizeof value); /* every cell 0 but those given (see put_action) */
        cell_is(&value, A_HAND, cell_i(hand));
        cell_is(&value, A_SEAT, cell_i(seat));
        cell_is(&value, A_TYPE, cell_i(kind));
        if (kind == E_RAISE) {
            raised_to = event->to;
            raised_reste = event->flag;
            raised_previous = event->previous;
            raised_row = row;
            raiser = seat;
            at = at_raise_of(event, seat == g->dealer);
            cell_is(&value, A_RESTE, cell_i(raised_reste != 0));
            cell_is(&value, A_TO, cell_i(raised_to));
            cell_is(&value, A_POSITION, cell_i(event->place));
            double strength;
            if (two && cards[seat].n && raise_strength(g, cards[seat], &at, &strength))
                cell_is(&value, A_STRENGTH, (Cell){.f = strength});
        } else if (kind == E_REDEAL) {
            cell_is(&value, A_ACCEPTED, cell_i(event->flag != 0));
        } else if (kind == E_PLAY) {
            cell_is(&value, A_RESTE, cell_i(event->flag != 0));
            cell_is(&value, A_POSITION, cell_i(event->place));
            cell_is(&value, A_CARD, ranks_cell((const char *)&event->card, 1));
            cell_is(&value, A_VALUE, cell_i(event->to));
            Cell marks[3];
            unsigned char given[3];
            if (two) {
                unsigned long long key = plays < n_keys ? keys[plays] : 0;
                PlayAnswers answers;
                if (!key || !play_recall(key, cards[seat], &answers)) {
                    PlayQuestions q;
                    play_questions(g, &so_far, seat, cards[seat], cards[1 - seat], &q);
                    play_answers(g, &so_far, seat, cards[seat], &q, &answers);
                    play_remember(key, cards[seat], &answers);
                }
                ok = play_review(g, &so_far, seat, event->card, event->to, event->flag,
                                 cards[seat], cards[1 - seat], marks, given, &judged, &answers);
                plays++;
                if (ok) {
                    cell_given(&value, A_REVIEW + 2, marks[0], given[0]);
                    cell_given(&value, A_REVIEW + 3, marks[1], given[1]);
                    cell_given(&value, A_LOST, marks[2], given[2]);
                }
                add_play(g, &so_far, seat, event->card);
            }
        } else if (event->flag && raised_row >= 0) {
            int place = event->place, side = raiser % 2;
            ok = answered(g, raised_row, kind);
            cell_is(&value, A_PENDING, cell_i(raised_to));
            cell_is(&value, A_POSITION, cell_i(place));
            Cell review[REVIEW_COLUMNS];
            unsigned char given[REVIEW_COLUMNS];
            long long scores[2] = {g->start_score[side], g->start_score[1 - side]};
            if (ok && two) {
                ok = answer_review(g, kind == E_ACCEPT, scores, raised_to, raised_previous,
                                   raised_reste, &at, cards[1 - raiser], cards[raiser], review,
                                   given, &judged);
                for (int i = 0; ok && i < REVIEW_COLUMNS; i++)
                    cell_given(&value, A_REVIEW + i, review[i], given[i]);
            }
        }
        if (ok) ok = put_action(g, &value, event->line, &judged);
        if (ok && g->wide) ok = action_more(g, &judged);
    }
    return ok && (rows_of(g) || !PyErr_Occurred()); /* rows: no GIL asked (see scan) */
}

/* The hand on, as statistics see it once it is over: a row of the hand columns (its
 * number, dealer, the score before it, how it ended, its tricks, each of four seats'
 * dealt ranks from high to low: None unless all three are known, and past the
 * table's seats), and the rows of its actions. */
static int finish_hand(Game *g)
{
    char texts[4][3];
    const char *dealt_ranks[4] = {NULL, NULL, NULL, NULL};
    SolveText cards[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    int ok = 1;
    for (int s = 0; s < g->n; s++) {
        const Holding *h = &g->hold[s];
        Card dealt[3];
        char text[3];
        int known = 1;
        holding_cards(h, h->revealed, h->slot_of, h->count, dealt);
        for (int i = 0; i < 3; i++) {
            known = known && dealt[i].rank >= 0;
            text[i] = known ? RANKS[(int)dealt[i].rank] : 0;
            for (int j = i; known && j > 0 && higher(g, text[j], text[j - 1]); j--) {
                char above = text[j - 1];
                text[j - 1] = text[j];
                text[j] = above;
            }
        }
        if (known) {
            memcpy(texts[s], text, 3);
            dealt_ranks[s] = texts[s];
            cards[s] = (SolveText){(const unsigned char *)texts[s], 3};
        }
    }
    long hand = (long)facts_so_far(g, F_HANDS);
    long long values[10] = {g->hand_no, g->dealer, g->start_score[0], g->start_score[1],
                            g->decided ? g->out_winner : -1, g->decided ? g->out_points : 0,
                            g->decided ? g->ending : UNFINISHED, g->decided && g->out_reste,
                            g->nresults, g->nresults ? g->results[0] : -2};
    if (rows_of(g)) ok = ok && hand_row(&rows_of(g)->hands, values, dealt_ranks);
    for (int i = 0; ok && !rows_of(g) && i < 10; i++)
        ok = put_in(column(g, F_HANDS, i), PyLong_FromLongLong(values[i]));
    for (int s = 0; ok && !rows_of(g) && s < 4; s++)
        ok = put_in(column(g, F_HANDS, 10 + s),
                    dealt_ranks[s] ? PyUnicode_FromStringAndSize(dealt_ranks[s], 3)
                                   : Py_NewRef(Py_None));
    if (g->wide) {
        Rows *more = &rows_of(g)->hands_more;
        Py_ssize_t row = ok ? new_row(more) : -1;
        ok = row >= 0;
        long long told[HAND_MORE_SPEC_N] = {g->value, g->redeal_said, g->redeal_granted,
                                            g->raised};
        for (int i = 0; ok && i < HAND_MORE_SPEC_N; i++) set_cell(more, row, i, (Cell){.i = told[i]});
    }
    ok = ok && hand_actions(g, hand, cards);
    g->hand_on = 0;
    return ok;
}

/* A new hand is dealt: the one before it is over. */
static int next_hand(Game *g)
{
    if (g->hand_on && !finish_hand(g)) return 0;
    g->start_score[0] = g->score[0];
    g->start_score[1] = g->score[1];
    g->nevents = 0;
    g->hand_on = 1;
    return 1;
}

/* The hand on just before a line, as an export's row of it tells it. */
typedef struct {
    int phase, pending, raiser;
    long long value, pend_to, hands;
    int nresults, nevents;
} Moment;

/* An export's row of a clean line (see LINE_SPEC), made only of action lines; every
 * line of a hand counts in its steps (its ``seq``). 0 with an error set on failure. */
static int note_line(Game *g, const Parser *P, int root, int type, const Moment *before,
                     const char *t, Py_ssize_t tn)
{
    if (g->hands > before->hands) { /* a new hand: its deal is its first step */
        g->seq = 0;
        g->raised = g->redeal_said = g->redeal_granted = 0;
    }
    if (!g->hands) return 1;
    long long seq = g->seq++;
    if (type == T_RESULT || type == T_END) return 1;
    int seat = type == T_DEAL ? g->dealer : seat_of(g, member(P, root, KEY_PLAYER));
    int in_play = before->phase == PLAY, event = g->nevents > before->nevents;
    const Event *e = event ? &g->event[g->nevents - 1] : NULL;
    Rows *r = &rows_of(g)->lines;
    Py_ssize_t row = new_row(r);
    if (row < 0) return 0;
    set_cell(r, row, L_HAND, cell_i(facts_so_far(g, F_HANDS)));
    set_cell(r, row, L_LINE, cell_i(g->line));
    set_cell(r, row, L_SEQ, cell_i(seq));
    set_cell(r, row, L_TYPE, cell_i(type));
    set_cell(r, row, L_SEAT, cell_i(seat));
    if (in_play) {
        set_cell(r, row, L_TRICK, cell_i(before->nresults + 1));
        set_cell(r, row, L_VALUE, cell_i(before->value));
    }
    if (before->pending) {
        set_cell(r, row, L_PENDING, cell_i(before->pend_to));
        set_cell(r, row, L_RAISER, cell_i(before->raiser));
    }
    if (e && e->kind != E_REDEAL && e->place >= 0) set_cell(r, row, L_POSITION, cell_i(e->place));
    if (e) set_cell(r, row, L_EVENT, cell_i(facts_so_far(g, F_ACTIONS) + g->nevents - 1));
    if (t && !set_text(r, row, L_T, t, tn)) {
        r->rows--;
        return 0;
    }
    if (type == T_RAISE) {
        g->raised++;
        set_cell(r, row, L_TO, cell_i(g->pend_to));
        set_cell(r, row, L_RESTE, cell_i(g->pend_reste != 0));
    } else if (type == T_REDEAL) {
        int granted = member(P, root, KEY_ACCEPTED)->kind == J_TRUE;
        g->redeal_said = 1;
        g->redeal_granted = granted;
        set_cell(r, row, L_ACCEPTED, cell_i(granted));
    } else if (type == T_PLAY) {
        Card card;
        char text[2];
        read_card(member(P, root, KEY_CARD), 0, &card);
        text[0] = RANKS[(int)card.rank];
        text[1] = card.suit >= 0 ? "cdhs"[(int)card.suit] : 0;
        set_cell(r, row, L_CARD, ranks_cell(text, card.suit >= 0 ? 2 : 1));
        set_cell(r, row, L_RESTE, cell_i(g->reste_accepted != 0));
    }
    return 1;
}

/* A line's action applied, if it is clean: 1, else 0. */
static int act_line(Game *g, Parser *P, int root, int type)
{
    if (type == T_DEAL) return do_deal(g, P, root);
    if (type == T_RESULT) return !g->ended && do_result(g, P, root);
    if (type == T_END) return !g->ended && do_game_end(g, P, root);
    int seat = seat_of(g, member(P, root, KEY_PLAYER));
    if (!is_name(member(P, root, KEY_PLAYER)) || seat < 0) return 0;
    if (type == T_SHOW) return do_show(g, seat, member(P, root, KEY_CARDS), P);
    if (g->ended || !g->hands || g->phase != PLAY) return 0;
    int facts = g->facts != NULL;
    switch (type) {
    case T_REDEAL:
        return do_redeal(g, seat, member(P, root, KEY_ACCEPTED)) && (!facts || note_redeal(g, seat));
    case T_RAISE:
        return do_raise(g, seat, member(P, root, KEY_TO), member(P, root, KEY_RESTE))
            && (!facts || note_raise(g, seat));
    case T_ACCEPT: return (!facts || note_answer(g, seat, 1)) && do_answer(g, seat, 1);
    case T_FOLD: return (!facts || note_answer(g, seat, 0)) && do_answer(g, seat, 0);
    default: {
        long long value = g->value;
        int reste = g->reste_accepted, place = g->ntrick;
        return do_play(g, seat, member(P, root, KEY_CARD))
            && (!facts || note_play(g, seat, value, reste, place));
    }
    }
}

/* One line: 1 if checked and clean, 0 to give up, -1 for the next game's line. */
static int check_line(Game *g, Parser *P, int root, int type, const char **t, Py_ssize_t *tn)
{
    if (type == T_GAME) return -1;
    if (type == T_OTHER) return 0;
    *t = NULL;
    for (int i = P->nodes[root].child; i >= 0; i = P->nodes[i].next) {
        const Node *m = &P->nodes[i];
        if (!known_field(type, m)) return 0;
        if (m->key == KEY_T && m->kind != J_NULL) {
            if (m->kind != J_STR || !timestamp(m->s, m->n)) return 0;
            *t = m->s;
            *tn = m->n;
        }
        if (m->key == KEY_NOTE && !(m->kind == J_NULL || m->kind == J_STR)) return 0;
        if (m->key == KEY_MARKS && !good_marks(P, m)) return 0;
        if (g->wide && (m->key == KEY_NOTE || m->key == KEY_MARKS) && m->kind != J_NULL)
            return 0; /* annotated: written by Python */
    }
    if (!g->wide) return act_line(g, P, root, type);
    Moment before = {g->phase, g->pending, g->raiser, g->value, g->pend_to, g->hands,
                     g->nresults, g->nevents};
    return act_line(g, P, root, type) && note_line(g, P, root, type, &before, *t, *tn);
}

/* --- the Python side ---------------------------------------------------------------- */

enum { DONE, MORE, BAIL };
enum { NO_FACTS, FACTS, REVIEW, ROWS, WIDE, REVIEW_ROWS }; /* what scan gives of a clean game beyond its tally */

static int blank(const char *s, const char *end)
{
    for (; s < end; s++)
        if (!(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f'))
            return 0;
    return 1;
}

/* The rules after the score, in the order read_table reads them; a field's values
 * (after "=") are known by their index. truclog/validate/quick_rules.py (CORE_RULES) builds them
 * so, and never sends a value missing here: that game goes to the Python validator. */
#define RULES                                                                              \
    "order raises=any,double max_value cap_at_target=false,true alternate_raises=false,true " \
    "reste=false,true reste_refused=previous,game all_tied=draw,non_dealer "                 \
    "fold_anytime=false,true redeal=rest,reshuffle,none target"

static int read_table(Game *g, PyObject *table)
{
    PyObject *names, *teams, *order;
    long long dealer, score0, score1, max_value, target;
    int doubles, cap, alternate, reste, refused_game, tied, fold_anytime, redeal, resumed;
    if (!PyArg_ParseTuple(table, "O!O!LLLSpLppppppiLp", &PyTuple_Type, &names, &PyTuple_Type,
                          &teams, &dealer, &score0, &score1, &order, &doubles, &max_value, &cap,
                          &alternate, &reste, &refused_game, &tied, &fold_anytime, &redeal,
                          &target, &resumed))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if ((n != 2 && n != 4) || PyTuple_GET_SIZE(teams) != 2 || dealer < 0 || dealer >= n) {
        PyErr_SetString(PyExc_ValueError, "a table of 2 or 4 players and 2 sides");
        return 0;
    }
    if (redeal < 0 || redeal > 2) {
        PyErr_SetString(PyExc_ValueError, "a redeal rule of 0 (rest), 1 (reshuffle), 2 (none)");
        return 0;
    }
    memset(g, 0, sizeof(Game));
    g->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyBytes_AsStringAndSize(PyTuple_GET_ITEM(names, i), (char **)&g->name[i],
                                    &g->name_len[i]) < 0)
            return 0;
    for (int t = 0; t < 2; t++)
        if (PyBytes_AsStringAndSize(PyTuple_GET_ITEM(teams, t), (char **)&g->team[t],
                                    &g->team_len[t]) < 0)
            return 0;
    const char *ranks = PyBytes_AS_STRING(order);
    Py_ssize_t nranks = PyBytes_GET_SIZE(order);
    for (Py_ssize_t i = 0; i < nranks; i++) {
        int rank = rank_of(ranks[i]);
        if (rank < 0) {
            PyErr_SetString(PyExc_ValueError, "an order of ranks of 6789TJQKA");
            return 0;
        }
        g->strength[rank] = (int)(nranks - i);
        g->order.power[(int)RANKS[rank]] = (signed char)(nranks - i);
    }
    g->order.n = (int)nranks;
    g->doubles = doubles;
    g->max_value = max_value;
    g->cap = cap;
    g->alternate = alternate;
    g->reste = reste;
    g->refused_game = refused_game;
    g->tied_non_dealer = tied;
    g->fold_anytime = fold_anytime;
    g->redeal = redeal;
    g->target = target;
    g->resumed = resumed;
    g->score[0] = score0;
    g->score[1] = score1;
    g->dealer = (int)dealer;
    g->phase = (score0 >= target || score1 >= target) ? GAME_OVER : DEAL;
    g->result_given = 1;
    clear_hand(g);
    return 1;
}

/* The game line ``head`` as compared (and "\n" + its time): the start of the game's
 * compared lines. 0 when it cannot be read or written so (a float, a long number). */
static int head_compared(Buffer *b, Parser *P, PyObject *head)
{
    const char *start = PyBytes_AS_STRING(head);
    int root = parse_line(P, start, start + PyBytes_GET_SIZE(head));
    if (root < 0 || !emit(b, P, root, 1)) return 0;
    const Node *t = member(P, root, KEY_T);
    return !t || t->kind != J_STR || (put(b, "\n", 1) && put(b, t->s, t->n));
}

/* Append "\n" + the line as compared (and "\n" + its time) for the game's fingerprint. */
static int fingerprint(Buffer *b, const Parser *P, int root, int type, const char *t,
                       Py_ssize_t tn)
{
    if (type == T_RESULT || type == T_END) return 1;
    if (!put(b, "\n", 1) || !emit(b, P, root, 1)) return 0;
    return !t || (put(b, "\n", 1) && put(b, t, tn));
}

/* The fingerprint of a game whose lines as compared start with ``start`` (bytes, or
 * None) and go on with ``compared``: the BLAKE2b of 16 bytes of them (what
 * hashlib.blake2b(lines, digest_size=16) makes of the same bytes), in hex. */
static PyObject *fingerprint_of(PyObject *start, const Buffer *compared)
{
    static const char digits[] = "0123456789abcdef";
    blake2b_state state;
    uint8_t digest[16];
    blake2b_init(&state, sizeof digest);
    if (start != Py_None)
        blake2b_update(&state, PyBytes_AS_STRING(start), (size_t)PyBytes_GET_SIZE(start));
    if (compared->len) blake2b_update(&state, compared->data, (size_t)compared->len);
    blake2b_final(&state, digest, sizeof digest);
    PyObject *hex = PyUnicode_New(2 * sizeof digest, 127);
    if (!hex) return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(hex);
    for (size_t i = 0; i < sizeof digest; i++) {
        out[2 * i] = (Py_UCS1)digits[digest[i] >> 4];
        out[2 * i + 1] = (Py_UCS1)digits[digest[i] & 15];
    }
    return hex;
}

PyDoc_STRVAR(scan_doc,
"scan(data, pos, line, eof, table, longest, facts=0, head=None, start=None) -> (status,\n"
"    pos, line, last_line, hands, hand_no, phase, score0, score1, ended, fingerprint[,\n"
"    (hands, actions, day)], winner)\n\n"
"Check the lines of one game from byte ``pos`` of ``data`` (line number ``line``), up\n"
"to the next game line or the end of the data. ``status`` is 0 when the game is clean\n"
"(``pos`` and ``line`` then point at the line after it), 1 when more data is needed\n"
"(``eof`` false and no game line reached), 2 when the game must be checked line by line\n"
"(as it must when a line is longer than ``longest`` bytes, without its newline).\n"
"``winner``, last, is the side (0 or 1) that won the game, -1 while nobody has.\n"
"With ``facts`` (1), a clean game also gives the facts statistics count, as columns: the\n"
"hands' (14 lists, see finish_hand), the rows of their raises, answers, redeals and plays\n"
"(18 lists, see hand_actions: the raises' strengths and the answers' reviews in them), and\n"
"the date of its first timed line (or None); with ``facts`` 2, the rows of the actions\n"
"have 3 lists more for the review of decisions: each one's line, best and stake. With\n"
"``facts`` 4 (WIDE), for an export, the facts of 1 and the rows of its action lines,\n"
"more of its hands and more of its actions (the best decisions joined by commas, the\n"
"points at stake), see _columns.h; a game with a note or marks on a line is then for\n"
"Python. With ``facts`` ROWS (3) or WIDE, the rows come as one Facts (rows of C\n"
"values, see _columns.h) in the place of ``hands``, and ``actions`` is None; with\n"
"``facts`` 5 (REVIEW_ROWS), those of 3 and, in the Facts' rows of decisions, the 3 more\n"
"of 2 (see decisions and review_lists).\n"
"``fingerprint`` (of a clean game; None otherwise) is the game's, in hex: the BLAKE2b of\n"
"16 bytes (hashlib.blake2b(..., digest_size=16)) of its lines as duplicates compare\n"
"them, each with its time, joined by newlines (truclog.format.copies.fingerprint).\n"
"``head``, the game line (bytes, without its line end), is compared by the core, its\n"
"time after it; a game line the core cannot write so (a float, a long number) gives the\n"
"game up. Without ``head``, ``start`` (bytes) is the game line as compared (and its\n"
"time), which the fingerprint hashes before the rest.");

/* The room of a game (its state, a parser and its compared lines, up to SPARE_COMPARED
 * bytes) kept from one scan for the next: a log's games each need the same. */
static Game *spare_game;
static Parser *spare_parser;
static Buffer spare_compared;
#define SPARE_COMPARED (1 << 16)

static PyObject *scan(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer data;
    Py_ssize_t pos, line, longest = PY_SSIZE_T_MAX;
    int eof, want_facts = 0;
    PyObject *table, *head = Py_None, *start = Py_None;
    if (!PyArg_ParseTuple(args, "y*nnpO!|niOO", &data, &pos, &line, &eof, &PyTuple_Type, &table,
                          &longest, &want_facts, &head, &start))
        return NULL;
    if ((head != Py_None && !PyBytes_Check(head)) || (start != Py_None && !PyBytes_Check(start))) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_TypeError, "head, start: the game line as bytes, or None");
        return NULL;
    }
    Game *g = spare_game ? spare_game : PyMem_Malloc(sizeof(Game));
    Parser *P = spare_parser ? spare_parser : PyMem_Malloc(sizeof(Parser));
    Buffer compared = spare_compared;
    spare_game = NULL, spare_parser = NULL, spare_compared = (Buffer){NULL, 0, 0};
    compared.len = 0;
    PyObject *result = NULL;
    if (g) g->facts = NULL; /* read_table clears the rest */
    if (!g || !P) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_table(g, table)) goto done;
    int unsolved = want_facts && !solver_ready(); /* every game to the Python validator */
    if (unsolved) PyErr_Clear();
    g->review = want_facts == REVIEW || want_facts == REVIEW_ROWS;
    g->wide = want_facts == WIDE;
    int as_rows = want_facts == ROWS || g->wide || want_facts == REVIEW_ROWS;
    if (want_facts && !unsolved
        && !(g->facts = as_rows ? (PyObject *)new_facts_rows() : new_facts(g->review)))
        goto done;
    g->wide = g->wide && g->facts;
    const char *buf = data.buf, *end = buf + data.len;
    Py_ssize_t last_line = line - 1;
    int status = unsolved ? BAIL : eof ? DONE : MORE;
    if (head != Py_None && !unsolved && !head_compared(&compared, P, head)) status = BAIL;
    if (pos < 0 || pos > data.len) pos = data.len;
    /* The lines are checked without the GIL, other threads running meanwhile (an
     * export's, see truclog/stats/export.py), unless the facts are Python lists: no
     * Python object is made nor error set on the way (a MemoryError of the rows is set
     * with the GIL taken for it, see no_memory), and the solver's memory is held. */
    int unheld = !g->facts || rows_of(g);
    PyThreadState *saved = unheld ? PyEval_SaveThread() : NULL;
    if (g->facts && unheld) PyThread_acquire_lock(core_lock, WAIT_LOCK);
    else if (g->facts) core_hold();
    while (!unsolved && status != BAIL && pos < data.len) {
        const char *start = buf + pos, *nl = memchr(start, '\n', (size_t)(end - start));
        if ((nl ? nl : end) - start > longest) { /* read, and reported, by the reader */
            status = BAIL;
            break;
        }
        if (!nl && !eof) {
            status = MORE;
            break;
        }
        const char *stop = nl ? nl : end, *next = nl ? nl + 1 : end;
        if (nl && stop > start && stop[-1] == '\r') stop--;
        if (blank(start, stop)) {
            pos = next - buf;
            line++;
            continue;
        }
        const char *t = NULL;
        Py_ssize_t tn = 0;
        g->line = line;
        int root = parse_line(P, start, stop);
        int type = root < 0 ? T_OTHER : line_type(member(P, root, KEY_TYPE));
        int verdict = root < 0 ? 0 : check_line(g, P, root, type, &t, &tn);
        if (verdict < 0) {
            status = DONE;
            break;
        }
        if (!verdict || !fingerprint(&compared, P, root, type, t, tn)) {
            status = BAIL;
            break;
        }
        if (t && g->hands && !g->dated) {
            memcpy(g->first_day, t, sizeof g->first_day);
            g->dated = 1;
        }
        last_line = line;
        pos = next - buf;
        line++;
    }
    if (status == DONE && g->facts && g->hand_on && !finish_hand(g)) status = BAIL;
    if (g->facts) core_let_go();
    if (saved) PyEval_RestoreThread(saved);
    if (PyErr_Occurred()) goto done;
    /* hashed once the game is read to its end: a longer game is scanned again */
    PyObject *print = status == DONE ? fingerprint_of(start, &compared) : Py_NewRef(Py_None);
    if (!print) goto done;
    if (g->facts)
        result = Py_BuildValue("(innniLiLLiN(OOz#))", status, pos, line, last_line, g->hands,
                               g->hand_no, g->phase, g->score[0], g->score[1], g->ended, print,
                               rows_of(g) ? g->facts : PyTuple_GET_ITEM(g->facts, F_HANDS),
                               rows_of(g) ? Py_None : PyTuple_GET_ITEM(g->facts, F_ACTIONS),
                               g->dated ? g->first_day : NULL, (Py_ssize_t)sizeof g->first_day);
    else
        result = Py_BuildValue("(innniLiLLiN)", status, pos, line, last_line, g->hands,
                               g->hand_no, g->phase, g->score[0], g->score[1], g->ended, print);
    if (result) { /* the winner, last */
        PyObject *won = Py_BuildValue("(i)", winner_team(g));
        Py_SETREF(result, won ? PySequence_Concat(result, won) : NULL);
        Py_XDECREF(won);
    }
done:
    if (g) Py_XDECREF(g->facts);
    PyBuffer_Release(&data);
    if (!spare_compared.data && compared.cap <= SPARE_COMPARED) spare_compared = compared;
    else PyMem_RawFree(compared.data);
    if (!spare_parser) spare_parser = P;
    else PyMem_Free(P);
    if (!spare_game) spare_game = g;
    else PyMem_Free(g);
    return result;
}

/* --- a long game's export rows, a few hands at a time ------------------------------- */

/* A game that scan cleared, told again for an export a block of hands at a time: each
 * block's rows (those of scan's WIDE) in a Facts of their own, so that a game of any
 * length is exported in the memory of a block. hand_blocks() makes it, once it has told
 * the whole game so, keeping nothing, to know that every block can be told. */
typedef struct {
    PyObject_HEAD
    Py_buffer data;
    PyObject *table;
    Game *game;
    Parser *parser;
    Py_ssize_t start, start_line, end; /* the game's lines: bytes start to end of data */
    Py_ssize_t pos, line;              /* where the next block starts */
    long long per_block, hands;
    char first_day[10];
    int dated, told; /* told: hand_blocks has told every block */
} HandBlocks;

static PyTypeObject HandBlocksType;

/* Back to the game's first line, its state as its game line sets it. 0 with an error set. */
static int blocks_restart(HandBlocks *self)
{
    Game *g = self->game;
    Py_CLEAR(g->facts);
    if (!read_table(g, self->table)) return 0;
    g->wide = 1;
    self->pos = self->start;
    self->line = self->start_line;
    return 1;
}

/* Tell the lines of the next block into a new Facts at g->facts: up to the deal of a
 * hand past ``per_block`` of them, or the game's end. 1 when every line was told, 0
 * (no error set) when one was not (the game is for Python), -1 with an error set. */
static int tell_block(HandBlocks *self)
{
    Game *g = self->game;
    Parser *P = self->parser;
    const char *buf = self->data.buf, *end = buf + self->end;
    if (!(g->facts = (PyObject *)new_facts_rows())) return -1;
    while (self->pos < self->end) {
        const char *start = buf + self->pos, *nl = memchr(start, '\n', (size_t)(end - start));
        const char *stop = nl ? nl : end, *next = nl ? nl + 1 : end;
        if (nl && stop > start && stop[-1] == '\r') stop--;
        if (!blank(start, stop)) {
            const char *t = NULL;
            Py_ssize_t tn = 0;
            g->line = self->line;
            int root = parse_line(P, start, stop);
            int type = root < 0 ? T_OTHER : line_type(member(P, root, KEY_TYPE));
            int new_hand = type == T_DEAL && g->phase != REDEAL && g->hand_on;
            if (new_hand && facts_so_far(g, F_HANDS) + 1 >= self->per_block) break;
            if (root < 0 || check_line(g, P, root, type, &t, &tn) <= 0)
                return PyErr_Occurred() ? -1 : 0;
            if (t && g->hands && !g->dated) {
                memcpy(g->first_day, t, sizeof g->first_day);
                g->dated = 1;
            }
        }
        self->pos = next - buf;
        self->line++;
    }
    if (g->hand_on && !finish_hand(g)) return PyErr_Occurred() ? -1 : 0;
    return 1;
}

static PyObject *blocks_iter(HandBlocks *self)
{
    return blocks_restart(self) ? Py_NewRef(self) : NULL;
}

static PyObject *blocks_next(HandBlocks *self)
{
    if (!self->told) {
        PyErr_SetString(PyExc_ValueError, "the game's blocks were not all told");
        return NULL;
    }
    if (self->pos >= self->end) return NULL; /* StopIteration */
    core_hold();
    int told = tell_block(self);
    core_let_go();
    if (told < 0) return NULL;
    if (!told) { /* told before, so never */
        PyErr_SetString(PyExc_RuntimeError, "a block of the game could not be told again");
        return NULL;
    }
    PyObject *block = self->game->facts;
    self->game->facts = NULL;
    return block;
}

static void blocks_dealloc(HandBlocks *self)
{
    if (self->game) Py_XDECREF(self->game->facts);
    PyMem_Free(self->game);
    PyMem_Free(self->parser);
    if (self->data.obj) PyBuffer_Release(&self->data);
    Py_XDECREF(self->table);
    PyObject_Free(self);
}

static PyMemberDef blocks_members[] = {
    {"hands", T_LONGLONG, offsetof(HandBlocks, hands), READONLY, "The game's hands."},
    {"per_block", T_LONGLONG, offsetof(HandBlocks, per_block), READONLY,
     "The most hands a block has."},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *blocks_first_day(HandBlocks *self, void *Py_UNUSED(closure))
{
    if (!self->dated) Py_RETURN_NONE;
    return PyUnicode_FromStringAndSize(self->first_day, sizeof self->first_day);
}

static PyGetSetDef blocks_getset[] = {
    {"first_day", (getter)blocks_first_day, NULL,
     "The date of the game's first timed line of a hand, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HandBlocksType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "truclog.validate._quick.HandBlocks",
    .tp_basicsize = sizeof(HandBlocks),
    .tp_dealloc = (destructor)blocks_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A cleared game's export rows, a Facts per block of hands (see hand_blocks).",
    .tp_iter = (getiterfunc)blocks_iter,
    .tp_iternext = (iternextfunc)blocks_next,
    .tp_members = blocks_members,
    .tp_getset = blocks_getset,
};

PyDoc_STRVAR(hand_blocks_doc,
"hand_blocks(data, pos, line, end, table, per_block) -> HandBlocks | None\n\n"
"The game whose lines are bytes ``pos`` to ``end`` of ``data`` (its first line numbered\n"
"``line``), which scan cleared on ``table``, told for an export a block of at most\n"
"``per_block`` hands at a time: iterating the HandBlocks gives a Facts of each block's\n"
"rows (those of scan's ``facts`` 4, its hands numbered from the block's first), from the\n"
"game's first block each time. ``hands`` is the game's count of hands and\n"
"``first_day`` the date of its first timed line of a hand. The game is told once first,\n"
"keeping nothing: None when a block cannot be told (its facts are for Python, as scan\n"
"would give the game up).");

static PyObject *hand_blocks(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer data;
    Py_ssize_t pos, line, end;
    long long per_block;
    PyObject *table;
    if (!PyArg_ParseTuple(args, "y*nnnO!L", &data, &pos, &line, &end, &PyTuple_Type, &table,
                          &per_block))
        return NULL;
    if (pos < 0 || end < pos || end > data.len || per_block < 1) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "a game's bytes within the data, and a block of hands");
        return NULL;
    }
    HandBlocks *self = PyObject_New(HandBlocks, &HandBlocksType);
    if (!self) {
        PyBuffer_Release(&data);
        return NULL;
    }
    self->data = data;
    self->table = Py_NewRef(table);
    self->game = PyMem_Malloc(sizeof(Game));
    self->parser = PyMem_Malloc(sizeof(Parser));
    self->start = pos, self->start_line = line, self->end = end;
    self->per_block = per_block;
    self->hands = 0;
    self->dated = self->told = 0;
    if (self->game) self->game->facts = NULL;
    if (!self->game || !self->parser) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (!solver_ready()) { /* the game to Python, as scan gives it */
        PyErr_Clear();
        Py_DECREF(self);
        Py_RETURN_NONE;
    }
    int told = blocks_restart(self);
    core_hold();
    while (told > 0 && self->pos < self->end) {
        told = tell_block(self);
        self->hands += facts_so_far(self->game, F_HANDS);
        Py_CLEAR(self->game->facts);
    }
    core_let_go();
    if (told <= 0) {
        Py_DECREF(self);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    self->dated = self->game->dated;
    memcpy(self->first_day, self->game->first_day, sizeof self->first_day);
    self->told = 1;
#ifdef __GLIBC__
    /* the blocks' rows, told once and let go, given back to the system: they were made
     * in this thread's arena, which the export's thread that takes the blocks never uses
     * (see truclog/stats/export.py), so they held 6 MB more at its peak */
    malloc_trim(0);
#endif
    if (!blocks_restart(self)) Py_CLEAR(self);
    return (PyObject *)self;
}

/* --- the questions of facts, one by one (tests/test_solve.py) ----------------------- */

/* A str of ASCII ranks (or None when ``none`` is allowed) as the solver's text. */
static int ascii_arg(PyObject *o, int none, SolveText *text)
{
    if (none && o == Py_None) {
        text->s = NULL;
        text->n = 0;
        return 1;
    }
    if (!PyUnicode_Check(o) || !PyUnicode_IS_ASCII(o)) {
        PyErr_SetString(PyExc_ValueError, "ranks are a str of ASCII letters and digits");
        return 0;
    }
    *text = text_of(o);
    return 1;
}

/* The game of a table (see scan) and a position at a raise (as note_raise tells it). */
static int question(Game *g, PyObject *table, PyObject *raised, AtRaise *at)
{
    PyObject *mine, *theirs, *results, *first;
    int dealer;
    if (!solver_ready() || !read_table(g, table)
        || !PyArg_ParseTuple(raised, "OOOOp", &mine, &theirs, &results, &first, &dealer))
        return 0;
    SolveText on_table;
    if (!ascii_arg(mine, 0, &at->mine) || !ascii_arg(theirs, 0, &at->theirs)
        || !ascii_arg(results, 0, &at->results) || !ascii_arg(first, 1, &on_table))
        return 0;
    if (first != Py_None && on_table.n != 1) {
        PyErr_SetString(PyExc_ValueError, "the card on the table is one rank");
        return 0;
    }
    at->table = on_table.n ? on_table.s[0] : 0;
    at->dealer = dealer;
    return 1;
}

PyDoc_STRVAR(strength_doc,
"strength(table, hand, (mine, theirs, results, on_table, dealer)) -> float or None:\n"
"the strength the facts give a raise by a player dealt ``hand`` at that position\n"
"(see note_raise), in a game on ``table`` (see scan); None for an impossible one.");

static PyObject *strength(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *table, *hand, *raised;
    if (!PyArg_ParseTuple(args, "O!OO!", &PyTuple_Type, &table, &hand, &PyTuple_Type, &raised))
        return NULL;
    Game *g = PyMem_Calloc(1, sizeof(Game));
    PyObject *result = NULL;
    AtRaise at;
    SolveText dealt;
    double found;
    if (!g) return PyErr_NoMemory();
    if (question(g, table, raised, &at) && ascii_arg(hand, 0, &dealt)) {
        core_hold();
        int known = raise_strength(g, dealt, &at, &found);
        core_let_go();
        result = known ? PyFloat_FromDouble(found) : Py_NewRef(Py_None);
    }
    PyMem_Free(g);
    return result;
}

PyDoc_STRVAR(review_doc,
"review(table, accepted, (raiser_score, answerer_score, to, previous, reste),\n"
"       (mine, theirs, results, on_table, dealer), (hand, raiser_hand), judged=False)\n"
"-> the five review columns the facts give an answer to a raise at that position (see\n"
"strength), each side's dealt ranks or None; with ``judged``, the answers best and the\n"
"stake too (see Judged). ValueError for stakes the core leaves to Python.");

static PyObject *review(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *table, *raised, *hand, *raiser_hand;
    long long scores[2], to, previous;
    int accepted, reste, want_judged = 0;
    if (!PyArg_ParseTuple(args, "O!p(LLLLp)O!(OO)|p", &PyTuple_Type, &table, &accepted, &scores[0],
                          &scores[1], &to, &previous, &reste, &PyTuple_Type, &raised, &hand,
                          &raiser_hand, &want_judged))
        return NULL;
    Game *g = PyMem_Calloc(1, sizeof(Game));
    PyObject *result = NULL, *out[REVIEW_COLUMNS];
    Cell cells[REVIEW_COLUMNS];
    unsigned char given[REVIEW_COLUMNS];
    AtRaise at;
    SolveText mine, theirs;
    if (!g) return PyErr_NoMemory();
    if (question(g, table, raised, &at) && ascii_arg(hand, 1, &mine)
        && ascii_arg(raiser_hand, 1, &theirs)) {
        Judged judged;
        core_hold();
        int reviewed = answer_review(g, accepted, scores, to, previous, reste, &at, mine, theirs,
                                     cells, given, &judged);
        core_let_go();
        if (!reviewed)
            PyErr_SetString(PyExc_ValueError, "stakes past the core's: the game goes to Python");
        else {
            for (int i = 0; i < REVIEW_COLUMNS; i++)
                out[i] = cell_object(ACTION_SPEC[A_REVIEW + i].kind, cells[i], given[i]);
            if (want_judged)
                result = Py_BuildValue("(NNNNNNL)", out[0], out[1], out[2], out[3], out[4],
                                       best_object(&judged), judged.stake);
            else
                result = Py_BuildValue("(NNNNN)", out[0], out[1], out[2], out[3], out[4]);
        }
    }
    PyMem_Free(g);
    return result;
}

PyDoc_STRVAR(play_doc,
"play(table, plays, seat, card, (value, reste), (hand, other_hand), judged=False) ->\n"
"(sound, right, lost[, best, stake]): the review the facts give ``seat``'s play of the\n"
"rank ``card`` in a two-player game on ``table`` (see scan: its dealer and the score\n"
"before the hand), after the hand's ``plays`` ((seat, rank) pairs, in order), at the\n"
"hand's ``value`` (an accepted reste riding on it or not); each side's dealt ranks or\n"
"None, the player's first; with ``judged``, the best ranks and the stake too (see\n"
"Judged). ValueError for stakes the core leaves to Python.");

static PyObject *play(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *table, *plays, *card, *hand, *other_hand;
    long long value;
    int seat, reste, want_judged = 0;
    if (!PyArg_ParseTuple(args, "O!O!iO(Lp)(OO)|p", &PyTuple_Type, &table, &PyTuple_Type, &plays,
                          &seat, &card, &value, &reste, &hand, &other_hand, &want_judged))
        return NULL;
    Game *g = PyMem_Calloc(1, sizeof(Game));
    PyObject *result = NULL, *out[3];
    Cell cells[3];
    unsigned char given[3];
    const int kinds[3] = {ACTION_SPEC[A_REVIEW + 2].kind, ACTION_SPEC[A_REVIEW + 3].kind,
                          ACTION_SPEC[A_LOST].kind};
    PlaysSoFar so_far;
    SolveText rank, mine, theirs;
    memset(&so_far, 0, sizeof so_far);
    if (!g) return PyErr_NoMemory();
    int ok = solver_ready() && read_table(g, table) && ascii_arg(card, 0, &rank)
             && ascii_arg(hand, 1, &mine) && ascii_arg(other_hand, 1, &theirs);
    if (ok && (g->n != 2 || seat < 0 || seat > 1 || rank.n != 1)) {
        PyErr_SetString(PyExc_ValueError, "a play of one rank by seat 0 or 1 of two players");
        ok = 0;
    }
    for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(plays); i++) {
        int by;
        SolveText played;
        PyObject *rank_played;
        ok = PyArg_ParseTuple(PyTuple_GET_ITEM(plays, i), "iO", &by, &rank_played)
             && ascii_arg(rank_played, 0, &played);
        if (ok && (by < 0 || by > 1 || played.n != 1)) {
            PyErr_SetString(PyExc_ValueError, "a play is a seat (0 or 1) and one rank");
            ok = 0;
        }
        if (ok) add_play(g, &so_far, by, played.s[0]);
    }
    if (ok) {
        g->start_score[0] = g->score[0];
        g->start_score[1] = g->score[1];
        g->review = want_judged;
        Judged judged;
        core_hold();
        int reviewed = play_review(g, &so_far, seat, rank.s[0], value, reste, mine, theirs, cells,
                                   given, &judged, NULL);
        core_let_go();
        if (!reviewed)
            PyErr_SetString(PyExc_ValueError, "stakes past the core's: the game goes to Python");
        else {
            for (int i = 0; i < 3; i++) out[i] = cell_object(kinds[i], cells[i], given[i]);
            if (want_judged)
                result = Py_BuildValue("(NNNNL)", out[0], out[1], out[2], best_object(&judged),
                                       judged.stake);
            else
                result = Py_BuildValue("(NNN)", out[0], out[1], out[2]);
        }
    }
    PyMem_Free(g);
    return result;
}

PyDoc_STRVAR(lines_doc,
"lines(data) -> (count, binary)\n\n"
"The newlines in a block of a log (bytes or a buffer) and whether it holds a NUL byte:\n"
"the lines before a part of a log, counted by the process that reads the part.");

static PyObject *lines(PyObject *Py_UNUSED(self), PyObject *data)
{
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *at = view.buf;
    Py_ssize_t count = 0, i = 0;
    unsigned char nul = 0;
    while (i < view.len) { /* 255 bytes at a time, counted in bytes: the compiler vectorizes */
        Py_ssize_t stop = view.len - i > 255 ? i + 255 : view.len;
        unsigned char newlines = 0;
        for (; i < stop; i++) {
            newlines += at[i] == '\n';
            nul |= at[i] == 0;
        }
        count += newlines;
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(nO)", count, nul ? Py_True : Py_False);
}

PyDoc_STRVAR(give_back_doc,
"give_back() -> None: the memory the C allocator holds free given back to the system\n"
"(malloc_trim, where glibc has it), in every thread's arena: an export's reading thread\n"
"lets go of what it made in its own, which the export's thread never reuses.");

static PyObject *give_back(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args))
{
#ifdef __GLIBC__
    Py_BEGIN_ALLOW_THREADS
    malloc_trim(0);
    Py_END_ALLOW_THREADS
#endif
    Py_RETURN_NONE;
}

#include "_decisions.h"
#include "_wide.h"

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, scan_doc},
    {"hand_blocks", hand_blocks, METH_VARARGS, hand_blocks_doc},
    {"lines", lines, METH_O, lines_doc},
    {"give_back", give_back, METH_NOARGS, give_back_doc},
    {"strength", strength, METH_VARARGS, strength_doc},
    {"review", review, METH_VARARGS, review_doc},
    {"play", play, METH_VARARGS, play_doc},
    {"decisions", decisions, METH_VARARGS, decisions_doc},
    {"review_lists", review_lists, METH_O, review_lists_doc},
    {"wide_actions", wide_actions, METH_VARARGS, wide_actions_doc},
    {"wide_hands", wide_hands, METH_VARARGS, wide_hands_doc},
    {"wide_rows", wide_rows, METH_VARARGS, wide_rows_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "truclog.validate._quick", "The quick core of truclog validate.", -1,
    methods, NULL, NULL, NULL, NULL,
};

#ifndef QUICK_SOURCE
#define QUICK_SOURCE ""
#endif

PyMODINIT_FUNC PyInit__quick(void)
{
    for (int i = 0; i < EVENT_KINDS; i++)
        if (!TYPES[i] && !(TYPES[i] = PyUnicode_InternFromString(KIND_NAMES[i]))) return NULL;
    for (int i = 0; i < 4; i++)
        if (!POSITIONS[i] && !(POSITIONS[i] = PyUnicode_InternFromString(POSITION_NAMES[i])))
            return NULL;
    if (PyType_Ready(&FactsType) < 0 || PyType_Ready(&TableType) < 0
        || PyType_Ready(&HandBlocksType) < 0 || PyType_Ready(&CountsType) < 0)
        return NULL;
    if (!ANSWERS_BEST[0]) {
        ANSWERS_BEST[0] = Py_BuildValue("(s)", "accept");
        ANSWERS_BEST[1] = Py_BuildValue("(s)", "fold");
        ANSWERS_BEST[2] = Py_BuildValue("(ss)", "accept", "fold");
        if (!ANSWERS_BEST[0] || !ANSWERS_BEST[1] || !ANSWERS_BEST[2]) return NULL;
    }
    if (!COMMA && !(COMMA = PyUnicode_InternFromString(","))) return NULL;
    if (!core_lock && !(core_lock = PyThread_allocate_lock())) return PyErr_NoMemory();
    know_plain();
    know_numbers();
    know_ranks();
    know_keys();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE", QUICK_SOURCE) < 0) Py_CLEAR(m);
    if (m && PyModule_AddStringConstant(m, "RULES", RULES) < 0) Py_CLEAR(m);
    if (m && PyModule_AddIntConstant(m, "ROWS", ROWS) < 0) Py_CLEAR(m);
    if (m && PyModule_AddObjectRef(m, "Facts", (PyObject *)&FactsType) < 0) Py_CLEAR(m);
    if (m && PyModule_AddObjectRef(m, "Counts", (PyObject *)&CountsType) < 0) Py_CLEAR(m);
    PyObject *names = m ? count_names() : NULL;
    if (m && (!names || PyModule_AddObjectRef(m, "COUNT_NAMES", names) < 0)) Py_CLEAR(m);
    Py_XDECREF(names);
    return m; /* SOURCE: the SHA-256 of the _quick.c it was built from; RULES: as above */
}
