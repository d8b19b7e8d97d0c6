/*
 * collate.c - Access "General" sort order for text index keys.
 *
 * A Jet text index key is the flag byte, then for each character its
 * "inline" sort codes, then an end byte and the codes that rank accents,
 * case and unprintable characters (which sort after the whole inline
 * part). Characters with the same inline codes compare equal at the
 * first level: case never shows there, accents rarely. The tables of
 * inline codes come from Jackcess's resource files (collate_gen.py says
 * which file is which order); Jet3 uses the "General 97" order, Jet4 and
 * ACE 2007 "General - Legacy", ACE 2010+ "General" (sort order version
 * byte 1). Format: Jackcess GeneralLegacyIndexCodes, General97IndexCodes,
 * GeneralIndexCodes, ColumnImpl.readSortOrder.
 *
 * Whole keys (jet_collate_key): the inline codes, then Jet4/ACE's end
 * byte, extra (accent) codes with 02 placeholders, crazy codes and
 * unprintable codes with their positions, or Jet3's nibble stream of
 * extra codes counted over "significant" characters; checked byte for
 * byte against the fixtures' text index entries (tests/unit/test_index).
 * Sort keys (jet_text_sort_key_co) are the whole key of the case-folded
 * text, then the folded code points, so ORDER BY and every text
 * comparison of the SQL engine follow the index order.
 *
 * Seeking: the inline codes of a search string are a prefix of the key of
 * every string that equals it under the SQL engine's case folding, or
 * starts with it, provided each character's case variants share inline
 * codes. That is checked per sort order once (safe_init) with the
 * engine's fold (jet_text_fold); a character
 * that fails, or is not in the tables, ends the usable prefix.
 */
#include <pthread.h>
#include <string.h>

#include "collate.h"

#define MAX_UNITS 255           /* text index keys hold 255 units */
#define COVER_SPLIT 0x3400      /* covered: [0, 0x3400) and [0xF900, ...] */
#define COVER_HIGH 0xF900
#define NCOVER (COVER_SPLIT + (0x10000 - COVER_HIGH))

/* Position of cp in the tables, or -1 when not covered. */
static int cover_index(uint32_t cp)
{
    if (cp < COVER_SPLIT)
        return (int)cp;
    if (cp >= COVER_HIGH && cp <= 0xFFFF)
        return (int)(COVER_SPLIT + cp - COVER_HIGH);
    return -1;
}

/* Inline codes of cp in table t: length, or -1 when not covered. */
static int inline_codes(const jet_collate_table *t, uint32_t cp,
                        const uint8_t **out)
{
    int i = cover_index(cp);
    if (i < 0)
        return -1;
    *out = t->pool + t->off[i];
    return t->off[i + 1] - t->off[i];
}

static bool same_codes(const jet_collate_table *t, uint32_t a, uint32_t b)
{
    const uint8_t *pa = NULL, *pb = NULL;
    int la = inline_codes(t, a, &pa), lb = inline_codes(t, b, &pb);
    return la >= 0 && la == lb && memcmp(pa, pb, (size_t)la) == 0;
}

/* The SQL engine's case fold (jet_text_fold, core/fold.c). */
#define fold jet_text_fold

/* ------------------------------------------------------- safe chars */

/* unsafe[co] bit cp: some character folding like cp has other codes */
static uint8_t unsafe[3][0x10000 / 8];
static pthread_once_t safe_once[3] = { PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                       PTHREAD_ONCE_INIT };

static void mark(int co, uint32_t cp)
{
    if (cp <= 0xFFFF)
        unsafe[co][cp / 8] |= (uint8_t)(1u << (cp % 8));
}

static void safe_init(int co)
{
    const jet_collate_table *t = &jet_collate_tables[co];
    for (uint32_t x = 0; x <= 0xFFFF; x++) {
        uint32_t f;
        if (x >= 0xD800 && x <= 0xDFFF)
            continue;
        f = fold(x);
        if (f != x && !same_codes(t, x, f)) {
            mark(co, x);
            mark(co, f);
        }
    }
}

static void safe_init0(void) { safe_init(0); }
static void safe_init1(void) { safe_init(1); }
static void safe_init2(void) { safe_init(2); }

