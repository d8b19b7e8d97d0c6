/*
 * test_values.c - core/value.c (with lval.c and text.c): every column type
 * decoded from hand-built page images, at its edges.
 *
 * Each test puts one row on a data page (pagebuild), locates it with
 * jet_row_bounds, parses it and decodes one column with jet_value_decode,
 * exactly as a scan does. Long values live on LVAL pages of a small file:
 * inline, single page, a chain of 18 pages (a 70,000-byte memo), compressed
 * Unicode, and a Jet3 file with code-page memos.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pagebuild.h"
#include "unit.h"

/* ------------------------------------------------------------ files */

#define PS4 4096
#define PS3 2048
#define NPAGES4 21
#define COMP_PAGE 20           /* compressed memo, row 0 */
#define NPAGES3 4
#define CHAIN_FIRST 2          /* Jet4 chain: pages 2..19, row 0 each */
#define CHAIN_CHUNK 4000
#define BIG_UNITS 35000        /* 70,000-byte UTF-16 memo */
#define SINGLE_UNITS 1000      /* 2,000-byte UTF-16 memo on page 1 row 0 */
#define COMP_CHARS 3000        /* compressed memo on page 20 row 0 */
#define OLE_LEN 1000           /* OLE bytes on page 1 row 1 */
#define J3_MEMO_LEN 1500       /* Jet3 cp1252 memo on page 1 row 0 */
#define J3_CHAIN_LEN 3000      /* Jet3 chain: pages 2, 3 */

static uint8_t pages4[NPAGES4 * PS4];
static uint8_t pages3[NPAGES3 * PS3];
static char path4[64], path3[64];
static uint16_t big_units[BIG_UNITS];
static uint16_t single_units[SINGLE_UNITS];
static uint8_t ole_bytes[OLE_LEN];
static uint8_t j3_bytes[J3_CHAIN_LEN];

static jet_db *db4, *db3;
static jet_buf scratch;
static uint8_t rowbuf[PS4];
static uint8_t page[PS4];
static uint16_t varbuf[JET_MAX_VAR_OFFSETS];
static jet_error err;

/* UTF-16 text with a surrogate pair (U+1F642) every 40 units. */
static void fill_units(uint16_t *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 40 == 38 && i + 1 < n) {
            u[i++] = 0xD83D;
            u[i] = 0xDE42;
        } else {
            u[i] = (uint16_t)('A' + i % 26);
        }
    }
}

static void put_units(uint8_t *p, const uint16_t *u, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pb_put16(p + 2 * i, u[i]);
}

static void build_jet4_file(void)
{
    const jet_format *f = jet_format_for(JET_VER_4);
    static uint8_t chunk[CHAIN_CHUNK + 4];
    static uint8_t big[BIG_UNITS * 2];
    static uint8_t tmp[COMP_CHARS + 2];

    memset(pages4, 0, sizeof pages4);
    fill_units(big_units, BIG_UNITS);
    fill_units(single_units, SINGLE_UNITS);
    for (size_t i = 0; i < OLE_LEN; i++)
        ole_bytes[i] = (uint8_t)(i * 131 + 7);

    /* page 1: single-page LVAL rows */
    uint8_t *p1 = pages4 + PS4;
    pb_data_page(p1, f, 0);
    {
        static uint8_t s[SINGLE_UNITS * 2];
        put_units(s, single_units, SINGLE_UNITS);
        pb_add_row(p1, f, s, sizeof s, 0);
    }
    tmp[0] = 0xFF;
    tmp[1] = 0xFE;
    for (size_t i = 0; i < COMP_CHARS; i++)
        tmp[2 + i] = (uint8_t)('a' + i % 26);
    pb_add_row(p1, f, ole_bytes, OLE_LEN, 0);
    pb_data_page(pages4 + COMP_PAGE * PS4, f, 0);
    pb_add_row(pages4 + COMP_PAGE * PS4, f, tmp, COMP_CHARS + 2, 0);

    /* pages 2..19: the 70,000-byte chain */
    put_units(big, big_units, BIG_UNITS);
    size_t off = 0;
    for (uint32_t pg = CHAIN_FIRST; off < sizeof big; pg++) {
        size_t n = sizeof big - off < CHAIN_CHUNK ? sizeof big - off
                                                  : CHAIN_CHUNK;
        bool last = off + n == sizeof big;
        ck_assert_uint_lt(pg, COMP_PAGE);
        pb_data_page(pages4 + pg * PS4, f, 0);
        chunk[0] = 0;
        pb_put24(chunk + 1, last ? 0 : pg + 1);
        memcpy(chunk + 4, big + off, n);
        pb_add_row(pages4 + pg * PS4, f, chunk, n + 4, 0);
        off += n;
    }
    ck_assert_int_eq(pb_write_file(path4, sizeof path4, pages4, NPAGES4,
                                   PS4), 0);
}

static void build_jet3_file(void)
{
    const jet_format *f = jet_format_for(JET_VER_3);
    static uint8_t chunk[J3_CHAIN_LEN / 2 + 4];
    memset(pages3, 0, sizeof pages3);
    /* "café €" and friends, in cp1252 */
    static const uint8_t pat[] = { 'c', 'a', 'f', 0xE9, ' ', 0x80, ' ',
                                   0xBD, ' ', 0x81, '.' };
    for (size_t i = 0; i < J3_CHAIN_LEN; i++)
        j3_bytes[i] = pat[i % sizeof pat];
    pb_data_page(pages3 + PS3, f, 0);
    pb_add_row(pages3 + PS3, f, j3_bytes, J3_MEMO_LEN, 0);
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t pg = 2 + k;
        pb_data_page(pages3 + pg * PS3, f, 0);
        chunk[0] = 0;
        pb_put24(chunk + 1, k == 0 ? 3 : 0);
        memcpy(chunk + 4, j3_bytes + k * (J3_CHAIN_LEN / 2),
               J3_CHAIN_LEN / 2);
        pb_add_row(pages3 + pg * PS3, f, chunk, J3_CHAIN_LEN / 2 + 4, 0);
    }
    ck_assert_int_eq(pb_write_file(path3, sizeof path3, pages3, NPAGES3,
                                   PS3), 0);
}

