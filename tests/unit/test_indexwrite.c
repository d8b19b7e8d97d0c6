/*
 * test_indexwrite.c - index B-tree upkeep (core/indexwrite.c) and the
 * index page decoder (jet_index_page_read, core/indexenc.c).
 *
 *   - the decoder against jet_index_page_build (random pages) and against
 *     every index page of the public Jet4/ACE fixtures;
 *   - rebuilds on copies of fixture tables that keep table and index
 *     consistent without writing rows: (a) the entries of random rows
 *     deleted and inserted again, (b) every entry deleted (the root ends
 *     an empty leaf) and every row's entry inserted in random order; keys
 *     from jet_index_row_key over the row's values. After the commit the
 *     whole tree is checked (order, node entries = their child's last
 *     entry, tails, leaf chain), its entries must be exactly the table's,
 *     seeks (jet_index_cursor) on random keys give the rows the scan
 *     gives, jet_db_check finds no problem, and `jetcheck verify`
 *     (shared folder, java) passes;
 *   - a tree of long synthetic keys grown to 4+ levels and emptied again,
 *     then rolled back: the file is byte-for-byte what it was;
 *   - a duplicate key in a primary key: JET_EDUPLICATE, nothing changed.
 *
 * Needs the shared folder (../shared or $JETODBC_SHARED), else skips
 * (exit 77). JET_INDEXWRITE_LONG=1 adds the 200,000-row bulk.accdb and
 * bulk.mdb primary keys (every level splits; a few minutes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode.h"
#include "index.h"
#include "internal.h"
#include "unit.h"
#include "write.h"
#include "../shared_dir.h"
#include "../slurp.h"
#include "../writetest.h"

static const char *shared_file(const char *rel)
{
    static char buf[4][1024];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, sizeof buf[0], "%s/fixtures/%s", jet_shared_dir(), rel);
    return access(b, R_OK) == 0 ? b : NULL;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* ------------------------------------------------------ decoder checks */

static jet_format fmt4k(void)
{
    jet_format f;
    memset(&f, 0, sizeof f);
    f.page_size = 4096;
    return f;
}

static int ent_cmp_q(const void *a, const void *b)
{
    return jet_index_entry_cmp(a, b);
}