static bool is_safe(int co, uint32_t cp)
{
    static void (*const init[3])(void) = { safe_init0, safe_init1,
                                           safe_init2 };
    uint32_t f;
    if (cp > 0xFFFF || cover_index(cp) < 0)
        return false;
    pthread_once(&safe_once[co], init[co]);
    f = fold(cp);
    return !(unsafe[co][cp / 8] & (1u << (cp % 8))) && f <= 0xFFFF &&
           !(unsafe[co][f / 8] & (1u << (f % 8)));
}

/* Append byte b at p when it fits (the key is cut at cap). */
static void put(uint8_t *out, size_t cap, size_t *p, uint8_t b)
{
    if (*p < cap)
        out[*p] = b;
    (*p)++;
}

/* ------------------------------------------------- whole index keys */

/* How one character is encoded (Jackcess's CharHandler): inline codes
 * and the handler record (type letter and bytes; none: simple). */
typedef struct handler {
    const uint8_t *in;
    size_t nin;
    const uint8_t *rec;
    size_t nrec;
    uint8_t buf[3];             /* computed inline codes */
} handler;

static const uint8_t surrogate_rec[] = { 'I', 0x3F };

/* Handler of code unit c in order co; false when c is not covered (the
 * fallback: a simple character FF hi lo). */
static bool handler_of(handler *h, jet_collation co, uint16_t c)
{
    const jet_collate_table *t = &jet_collate_tables[co];
    int i = cover_index(c);
    h->rec = NULL;
    h->nrec = 0;
    if (i >= 0) {
        h->in = t->pool + t->off[i];
        h->nin = (size_t)(t->off[i + 1] - t->off[i]);
        h->rec = t->x_pool + t->x_off[i];
        h->nrec = (size_t)(t->x_off[i + 1] - t->x_off[i]);
        return true;
    }
    h->in = h->buf;
    if (co == JET_COLL_GEN97) {
        h->nin = 0;             /* outside U+0152..U+2122: ignored */
        return true;
    }
    if (c >= 0xD800 && c <= 0xDFFF) {
        /* computed from the code unit (Jackcess SurrogateCharHandler) */
        unsigned idx;
        if (c < 0xDC00) {
            idx = c - 10238u;
        } else {
            unsigned off = (c - 0xDC00u) % 1024;
            idx = c - (off < 8 ? 9992u : off < 262 ? 9990u : off < 516 ?
                       9988u : off < 770 ? 9986u : 9984u);
        }
        h->buf[0] = (uint8_t)(idx >> 8);
        h->buf[1] = (uint8_t)idx;
        h->nin = 2;
        h->rec = surrogate_rec;
        h->nrec = sizeof surrogate_rec;
        return true;
    }
    h->buf[0] = 0xFF;
    h->buf[1] = (uint8_t)(c >> 8);
    h->buf[2] = (uint8_t)c;
    h->nin = 3;
    return false;
}

/* Jet4/ACE: inline codes, END_TEXT, then extra codes, crazy codes and
 * unprintable codes (Jackcess GeneralLegacyIndexCodes). */