static void files_up(void)
{
    build_jet4_file();
    build_jet3_file();
}

static void files_down(void)
{
    unlink(path4);
    unlink(path3);
}

static void dbs_up(void)
{
    db4 = pb_db_open(path4, JET_VER_ACE14);
    db3 = pb_db_open(path3, JET_VER_3);
    ck_assert_ptr_nonnull(db4);
    ck_assert_ptr_nonnull(db3);
    memset(&scratch, 0, sizeof scratch);
}

static void dbs_down(void)
{
    jet_buf_free(&scratch);
    pb_db_free(db4);
    pb_db_free(db3);
}

/* ----------------------------------------------------------- decode */

static jet_column fixed_col(jet_type t, uint16_t len)
{
    jet_column c = { .name = "f", .type = t, .col_num = 0,
                     .fixed_offset = 0, .length = len,
                     .flags = JET_COL_FIXED | JET_COL_NULLABLE,
                     .result_type = t };
    return c;
}

static jet_column var_col(jet_type t)
{
    jet_column c = { .name = "v", .type = t, .col_num = 0, .var_index = 0,
                     .length = 510, .flags = JET_COL_NULLABLE,
                     .result_type = t };
    return c;
}

/*
 * One-column row holding bytes (or NULL) placed on a data page, located by
 * its offset entry, parsed and decoded as col.
 */
static jet_rc decode(jet_value *out, jet_db *db, const jet_column *col,
                     const void *bytes, size_t n, bool is_null)
{
    const jet_format *f = db->fmt;
    bool nulls[1] = { is_null };
    bool fixed = (col->flags & JET_COL_FIXED) != 0;
    size_t len;
    uint16_t s, e, fl, rowno;
    jet_row row;
    jet_rc rc;

    if (fixed) {
        len = pb_row(rowbuf, sizeof rowbuf, f, 1, nulls, bytes, n, NULL, 0);
    } else {
        pb_val v = { is_null, bytes, n };
        len = pb_row(rowbuf, sizeof rowbuf, f, 1, nulls, NULL, 0, &v, 1);
    }
    pb_data_page(page, f, 9);
    rowno = pb_add_row(page, f, rowbuf, len, 0);
    rc = jet_row_bounds(f, page, 5, rowno, &s, &e, &fl, &err);
    if (rc != JET_OK)
        return rc;
    rc = jet_row_parse(&row, f, page + s, (size_t)(e - s), !fixed, varbuf,
                       JET_MAX_VAR_OFFSETS, 5, &err);
    if (rc != JET_OK)
        return rc;
    return jet_value_decode(out, db, &row, col, &scratch, 5, &err);
}