START_TEST(decode_inverts_build)
{
    jet_format f = fmt4k();
    static uint8_t page[4096], page2[4096], keys[1 << 16], kb[1 << 16];
    jet_index_entry ents[600], back[600];
    for (int round = 0; round < 400; round++) {
        bool leaf = round % 2 == 0;
        size_t n = 1 + rnd() % 300, klen0 = 1 + rnd() % 40, used, used2;
        size_t pre = rnd() % (klen0 + 1), pos = 0;
        jet_index_page_hdr h;
        jet_rc rc;
        for (size_t i = 0; i < n; i++) {
            size_t kl = pre + rnd() % (klen0 - pre + 4);
            if (kl == 0)
                kl = 1;
            for (size_t k = 0; k < kl; k++)
                keys[pos + k] = k < pre ? (uint8_t)(0x7F - k) : (uint8_t)rnd();
            ents[i].key = keys + pos;
            ents[i].key_len = kl;
            ents[i].pgno = rnd() & 0xFFFFFF;
            ents[i].row = (uint8_t)rnd();
            ents[i].child = leaf ? 0 : rnd();
            pos += kl;
        }
        qsort(ents, n, sizeof ents[0], ent_cmp_q);
        for (size_t i = 1; i < n; i++)      /* drop equal neighbours */
            if (jet_index_entry_cmp(&ents[i - 1], &ents[i]) == 0) {
                memmove(&ents[i], &ents[i + 1], (n - i - 1) * sizeof ents[0]);
                n--;
                i--;
            }
        rc = jet_index_page_build(page, &f, leaf, 77, 5, 6, leaf ? 0 : 9,
                                  ents, n, &used);
        if (rc == JET_ELIMIT)
            continue;
        ck_assert_int_eq(rc, JET_OK);
        ck_assert_int_eq(jet_index_page_read(page, &f, &h, back, 600, kb,
                                             sizeof kb, NULL), JET_OK);
        ck_assert_uint_eq(h.n, n);
        ck_assert(h.leaf == leaf);
        ck_assert_uint_eq(h.tdef_pgno, 77);
        ck_assert_uint_eq(h.prev, 5);
        ck_assert_uint_eq(h.next, 6);
        ck_assert_uint_eq(h.tail, leaf ? 0 : 9);
        ck_assert_uint_eq(h.used, used);
        {
            jet_index_page_hdr h2;
            ck_assert_int_eq(jet_index_page_head(page, &f, &h2), JET_OK);
            ck_assert_uint_eq(h2.n, h.n);
            ck_assert_uint_eq(h2.used, h.used);
            ck_assert_uint_eq(h2.prefix_len, h.prefix_len);
            ck_assert(h2.leaf == h.leaf);
            ck_assert_uint_eq(h2.tail, h.tail);
            ck_assert_uint_eq(h2.prev, h.prev);
            ck_assert_uint_eq(h2.next, h.next);
            ck_assert_uint_eq(h2.tdef_pgno, h.tdef_pgno);
        }
        for (size_t i = 0; i < n; i++) {
            ck_assert_uint_eq(back[i].key_len, ents[i].key_len);
            ck_assert(memcmp(back[i].key, ents[i].key, ents[i].key_len) == 0);
            ck_assert_uint_eq(back[i].pgno, ents[i].pgno);
            ck_assert_uint_eq(back[i].row, ents[i].row);
            ck_assert_uint_eq(back[i].child, ents[i].child);
        }
        ck_assert_int_eq(jet_index_page_build(page2, &f, leaf, 77, 5, 6,
                                              leaf ? 0 : 9, back, n, &used2),
                         JET_OK);
        ck_assert(memcmp(page, page2, sizeof page) == 0);
        /* the in-place search agrees with the decoded order */
        for (int probe = 0; probe < 20; probe++) {
            size_t i = rnd() % n, at;
            jet_index_entry found, below = ents[i];
            ck_assert_int_eq(jet_index_page_find(page, &f, &h, &ents[i], &at,
                                                 &found), JET_OK);
            ck_assert_uint_eq(at, i);
            ck_assert_uint_eq(found.pgno, ents[i].pgno);
            ck_assert_uint_eq(found.row, ents[i].row);
            ck_assert_uint_eq(found.child, ents[i].child);
            ck_assert_uint_eq(found.key_len, ents[i].key_len);
            /* just above entry i: the next one */
            below.row++;
            if (below.row == 0)
                continue;
            ck_assert_int_eq(jet_index_page_find(page, &f, &h, &below, &at,
                                                 &found), JET_OK);
            ck_assert_uint_eq(at, i + 1 < n &&
                              jet_index_entry_cmp(&below, &ents[i + 1]) > 0
                                  ? i + 2 : i + 1);
        }
        /* jet_index_page_seek: head and find in one, the last entry for
         * a key past every entry (an append) */
        for (int probe = 0; probe < 20; probe++) {
            size_t i = rnd() % n, at, at2;
            jet_index_page_hdr h3;
            jet_index_entry found, found2, past = ents[n - 1];
            ck_assert_int_eq(jet_index_page_seek(page, &f, &ents[i], &h3, &at,
                                                 &found), JET_OK);
            ck_assert_uint_eq(h3.n, h.n);
            ck_assert_uint_eq(h3.used, h.used);
            ck_assert_uint_eq(h3.prefix_len, h.prefix_len);
            ck_assert_uint_eq(h3.tail, h.tail);
            ck_assert_uint_eq(at, i);
            ck_assert_uint_eq(found.pgno, ents[i].pgno);
            ck_assert_uint_eq(found.row, ents[i].row);
            ck_assert_uint_eq(found.child, ents[i].child);
            ck_assert_uint_eq(found.key_len, ents[i].key_len);
            ck_assert_int_eq(jet_index_page_find(page, &f, &h, &ents[i], &at2,
                                                 &found2), JET_OK);
            ck_assert_uint_eq(at2, at);
            if (past.row == 0xFF)
                continue;
            past.row++;
            ck_assert_int_eq(jet_index_page_seek(page, &f, &past, &h3, &at,
                                                 &found), JET_OK);
            ck_assert_uint_eq(at, n);
            ck_assert_uint_eq(found.pgno, ents[n - 1].pgno);
            ck_assert_uint_eq(found.row, ents[n - 1].row);
            ck_assert_uint_eq(found.child, ents[n - 1].child);
            ck_assert_uint_eq(found.key_len, ents[n - 1].key_len);
        }
        {
            jet_index_page_hdr h4;
            ck_assert_int_eq(jet_index_page_links(page, &f, &h4), JET_OK);
            ck_assert(h4.leaf == leaf);
            ck_assert_uint_eq(h4.tdef_pgno, 77);
            ck_assert_uint_eq(h4.prev, 5);
            ck_assert_uint_eq(h4.next, 6);
            ck_assert_uint_eq(h4.tail, leaf ? 0 : 9);
            ck_assert_uint_eq(h4.prefix_len, h.prefix_len);
            ck_assert_uint_eq(h4.n, 0);
        }
        {
            size_t at;
            jet_index_entry found;
            ck_assert_int_eq(jet_index_page_find(page, &f, &h, NULL, &at,
                                                 &found), JET_OK);
            ck_assert_uint_eq(at, n - 1);
            ck_assert_uint_eq(found.pgno, ents[n - 1].pgno);
        }
    }
    /* damage: bit 0, a bit past the area, an entry shorter than its
     * pointer, out of order */
    {
        jet_index_page_hdr h;
        uint8_t k1[2] = { 0x7F, 1 }, k2[2] = { 0x7F, 2 };
        jet_index_entry two[2] = { { k1, 2, 1, 1, 0 }, { k2, 2, 1, 1, 0 } };
        size_t used;
        ck_assert_int_eq(jet_index_page_build(page, &f, true, 1, 0, 0, 0, two,
                                              2, &used), JET_OK);
        memcpy(page2, page, sizeof page);
        page2[27] |= 1;
        ck_assert_int_eq(jet_index_page_read(page2, &f, &h, NULL, 0, NULL, 0,
                                             NULL), JET_ECORRUPT);
        ck_assert_int_eq(jet_index_page_head(page2, &f, &h), JET_ECORRUPT);
        memcpy(page2, page, sizeof page);
        page2[27 + 452] |= 0x80;
        ck_assert_int_eq(jet_index_page_read(page2, &f, &h, NULL, 0, NULL, 0,
                                             NULL), JET_ECORRUPT);
        ck_assert_int_eq(jet_index_page_head(page2, &f, &h), JET_ECORRUPT);
        memcpy(page2, page, sizeof page);
        page2[27] |= 0x04;      /* an entry of 2 bytes */
        ck_assert_int_eq(jet_index_page_read(page2, &f, &h, NULL, 0, NULL, 0,
                                             NULL), JET_ECORRUPT);
        {
            size_t at;
            bool done;
            jet_index_entry found;
            ck_assert_int_eq(jet_index_page_head(page2, &f, &h),
                             JET_ECORRUPT);
            h.n = 3;
            h.prefix_len = 1;
            ck_assert_int_eq(jet_index_page_find(page2, &f, &h, &two[0], &at,
                                                 &found), JET_ECORRUPT);
            ck_assert_int_eq(jet_index_page_seek(page2, &f, &two[0], &h, &at,
                                                 &found), JET_ECORRUPT);
            ck_assert_int_eq(jet_index_leaf_remove(page2, &f, &two[0],
                                                   &done), JET_ECORRUPT);
            ck_assert(!done);
        }
        memcpy(page2, page, sizeof page);
        page2[480 + 1] = 9;     /* first key above the second */
        ck_assert_int_eq(jet_index_page_read(page2, &f, &h, back, 600, kb,
                                             sizeof kb, NULL), JET_ECORRUPT);
        memcpy(page2, page, sizeof page);
        page2[0] = 1;
        ck_assert_int_eq(jet_index_page_read(page2, &f, &h, NULL, 0, NULL, 0,
                                             NULL), JET_ECORRUPT);
        ck_assert_int_eq(jet_index_page_head(page2, &f, &h), JET_ECORRUPT);
        ck_assert_int_eq(jet_index_page_links(page2, &f, &h), JET_ECORRUPT);
    }
}
END_TEST

/* jet_index_leaf_insert/_remove against jet_index_page_build: a change
 * made in place leaves the page build writes for the new entries, byte
 * for byte; one it declines leaves the page as it was. */