static size_t key_legacy(uint8_t *out, size_t cap, size_t p,
                         jet_collation co, const uint16_t *s, size_t n,
                         bool *complete)
{
    uint8_t ext[MAX_UNITS * 5], unp[MAX_UNITS * 8], crz[MAX_UNITS];
    size_t ext_len = 0, ext_chars = 0, ext_upfx = 0, unp_len = 0;
    size_t crz_len = 0, char_off = 0;
    bool have_ext = false, have_unp = false;

    for (size_t i = 0; i < n; i++) {
        handler h;
        size_t cur = char_off;
        const uint8_t *xb = NULL;
        size_t nx = 0;
        uint8_t mod = 0;
        if (!handler_of(&h, co, s[i]))
            *complete = false;
        if (h.nin > 0) {
            for (size_t k = 0; k < h.nin; k++)
                put(out, cap, &p, h.in[k]);
            char_off++;
        }
        if (h.nrec == 0 || h.rec[0] == 'G')
            continue;           /* simple, ignored, significant */
        switch (h.rec[0]) {
        case 'I': xb = h.rec + 1; nx = h.nrec - 1; break;
        case 'Z': xb = h.rec + 2; nx = h.nrec - 2; break;
        case 'P': mod = h.rec[1]; break;
        default: break;
        }
        if (nx > 0 || mod != 0) {
            have_ext = true;
            while (ext_chars < cur) {
                ext[ext_len++] = 0x02;      /* placeholder */
                ext_chars++;
            }
            if (nx > 0) {
                memcpy(ext + ext_len, xb, nx);
                ext_len += nx;
                ext_chars++;
            } else if (ext_len > 0) {
                ext[ext_len - 1] = (uint8_t)(ext[ext_len - 1] + mod);
            } else {
                ext[ext_len++] = mod;
                ext_upfx = 1;
            }
        }
        if (h.rec[0] == 'U') {
            size_t pos = have_ext ? ext_len + cur - ext_chars - ext_upfx
                                  : cur;
            unsigned off = (unsigned)(7 + 4 * pos) | 0x8000u;
            have_unp = true;
            unp[unp_len++] = (uint8_t)(off >> 8);
            unp[unp_len++] = (uint8_t)off;
            unp[unp_len++] = 0x06;
            for (size_t k = 1; k < h.nrec; k++)
                unp[unp_len++] = h.rec[k];
        }
        if (h.rec[0] == 'Z')
            crz[crz_len++] = h.rec[1];
    }
    put(out, cap, &p, 0x01);                    /* END_TEXT */
    while (ext_len > 0 && ext[ext_len - 1] <= 0x02)
        ext_len--;
    if (ext_len == 0 && !have_unp && crz_len == 0)
        return p;
    for (size_t k = 0; k < ext_len; k++)
        put(out, cap, &p, ext[k]);
    if (crz_len > 0 || have_unp) {
        put(out, cap, &p, 0x01);
        put(out, cap, &p, 0x01);
        if (crz_len > 0) {
            static const uint8_t suffix[] = { 0xFF, 0x02, 0x80, 0xFF, 0x80 };
            size_t m = crz_len;
            uint8_t b = 0x80;
            int idx = 0;
            while (m > 0 && crz[m - 1] == 0x03)
                m--;
            for (size_t k = 0; k < m; k++) {
                b = (uint8_t)(b | (crz[k] << ((2 - idx) * 2)));
                if (++idx == 3) {
                    put(out, cap, &p, b);
                    b = 0x80;
                    idx = 0;
                }
            }
            if (idx > 0)
                put(out, cap, &p, b);
            for (size_t k = 0; k < sizeof suffix; k++)
                put(out, cap, &p, suffix[k]);
            if (have_unp)
                put(out, cap, &p, 0xFF);
        }
        if (have_unp) {
            put(out, cap, &p, 0x01);
            for (size_t k = 0; k < unp_len; k++)
                put(out, cap, &p, unp[k]);
        }
    }
    return p;
}

/* Whether inline code b is that of a significant character of the Jet3
 * order (the vowels and some consonants: type G in the first 256). */
static bool is_sig97(uint8_t b)
{
    const jet_collate_table *t = &jet_collate_tables[JET_COLL_GEN97];
    for (int c = 0; c < 256; c++)
        if (t->x_off[c + 1] - t->x_off[c] == 1 &&
            t->x_pool[t->x_off[c]] == 'G' && t->off[c + 1] - t->off[c] == 1 &&
            t->pool[t->off[c]] == b)
            return true;
    return false;
}

/* Jet3: inline codes, then a nibble stream of extra codes between two 0
 * nibbles, or one 00 byte (Jackcess General97IndexCodes). */
static size_t key_97(uint8_t *out, size_t cap, size_t p,
                     const uint16_t *s, size_t n)
{
    uint8_t nib[MAX_UNITS + 2];
    size_t nn = 0, sig = 0;
    bool have = false;
    for (size_t i = 0; i < n; i++) {
        handler h;
        handler_of(&h, JET_COLL_GEN97, s[i]);
        for (size_t k = 0; k < h.nin; k++)
            put(out, cap, &p, h.in[k]);
        if (h.nrec == 0) {
            /* a simple character that expands to significant ones (the
             * ß of nwind's "Lebensmittelgroßmärkte" is s s) counts as
             * those, as Jet writes it (Jackcess counts it as none) */
            if (h.nin > 1)
                for (size_t k = 0; k < h.nin; k++)
                    sig += is_sig97(h.in[k]);
            continue;
        }
        if (h.rec[0] == 'G') {
            sig++;
            continue;
        }
        if (h.rec[0] != 'I' || h.nrec < 2)
            continue;
        if (!have) {
            nib[nn++] = 0;
            have = true;
        }
        for (; sig > 0; sig--)
            nib[nn++] = 0x02;
        nib[nn++] = h.rec[1] & 0x0F;
    }
    if (!have) {
        put(out, cap, &p, 0x00);
        return p;
    }
    nib[nn++] = 0;
    for (size_t k = 0; k < nn; k += 2)
        put(out, cap, &p, (uint8_t)(nib[k] << 4 |
                                    (k + 1 < nn ? nib[k + 1] : 0)));
    return p;
}

