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
 * Seeking: the inline codes of a search string are a prefix of the key of
 * every string that equals it under the SQL engine's case folding, or
 * starts with it, provided each character's case variants share inline
 * codes. That is checked per sort order once (safe_init) with the same
 * fold as the engine (towlower of C.UTF-8, ASCII by hand); a character
 * that fails, or is not in the tables, ends the usable prefix.
 */
#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <wctype.h>

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
    uint32_t off;
    if (i < 0)
        return -1;
    off = t->base[i / 64];
    for (int k = i & ~63; k < i; k++)
        off += t->len[k];
    *out = t->pool + off;
    return t->len[i];
}

static bool same_codes(const jet_collate_table *t, uint32_t a, uint32_t b)
{
    const uint8_t *pa, *pb;
    int la = inline_codes(t, a, &pa), lb = inline_codes(t, b, &pb);
    return la >= 0 && la == lb && memcmp(pa, pb, (size_t)la) == 0;
}

/* ------------------------------------------------------ engine's fold */

static locale_t fold_locale;
static pthread_once_t fold_once = PTHREAD_ONCE_INIT;

static void fold_init(void)
{
    static const char *const names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8",
                                         "en_US.utf8" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fold_locale = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
        if (fold_locale)
            return;
    }
}

/* The SQL engine's case fold (driver/sql/eval.c sql_fold): ASCII by
 * hand, else towlower of C.UTF-8; identity without that locale. */
static uint32_t fold(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
    pthread_once(&fold_once, fold_init);
    if (!fold_locale)
        return cp;
    return (uint32_t)towlower_l((wint_t)cp, fold_locale);
}

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

jet_rc jet_collate_prefix(uint8_t *buf, size_t cap, size_t *pos,
                          jet_collation co, const uint16_t *s, size_t n,
                          bool *complete)
{
    const jet_collate_table *t;
    size_t p = *pos;
    *complete = false;
    if (co < JET_COLL_GEN97 || co > JET_COLL_GEN)
        return JET_OK;
    t = &jet_collate_tables[co];
    if (n > MAX_UNITS)
        n = MAX_UNITS;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *codes;
        int len;
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

/* Append byte b at p when it fits (the key is cut at cap). */
static void put(uint8_t *out, size_t cap, size_t *p, uint8_t b)
{
    if (*p < cap)
        out[*p] = b;
    (*p)++;
}

size_t jet_text_sort_key(uint8_t *out, size_t cap, const jet_db *db,
                         const jet_column *col, const uint16_t *s, size_t n)
{
    jet_collation co = col ? jet_collation_of(jet_db_version(db), col)
                           : JET_COLL_NONE;
    const jet_collate_table *t;
    size_t p = 0, n1 = n;
    if (co == JET_COLL_NONE)
        co = jet_db_version(db) == JET_VER_3 ? JET_COLL_GEN97
             : jet_db_version(db) >= JET_VER_ACE14 ? JET_COLL_GEN
                                                   : JET_COLL_GENLEG;
    t = &jet_collate_tables[co];
    /* level 1: inline sort codes; other characters as FF + code unit;
     * trailing spaces count as in index keys (not at all) */
    while (n1 > 0 && s[n1 - 1] == ' ')
        n1--;
    for (size_t i = 0; i < n1; i++) {
        const uint8_t *codes;
        int len = s[i] >= 0xD800 && s[i] <= 0xDFFF
                      ? -1 : inline_codes(t, s[i], &codes);
        if (len < 0) {
            put(out, cap, &p, 0xFF);
            put(out, cap, &p, (uint8_t)(s[i] >> 8));
            put(out, cap, &p, (uint8_t)s[i]);
            continue;
        }
        for (int k = 0; k < len; k++)
            put(out, cap, &p, codes[k]);
    }
    put(out, cap, &p, 0x00);
    /* level 2: the engine's folded code units, plus one (0 ends) */
    for (size_t i = 0; i < n; i++) {
        uint32_t f = fold(s[i]) + 1;
        put(out, cap, &p, (uint8_t)(f >> 16));
        put(out, cap, &p, (uint8_t)(f >> 8));
        put(out, cap, &p, (uint8_t)f);
    }
    put(out, cap, &p, 0x00);
    put(out, cap, &p, 0x00);
    put(out, cap, &p, 0x00);
    /* level 3: the code units themselves */
    for (size_t i = 0; i < n; i++) {
        put(out, cap, &p, (uint8_t)(s[i] >> 8));
        put(out, cap, &p, (uint8_t)s[i]);
    }
    return p;
}