START_TEST(leaf_in_place_matches_build)
{
    jet_format f = fmt4k();
    static uint8_t page[4096], want[4096], before[4096], keys[1 << 16];
    jet_index_entry ents[700], e;
    size_t done_ins = 0, done_rm = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n = 2 + rnd() % 400, klen0 = 1 + rnd() % 12, used, pos = 0;
        size_t pre = rnd() % (klen0 + 1), x;
        bool unique = rnd() % 2, last_ok = rnd() % 2, done;
        for (size_t i = 0; i < n + 1; i++) {
            size_t kl = pre + rnd() % (klen0 - pre + 2);
            if (kl == 0)
                kl = 1;
            for (size_t k = 0; k < kl; k++)
                keys[pos + k] = k < pre ? (uint8_t)(0x7F - k)
                                        : (uint8_t)(rnd() % 4);
            ents[i].key = keys + pos;
            ents[i].key_len = kl;
            ents[i].pgno = rnd() % 3;
            ents[i].row = (uint8_t)(rnd() % 3);
            ents[i].child = 0;
            pos += kl;
        }
        qsort(ents, n + 1, sizeof ents[0], ent_cmp_q);
        for (size_t i = 1; i < n + 1; i++)
            if (jet_index_entry_cmp(&ents[i - 1], &ents[i]) == 0) {
                memmove(&ents[i], &ents[i + 1], (n - i) * sizeof ents[0]);
                n--;
                i--;
            }
        if (n < 2)
            continue;
        /* insert: entry x taken out, then put back in place */
        x = rnd() % (n + 1);
        e = ents[x];
        memmove(&ents[x], &ents[x + 1], (n - x) * sizeof ents[0]);
        if (jet_index_page_build(page, &f, true, 77, 5, 6, 0, ents, n,
                                 &used) != JET_OK)
            continue;
        memcpy(before, page, sizeof page);
        ck_assert_int_eq(jet_index_leaf_insert(page, &f, &e, unique, last_ok,
                                               &done), JET_OK);
        memmove(&ents[x + 1], &ents[x], (n - x) * sizeof ents[0]);
        ents[x] = e;
        if (!done) {
            ck_assert(memcmp(page, before, sizeof page) == 0);
        } else {
            bool dup = (x > 0 && ents[x - 1].key_len == e.key_len &&
                        memcmp(ents[x - 1].key, e.key, e.key_len) == 0) ||
                       (x < n && ents[x + 1].key_len == e.key_len &&
                        memcmp(ents[x + 1].key, e.key, e.key_len) == 0);
            ck_assert(x > 0 && (x < n || last_ok) && !(unique && dup));
            ck_assert_int_eq(jet_index_page_build(want, &f, true, 77, 5, 6, 0,
                                                  ents, n + 1, &used),
                             JET_OK);
            ck_assert_msg(memcmp(page, want, sizeof page) == 0,
                          "round %d: insert at %zu of %zu differs", round, x,
                          n + 1);
            done_ins++;
        }
        /* remove: entry x out of the page of all n + 1 */
        n++;
        if (jet_index_page_build(page, &f, true, 77, 5, 6, 0, ents, n,
                                 &used) != JET_OK)
            continue;
        x = rnd() % n;
        e = ents[x];
        if (rnd() % 8 == 0)
            e.row ^= 0x40;      /* not on the page */
        memcpy(before, page, sizeof page);
        ck_assert_int_eq(jet_index_leaf_remove(page, &f, &e, &done), JET_OK);
        if (!done) {
            ck_assert(memcmp(page, before, sizeof page) == 0);
            continue;
        }
        ck_assert(jet_index_entry_cmp(&e, &ents[x]) == 0);
        ck_assert(x > 0 && x + 1 < n);
        memmove(&ents[x], &ents[x + 1], (n - x - 1) * sizeof ents[0]);
        ck_assert_int_eq(jet_index_page_build(want, &f, true, 77, 5, 6, 0,
                                              ents, n - 1, &used), JET_OK);
        ck_assert_msg(memcmp(page, want, sizeof page) == 0,
                      "round %d: remove at %zu of %zu differs", round, x, n);
        done_rm++;
    }
    ck_assert_uint_gt(done_ins, 500);
    ck_assert_uint_gt(done_rm, 500);
}
END_TEST

/* ----------------------------------------------------------- tree walk */

/* An index's entries in a flat list (keys in one growing buffer). */
typedef struct elist {
    jet_index_entry *e;
    size_t n, cap;
    uint8_t **keys;     /* each entry's own allocation */
} elist;

static void elist_add(elist *l, const uint8_t *key, size_t klen,
                      uint32_t pgno, uint8_t row)
{
    uint8_t *k = malloc(klen ? klen : 1);
    ck_assert_ptr_nonnull(k);
    memcpy(k, key, klen);
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        l->keys = realloc(l->keys, l->cap * sizeof *l->keys);
        ck_assert_ptr_nonnull(l->e);
        ck_assert_ptr_nonnull(l->keys);
    }
    l->keys[l->n] = k;
    l->e[l->n].key = k;
    l->e[l->n].key_len = klen;
    l->e[l->n].pgno = pgno;
    l->e[l->n].row = row;
    l->e[l->n].child = 0;
    l->n++;
}

static void elist_free(elist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->keys[i]);
    free(l->e);
    free(l->keys);
    memset(l, 0, sizeof *l);
}

typedef struct walk {
    jet_db *db;
    uint32_t tdef;
    elist out;          /* leaf entries in order */
    uint32_t last_leaf; /* previous leaf of the chain, 0 = none yet */
    int depth;          /* leaf depth (all leaves alike) */
    size_t pages, leaves;
} walk;

/* Check the subtree at pgno (depth d) and return its last entry in
 * *last (key copied to lastkey). Node entries must equal the last entry
 * of their child; the tail child's last entry must be above them. */