size_t jet_collate_key(uint8_t *out, size_t cap, jet_collation co,
                       const uint16_t *s, size_t n, bool ascending,
                       bool *complete)
{
    bool all = true;
    size_t p;
    if (co < JET_COLL_GEN97 || co > JET_COLL_GEN)
        co = JET_COLL_GENLEG;
    if (n > MAX_UNITS)
        n = MAX_UNITS;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    if (co == JET_COLL_GEN97) {
        p = key_97(out, cap, 0, s, n);          /* ends in its own 00 */
        if (!ascending)
            for (size_t k = 0; k < p && k < cap; k++)
                out[k] = (uint8_t)~out[k];
    } else {
        p = key_legacy(out, cap, 0, co, s, n, &all);
        if (!ascending) {
            put(out, cap, &p, 0x00);
            for (size_t k = 0; k < p && k < cap; k++)
                out[k] = (uint8_t)~out[k];
        }
        put(out, cap, &p, 0x00);                /* END_EXTRA_TEXT */
    }
    if (complete)
        *complete = all;
    return p;
}

/* ------------------------------------------------------------- API */

jet_collation jet_collation_of(jet_version ver, const jet_column *col)
{
    if (col->type != JET_T_TEXT && col->type != JET_T_MEMO)
        return JET_COLL_NONE;
    if (col->sort_lcid != 0 && col->sort_lcid != 1033)
        return JET_COLL_NONE;
    if (ver == JET_VER_3)
        return JET_COLL_GEN97;
    if (col->sort_lcid == 0)
        return ver >= JET_VER_ACE14 ? JET_COLL_GEN : JET_COLL_GENLEG;
    if (col->sort_version == 0)
        return JET_COLL_GENLEG;
    if (col->sort_version == 1)
        return JET_COLL_GEN;
    return JET_COLL_NONE;
}

/* pfx_len[co][c]: for ASCII c, the length (1..4) of its inline codes
 * pfx_code[co][c] when it is safe (is_safe), 0 when not, 0xFF when the
 * codes are longer (the table path). Filled once per order. */
static uint8_t pfx_len[3][128];
static uint8_t pfx_code[3][128][4];
static pthread_once_t pfx_once[3] = { PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                      PTHREAD_ONCE_INIT };

static void pfx_init(int co)
{
    const jet_collate_table *t = &jet_collate_tables[co];
    for (uint32_t c = 0; c < 128; c++) {
        const uint8_t *codes = NULL;
        int len;
        if (!is_safe(co, c))
            continue;
        len = inline_codes(t, c, &codes);
        if (len < 0)
            continue;
        if (len > 4) {
            pfx_len[co][c] = 0xFF;
            continue;
        }
        memcpy(pfx_code[co][c], codes, (size_t)len);
        /* an ignored character (no inline codes) takes the table path */
        pfx_len[co][c] = len ? (uint8_t)len : 0xFF;
    }
}

static void pfx_init0(void) { pfx_init(0); }
static void pfx_init1(void) { pfx_init(1); }
static void pfx_init2(void) { pfx_init(2); }