static jet_value dec_fixed(jet_type t, const void *bytes, size_t n)
{
    jet_column c = fixed_col(t, (uint16_t)n);
    jet_value v;
    ck_assert_int_eq(decode(&v, db4, &c, bytes, n, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_int_eq(v.type, t);
    return v;
}

static void le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static const char *utf8_of(jet_db *db, const jet_value *v)
{
    static char buf[200000];
    size_t n = 0;
    ck_assert_int_eq(jet_text_to_utf8(db, v, buf, sizeof buf - 1, &n),
                     JET_OK);
    ck_assert_uint_lt(n, sizeof buf);
    buf[n] = '\0';
    return buf;
}

/* ------------------------------------------------------------ tests */

START_TEST(bool_is_the_null_mask_bit_and_never_null)
{
    for (int k = 0; k < 2; k++) {
        jet_db *db = k == 0 ? db3 : db4;
        jet_column c = fixed_col(JET_T_BOOL, 0);
        jet_value v;
        ck_assert_int_eq(decode(&v, db, &c, NULL, 0, false), JET_OK);
        ck_assert(!v.is_null);
        ck_assert(v.u.b);
        ck_assert_int_eq(decode(&v, db, &c, NULL, 0, true), JET_OK);
        ck_assert(!v.is_null);
        ck_assert(!v.u.b);
    }
}
END_TEST

START_TEST(byte_is_unsigned_0_to_255)
{
    uint8_t b = 0;
    ck_assert_int_eq(dec_fixed(JET_T_BYTE, &b, 1).u.i, 0);
    b = 255;
    ck_assert_int_eq(dec_fixed(JET_T_BYTE, &b, 1).u.i, 255);
    b = 128;
    ck_assert_int_eq(dec_fixed(JET_T_BYTE, &b, 1).u.i, 128);
}
END_TEST

START_TEST(integer_long_bigint_min_and_max)
{
    uint8_t b[8];
    le(b, 0x8000, 2);
    ck_assert_int_eq(dec_fixed(JET_T_INT, b, 2).u.i, -32768);
    le(b, 0x7FFF, 2);
    ck_assert_int_eq(dec_fixed(JET_T_INT, b, 2).u.i, 32767);
    le(b, 0xFFFF, 2);
    ck_assert_int_eq(dec_fixed(JET_T_INT, b, 2).u.i, -1);
    le(b, 0x80000000u, 4);
    ck_assert_int_eq(dec_fixed(JET_T_LONG, b, 4).u.i, INT32_MIN);
    le(b, 0x7FFFFFFFu, 4);
    ck_assert_int_eq(dec_fixed(JET_T_LONG, b, 4).u.i, INT32_MAX);
    le(b, (uint64_t)INT64_MIN, 8);
    ck_assert(dec_fixed(JET_T_BIGINT, b, 8).u.i == INT64_MIN);
    le(b, (uint64_t)INT64_MAX, 8);
    ck_assert(dec_fixed(JET_T_BIGINT, b, 8).u.i == INT64_MAX);
    le(b, 0, 8);
    ck_assert(dec_fixed(JET_T_BIGINT, b, 8).u.i == 0);
}
END_TEST

START_TEST(currency_limits_are_exact_with_four_decimals)
{
    static const struct { int64_t raw; const char *text; } cases[] = {
        { INT64_MIN, "-922337203685477.5808" },
        { INT64_MAX, "922337203685477.5807" },
        { -1, "-0.0001" },
        { 1, "0.0001" },
        { 0, "0.0000" },
        { 140000, "14.0000" },
        { -5000, "-0.5000" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[8];
        char buf[32];
        le(b, (uint64_t)cases[i].raw, 8);
        jet_value v = dec_fixed(JET_T_MONEY, b, 8);
        ck_assert(v.u.money == cases[i].raw);
        jet_money_format(v.u.money, buf, sizeof buf);
        ck_assert_str_eq(buf, cases[i].text);
    }
}
END_TEST

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

START_TEST(single_keeps_every_bit_pattern)
{
    static const uint32_t pats[] = {
        0x80000000u,            /* -0.0 */
        0x7FC00000u,            /* quiet NaN */
        0x7FA00001u,            /* signalling NaN with payload */
        0x7F800000u, 0xFF800000u, /* +-Inf */
        0x00000001u,            /* smallest denormal */
        0x007FFFFFu,            /* largest denormal */
        0x7F7FFFFFu, 0xFF7FFFFFu, /* +-FLT_MAX */
        0x3DCCCCCDu,            /* 0.1f */
    };
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
        uint8_t b[4];
        le(b, pats[i], 4);
        jet_value v = dec_fixed(JET_T_FLOAT, b, 4);
        ck_assert_uint_eq(fbits(v.u.f), pats[i]);
    }
    uint8_t b[4];
    le(b, 0x80000000u, 4);
    ck_assert(signbit(dec_fixed(JET_T_FLOAT, b, 4).u.f));
    le(b, 0x7FC00000u, 4);
    ck_assert(isnan(dec_fixed(JET_T_FLOAT, b, 4).u.f));
    le(b, 0x7F7FFFFFu, 4);
    ck_assert(dec_fixed(JET_T_FLOAT, b, 4).u.f == FLT_MAX);
}
END_TEST

START_TEST(double_keeps_every_bit_pattern)
{
    static const uint64_t pats[] = {
        0x8000000000000000ull,  /* -0.0 */
        0x7FF8000000000000ull,  /* NaN */
        0xFFF8000000000001ull,  /* negative NaN with payload */
        0x7FF0000000000000ull, 0xFFF0000000000000ull,
        0x0000000000000001ull,  /* 5e-324 */
        0x000FFFFFFFFFFFFFull,  /* largest denormal */
        0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull,
        0x3FB999999999999Aull,  /* 0.1 */
    };
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
        uint8_t b[8];
        le(b, pats[i], 8);
        jet_value v = dec_fixed(JET_T_DOUBLE, b, 8);
        ck_assert(dbits(v.u.d) == pats[i]);
    }
    uint8_t b[8];
    le(b, dbits(-DBL_MAX), 8);
    ck_assert(dec_fixed(JET_T_DOUBLE, b, 8).u.d == -DBL_MAX);
    le(b, dbits(5e-324), 8);
    ck_assert(dec_fixed(JET_T_DOUBLE, b, 8).u.d == 5e-324);
    le(b, dbits(-0.0), 8);
    ck_assert(signbit(dec_fixed(JET_T_DOUBLE, b, 8).u.d));
}
END_TEST

/* Days from 1899-12-30 to y-m-d (proleptic Gregorian), test-side. */
static int64_t days_from_1899(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468 + 25569;
}

/* The double Access stores for a day and a time of day in ms. */
static double access_datetime(int64_t day, int64_t ms)
{
    double frac = (double)ms / 86400000.0;
    return day < 0 ? (double)day - frac : (double)day + frac;
}

static void check_datetime(int64_t y, unsigned mo, unsigned d, int64_t ms)
{
    uint8_t b[8];
    jet_timestamp ts;
    int64_t day = days_from_1899(y, mo, d);
    le(b, dbits(access_datetime(day, ms)), 8);
    jet_value v = dec_fixed(JET_T_DATETIME, b, 8);
    ck_assert_int_eq(jet_datetime_split(v.u.d, &ts), JET_OK);
    ck_assert_msg(ts.year == y && ts.month == mo && ts.day == d,
                  "%04lld-%02u-%02u ms %lld came back as %04d-%02u-%02u",
                  (long long)y, mo, d, (long long)ms, ts.year, ts.month,
                  ts.day);
    int64_t back = ((int64_t)ts.hour * 3600 + ts.minute * 60 + ts.second) *
                       1000 + ts.fraction_ns / 1000000;
    ck_assert_msg(back == ms && ts.fraction_ns % 1000000 == 0,
                  "%04lld-%02u-%02u ms %lld came back as ms %lld",
                  (long long)y, mo, d, (long long)ms, (long long)back);
}

START_TEST(datetime_limits_and_pre_1899_absolute_time)
{
    uint8_t b[8];
    jet_timestamp ts;
    le(b, dbits(-657434.0), 8);
    ck_assert_int_eq(jet_datetime_split(dec_fixed(JET_T_DATETIME, b, 8).u.d,
                                        &ts), JET_OK);
    ck_assert_int_eq(ts.year, 100);
    ck_assert_uint_eq(ts.month, 1);
    ck_assert_uint_eq(ts.day, 1);
    ck_assert_uint_eq(ts.hour + ts.minute + ts.second, 0);
    /* 9999-12-31 23:59:59 */
    le(b, dbits(2958465.0 + 86399.0 / 86400.0), 8);
    ck_assert_int_eq(jet_datetime_split(dec_fixed(JET_T_DATETIME, b, 8).u.d,
                                        &ts), JET_OK);
    ck_assert_int_eq(ts.year, 9999);
    ck_assert_uint_eq(ts.month, 12);
    ck_assert_uint_eq(ts.day, 31);
    ck_assert_uint_eq(ts.hour, 23);
    ck_assert_uint_eq(ts.minute, 59);
    ck_assert_uint_eq(ts.second, 59);
    /* -1.25: the day before the epoch at 06:00, not 18:00 */
    le(b, dbits(-1.25), 8);
    ck_assert_int_eq(jet_datetime_split(dec_fixed(JET_T_DATETIME, b, 8).u.d,
                                        &ts), JET_OK);
    ck_assert_int_eq(ts.year, 1899);
    ck_assert_uint_eq(ts.day, 29);
    ck_assert_uint_eq(ts.hour, 6);
    /* -1.5 = 1899-12-29 12:00 */
    le(b, dbits(-1.5), 8);
    ck_assert_int_eq(jet_datetime_split(dec_fixed(JET_T_DATETIME, b, 8).u.d,
                                        &ts), JET_OK);
    ck_assert_uint_eq(ts.day, 29);
    ck_assert_uint_eq(ts.hour, 12);
    /* NaN and infinities are not dates */
    le(b, 0x7FF8000000000000ull, 8);
    ck_assert_int_eq(jet_datetime_split(dec_fixed(JET_T_DATETIME, b, 8).u.d,
                                        &ts), JET_ELIMIT);
}
END_TEST

START_TEST(datetime_round_trips_to_the_millisecond)
{
    static const struct { int y; unsigned m, d; } days[] = {
        { 100, 1, 1 }, { 1500, 3, 1 }, { 1668, 7, 4 }, { 1899, 12, 29 },
        { 1899, 12, 30 }, { 1899, 12, 31 }, { 1900, 2, 28 },
        { 1900, 3, 1 }, { 2000, 2, 29 }, { 2020, 2, 29 }, { 9999, 12, 31 },
    };
    for (size_t i = 0; i < sizeof days / sizeof days[0]; i++) {
        check_datetime(days[i].y, days[i].m, days[i].d, 0);
        check_datetime(days[i].y, days[i].m, days[i].d, 1);
        check_datetime(days[i].y, days[i].m, days[i].d, 999);
        check_datetime(days[i].y, days[i].m, days[i].d, 43200000);
        check_datetime(days[i].y, days[i].m, days[i].d, 86399999);
        for (int64_t ms = 0; ms < 86400000; ms += 86400000 / 997 + 13)
            check_datetime(days[i].y, days[i].m, days[i].d, ms);
    }
    /* every millisecond of one second, before and after the epoch */
    for (int64_t ms = 45296000; ms < 45297000; ms++) {
        check_datetime(1850, 6, 15, ms);
        check_datetime(2020, 2, 29, ms);
    }
}
END_TEST

static jet_value ext_raw(const char *digits)
{
    static uint8_t raw[42];
    memset(raw, 0, sizeof raw);
    memcpy(raw, digits, 39);
    raw[39] = ':';
    raw[40] = '7';
    raw[41] = 0;
    return dec_fixed(JET_T_EXT_DATETIME, raw, 42);
}

START_TEST(datetime_extended_100ns_from_year_1_to_9999)
{
    jet_timestamp ts;
    jet_value v = ext_raw("0000000000000000000:0000000000000000000");
    ck_assert_uint_eq(v.len, 42);
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 1);
    ck_assert_uint_eq(ts.month, 1);
    ck_assert_uint_eq(ts.day, 1);
    ck_assert_uint_eq(ts.fraction_ns, 0);
    /* 9999-12-31 is day 3652058; 86399.9999999 s */
    v = ext_raw("0000000000003652058:0000000863999999999");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 9999);
    ck_assert_uint_eq(ts.month, 12);
    ck_assert_uint_eq(ts.day, 31);
    ck_assert_uint_eq(ts.hour, 23);
    ck_assert_uint_eq(ts.minute, 59);
    ck_assert_uint_eq(ts.second, 59);
    ck_assert_uint_eq(ts.fraction_ns, 999999900);
    /* 0100-01-01 is day 36159 */
    v = ext_raw("0000000000000036159:0000000000000000001");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_OK);
    ck_assert_int_eq(ts.year, 100);
    ck_assert_uint_eq(ts.fraction_ns, 100);
    /* damaged text is corrupt, not a date */
    v = ext_raw("00000000000000x6159:0000000000000000001");
    ck_assert_int_eq(jet_ext_datetime_split(&v, &ts), JET_ECORRUPT);
}
END_TEST