static bool walk_page(walk *w, uint32_t pgno, int d, jet_index_entry *last,
                      uint8_t *lastkey, bool root)
{
    const uint8_t *page;
    jet_index_page_hdr h;
    jet_index_entry *ents;
    uint8_t *kb;
    bool any = false;

    ck_assert_msg(d < 40, "tree too deep");
    ck_assert_int_eq(jet_page_pin(w->db->pf, pgno, &page, NULL), JET_OK);
    ck_assert_int_eq(jet_index_page_read(page, w->db->fmt, &h, NULL, 0, NULL,
                                         0, NULL), JET_OK);
    ents = malloc((h.n + 1) * sizeof *ents);
    kb = malloc(h.key_bytes + 1);
    ck_assert_int_eq(jet_index_page_read(page, w->db->fmt, &h, ents, h.n + 1,
                                         kb, h.key_bytes + 1, NULL), JET_OK);
    jet_page_unpin(w->db->pf, page);
    ck_assert_uint_eq(h.tdef_pgno, w->tdef);
    w->pages++;
    if (h.leaf) {
        if (w->depth < 0)
            w->depth = d;
        ck_assert_msg(w->depth == d, "leaves at depths %d and %d", w->depth,
                      d);
        ck_assert_msg(root || h.n > 0, "empty leaf %u below the root", pgno);
        ck_assert_uint_eq(h.prev, w->last_leaf);
        if (w->last_leaf != 0) {
            const uint8_t *pp;
            ck_assert_int_eq(jet_page_pin(w->db->pf, w->last_leaf, &pp, NULL),
                             JET_OK);
            ck_assert_uint_eq(jet_get_u32(pp + 16), pgno);
            jet_page_unpin(w->db->pf, pp);
        }
        w->last_leaf = pgno;
        w->leaves++;
        for (size_t i = 0; i < h.n; i++) {
            if (w->out.n > 0)
                ck_assert_int_lt(jet_index_entry_cmp(&w->out.e[w->out.n - 1],
                                                     &ents[i]), 0);
            elist_add(&w->out, ents[i].key, ents[i].key_len, ents[i].pgno,
                      ents[i].row);
        }
        if (h.n > 0) {
            *last = ents[h.n - 1];
            memcpy(lastkey, last->key, last->key_len);
            last->key = lastkey;
            any = true;
        }
    } else {
        ck_assert_msg(h.n > 0 || h.tail != 0, "node %u without children",
                      pgno);
        for (size_t i = 0; i < h.n; i++) {
            jet_index_entry cl;
            ck_assert(walk_page(w, ents[i].child, d + 1, &cl, lastkey, false));
            ck_assert_msg(jet_index_entry_cmp(&cl, &ents[i]) == 0,
                          "node %u entry %zu is not its child's last entry",
                          pgno, i);
        }
        if (h.tail != 0) {
            jet_index_entry cl;
            ck_assert(walk_page(w, h.tail, d + 1, &cl, lastkey, false));
            if (h.n > 0)
                ck_assert_int_gt(jet_index_entry_cmp(&cl, &ents[h.n - 1]), 0);
            *last = cl;
        } else {
            *last = ents[h.n - 1];
            memcpy(lastkey, last->key, last->key_len);
            last->key = lastkey;
        }
        any = true;
    }
    free(ents);
    free(kb);
    return any;
}

/* Walk the whole index ix of t: structure checked, entries into w->out. */
static void walk_index(walk *w, jet_db *db, const jet_tdef *t,
                       const jet_index *ix)
{
    static uint8_t lastkey[JET_INDEX_KEY_MAX + 8];
    jet_index_entry last;
    memset(w, 0, sizeof *w);
    w->db = db;
    w->tdef = t->pgno;
    w->depth = -1;
    walk_page(w, ix->first_pgno, 0, &last, lastkey, true);
    ck_assert_uint_eq(w->leaves > 0, 1);
}

/* Every index page of the public Jet4/ACE fixtures: decode, build again,
 * decode again: the same entries; the tree's structure holds. */
START_TEST(decode_fixture_pages)
{
    static const char *files[] = {
        "public/mdbtestdata/nwind.mdb",
        "public/jackcess/V2003/testIndexCodesV2003.mdb",
        "public/jackcess/V2003/compIndexTestV2003.mdb",
        "public/jackcess/V2010/testIndexCodesV2010.accdb",
        "public/jackcess/V2010/compIndexTestV2010.accdb",
        "public/jackcess/V2010/testIndexPropertiesV2010.accdb",
        "public/jackcess/V2007/testV2007.accdb",
        "public/jackcess/V2003/bigIndexTestV2003.mdb",
        "bulk/perf.accdb",
    };
    size_t pages = 0, same = 0, indexes = 0;
    static uint8_t page2[4096], kb[1 << 17], kb2[1 << 17];
    static jet_index_entry ents[2048], ents2[2048];
    for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        const char *path = shared_file(files[fi]);
        jet_db *db;
        if (path == NULL || jet_db_open(&db, path, NULL, NULL) != JET_OK)
            continue;
        if (db->fmt->jet3) {
            jet_db_close(db);
            continue;
        }
        for (size_t i = 0; i < jet_catalog_count(db); i++) {
            const jet_object *o = jet_catalog_at(db, i);
            const jet_tdef *t;
            if (o->kind != JET_OBJ_TABLE || jet_tdef_load(&t, db, o) != JET_OK)
                continue;
            for (uint16_t k = 0; k < t->nindexes; k++) {
                walk w;
                walk_index(&w, db, t, &t->indexes[k]);
                indexes++;
                elist_free(&w.out);
            }
        }
        /* every index page of the file, rebuilt */
        for (uint32_t pg = 1; pg < jet_pagefile_page_count(db->pf); pg++) {
            const uint8_t *p;
            jet_index_page_hdr h, h2;
            size_t used;
            ck_assert_int_eq(jet_page_pin(db->pf, pg, &p, NULL), JET_OK);
            if (p[0] != 0x03 && p[0] != 0x04) {
                jet_page_unpin(db->pf, p);
                continue;
            }
            ck_assert_msg(jet_index_page_read(p, db->fmt, &h, ents, 2048, kb,
                                              sizeof kb, NULL) == JET_OK,
                          "%s page %u", files[fi], pg);
            ck_assert_int_eq(jet_index_page_build(page2, db->fmt, h.leaf,
                                                  h.tdef_pgno, h.prev, h.next,
                                                  h.tail, ents, h.n, &used),
                             JET_OK);
            ck_assert_int_eq(jet_index_page_read(page2, db->fmt, &h2, ents2,
                                                 2048, kb2, sizeof kb2, NULL),
                             JET_OK);
            ck_assert_uint_eq(h2.n, h.n);
            for (size_t e = 0; e < h.n; e++)
                ck_assert_int_eq(jet_index_entry_cmp(&ents[e], &ents2[e]), 0);
            pages++;
            if (memcmp(p + 4, page2 + 4, 20) == 0 &&
                memcmp(p + 27, page2 + 27, db->fmt->page_size - 27) == 0)
                same++;
            jet_page_unpin(db->pf, p);
        }
        jet_db_close(db);
    }
    fprintf(stderr, "decoder: %zu index trees walked, %zu index pages "
            "decoded and rebuilt (%zu byte-identical past the header)\n",
            indexes, pages, same);
    ck_assert_uint_gt(pages, 100);
}
END_TEST

/* --------------------------------------------------------- rebuild test */

typedef struct pidx {
    uint16_t no;            /* logical index used */
    elist rows;             /* expected entries, one per row */
    bool usable;
} pidx;

/* The expected entries of every physical index of table t, from a scan.
 * An index whose keys cannot be encoded (or that does not match what is
 * on disk) is marked unusable. */