jet_rc jet_collate_prefix(uint8_t *buf, size_t cap, size_t *pos,
                          jet_collation co, const uint16_t *s, size_t n,
                          bool *complete)
{
    static void (*const init[3])(void) = { pfx_init0, pfx_init1, pfx_init2 };
    const jet_collate_table *t;
    size_t p = *pos;
    *complete = false;
    if (co < JET_COLL_GEN97 || co > JET_COLL_GEN)
        return JET_OK;
    t = &jet_collate_tables[co];
    pthread_once(&pfx_once[co], init[co]);
    if (n > MAX_UNITS)
        n = MAX_UNITS;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *codes = NULL;
        int len;
        if (s[i] < 128 && pfx_len[co][s[i]] != 0xFF) {
            /* ASCII: the codes from the table above (0: unsafe) */
            size_t l = pfx_len[co][s[i]];
            if (l == 0) {
                *pos = p;
                return JET_OK;
            }
            if (cap - p >= 4) {
                memcpy(buf + p, pfx_code[co][s[i]], 4);  /* l used */
            } else if (l <= cap - p) {
                memcpy(buf + p, pfx_code[co][s[i]], l);
            } else {
                return JET_ELIMIT;
            }
            p += l;
            continue;
        }
        if (!is_safe(co, s[i])) {
            *pos = p;
            return JET_OK;      /* the prefix so far */
        }
        len = inline_codes(t, s[i], &codes);
        if ((size_t)len > cap - p)
            return JET_ELIMIT;
        memcpy(buf + p, codes, (size_t)len);
        p += (size_t)len;
    }
    *pos = p;
    *complete = true;
    return JET_OK;
}

bool jet_collate_covered(jet_collation co, const uint16_t *s, size_t n)
{
    if (co < JET_COLL_GEN97 || co > JET_COLL_GEN)
        return false;
    for (size_t i = 0; i < n; i++)
        if (cover_index(s[i]) < 0)
            return false;
    return true;
}