START_TEST(text_empty_string_is_not_null)
{
    jet_column c = var_col(JET_T_TEXT);
    jet_value v;
    size_t n = 99;
    ck_assert_int_eq(decode(&v, db4, &c, "", 0, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_uint_eq(v.len, 0);
    ck_assert_int_eq(jet_text_to_utf8(db4, &v, NULL, 0, &n), JET_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(decode(&v, db4, &c, NULL, 0, true), JET_OK);
    ck_assert(v.is_null);
    /* Jet3 too */
    ck_assert_int_eq(decode(&v, db3, &c, "", 0, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_uint_eq(v.len, 0);
    ck_assert_int_eq(decode(&v, db3, &c, NULL, 0, true), JET_OK);
    ck_assert(v.is_null);
}
END_TEST

START_TEST(text_uncompressed_surrogate_pair_survives)
{
    /* "x", U+1F642, "y", U+00E9 */
    static const uint8_t raw[] = { 'x', 0, 0x3D, 0xD8, 0x42, 0xDE, 'y', 0,
                                   0xE9, 0x00 };
    jet_column c = var_col(JET_T_TEXT);
    jet_value v;
    uint16_t u[8];
    size_t n;
    ck_assert_int_eq(decode(&v, db4, &c, raw, sizeof raw, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_UCS2);
    ck_assert_str_eq(utf8_of(db4, &v), "x\xF0\x9F\x99\x82y\xC3\xA9");
    ck_assert_int_eq(jet_text_to_utf16(db4, &v, u, 8, &n), JET_OK);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(u[0], 'x');
    ck_assert_uint_eq(u[1], 0xD83D);
    ck_assert_uint_eq(u[2], 0xDE42);
    ck_assert_uint_eq(u[3], 'y');
    ck_assert_uint_eq(u[4], 0xE9);
    /* a buffer one unit short never splits the pair */
    ck_assert_int_eq(jet_text_to_utf16(db4, &v, u, 2, &n), JET_OK);
    ck_assert_uint_eq(n, 5);
}
END_TEST

START_TEST(text_compressed_with_uncompressed_runs)
{
    /* FF FE, "aé" compressed, 00 toggles to UTF-16 for "€" and U+1F680,
     * 00 back to compressed for "z" */
    static const uint8_t raw[] = { 0xFF, 0xFE, 'a', 0xE9, 0x00, 0xAC, 0x20,
                                   0x3D, 0xD8, 0x80, 0xDE, 0x00, 'z' };
    jet_column c = var_col(JET_T_TEXT);
    jet_value v;
    ck_assert_int_eq(decode(&v, db4, &c, raw, sizeof raw, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_COMPRESSED);
    ck_assert_str_eq(utf8_of(db4, &v),
                     "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x9A\x80z");
    /* FF FE alone is the empty string */
    ck_assert_int_eq(decode(&v, db4, &c, "\xFF\xFE", 2, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_str_eq(utf8_of(db4, &v), "");
}
END_TEST

START_TEST(text_jet3_code_page)
{
    static const uint8_t raw[] = { 'c', 'a', 'f', 0xE9, ' ', 0x80, 0x81 };
    jet_column c = var_col(JET_T_TEXT);
    jet_value v;
    ck_assert_int_eq(decode(&v, db3, &c, raw, sizeof raw, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_CODEPAGE);
    /* 0x81 is undefined in cp1252: Windows maps it to U+0081 */
    ck_assert_str_eq(utf8_of(db3, &v), "caf\xC3\xA9 \xE2\x82\xAC\xC2\x81");
}
END_TEST

static void lval_header(uint8_t *h, uint32_t len_flags, uint32_t pg,
                        uint8_t row)
{
    memset(h, 0, 12);
    pb_put32(h, len_flags);
    h[4] = row;
    pb_put24(h + 5, pg);
}

START_TEST(memo_inline_compressed)
{
    uint8_t h[12 + 12];
    jet_column c = var_col(JET_T_MEMO);
    jet_value v;
    lval_header(h, 0x80000000u | 12, 0, 0);
    memcpy(h + 12, "\xFF\xFEshort memo", 12);
    ck_assert_int_eq(decode(&v, db4, &c, h, sizeof h, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_COMPRESSED);
    ck_assert_str_eq(utf8_of(db4, &v), "short memo");
    /* an inline empty memo is "", not NULL */
    lval_header(h, 0x80000000u, 0, 0);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_uint_eq(v.len, 0);
    ck_assert_str_eq(utf8_of(db4, &v), "");
    ck_assert_int_eq(decode(&v, db4, &c, NULL, 0, true), JET_OK);
    ck_assert(v.is_null);
}
END_TEST

START_TEST(memo_single_page_ucs2_and_compressed)
{
    uint8_t h[12];
    jet_column c = var_col(JET_T_MEMO);
    jet_value v;
    static uint16_t u[SINGLE_UNITS];
    size_t n;
    lval_header(h, 0x40000000u | SINGLE_UNITS * 2, 1, 0);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_UCS2);
    ck_assert_uint_eq(v.len, SINGLE_UNITS * 2);
    ck_assert_int_eq(jet_text_to_utf16(db4, &v, u, SINGLE_UNITS, &n),
                     JET_OK);
    ck_assert_uint_eq(n, SINGLE_UNITS);
    ck_assert(memcmp(u, single_units, sizeof u) == 0);

    lval_header(h, 0x40000000u | (COMP_CHARS + 2), COMP_PAGE, 0);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_COMPRESSED);
    const char *s = utf8_of(db4, &v);
    ck_assert_uint_eq(strlen(s), COMP_CHARS);
    ck_assert(strncmp(s, "abcdefghijklmnopqrstuvwxyzabc", 29) == 0);
    ck_assert_int_eq(s[COMP_CHARS - 1], 'a' + (COMP_CHARS - 1) % 26);
}
END_TEST

START_TEST(memo_multi_page_chain_over_64k_is_exact)
{
    uint8_t h[12];
    jet_column c = var_col(JET_T_MEMO);
    jet_value v;
    static uint16_t u[BIG_UNITS + 1];
    size_t n, pairs = 0;
    lval_header(h, BIG_UNITS * 2, CHAIN_FIRST, 0);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_OK);
    ck_assert_uint_eq(v.len, BIG_UNITS * 2);
    ck_assert_uint_gt(v.len, 65536);
    ck_assert_int_eq(jet_text_to_utf16(db4, &v, u, BIG_UNITS + 1, &n),
                     JET_OK);
    ck_assert_uint_eq(n, BIG_UNITS);
    ck_assert(memcmp(u, big_units, BIG_UNITS * 2) == 0);
    for (size_t i = 0; i < BIG_UNITS; i++)
        pairs += big_units[i] == 0xD83D;
    /* UTF-8: 1 byte per ASCII unit, 4 per pair */
    ck_assert_int_eq(jet_text_to_utf8(db4, &v, NULL, 0, &n), JET_OK);
    ck_assert_uint_eq(n, BIG_UNITS - 2 * pairs + 4 * pairs);
    /* the length word is 30 bits: a chain that ends early is corrupt */
    lval_header(h, BIG_UNITS * 2 + 1, CHAIN_FIRST, 0);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_ECORRUPT);
}
END_TEST

START_TEST(memo_jet3_code_page_single_and_chain)
{
    uint8_t h[12];
    jet_column c = var_col(JET_T_MEMO);
    jet_value v;
    lval_header(h, 0x40000000u | J3_MEMO_LEN, 1, 0);
    ck_assert_int_eq(decode(&v, db3, &c, h, 12, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_CODEPAGE);
    const char *s = utf8_of(db3, &v);
    ck_assert(strncmp(s, "caf\xC3\xA9 \xE2\x82\xAC \xC2\xBD \xC2\x81.caf",
                      19) == 0);
    lval_header(h, J3_CHAIN_LEN, 2, 0);
    ck_assert_int_eq(decode(&v, db3, &c, h, 12, false), JET_OK);
    ck_assert_uint_eq(v.len, J3_CHAIN_LEN);
    ck_assert(memcmp(v.data, j3_bytes, J3_CHAIN_LEN) == 0);
    size_t n, want = 0;
    ck_assert_int_eq(jet_text_to_utf8(db3, &v, NULL, 0, &n), JET_OK);
    /* ASCII 1 byte; é ½ U+0081 2 bytes; € 3 bytes */
    for (size_t i = 0; i < J3_CHAIN_LEN; i++)
        want += j3_bytes[i] < 0x80 ? 1 : j3_bytes[i] == 0x80 ? 3 : 2;
    ck_assert_uint_eq(n, want);
}
END_TEST

START_TEST(ole_and_binary_bytes_as_stored)
{
    uint8_t h[12];
    jet_column c = var_col(JET_T_OLE);
    jet_value v;
    lval_header(h, 0x40000000u | OLE_LEN, 1, 1);
    ck_assert_int_eq(decode(&v, db4, &c, h, 12, false), JET_OK);
    ck_assert_int_eq(v.type, JET_T_OLE);
    ck_assert_uint_eq(v.len, OLE_LEN);
    ck_assert(memcmp(v.data, ole_bytes, OLE_LEN) == 0);
    /* BINARY: 255 bytes including zeros; empty vs NULL */
    uint8_t b[255];
    for (int i = 0; i < 255; i++)
        b[i] = (uint8_t)(255 - i);
    b[10] = 0;
    c = var_col(JET_T_BINARY);
    ck_assert_int_eq(decode(&v, db4, &c, b, sizeof b, false), JET_OK);
    ck_assert_uint_eq(v.len, 255);
    ck_assert(memcmp(v.data, b, 255) == 0);
    ck_assert_int_eq(decode(&v, db4, &c, b, 0, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_uint_eq(v.len, 0);
    ck_assert_int_eq(decode(&v, db4, &c, NULL, 0, true), JET_OK);
    ck_assert(v.is_null);
}
END_TEST

START_TEST(guid_bytes_as_stored)
{
    static const uint8_t g[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44,
                                   0x77, 0x66, 0x88, 0x99, 0xAA, 0xBB,
                                   0xCC, 0xDD, 0xEE, 0xFF };
    jet_value v = dec_fixed(JET_T_GUID, g, 16);
    ck_assert(memcmp(v.u.guid, g, 16) == 0);
    jet_column c = fixed_col(JET_T_GUID, 16);
    ck_assert_int_eq(decode(&v, db4, &c, g, 16, true), JET_OK);
    ck_assert(v.is_null);
}
END_TEST

/* 17 stored bytes of a NUMERIC: sign, then 4 LE words, most significant
 * first, from a 96-bit magnitude given as (hi, mid, lo). */
static void numeric_bytes(uint8_t *b, bool neg, uint32_t hi, uint32_t mid,
                          uint32_t lo)
{
    b[0] = neg ? 0x80 : 0;
    pb_put32(b + 1, 0);
    pb_put32(b + 5, hi);
    pb_put32(b + 9, mid);
    pb_put32(b + 13, lo);
}

static const char *numeric_text(const uint8_t *b, uint8_t prec,
                                uint8_t scale)
{
    static char buf[48];
    jet_column c = fixed_col(JET_T_NUMERIC, 17);
    jet_value v;
    c.precision = prec;
    c.scale = scale;
    ck_assert_int_eq(decode(&v, db4, &c, b, 17, false), JET_OK);
    ck_assert_uint_eq(v.u.num.precision, prec);
    ck_assert_uint_eq(v.u.num.scale, scale);
    ck_assert_uint_lt(jet_numeric_format(&v, buf, sizeof buf), sizeof buf);
    return buf;
}

/* "digits" with a point inserted scale digits from the right. */
static const char *with_point(bool neg, const char *digits, unsigned scale)
{
    static char buf[64];
    size_t n = strlen(digits), k = 0;
    if (neg)
        buf[k++] = '-';
    if (scale >= n) {
        buf[k++] = '0';
        if (scale > 0)
            buf[k++] = '.';
        for (size_t i = n; i < scale; i++)
            buf[k++] = '0';
        memcpy(buf + k, digits, n);
        k += n;
    } else {
        memcpy(buf + k, digits, n - scale);
        k += n - scale;
        if (scale > 0) {
            buf[k++] = '.';
            memcpy(buf + k, digits + n - scale, scale);
            k += scale;
        }
    }
    buf[k] = '\0';
    return buf;
}

START_TEST(decimal_28_digits_every_scale_exact)
{
    uint8_t b[17];
    char want[64];
    /* 10^28 - 1 = 0x204FCE5E 3E250261 0FFFFFFF: 28 nines */
    numeric_bytes(b, false, 0x204FCE5Eu, 0x3E250261u, 0x0FFFFFFFu);
    for (unsigned s = 0; s <= 28; s++) {
        snprintf(want, sizeof want, "%s",
                 with_point(false, "9999999999999999999999999999", s));
        ck_assert_str_eq(numeric_text(b, 28, (uint8_t)s), want);
    }
    numeric_bytes(b, true, 0x204FCE5Eu, 0x3E250261u, 0x0FFFFFFFu);
    for (unsigned s = 0; s <= 28; s++) {
        snprintf(want, sizeof want, "%s",
                 with_point(true, "9999999999999999999999999999", s));
        ck_assert_str_eq(numeric_text(b, 28, (uint8_t)s), want);
    }
    /* 2^96 - 1 = 79228162514264337593543950335 (29 digits, the format's
     * own maximum) */
    numeric_bytes(b, true, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
    ck_assert_str_eq(numeric_text(b, 28, 0),
                     "-79228162514264337593543950335");
    /* a digit that a double would lose: 1234567890123456789012345678 */
    numeric_bytes(b, false, 0x03FD35EBu, 0x6D797A91u, 0xBE38F34Eu);
    ck_assert_str_eq(numeric_text(b, 28, 10),
                     "123456789012345678.9012345678");
    /* zero, negative zero, small */
    numeric_bytes(b, false, 0, 0, 0);
    ck_assert_str_eq(numeric_text(b, 18, 0), "0");
    ck_assert_str_eq(numeric_text(b, 18, 4), "0.0000");
    numeric_bytes(b, true, 0, 0, 0);
    ck_assert_str_eq(numeric_text(b, 18, 2), "0.00");
    numeric_bytes(b, true, 0, 0, 1);
    ck_assert_str_eq(numeric_text(b, 28, 28),
                     "-0.0000000000000000000000000001");
}
END_TEST

START_TEST(decimal_beyond_96_bits_is_refused)
{
    uint8_t b[17];
    jet_column c = fixed_col(JET_T_NUMERIC, 17);
    jet_value v;
    numeric_bytes(b, false, 0, 0, 1);
    pb_put32(b + 1, 1);   /* the unused top word is set */
    c.precision = 28;
    ck_assert_int_eq(decode(&v, db4, &c, b, 17, false), JET_ELIMIT);
}
END_TEST

/* A calculated column's stored value: 16 bytes, length, then data. */
static size_t calc_wrap(uint8_t *out, const void *data, size_t n)
{
    memset(out, 0, 20);
    pb_put32(out + 16, (uint32_t)n);
    memcpy(out + 20, data, n);
    return 20 + n;
}

static jet_column calc_col(jet_type result)
{
    jet_column c = var_col(result);
    c.flags |= JET_COL_CALCULATED;
    return c;
}

START_TEST(calculated_columns_decode_in_result_type)
{
    uint8_t w[128], d[16];
    jet_value v;
    jet_column c;
    size_t n;

    c = calc_col(JET_T_LONG);
    le(d, (uint64_t)(int64_t)INT32_MIN, 4);
    n = calc_wrap(w, d, 4);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert_int_eq(v.type, JET_T_LONG);
    ck_assert_int_eq(v.u.i, INT32_MIN);

    c = calc_col(JET_T_MONEY);
    le(d, (uint64_t)INT64_MAX, 8);
    n = calc_wrap(w, d, 8);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(v.u.money == INT64_MAX);

    c = calc_col(JET_T_DOUBLE);
    le(d, dbits(-0.0), 8);
    n = calc_wrap(w, d, 8);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(dbits(v.u.d) == dbits(-0.0));

    c = calc_col(JET_T_BOOL);
    d[0] = 0xFF;
    n = calc_wrap(w, d, 1);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert(v.u.b);
    d[0] = 0;
    n = calc_wrap(w, d, 1);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(!v.u.b);

    c = calc_col(JET_T_TEXT);
    n = calc_wrap(w, "\xFF\xFE" "calc", 6);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert_str_eq(utf8_of(db4, &v), "calc");

    /* an empty result of a non-text type is NULL; of TEXT it is "" */
    c = calc_col(JET_T_LONG);
    n = calc_wrap(w, d, 0);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(v.is_null);
    c = calc_col(JET_T_TEXT);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert(!v.is_null);
    ck_assert_uint_eq(v.len, 0);
}
END_TEST

START_TEST(calculated_numeric_keeps_its_own_scale)
{
    /* Windows DECIMAL: reserved(2) scale sign Hi32 Lo32 Mid32;
     * 192307692307692 scale 10 = 19230.7692307692 */
    uint8_t dec[16] = { 0 }, w[64];
    jet_value v;
    jet_column c = calc_col(JET_T_NUMERIC);
    char buf[48];
    uint64_t m = 192307692307692ull;
    c.precision = 18;
    c.scale = 2;
    dec[2] = 10;
    dec[3] = 0;
    pb_put32(dec + 4, 0);                      /* Hi32 */
    pb_put32(dec + 8, (uint32_t)m);            /* Lo32 */
    pb_put32(dec + 12, (uint32_t)(m >> 32));   /* Mid32 */
    size_t n = calc_wrap(w, dec, 16);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    ck_assert_uint_eq(v.u.num.scale, 10);
    jet_numeric_format(&v, buf, sizeof buf);
    ck_assert_str_eq(buf, "19230.7692307692");
    dec[3] = 0x80;
    n = calc_wrap(w, dec, 16);
    ck_assert_int_eq(decode(&v, db4, &c, w, n, false), JET_OK);
    jet_numeric_format(&v, buf, sizeof buf);
    ck_assert_str_eq(buf, "-19230.7692307692");
}
END_TEST

START_TEST(calculated_memo_unwraps_after_lval)
{
    uint8_t h[12 + 20 + 14];
    jet_column c = calc_col(JET_T_MEMO);
    jet_value v;
    lval_header(h, 0x80000000u | 34, 0, 0);
    calc_wrap(h + 12, "\xFF\xFE" "calc memo!!!", 14);
    ck_assert_int_eq(decode(&v, db4, &c, h, sizeof h, false), JET_OK);
    ck_assert_int_eq(v.enc, JET_ENC_COMPRESSED);
    ck_assert_str_eq(utf8_of(db4, &v), "calc memo!!!");
}
END_TEST

START_TEST(complex_column_returns_the_complex_id)
{
    uint8_t b[4];
    le(b, 12345, 4);
    jet_value v = dec_fixed(JET_T_COMPLEX, b, 4);
    ck_assert_int_eq(v.u.i, 12345);
    le(b, 0x7FFFFFFF, 4);
    ck_assert_int_eq(dec_fixed(JET_T_COMPLEX, b, 4).u.i, INT32_MAX);
}
END_TEST

START_TEST(fixed_value_cut_short_is_corrupt)
{
    /* a DOUBLE column declared at an offset past the fixed area */
    jet_column c = fixed_col(JET_T_DOUBLE, 8);
    jet_value v;
    uint8_t b[4] = { 1, 2, 3, 4 };
    c.fixed_offset = 2;
    ck_assert_int_eq(decode(&v, db4, &c, b, 4, false), JET_ECORRUPT);
    ck_assert_uint_eq(err.pgno, 5);
}
END_TEST

START_TEST(row_with_300_columns_decodes_past_column_255)
{
    /* ACE: 2-byte column count, a 38-byte null mask, 2-byte var offsets.
     * Columns 0..259 fixed LONGs, 260..299 TEXT (var 0..39). */
    enum { NFIX = 260, NVAR = 40, NCOLS = NFIX + NVAR };
    static uint8_t fixed[NFIX * 4];
    static bool nulls[NCOLS];
    static pb_val vars[NVAR];
    static char texts[NVAR][4];
    const jet_format *f = db4->fmt;
    jet_row row;
    jet_value v;
    for (int i = 0; i < NFIX; i++)
        pb_put32(fixed + 4 * i, (uint32_t)(i * 1000));
    for (int i = 0; i < NVAR; i++) {
        snprintf(texts[i], sizeof texts[i], "%c", 'A' + i % 26);
        vars[i].data = texts[i];
        vars[i].len = 1;
    }
    nulls[257] = true;            /* a fixed column past 255 */
    nulls[298] = true;            /* a var column */
    vars[298 - NFIX].is_null = true;
    size_t len = pb_row(rowbuf, sizeof rowbuf, f, NCOLS, nulls, fixed,
                        sizeof fixed, vars, NVAR);
    pb_data_page(page, f, 9);
    uint16_t rn = pb_add_row(page, f, rowbuf, len, 0), s, e, fl;
    ck_assert_int_eq(jet_row_bounds(f, page, 5, rn, &s, &e, &fl, &err),
                     JET_OK);
    ck_assert_int_eq(jet_row_parse(&row, f, page + s, (size_t)(e - s), true,
                                   varbuf, JET_MAX_VAR_OFFSETS, 5, &err),
                     JET_OK);
    ck_assert_uint_eq(row.ncols, NCOLS);
    ck_assert_uint_eq(row.nvar, NVAR);
    for (int i = 250; i < NCOLS; i++) {
        jet_column c;
        if (i < NFIX) {
            c = fixed_col(JET_T_LONG, 4);
            c.fixed_offset = (uint16_t)(4 * i);
        } else {
            c = var_col(JET_T_TEXT);
            c.var_index = (uint16_t)(i - NFIX);
        }
        c.col_num = (uint16_t)i;
        ck_assert_int_eq(jet_value_decode(&v, db4, &row, &c, &scratch, 5,
                                          &err), JET_OK);
        ck_assert_msg(v.is_null == (i == 257 || i == 298), "column %d", i);
        if (v.is_null)
            continue;
        if (i < NFIX) {
            ck_assert_int_eq(v.u.i, i * 1000);
        } else {
            ck_assert_uint_eq(v.len, 1);
            ck_assert_int_eq(v.data[0], 'A' + (i - NFIX) % 26);
        }
    }
}
END_TEST

static Suite *values_suite(void)
{
    Suite *s = suite_create("values");
    TCase *tc = tcase_create("decode");
    tcase_add_unchecked_fixture(tc, files_up, files_down);
    tcase_add_checked_fixture(tc, dbs_up, dbs_down);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, bool_is_the_null_mask_bit_and_never_null);
    tcase_add_test(tc, byte_is_unsigned_0_to_255);
    tcase_add_test(tc, integer_long_bigint_min_and_max);
    tcase_add_test(tc, currency_limits_are_exact_with_four_decimals);
    tcase_add_test(tc, single_keeps_every_bit_pattern);
    tcase_add_test(tc, double_keeps_every_bit_pattern);
    tcase_add_test(tc, datetime_limits_and_pre_1899_absolute_time);
    tcase_add_test(tc, datetime_round_trips_to_the_millisecond);
    tcase_add_test(tc, datetime_extended_100ns_from_year_1_to_9999);
    tcase_add_test(tc, text_empty_string_is_not_null);
    tcase_add_test(tc, text_uncompressed_surrogate_pair_survives);
    tcase_add_test(tc, text_compressed_with_uncompressed_runs);
    tcase_add_test(tc, text_jet3_code_page);
    tcase_add_test(tc, memo_inline_compressed);
    tcase_add_test(tc, memo_single_page_ucs2_and_compressed);
    tcase_add_test(tc, memo_multi_page_chain_over_64k_is_exact);
    tcase_add_test(tc, memo_jet3_code_page_single_and_chain);
    tcase_add_test(tc, ole_and_binary_bytes_as_stored);
    tcase_add_test(tc, guid_bytes_as_stored);
    tcase_add_test(tc, decimal_28_digits_every_scale_exact);
    tcase_add_test(tc, decimal_beyond_96_bits_is_refused);
    tcase_add_test(tc, calculated_columns_decode_in_result_type);
    tcase_add_test(tc, calculated_numeric_keeps_its_own_scale);
    tcase_add_test(tc, calculated_memo_unwraps_after_lval);
    tcase_add_test(tc, complex_column_returns_the_complex_id);
    tcase_add_test(tc, fixed_value_cut_short_is_corrupt);
    tcase_add_test(tc, row_with_300_columns_decodes_past_column_255);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(values_suite)