static size_t collect(jet_db *db, const jet_tdef *t, pidx *px)
{
    jet_scan *s;
    jet_value *vals = calloc(t->ncols, sizeof *vals);
    uint8_t key[JET_INDEX_KEY_MAX];
    size_t np = 0;
    for (uint16_t k = 0; k < t->nindexes; k++) {
        bool seen = false;
        for (size_t j = 0; j < np; j++)
            seen |= t->indexes[px[j].no].first_pgno ==
                    t->indexes[k].first_pgno;
        if (!seen) {
            memset(&px[np], 0, sizeof px[np]);
            px[np].no = k;
            px[np++].usable = true;
        }
    }
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    while (jet_scan_next(s) == JET_OK) {
        uint32_t pg;
        uint16_t row;
        ck_assert_int_eq(jet_scan_position(s, &pg, &row), JET_OK);
        for (size_t j = 0; j < np; j++) {
            const jet_index *ix = &t->indexes[px[j].no];
            size_t klen;
            bool null_all = true;
            if (!px[j].usable)
                continue;
            for (uint16_t c = 0; c < ix->ncols; c++) {
                ck_assert_int_eq(jet_scan_value(s, ix->cols[c].col,
                                                &vals[ix->cols[c].col]),
                                 JET_OK);
                null_all &= vals[ix->cols[c].col].is_null;
            }
            if (jet_index_row_key(key, sizeof key, &klen, db, t, ix, vals) !=
                JET_OK) {
                px[j].usable = false;
                continue;
            }
            if (null_all && ix->ignore_nulls)
                continue;
            elist_add(&px[j].rows, key, klen, pg, (uint8_t)row);
        }
    }
    jet_scan_close(s);
    free(vals);
    for (size_t j = 0; j < np; j++) {
        walk w;
        if (!px[j].usable)
            continue;
        qsort(px[j].rows.e, px[j].rows.n, sizeof *px[j].rows.e, ent_cmp_q);
        walk_index(&w, db, t, &t->indexes[px[j].no]);
        if (w.out.n != px[j].rows.n) {
            px[j].usable = false;
        } else {
            for (size_t i = 0; i < w.out.n; i++)
                if (jet_index_entry_cmp(&w.out.e[i], &px[j].rows.e[i]) != 0) {
                    px[j].usable = false;
                    break;
                }
        }
        if (!px[j].usable)
            fprintf(stderr, "index %s of %s: keys differ from the file's, "
                    "not rebuilt\n", t->indexes[px[j].no].name, t->name);
        elist_free(&w.out);
    }
    return np;
}

static void shuffle(size_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rnd() % i, x = a[i - 1];
        a[i - 1] = a[j];
        a[j] = x;
    }
}

static const jet_tdef *load_table(jet_db *db, const char *name)
{
    const jet_object *o = jet_catalog_find(db, name);
    const jet_tdef *t;
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(jet_tdef_load(&t, db, o), JET_OK);
    return t;
}

static jet_rowid rid(const jet_index_entry *e)
{
    jet_rowid r;
    r.pgno = e->pgno;
    r.row = e->row;
    return r;
}

static int rid_cmp(const void *a, const void *b)
{
    const jet_index_entry *x = a, *y = b;
    uint32_t p = x->pgno << 8 | x->row, q = y->pgno << 8 | y->row;
    return p < q ? -1 : p > q;
}

/* Seeks on random keys of index no: every row whose key equals the
 * probe's is found, and every row found with a full key has it. */
static void check_seeks(jet_db *db, const jet_tdef *t, uint16_t no,
                        const elist *rows, unsigned probes)
{
    const jet_index *ix = &t->indexes[no];
    uint16_t nk = jet_index_seekable_cols(t, no);
    jet_index_cursor *cur;
    jet_scan *s;
    jet_index_entry *byrid;
    jet_value *vals = calloc(t->ncols, sizeof *vals), keys[10];
    if (nk < ix->ncols || rows->n == 0) {
        free(vals);
        return;
    }
    byrid = malloc(rows->n * sizeof *byrid);
    memcpy(byrid, rows->e, rows->n * sizeof *byrid);
    qsort(byrid, rows->n, sizeof *byrid, rid_cmp);
    ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
    ck_assert_int_eq(jet_index_cursor_open(&cur, db, t, no), JET_OK);
    for (unsigned p = 0; p < probes; p++) {
        const jet_index_entry *probe = &rows->e[rnd() % rows->n];
        size_t want = 0, got = 0, lo, hi;
        uint32_t pg;
        uint16_t row;
        jet_rc rc;
        /* the run of rows with the probe's key */
        lo = (size_t)(probe - rows->e);
        hi = lo;
        while (lo > 0 && rows->e[lo - 1].key_len == probe->key_len &&
               memcmp(rows->e[lo - 1].key, probe->key, probe->key_len) == 0)
            lo--;
        while (hi + 1 < rows->n && rows->e[hi + 1].key_len == probe->key_len &&
               memcmp(rows->e[hi + 1].key, probe->key, probe->key_len) == 0)
            hi++;
        want = hi - lo + 1;
        ck_assert_int_eq(jet_scan_fetch_row(s, probe->pgno, probe->row),
                         JET_OK);
        for (uint16_t c = 0; c < ix->ncols; c++)
            ck_assert_int_eq(jet_scan_value(s, ix->cols[c].col, &keys[c]),
                             JET_OK);
        /* the key values stay valid: fixed types only (seekable) */
        ck_assert_int_eq(jet_index_seek(cur, keys, ix->ncols, JET_SEEK_GE),
                         JET_OK);
        ck_assert_int_eq(jet_index_set_upper(cur, keys, ix->ncols, true),
                         JET_OK);
        while ((rc = jet_index_next(cur, &pg, &row)) == JET_OK) {
            jet_index_entry k, *f;
            k.pgno = pg;
            k.row = (uint8_t)row;
            f = bsearch(&k, byrid, rows->n, sizeof *byrid, rid_cmp);
            ck_assert_msg(f != NULL, "seek found row %u:%u not in the table",
                          pg, row);
            if (f->key_len == probe->key_len &&
                memcmp(f->key, probe->key, probe->key_len) == 0)
                got++;
        }
        ck_assert_int_eq(rc, JET_DONE);
        ck_assert_msg(got == want, "index %s: seek found %zu of %zu rows",
                      ix->name, got, want);
    }
    jet_index_cursor_close(cur);
    jet_scan_close(s);
    free(byrid);
    free(vals);
}

/*
 * Rebuild every usable physical index of table `table` of a copy of
 * fixture rel: `nrand` random rows deleted and re-inserted, then (full)
 * every entry deleted and all inserted again in random order. Committed,
 * reopened, checked, verified by jetcheck. Returns the indexes rebuilt.
 */