/* Append code point cp as UTF-16 to u[*n..) (room for 2 units). */
static void put_u16(uint16_t *u, size_t *n, uint32_t cp)
{
    if (cp > 0xFFFF) {
        cp -= 0x10000;
        u[(*n)++] = (uint16_t)(0xD800 + (cp >> 10));
        u[(*n)++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
    } else {
        u[(*n)++] = (uint16_t)cp;
    }
}

/* Next code point of UTF-16 s[*i..n) (lone surrogates stand alone). */
static uint32_t next_cp(const uint16_t *s, size_t n, size_t *i)
{
    uint32_t c = s[(*i)++];
    if (c >= 0xD800 && c <= 0xDBFF && *i < n && s[*i] >= 0xDC00 &&
        s[*i] <= 0xDFFF)
        c = 0x10000 + ((c - 0xD800) << 10) + (s[(*i)++] - 0xDC00u);
    return c;
}

/* fast[co][c]: the inline code of ASCII character c (folded) when it is
 * simple, fast_len[co] bytes long (that of 'a': 1 in Jet3 and Legacy, 2
 * in 2010+ General) and shared by no other such character; else 0. The
 * index keys of two texts of these alone (no trailing space) are equal
 * exactly when the texts are equal ignoring case (the codes are one
 * length, so they split one way): their sort keys need no second level. */
static uint16_t fast[3][128];
static size_t fast_len[3];
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;

static void fast_init(void)
{
    for (int co = 0; co < 3; co++) {
        handler h;
        handler_of(&h, (jet_collation)co, 'a');
        fast_len[co] = h.nin;
        if (h.nin < 1 || h.nin > 2)
            continue;
        for (int c = 0; c < 128; c++) {
            if (fold((uint32_t)c) != (uint32_t)c)
                continue;
            handler_of(&h, (jet_collation)co, (uint16_t)c);
            if (h.nrec == 0 && h.nin == fast_len[co] && h.in[0] != 0 &&
                (h.nin == 1 || h.in[1] != 0))
                fast[co][c] = h.nin == 1 ? h.in[0]
                              : (uint16_t)(h.in[0] << 8 | h.in[1]);
        }
        /* a code two characters share is no fast code for either: the
         * characters ordered by code (then by character), and in each run
         * of one code the characters dropped two by two in that order
         * (what comparing every pair and dropping both of the first equal
         * pair found does: an odd last one keeps its code) */
        uint16_t ord[128];
        size_t m = 0;
        for (int c = 0; c < 128; c++) {
            if (!fast[co][c])
                continue;
            size_t j = m++;
            for (; j > 0 && fast[co][ord[j - 1]] > fast[co][c]; j--)
                ord[j] = ord[j - 1];
            ord[j] = (uint16_t)c;
        }
        for (size_t j = 0; j < m;) {
            size_t e = j + 1;
            while (e < m && fast[co][ord[e]] == fast[co][ord[j]])
                e++;
            for (size_t k = j; k + 1 < e; k += 2)
                fast[co][ord[k]] = fast[co][ord[k + 1]] = 0;
            j = e;
        }
    }
}

size_t jet_text_sort_key_co(uint8_t *out, size_t cap, jet_collation co,
                            const uint16_t *s, size_t n)
{
    uint16_t f[MAX_UNITS + 1];
    uint8_t key[JET_COLLATE_KEY_MAX];
    size_t nf = 0, klen, p = 0, i = 0, n1 = 0;
    if (co < JET_COLL_GEN97 || co > JET_COLL_GEN)
        co = JET_COLL_GENLEG;
    pthread_once(&fast_once, fast_init);
    /* fast path: a text of fast characters (see fast_init) is its inline
     * codes, END_TEXT (01), 00 00 and an empty second level (00 00) */
    if (n <= MAX_UNITS && (n == 0 || s[n - 1] != ' ') && fast_len[co] >= 1 &&
        fast_len[co] <= 2) {
        const uint16_t *fc = fast[co];
        size_t L = fast_len[co];
        if (cap >= n * L + 5) {
            /* one pass, straight into out; given up at the first other
             * character */
            uint8_t *o = out;
            for (i = 0; i < n; i++) {
                uint32_t c = s[i];
                uint16_t v;
                if (c >= 128)
                    break;
                v = fc[c - 'A' < 26u ? c + 32 : c];
                if (!v)
                    break;
                if (L == 2)
                    *o++ = (uint8_t)(v >> 8);
                *o++ = (uint8_t)v;
            }
            if (i == n) {
                memcpy(o, "\x01\0\0\0\0", 5);
                return (size_t)(o + 5 - out);
            }
            n1 = 0;
        } else {
            for (i = 0; i < n; i++)
                if (s[i] >= 128 ||
                    !fc[s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]])
                    break;
            n1 = i;
        }
        if (n1 == n && n1 > 0) {
            for (i = 0; i < n; i++) {
                uint16_t v = fc[s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]];
                if (L == 2)
                    put(out, cap, &p, (uint8_t)(v >> 8));
                put(out, cap, &p, (uint8_t)v);
            }
            put(out, cap, &p, 0x01);
            for (int k = 0; k < 4; k++)
                put(out, cap, &p, 0x00);
            return p;
        }
        i = 0;
    }
    /* level 1: Jet's index key of the folded text (its first 255
     * units), 00 escaped as 00 FF, without the final 00; then 00 00 */
    while (i < n && nf < MAX_UNITS)
        put_u16(f, &nf, fold(next_cp(s, n, &i)));
    if (nf > MAX_UNITS)
        nf = MAX_UNITS;
    klen = jet_collate_key(key, sizeof key, co, f, nf, true, NULL);
    if (klen > sizeof key)
        klen = sizeof key;
    for (size_t k = 0; k + 1 < klen; k++) {
        put(out, cap, &p, key[k]);
        if (key[k] == 0)
            put(out, cap, &p, 0xFF);
    }
    put(out, cap, &p, 0x00);
    put(out, cap, &p, 0x00);
    /* level 2: the engine's folded code points plus one, 2 bytes below
     * 0xF000, else FF and 3 bytes; then 00 00 */
    for (i = 0; i < n;) {
        uint32_t c = fold(next_cp(s, n, &i)) + 1;
        if (c < 0xF000) {
            put(out, cap, &p, (uint8_t)(c >> 8));
            put(out, cap, &p, (uint8_t)c);
        } else {
            put(out, cap, &p, 0xFF);
            put(out, cap, &p, (uint8_t)(c >> 16));
            put(out, cap, &p, (uint8_t)(c >> 8));
            put(out, cap, &p, (uint8_t)c);
        }
    }
    put(out, cap, &p, 0x00);
    put(out, cap, &p, 0x00);
    return p;
}

size_t jet_text_sort_key(uint8_t *out, size_t cap, const jet_db *db,
                         const jet_column *col, const uint16_t *s, size_t n)
{
    jet_collation co = col ? jet_collation_of(jet_db_version(db), col)
                           : JET_COLL_NONE;
    if (co == JET_COLL_NONE)
        co = jet_db_collation(db);
    return jet_text_sort_key_co(out, cap, co, s, n);
}

jet_collation jet_db_collation(const jet_db *db)
{
    jet_version v = jet_db_version(db);
    return v == JET_VER_3 ? JET_COLL_GEN97
           : v >= JET_VER_ACE14 ? JET_COLL_GEN : JET_COLL_GENLEG;
}