static size_t rebuild_table(const char *rel, const char *table, size_t nrand,
                            bool full, unsigned probes)
{
    const char *src = shared_file(rel);
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    pidx px[32];
    size_t np, done = 0;
    jet_error err;

    if (src == NULL) {
        fprintf(stderr, "%s absent: skipped\n", rel);
        return 0;
    }
    jet_test_copy_to_temp(path, sizeof path, src, "idxw");
    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    if (db->fmt->jet3) {
        fprintf(stderr, "%s is a Jet3 file (read-only): skipped\n", rel);
        jet_db_close(db);
        jet_test_remove_db(path);
        return 0;
    }
    t = load_table(db, table);
    ck_assert_uint_le(t->nindexes, 32);
    np = collect(db, t, px);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t j = 0; j < np; j++) {
        const jet_index *ix = &t->indexes[px[j].no];
        elist *l = &px[j].rows;
        size_t *ord, m = nrand < l->n ? nrand : l->n;
        if (!px[j].usable)
            continue;
        ord = malloc((l->n + 1) * sizeof *ord);
        for (size_t i = 0; i < l->n; i++)
            ord[i] = i;
        shuffle(ord, l->n);
        for (size_t i = 0; i < m; i++) {
            const jet_index_entry *e = &l->e[ord[i]];
            jet_rc rc = jet_index_entry_delete(db, t, ix, e->key, e->key_len,
                                               rid(e));
            ck_assert_msg(rc == JET_OK, "delete: %s",
                          jet_db_error(db)->msg);
        }
        shuffle(ord, m);
        for (size_t i = 0; i < m; i++) {
            const jet_index_entry *e = &l->e[ord[i]];
            jet_rc rc = jet_index_entry_insert(db, t, ix, e->key, e->key_len,
                                               rid(e));
            ck_assert_msg(rc == JET_OK, "insert: %s",
                          jet_db_error(db)->msg);
        }
        if (full) {
            const uint8_t *root;
            shuffle(ord, l->n);
            for (size_t i = 0; i < l->n; i++) {
                const jet_index_entry *e = &l->e[ord[i]];
                jet_rc rc = jet_index_entry_delete(db, t, ix, e->key,
                                                   e->key_len, rid(e));
                ck_assert_msg(rc == JET_OK, "delete all: %s",
                              jet_db_error(db)->msg);
            }
            ck_assert_int_eq(jet_page_pin(db->pf, ix->first_pgno, &root,
                                          NULL), JET_OK);
            ck_assert_uint_eq(root[0], 0x04);
            ck_assert_uint_eq(jet_get_u16(root + 2), db->fmt->page_size - 480);
            jet_page_unpin(db->pf, root);
            shuffle(ord, l->n);
            for (size_t i = 0; i < l->n; i++) {
                const jet_index_entry *e = &l->e[ord[i]];
                jet_rc rc = jet_index_entry_insert(db, t, ix, e->key,
                                                   e->key_len, rid(e));
                ck_assert_msg(rc == JET_OK, "insert all: %s",
                              jet_db_error(db)->msg);
            }
        }
        free(ord);
    }
    ck_assert_int_eq(jet_db_write_commit(db), JET_OK);
    jet_db_close(db);

    ck_assert_int_eq(jet_db_open(&db, path, NULL, &err), JET_OK);
    t = load_table(db, table);
    for (size_t j = 0; j < np; j++) {
        walk w;
        if (!px[j].usable)
            continue;
        walk_index(&w, db, t, &t->indexes[px[j].no]);
        ck_assert_uint_eq(w.out.n, px[j].rows.n);
        for (size_t i = 0; i < w.out.n; i++)
            ck_assert_int_eq(jet_index_entry_cmp(&w.out.e[i],
                                                 &px[j].rows.e[i]), 0);
        fprintf(stderr, "%s %s.%s: %zu entries, %d levels, %zu pages\n", rel,
                table, t->indexes[px[j].no].name, w.out.n, w.depth + 1,
                w.pages);
        elist_free(&w.out);
        check_seeks(db, t, px[j].no, &px[j].rows, probes);
        done++;
    }
    for (size_t j = 0; j < np; j++)
        elist_free(&px[j].rows);
    {
        /* the driver's own check agrees */
        jet_check_stats st;
        ck_assert_int_eq(jet_db_check(db, jet_test_print_problem, NULL, &st), JET_OK);
        ck_assert_msg(st.problems == 0, "jet_db_check: %u problems in %s",
                      st.problems, rel);
    }
    jet_db_close(db);
    jet_test_jetcheck_verify(path);
    jet_test_remove_db(path);
    return done;
}

START_TEST(rebuild_orders_int_date)
{
    if (shared_file("bulk/perf.accdb") == NULL)
        return;
    /* PK (LONG), customer_id (LONG, duplicates), order_date (DATETIME) */
    ck_assert_uint_eq(rebuild_table("bulk/perf.accdb", "orders", 3000, true,
                                    300), 3);
}
END_TEST

START_TEST(rebuild_text_compound_desc)
{
    size_t n = 0;
    /* text keys, compound text+long, descending */
    n += rebuild_table("public/mdbtestdata/nwind.mdb", "Orders", 300, true,
                       100);
    n += rebuild_table("public/mdbtestdata/nwind.mdb", "Order Details", 800,
                       true, 100);
    n += rebuild_table("public/jackcess/V2010/compIndexTestV2010.accdb",
                       "Table1", 200, true, 100);
    n += rebuild_table("public/jackcess/V2003/compIndexTestV2003.mdb",
                       "Table1", 200, true, 100);
    n += rebuild_table("public/mdbtestdata/ASampleDatabase.accdb",
                       "Asset Items", 30, true, 30);
    n += rebuild_table("public/jackcess/V2010/testV2010.accdb", "Table1", 1,
                       true, 2);
    n += rebuild_table("public/jackcess/V2010/testIndexPropertiesV2010.accdb",
                       "TableIgnoreNulls2", 5, true, 10);
    if (shared_file("public/mdbtestdata/nwind.mdb") != NULL)
        ck_assert_uint_gt(n, 4);
}
END_TEST

START_TEST(rebuild_bulk_long)
{
    const char *e = getenv("JET_INDEXWRITE_LONG");
    if (e == NULL || *e == '\0' || *e == '0') {
        fprintf(stderr, "JET_INDEXWRITE_LONG not set: bulk rebuild skipped\n");
        return;
    }
    rebuild_table("bulk/bulk.accdb", "bulk", 20000, true, 500);
    rebuild_table("bulk/bulk.mdb", "bulk", 20000, true, 500);
}
END_TEST

/* A tree of long synthetic keys in a copy (4+ levels), emptied again,
 * then rolled back: the file is unchanged. */
START_TEST(deep_tree_synthetic_rolled_back)
{
    const char *src = shared_file("bulk/perf.accdb");
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    const jet_index *ix = NULL;
    jet_open_options o;
    elist l = { 0 };
    size_t n = 2500, *ord, len0 = 0, len1 = 0;
    uint8_t *before, *after, key[400];
    walk w;
    if (src == NULL)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "idxw");
    before = jet_test_slurp(path, &len0);
    /* the walks pin pages while the transaction's dirty pages fill the
     * cache; the writer itself copes with a full cache */
    memset(&o, 0, sizeof o);
    o.cache_pages = 8192;
    ck_assert_int_eq(jet_db_open(&db, path, &o, NULL), JET_OK);
    t = load_table(db, "orders");
    for (uint16_t k = 0; k < t->nindexes; k++)
        if (strcmp(t->indexes[k].name, "idx_orders_customer_id") == 0)
            ix = &t->indexes[k];
    ck_assert_ptr_nonnull(ix);
    walk_index(&w, db, t, ix);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (size_t i = 0; i < w.out.n; i++) {
        jet_index_entry *e = &w.out.e[i];
        ck_assert_int_eq(jet_index_entry_delete(db, t, ix, e->key, e->key_len,
                                                rid(e)), JET_OK);
    }
    elist_free(&w.out);
    for (size_t i = 0; i < n; i++) {
        size_t kl = 200 + rnd() % 180;
        key[0] = 0x7F;
        for (size_t k = 1; k < kl; k++)
            key[k] = (uint8_t)rnd();
        elist_add(&l, key, kl, 1 + rnd() % 1000, (uint8_t)rnd());
    }
    ord = malloc(n * sizeof *ord);
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    for (size_t i = 0; i < n; i++) {
        jet_index_entry *e = &l.e[ord[i]];
        ck_assert_msg(jet_index_entry_insert(db, t, ix, e->key, e->key_len,
                                             rid(e)) == JET_OK, "%s",
                      jet_db_error(db)->msg);
    }
    qsort(l.e, l.n, sizeof *l.e, ent_cmp_q);
    walk_index(&w, db, t, ix);
    ck_assert_uint_eq(w.out.n, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(jet_index_entry_cmp(&w.out.e[i], &l.e[i]), 0);
    fprintf(stderr, "synthetic: %zu entries, %d levels, %zu pages\n", n,
            w.depth + 1, w.pages);
    ck_assert_int_ge(w.depth + 1, 4);
    elist_free(&w.out);
    /* delete in random order, checking the tree now and then */
    shuffle(ord, n);
    for (size_t i = 0; i < n; i++) {
        jet_index_entry *e = &l.e[ord[i]];
        ck_assert_msg(jet_index_entry_delete(db, t, ix, e->key, e->key_len,
                                             rid(e)) == JET_OK, "%s",
                      jet_db_error(db)->msg);
        if (i % 500 == 0 || i + 1 == n) {
            walk_index(&w, db, t, ix);
            ck_assert_uint_eq(w.out.n, n - i - 1);
            elist_free(&w.out);
        }
    }
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    after = jet_test_slurp(path, &len1);
    ck_assert_uint_eq(len0, len1);
    ck_assert(memcmp(before, after, len0) == 0);
    free(before);
    free(after);
    free(ord);
    elist_free(&l);
    jet_test_remove_db(path);
}
END_TEST

/*
 * Text keys of real data (perf.accdb `text`: accents, Greek, Cyrillic,
 * Hebrew, Arabic, empty strings, NULLs) in the tree of that table's
 * primary key, under index definitions the file does not have: t50
 * ascending, t255 descending, (t100, id descending). Each: every entry of
 * the tree deleted, every row's key inserted in random order (rows whose
 * text the sort order cannot encode are left out), the tree checked,
 * half deleted again, checked; all rolled back.
 */
START_TEST(text_keys_general_order)
{
    const char *src = shared_file("bulk/perf.accdb");
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    jet_open_options o;
    size_t len0 = 0, len1 = 0;
    uint8_t *before, *after;
    static const char *defs[3][3] = {
        { "t50", NULL, NULL }, { "-t255", NULL, NULL }, { "t100", "-id", NULL }
    };
    if (src == NULL)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "idxw");
    before = jet_test_slurp(path, &len0);
    memset(&o, 0, sizeof o);
    o.cache_pages = 8192;
    ck_assert_int_eq(jet_db_open(&db, path, &o, NULL), JET_OK);
    t = load_table(db, "text");
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (int d = 0; d < 3; d++) {
        jet_index ix = t->indexes[0];
        jet_value *vals = calloc(t->ncols, sizeof *vals);
        elist l = { 0 };
        walk w;
        jet_scan *s;
        size_t *ord, skipped = 0;
        uint8_t key[JET_INDEX_KEY_MAX];
        ix.name = "text_test";
        ix.unique = ix.primary_key = false;
        ix.ncols = 0;
        for (int k = 0; k < 3 && defs[d][k]; k++) {
            const char *nm = defs[d][k] + (defs[d][k][0] == '-');
            for (uint16_t c = 0; c < t->ncols; c++)
                if (strcmp(t->cols[c].name, nm) == 0) {
                    ix.cols[ix.ncols].col = c;
                    ix.cols[ix.ncols++].ascending = defs[d][k][0] != '-';
                }
        }
        ck_assert_uint_gt(ix.ncols, 0);
        walk_index(&w, db, t, &ix);
        for (size_t i = 0; i < w.out.n; i++) {
            jet_index_entry *e = &w.out.e[i];
            ck_assert_int_eq(jet_index_entry_delete(db, t, &ix, e->key,
                                                    e->key_len, rid(e)),
                             JET_OK);
        }
        elist_free(&w.out);
        ck_assert_int_eq(jet_scan_open(&s, db, t, NULL), JET_OK);
        while (jet_scan_next(s) == JET_OK) {
            uint32_t pg;
            uint16_t row;
            size_t klen;
            ck_assert_int_eq(jet_scan_position(s, &pg, &row), JET_OK);
            for (uint16_t k = 0; k < ix.ncols; k++)
                ck_assert_int_eq(jet_scan_value(s, ix.cols[k].col,
                                                &vals[ix.cols[k].col]),
                                 JET_OK);
            if (jet_index_row_key(key, sizeof key, &klen, db, t, &ix, vals) !=
                JET_OK) {
                skipped++;
                continue;
            }
            elist_add(&l, key, klen, pg, (uint8_t)row);
        }
        jet_scan_close(s);
        ord = malloc(l.n * sizeof *ord);
        for (size_t i = 0; i < l.n; i++)
            ord[i] = i;
        shuffle(ord, l.n);
        for (size_t i = 0; i < l.n; i++) {
            jet_index_entry *e = &l.e[ord[i]];
            ck_assert_msg(jet_index_entry_insert(db, t, &ix, e->key,
                                                 e->key_len, rid(e)) == JET_OK,
                          "%s", jet_db_error(db)->msg);
        }
        qsort(l.e, l.n, sizeof *l.e, ent_cmp_q);
        walk_index(&w, db, t, &ix);
        ck_assert_uint_eq(w.out.n, l.n);
        for (size_t i = 0; i < l.n; i++)
            ck_assert_int_eq(jet_index_entry_cmp(&w.out.e[i], &l.e[i]), 0);
        fprintf(stderr, "text keys %d: %zu entries (%zu rows not "
                "encodable), %d levels, %zu pages\n", d, l.n, skipped,
                w.depth + 1, w.pages);
        ck_assert_uint_gt(l.n, 20000);
        elist_free(&w.out);
        for (size_t i = 0; i < l.n; i++)
            ord[i] = i;
        shuffle(ord, l.n);
        for (size_t i = 0; i < l.n / 2; i++) {
            jet_index_entry *e = &l.e[ord[i]];
            ck_assert_int_eq(jet_index_entry_delete(db, t, &ix, e->key,
                                                    e->key_len, rid(e)),
                             JET_OK);
        }
        walk_index(&w, db, t, &ix);
        ck_assert_uint_eq(w.out.n, l.n - l.n / 2);
        elist_free(&w.out);
        free(ord);
        free(vals);
        elist_free(&l);
    }
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    after = jet_test_slurp(path, &len1);
    ck_assert_uint_eq(len0, len1);
    ck_assert(memcmp(before, after, len0) == 0);
    free(before);
    free(after);
    jet_test_remove_db(path);
}
END_TEST

/* A duplicate primary key: JET_EDUPLICATE with Access's message, and the
 * file unchanged after the rollback. Non-unique and NULL keys pass. */
START_TEST(duplicate_refused_file_unchanged)
{
    const char *src = shared_file("bulk/perf.accdb");
    char path[256];
    jet_db *db;
    const jet_tdef *t;
    const jet_index *pk = NULL, *cust = NULL;
    size_t len0 = 0, len1 = 0;
    uint8_t *before, *after;
    walk w;
    if (src == NULL)
        return;
    jet_test_copy_to_temp(path, sizeof path, src, "idxw");
    before = jet_test_slurp(path, &len0);
    ck_assert_int_eq(jet_db_open(&db, path, NULL, NULL), JET_OK);
    t = load_table(db, "orders");
    for (uint16_t k = 0; k < t->nindexes; k++) {
        if (t->indexes[k].primary_key)
            pk = &t->indexes[k];
        if (strcmp(t->indexes[k].name, "idx_orders_customer_id") == 0)
            cust = &t->indexes[k];
    }
    ck_assert_ptr_nonnull(pk);
    ck_assert_ptr_nonnull(cust);
    /* outside a transaction: refused */
    ck_assert_int_eq(jet_index_entry_insert(db, t, pk, (const uint8_t *)"\x7f",
                                            1, (jet_rowid){ 1, 0 }),
                     JET_EUNSUPPORTED);
    walk_index(&w, db, t, pk);
    ck_assert_int_eq(jet_db_write_begin(db), JET_OK);
    for (int p = 0; p < 200; p++) {
        /* both ends of leaves, and random entries */
        size_t i = p < 2 ? (p ? w.out.n - 1 : 0) : rnd() % w.out.n;
        jet_index_entry *e = &w.out.e[i];
        jet_rowid r = rid(e);
        r.pgno += p % 2 ? 1 : (uint32_t)-1;
        ck_assert_int_eq(jet_index_entry_insert(db, t, pk, e->key, e->key_len,
                                                r), JET_EDUPLICATE);
        ck_assert_ptr_nonnull(strstr(jet_db_error(db)->msg,
                                     "would create duplicate values in the "
                                     "index, primary key, or relationship"));
        ck_assert_ptr_nonnull(strstr(jet_db_error(db)->msg,
                                     "PrimaryKey"));
        /* the same entry again: the index already has it */
        ck_assert_int_eq(jet_index_entry_insert(db, t, pk, e->key, e->key_len,
                                                rid(e)), JET_ECORRUPT);
        /* deleting an entry that is not there */
        ck_assert_int_eq(jet_index_entry_delete(db, t, pk, e->key, e->key_len,
                                                r), JET_ECORRUPT);
    }
    /* a non-unique index takes the same key twice; a NULL key goes in */
    {
        uint8_t nul = 0x00;
        ck_assert_int_eq(jet_index_entry_insert(db, t, cust, w.out.e[5].key,
                                                w.out.e[5].key_len,
                                                (jet_rowid){ 3, 200 }),
                         JET_OK);
        ck_assert_int_eq(jet_index_entry_insert(db, t, cust, &nul, 1,
                                                (jet_rowid){ 3, 201 }),
                         JET_OK);
        ck_assert_int_eq(jet_index_entry_insert(db, t, cust, &nul, 1,
                                                (jet_rowid){ 3, 202 }),
                         JET_OK);
        /* a unique index holds many all-NULL keys (Jackcess isUnique) */
        ck_assert_int_eq(jet_index_entry_insert(db, t, pk, &nul, 1,
                                                (jet_rowid){ 3, 201 }),
                         JET_OK);
        ck_assert_int_eq(jet_index_entry_insert(db, t, pk, &nul, 1,
                                                (jet_rowid){ 3, 202 }),
                         JET_OK);
    }
    elist_free(&w.out);
    ck_assert_int_eq(jet_db_write_rollback(db), JET_OK);
    jet_db_close(db);
    after = jet_test_slurp(path, &len1);
    ck_assert_uint_eq(len0, len1);
    ck_assert(memcmp(before, after, len0) == 0);
    free(before);
    free(after);
    jet_test_remove_db(path);
}
END_TEST

static Suite *indexwrite_suite(void)
{
    Suite *s = suite_create("indexwrite");
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, decode_inverts_build);
    tcase_add_test(tc, leaf_in_place_matches_build);
    suite_add_tcase(s, tc);
    tc = tcase_create("fixtures");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, decode_fixture_pages);
    tcase_add_test(tc, duplicate_refused_file_unchanged);
    tcase_add_test(tc, deep_tree_synthetic_rolled_back);
    tcase_add_test(tc, text_keys_general_order);
    tcase_add_test(tc, rebuild_orders_int_date);
    tcase_add_test(tc, rebuild_text_compound_desc);
    tcase_add_test(tc, rebuild_bulk_long);
    suite_add_tcase(s, tc);
    return s;
}

static int skip_or_run(void)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/fixtures", jet_shared_dir());
    if (access(p, R_OK) != 0) {
        fprintf(stderr, "shared folder %s absent: test_indexwrite skipped\n",
                jet_shared_dir());
        return 77;
    }
    return -1;
}

int main(void)
{
    int skip = skip_or_run();
    SRunner *sr;
    int failed;
    if (skip >= 0)
        return skip;
    sr = srunner_create(indexwrite_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
