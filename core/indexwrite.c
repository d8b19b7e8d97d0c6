/*
 * indexwrite.c - index B-tree upkeep for the write path (write.h): entry
 * insert and delete, page splits, new levels, empty pages given back.
 *
 * The tree (Jet4/ACE; encode.h and index.c have the page layout): leaf
 * pages (0x04) hold the entries, key bytes then the data row they name;
 * node pages (0x03) hold one entry per child, the child's LAST entry plus
 * the child's page number. Entries are ordered by key bytes (unsigned, a
 * prefix first), then data page, then row (Jackcess Entry.compareTo). A
 * node page with two or more children keeps its last child out of the
 * entries, in the child tail pointer (offset 20); a node page with one
 * child stores it as an entry and has no tail (Jackcess IndexPageCache
 * promoteTail/demoteTail). Pages of one level are chained by prev/next;
 * leaves form one chain from first to last, node pages are chained only
 * among children of the same parent (IndexPageCache.splitDataPage,
 * separateFromNextPeer). The root never moves: when it splits, its
 * entries move to a new page below it (nestRootDataPage), so the TDEF's
 * root page numbers never change. Pages left empty (other than the root)
 * are unlinked from their peers and parent and given back to the table
 * (removeDataPage, removeFromPeers); an empty root is an empty leaf. Pages
 * are never merged (Jackcess does not merge them either).
 *
 * How one call works: descend from the root to the leaf of the entry
 * (node pages searched in place by jet_index_page_find). When the change
 * is local to the leaf (jet_index_leaf_insert/_remove: not its first
 * entry, not a new last entry a parent names, no split) it is made on
 * the page in place and the call ends. Else the leaf, and a node page
 * once it must change, is decoded into memory (ipage); change the
 * leaf; propagate a changed last entry up the path (the parents'
 * entries name it); split every page of the path that no longer fits, bottom up, the
 * way Jackcess does (the first half of the entries moves to a new page
 * put before the old one, so the old page keeps its entry in the parent
 * and the parent gains one); then encode every changed path page with
 * jet_index_page_build and write it through the pager. Neighbour pages
 * only ever have their prev/next pointers patched. Nothing is written
 * before every check passed, so JET_EDUPLICATE leaves the file as it was.
 *
 * Callers (the table writer) keep the row-level rules: one call per
 * PHYSICAL index (logical indexes sharing first_pgno share a tree; pass
 * the unique one if any is), Required/primary-key NULL refusals (the
 * key bytes do not show every NULL column), and the TDEF's per-index
 * unique entry count (Jackcess counts a key not yet present).
 *
 * Format: Jackcess IndexData (prepareAddEntry, removeEntry, readDataPage,
 * writeDataPage), IndexPageCache; mdbtools HACKING.md "Index Pages".
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "encode.h"
#include "index.h"
#include "internal.h"
#include "write.h"

#define MAX_DEPTH 32
#define IDX_PREV 12
#define IDX_NEXT 16
/* the entry area's offset on a Jet4/ACE index page */
#define JET_INDEX_ENTRIES 480

/* One entry or child of a page in memory. Leaf items and node items with
 * bound set carry an entry (key in the page's kb, data row); a node's
 * last item may have no known entry (it came from the child tail pointer,
 * whose last entry the page does not store). */
typedef struct item {
    size_t off;             /* key bytes at kb + off */
    size_t klen;
    bool bound;
    uint32_t pgno;          /* the entry's data row */
    uint8_t row;
    uint32_t child;         /* node items: the child page */
} item;

/* A decoded index page of the path. */
typedef struct ipage {
    uint32_t pgno;
    bool leaf;
    bool dirty;             /* to be encoded and written */
    bool loaded;            /* items decoded; else a node page passed on
                               the way down: only raw_n is known */
    size_t raw_n;           /* !loaded: its children (entries + tail) */
    size_t raw_entries;     /* !loaded: its stored entries */
    uint32_t prev, next;
    item *it;
    size_t n, cap;
    uint8_t *kb;            /* key bytes, appended to */
    size_t kb_len, kb_cap;
} ipage;

/* One insert or delete. */
typedef struct ictx {
    jet_db *db;
    const jet_tdef *t;
    const jet_index *ix;
    ipage path[MAX_DEPTH + 1];  /* path[0] the root .. path[depth] leaf */
    size_t ci[MAX_DEPTH + 1];   /* ci[L]: path[L]'s item in path[L - 1] */
    int depth;
    uint8_t *scratch;           /* a page buffer */
    jet_index_entry *ents;      /* jet_index_page_build's input */
    size_t ents_cap;
    /* the entry being inserted or deleted */
    jet_index_entry e;
} ictx;

static void page_clear(ipage *p)
{
    free(p->it);
    free(p->kb);
    memset(p, 0, sizeof *p);
}

static jet_rc nomem(ictx *c)
{
    return jet_fail(&c->db->err, JET_ENOMEM, JET_NO_PGNO,
                    "out of memory writing index '%s'", c->ix->name);
}

/* Room for n more items and klen more key bytes in p. */
static jet_rc page_reserve(ictx *c, ipage *p, size_t n, size_t klen)
{
    if (p->n + n > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        item *it;
        while (cap < p->n + n)
            cap *= 2;
        it = realloc(p->it, cap * sizeof *it);
        if (it == NULL)
            return nomem(c);
        p->it = it;
        p->cap = cap;
    }
    if (p->kb_len + klen > p->kb_cap) {
        size_t cap = p->kb_cap ? p->kb_cap * 2 : 4096;
        uint8_t *kb;
        while (cap < p->kb_len + klen)
            cap *= 2;
        kb = realloc(p->kb, cap);
        if (kb == NULL)
            return nomem(c);
        p->kb = kb;
        p->kb_cap = cap;
    }
    return JET_OK;
}

/* Item x of p set to entry e (its key copied into p's key bytes). */
static jet_rc item_set(ictx *c, ipage *p, size_t x, const jet_index_entry *e)
{
    jet_rc rc = page_reserve(c, p, 0, e->key_len);
    if (rc != JET_OK)
        return rc;
    memcpy(p->kb + p->kb_len, e->key, e->key_len);
    p->it[x].off = p->kb_len;
    p->it[x].klen = e->key_len;
    p->it[x].bound = true;
    p->it[x].pgno = e->pgno;
    p->it[x].row = e->row;
    p->kb_len += e->key_len;
    p->dirty = true;
    return JET_OK;
}

/* Insert an item at x of p: entry e (NULL: no known entry), child. */
static jet_rc item_insert(ictx *c, ipage *p, size_t x,
                          const jet_index_entry *e, uint32_t child)
{
    jet_rc rc = page_reserve(c, p, 1, e ? e->key_len : 0);
    if (rc != JET_OK)
        return rc;
    memmove(&p->it[x + 1], &p->it[x], (p->n - x) * sizeof *p->it);
    p->n++;
    memset(&p->it[x], 0, sizeof *p->it);
    p->it[x].child = child;
    p->dirty = true;
    return e ? item_set(c, p, x, e) : JET_OK;
}

static void item_remove(ipage *p, size_t x)
{
    memmove(&p->it[x], &p->it[x + 1], (p->n - x - 1) * sizeof *p->it);
    p->n--;
    p->dirty = true;
}

/* The entry of item x of p (x must have bound set). */
static jet_index_entry item_entry(const ipage *p, size_t x)
{
    jet_index_entry e;
    e.key = p->kb + p->it[x].off;
    e.key_len = p->it[x].klen;
    e.pgno = p->it[x].pgno;
    e.row = p->it[x].row;
    e.child = p->it[x].child;
    return e;
}

/* Item x of p against entry e: an item without a known entry is above
 * every entry (it is the last child, a tail). */
static int item_cmp(const ipage *p, size_t x, const jet_index_entry *e)
{
    jet_index_entry a;
    if (!p->it[x].bound)
        return 1;
    a = item_entry(p, x);
    return jet_index_entry_cmp(&a, e);
}

/* First item of p not below e (p->n when none). */
static size_t lower_bound(const ipage *p, const jet_index_entry *e)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (item_cmp(p, mid, e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Room for n entries in c->ents. */
static jet_rc ents_reserve(ictx *c, size_t n)
{
    jet_index_entry *ents;
    if (n <= c->ents_cap)
        return JET_OK;
    ents = realloc(c->ents, n * sizeof *ents);
    if (ents == NULL)
        return nomem(c);
    c->ents = ents;
    c->ents_cap = n;
    return JET_OK;
}

/* Pin page pgno for reading. When the cache is full of dirty pages
 * (which only a write spills), pin it for writing instead. */
static jet_rc pin_page(ictx *c, uint32_t pgno, const uint8_t **page)
{
    jet_rc rc = jet_page_pin(c->db->pf, pgno, page, &c->db->err);
    if (rc == JET_ELIMIT) {
        uint8_t *w;
        rc = jet_page_write(c->db->pf, pgno, &w, &c->db->err);
        *page = w;
    }
    return rc;
}

/* Read index page pgno of the index into p. */
static jet_rc page_load(ictx *c, uint32_t pgno, ipage *p)
{
    jet_db *db = c->db;
    const uint8_t *page;
    jet_index_page_hdr h;
    jet_rc rc;

    memset(p, 0, sizeof *p);
    p->pgno = pgno;
    if (pgno == 0)
        return jet_fail(&db->err, JET_ECORRUPT, pgno,
                        "index '%s' of table '%s' points to page 0",
                        c->ix->name, c->t->name);
    rc = pin_page(c, pgno, &page);
    if (rc != JET_OK)
        return rc;
    rc = jet_index_page_read(page, db->fmt, &h, NULL, 0, NULL, 0, &db->err);
    if (rc == JET_OK && h.tdef_pgno != c->t->pgno)
        rc = jet_fail(&db->err, JET_ECORRUPT, pgno,
                      "index page %u of index '%s' belongs to the table "
                      "defined at page %u, not '%s'", pgno, c->ix->name,
                      h.tdef_pgno, c->t->name);
    if (rc == JET_OK)
        rc = page_reserve(c, p, h.n + 1, h.key_bytes + 1);
    if (rc == JET_OK)
        rc = ents_reserve(c, h.n);
    if (rc == JET_OK)
        rc = jet_index_page_read(page, db->fmt, &h, c->ents, c->ents_cap,
                                 p->kb, p->kb_cap, &db->err);
    jet_page_unpin(db->pf, page);
    if (rc == JET_ECORRUPT)
        db->err.pgno = pgno;
    if (rc != JET_OK) {
        page_clear(p);
        return rc;
    }
    p->pgno = pgno;
    p->loaded = true;
    p->leaf = h.leaf;
    p->prev = h.prev;
    p->next = h.next;
    for (size_t i = 0; i < h.n; i++) {
        item *x = &p->it[i];
        x->off = (size_t)(c->ents[i].key - p->kb);
        x->klen = c->ents[i].key_len;
        x->bound = true;
        x->pgno = c->ents[i].pgno;
        x->row = c->ents[i].row;
        x->child = c->ents[i].child;
    }
    p->n = h.n;
    p->kb_len = h.key_bytes;
    if (!p->leaf && h.tail != 0) {
        memset(&p->it[p->n], 0, sizeof *p->it);
        p->it[p->n++].child = h.tail;
    }
    if (!p->leaf && p->n == 0) {
        page_clear(p);
        return jet_fail(&db->err, JET_ECORRUPT, pgno,
                        "index '%s': node page %u has no children",
                        c->ix->name, pgno);
    }
    return JET_OK;
}

/* The last entry under page pgno (the rightmost leaf's last entry), its
 * key copied into buf (JET_INDEX_KEY_MAX bytes). */
static jet_rc subtree_last(ictx *c, uint32_t pgno, jet_index_entry *out,
                           uint8_t *buf)
{
    for (int d = 0; d < MAX_DEPTH; d++) {
        ipage p;
        jet_rc rc = page_load(c, pgno, &p);
        if (rc != JET_OK)
            return rc;
        if (p.n == 0) {
            page_clear(&p);
            return jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                            "index '%s': empty page %u below a node",
                            c->ix->name, pgno);
        }
        if (p.leaf || p.it[p.n - 1].bound) {
            *out = item_entry(&p, p.n - 1);
            memcpy(buf, out->key, out->key_len);
            out->key = buf;
            page_clear(&p);
            return JET_OK;
        }
        pgno = p.it[p.n - 1].child;
        page_clear(&p);
    }
    return jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                    "index '%s': tree deeper than %d levels", c->ix->name,
                    MAX_DEPTH);
}

/* Items of path page p, loaded or not. */
static size_t page_n(const ipage *p)
{
    return p->loaded ? p->n : p->raw_n;
}

/* Does item x of path page p carry a stored entry? */
static bool page_bound(const ipage *p, size_t x)
{
    return p->loaded ? p->it[x].bound : x < p->raw_entries;
}

/* Decode path[L] when the descent only searched it. */
static jet_rc ensure_loaded(ictx *c, int L)
{
    ipage *p = &c->path[L], q;
    jet_rc rc;
    if (p->loaded)
        return JET_OK;
    rc = page_load(c, p->pgno, &q);
    if (rc != JET_OK)
        return rc;
    if (p->leaf && q.leaf) {
        *p = q;
        return JET_OK;
    }
    if (q.leaf || q.n != p->raw_n) {
        page_clear(&q);
        return jet_fail(&c->db->err, JET_ECORRUPT, p->pgno,
                        "index '%s': page %u changed under the writer",
                        c->ix->name, p->pgno);
    }
    *p = q;
    return JET_OK;
}

/* Search node page pgno (pinned at page) for c->e without decoding it:
 * *h its header, p its header and raw counts, *x the child taken (the
 * first entry not below e; past them the tail, else the last entry),
 * *child its page. */
static jet_rc node_search(ictx *c, const uint8_t *page, ipage *p,
                          jet_index_page_hdr *h, size_t *x,
                          uint32_t *child)
{
    jet_index_entry found;
    size_t at;
    jet_rc rc = jet_index_page_seek(page, c->db->fmt, &c->e, h, &at, &found);
    if (rc != JET_OK)
        return jet_fail(&c->db->err, rc, p->pgno,
                        "index '%s': damaged node page %u", c->ix->name,
                        p->pgno);
    p->leaf = false;
    p->prev = h->prev;
    p->next = h->next;
    p->raw_entries = h->n;
    p->raw_n = h->n + (h->tail != 0);
    if (p->raw_n == 0)
        return jet_fail(&c->db->err, JET_ECORRUPT, p->pgno,
                        "index '%s': node page %u has no children",
                        c->ix->name, p->pgno);
    if (at == h->n && h->tail == 0)
        at = h->n - 1;      /* past every entry, no tail: the last child */
    *x = at;
    *child = at == h->n ? h->tail : found.child;
    return JET_OK;
}

/* Descend from the root to the leaf where c->e belongs: at each node the
 * first child whose last entry is not below e, else the last child. Node
 * pages are searched in place; the leaf is decoded when load_leaf (else
 * only its page number and links are known: ensure_loaded decodes it). */
static jet_rc descend(ictx *c, bool load_leaf)
{
    uint32_t pgno = c->ix->first_pgno;
    for (int d = 0;; d++) {
        ipage *p = &c->path[d];
        const uint8_t *page;
        jet_index_page_hdr h;
        uint32_t child = 0;
        size_t x = 0;
        jet_rc rc;
        if (d > MAX_DEPTH)
            return jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                            "index '%s': tree deeper than %d levels",
                            c->ix->name, MAX_DEPTH);
        memset(p, 0, sizeof *p);
        p->pgno = pgno;
        c->depth = d;
        if (pgno == 0)
            return jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                            "index '%s' of table '%s' points to page 0",
                            c->ix->name, c->t->name);
        rc = pin_page(c, pgno, &page);
        if (rc != JET_OK)
            return rc;
        /* the links only: a node page is checked as node_search indexes
         * it, a leaf by the in-place change or the decode that follows */
        rc = jet_index_page_links(page, c->db->fmt, &h);
        if (rc == JET_ECORRUPT)
            rc = jet_fail(&c->db->err, rc, pgno, "index '%s': damaged "
                          "index page %u", c->ix->name, pgno);
        if (rc == JET_OK && h.tdef_pgno != c->t->pgno)
            rc = jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                          "index page %u of index '%s' belongs to the table "
                          "defined at page %u, not '%s'", pgno, c->ix->name,
                          h.tdef_pgno, c->t->name);
        if (rc == JET_OK && !h.leaf)
            rc = node_search(c, page, p, &h, &x, &child);
        jet_page_unpin(c->db->pf, page);
        if (rc != JET_OK)
            return rc;
        if (h.leaf && !load_leaf) {
            p->leaf = true;
            p->prev = h.prev;
            p->next = h.next;
            return JET_OK;
        }
        if (h.leaf)
            return page_load(c, pgno, p);
        c->ci[d + 1] = x;
        pgno = child;
    }
}

/*
 * c->ents = the stored entries of items [a, b) of p as one page holds
 * them; *tail = the child tail page (node pages of two or more children:
 * the last child). A single node child must have its entry known.
 */
static jet_rc chunk_entries(ictx *c, const ipage *p, size_t a, size_t b,
                            size_t *n, uint32_t *tail)
{
    size_t end = b;
    jet_rc rc = ents_reserve(c, b - a + 1);
    if (rc != JET_OK)
        return rc;
    *tail = 0;
    if (!p->leaf && b - a >= 2) {
        end = b - 1;
        *tail = p->it[b - 1].child;
    }
    for (size_t i = a; i < end; i++) {
        if (!p->it[i].bound)
            return jet_fail(&c->db->err, JET_ECORRUPT, p->pgno,
                            "index '%s': page %u: a child without an "
                            "entry before the last", c->ix->name, p->pgno);
        c->ents[i - a] = item_entry(p, i);
    }
    *n = end - a;
    return JET_OK;
}

/* Encode items [a, b) of p into c->scratch with links prev/next.
 * JET_ELIMIT when they do not fit one page. */
static jet_rc chunk_build(ictx *c, const ipage *p, size_t a, size_t b,
                          uint32_t prev, uint32_t next)
{
    size_t n = 0, used;
    uint32_t tail = 0;
    jet_rc rc = chunk_entries(c, p, a, b, &n, &tail);
    if (rc != JET_OK)
        return rc;
    if (c->scratch == NULL && (c->scratch = malloc(c->db->fmt->page_size)) ==
                                  NULL)
        return nomem(c);
    return jet_index_page_build(c->scratch, c->db->fmt, p->leaf,
                                c->t->pgno, prev, next, tail, c->ents, n,
                                &used);
}

/* Would items [a, b) of p fit one page? jet_index_page_build's sum
 * (entries, less the prefix the first and last keys share, once per
 * entry after the first) without building the page. */
static bool chunk_fits(const ictx *c, const ipage *p, size_t a, size_t b)
{
    size_t end = !p->leaf && b - a >= 2 ? b - 1 : b, ptr = p->leaf ? 4 : 8;
    size_t total = 0, prefix = 0;
    for (size_t i = a; i < end; i++)
        total += p->it[i].klen + ptr;
    if (end - a > 1) {
        const uint8_t *k1 = p->kb + p->it[a].off;
        const uint8_t *k2 = p->kb + p->it[end - 1].off;
        size_t m = p->it[a].klen < p->it[end - 1].klen ? p->it[a].klen
                                                       : p->it[end - 1].klen;
        while (prefix < m && k1[prefix] == k2[prefix])
            prefix++;
        total -= prefix * (end - a - 1);
    }
    return total <= c->db->fmt->page_size - JET_INDEX_ENTRIES;
}

/* Write c->scratch as page pgno. */
static jet_rc scratch_write(ictx *c, uint32_t pgno)
{
    uint8_t *page;
    jet_rc rc = jet_page_write(c->db->pf, pgno, &page, &c->db->err);
    if (rc != JET_OK)
        return rc;
    memcpy(page, c->scratch, c->db->fmt->page_size);
    jet_page_unpin(c->db->pf, page);
    return JET_OK;
}

/* Set the prev (off IDX_PREV) or next (IDX_NEXT) pointer of page pgno at
 * level lvl: in memory when it is the path's page there, else on the
 * page itself. pgno 0 is no page. */
static jet_rc set_link(ictx *c, int lvl, uint32_t pgno, size_t off,
                       uint32_t to)
{
    uint8_t *page;
    jet_rc rc;
    if (pgno == 0)
        return JET_OK;
    if (lvl <= c->depth && c->path[lvl].pgno == pgno &&
        c->path[lvl].loaded) {
        ipage *p = &c->path[lvl];
        *(off == IDX_PREV ? &p->prev : &p->next) = to;
        p->dirty = true;
        return JET_OK;
    }
    rc = jet_page_write(c->db->pf, pgno, &page, &c->db->err);
    if (rc != JET_OK)
        return rc;
    if (page[0] != 0x03 && page[0] != 0x04) {
        jet_page_unpin(c->db->pf, page);
        return jet_fail(&c->db->err, JET_ECORRUPT, pgno,
                        "index '%s': page %u linked at a level is not an "
                        "index page", c->ix->name, pgno);
    }
    jet_put_u32(page + off, to);
    jet_page_unpin(c->db->pf, page);
    return JET_OK;
}

/* Cut p's items into runs that each fit one page: cuts[] receives each
 * run's end, in order (*nc of them). Halves a run that does not fit, as
 * Jackcess splits a page in two until it fits. */
static jet_rc partition(ictx *c, const ipage *p, size_t a, size_t b,
                        size_t *cuts, size_t *nc)
{
    jet_rc rc;
    size_t mid;
    if (b - a == 1 && !p->leaf) {
        cuts[(*nc)++] = b;      /* one node entry always fits */
        return JET_OK;
    }
    if (chunk_fits(c, p, a, b)) {
        cuts[(*nc)++] = b;
        return JET_OK;
    }
    if (b - a < 2)
        return jet_fail(&c->db->err, JET_ELIMIT, p->pgno,
                        "index '%s': an entry does not fit a page",
                        c->ix->name);
    mid = a + (b - a + 1) / 2;
    rc = partition(c, p, a, mid, cuts, nc);
    if (rc == JET_OK)
        rc = partition(c, p, mid, b, cuts, nc);
    return rc;
}

/* A new page of the table (unpinned; written later). */
static jet_rc page_new(ictx *c, uint32_t *pgno)
{
    uint8_t *page;
    jet_rc rc = jet_table_page_new(c->db, c->t, pgno, &page);
    if (rc != JET_OK)
        return rc;
    jet_page_unpin(c->db->pf, page);
    return JET_OK;
}

/* The root no longer fits: move its items to a new page below it, which
 * becomes path[1]; the root keeps one child (IndexPageCache
 * nestRootDataPage). */
static jet_rc nest_root(ictx *c)
{
    ipage root;
    uint32_t pgno;
    jet_rc rc;
    if (c->depth >= MAX_DEPTH)
        return jet_fail(&c->db->err, JET_ELIMIT, c->path[0].pgno,
                        "index '%s': tree deeper than %d levels",
                        c->ix->name, MAX_DEPTH);
    rc = page_new(c, &pgno);
    if (rc != JET_OK)
        return rc;
    memset(&root, 0, sizeof root);
    root.pgno = c->path[0].pgno;
    root.dirty = true;
    root.loaded = true;
    rc = item_insert(c, &root, 0, NULL, pgno);
    if (rc != JET_OK) {
        page_clear(&root);
        return rc;
    }
    memmove(&c->path[1], &c->path[0], (size_t)(c->depth + 1) *
                                          sizeof c->path[0]);
    memmove(&c->ci[2], &c->ci[1], (size_t)c->depth * sizeof c->ci[0]);
    c->depth++;
    c->path[0] = root;
    c->ci[1] = 0;
    c->path[1].pgno = pgno;
    c->path[1].prev = c->path[1].next = 0;
    c->path[1].dirty = true;
    return JET_OK;
}

/* Split path[L] (not the root) at cuts[0..nc-1): every run but the last
 * goes to a new page put before it, with an entry in the parent. */
static jet_rc split(ictx *c, int L, const size_t *cuts, size_t nc)
{
    ipage *p = &c->path[L], *parent = &c->path[L - 1];
    uint32_t *pg, prev0 = p->prev;
    size_t moved = cuts[nc - 2];
    jet_rc rc = ensure_loaded(c, L - 1);

    if (rc != JET_OK)
        return rc;
    pg = calloc(nc, sizeof *pg);
    if (pg == NULL)
        return nomem(c);
    for (size_t j = 0; j + 1 < nc && rc == JET_OK; j++)
        rc = page_new(c, &pg[j]);
    /* the new pages: each run, chained between p's old prev and p */
    for (size_t j = 0; j + 1 < nc && rc == JET_OK; j++) {
        size_t a = j ? cuts[j - 1] : 0;
        rc = chunk_build(c, p, a, cuts[j], j ? pg[j - 1] : prev0,
                         j + 2 < nc ? pg[j + 1] : p->pgno);
        if (rc == JET_OK)
            rc = scratch_write(c, pg[j]);
    }
    if (rc == JET_OK)
        rc = set_link(c, L, prev0, IDX_NEXT, pg[0]);
    /* node children are chained only under one parent */
    for (size_t j = 0; j + 1 < nc && rc == JET_OK && !p->leaf; j++) {
        uint32_t left = p->it[cuts[j] - 1].child, right = p->it[cuts[j]].child;
        if (L + 1 < c->depth) {
            rc = set_link(c, L + 1, left, IDX_NEXT, 0);
            if (rc == JET_OK)
                rc = set_link(c, L + 1, right, IDX_PREV, 0);
        }
    }
    /* the parent's entries for the new pages: each run's last entry */
    for (size_t j = 0; j + 1 < nc && rc == JET_OK; j++) {
        jet_index_entry e = item_entry(p, cuts[j] - 1);
        rc = item_insert(c, parent, c->ci[L] + j, &e, pg[j]);
    }
    if (rc == JET_OK) {
        c->ci[L] += nc - 1;
        p->prev = pg[nc - 2];
        memmove(&p->it[0], &p->it[moved], (p->n - moved) * sizeof *p->it);
        p->n -= moved;
        p->dirty = true;
    }
    free(pg);
    return rc;
}

/* Split every page of the path that does not fit, bottom up. */
static jet_rc settle(ictx *c)
{
    size_t *cuts = NULL;
    jet_rc rc = JET_OK;
    for (int L = c->depth; L >= 0 && rc == JET_OK; L--) {
        ipage *p = &c->path[L];
        size_t nc = 0;
        if (!p->dirty || p->n == 0)
            continue;
        free(cuts);
        cuts = malloc(p->n * sizeof *cuts);
        if (cuts == NULL)
            return nomem(c);
        if (c->db->copying && p->leaf && p->next == 0 && p->n > 1 &&
            !chunk_fits(c, p, 0, p->n) && chunk_fits(c, p, 0, p->n - 1)) {
            /* a copy (jet_db_compact) adds keys mostly in order: the
             * last leaf of the level keeps all but its last entry, so
             * the pages a copy fills stay full */
            cuts[0] = p->n - 1;
            cuts[1] = p->n;
            nc = 2;
        } else {
            rc = partition(c, p, 0, p->n, cuts, &nc);
        }
        if (rc != JET_OK || nc == 1)
            continue;
        if (L == 0) {
            rc = nest_root(c);
            L = 1;
        }
        if (rc == JET_OK)
            rc = split(c, L, cuts, nc);
    }
    free(cuts);
    return rc;
}

/* Encode and write every changed page of the path. */
static jet_rc write_path(ictx *c)
{
    for (int L = c->depth; L >= 0; L--) {
        ipage *p = &c->path[L];
        jet_rc rc;
        if (!p->dirty)
            continue;
        if (!p->leaf && p->n == 1 && !p->it[0].bound) {
            uint8_t buf[JET_INDEX_KEY_MAX];
            jet_index_entry e;
            rc = subtree_last(c, p->it[0].child, &e, buf);
            if (rc == JET_OK)
                rc = item_set(c, p, 0, &e);
            if (rc != JET_OK)
                return rc;
        }
        rc = chunk_build(c, p, 0, p->n, p->prev, p->next);
        if (rc == JET_ELIMIT)
            rc = jet_fail(&c->db->err, JET_ECORRUPT, p->pgno,
                          "index '%s': page %u overfull after a split",
                          c->ix->name, p->pgno);
        if (rc == JET_OK)
            rc = scratch_write(c, p->pgno);
        if (rc != JET_OK)
            return rc;
    }
    return JET_OK;
}

/* The last entry of path[L] changed (to its last item's, which has a
 * known entry): carry it up into the parents' entries for as long as the
 * page is its parent's last child (a tail has no stored entry, but its
 * parent's own entry above may). */
static jet_rc propagate_last(ictx *c, int L)
{
    ipage *p = &c->path[L];
    jet_index_entry e;
    if (p->n == 0 || !p->it[p->n - 1].bound)
        return JET_OK;
    e = item_entry(p, p->n - 1);
    for (; L > 0; L--) {
        ipage *parent = &c->path[L - 1];
        size_t x = c->ci[L];
        if (page_bound(parent, x)) {
            jet_rc rc = ensure_loaded(c, L - 1);
            if (rc == JET_OK) {
                e.child = parent->it[x].child;
                rc = item_set(c, parent, x, &e);
            }
            if (rc != JET_OK)
                return rc;
        }
        if (x + 1 != page_n(parent))
            return JET_OK;
    }
    return JET_OK;
}

static jet_rc ctx_init(ictx *c, jet_db *db, const jet_tdef *t,
                       const jet_index *ix, const uint8_t *key,
                       size_t key_len, jet_rowid id)
{
    /* path[] and ci[] are set as descend reaches each level */
    c->db = db;
    c->t = t;
    c->ix = ix;
    c->depth = -1;
    c->scratch = NULL;          /* chunk_build allocates it */
    c->ents = NULL;
    c->ents_cap = 0;
    c->e.key = key;
    c->e.key_len = key_len;
    c->e.pgno = id.pgno;
    c->e.row = (uint8_t)id.row;
    c->e.child = 0;
    if (!jet_db_in_write(db))
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "index '%s': no write transaction", ix->name);
    if (db->fmt->jet3)
        return jet_fail(&db->err, JET_EUNSUPPORTED, t->pgno,
                        "Access 97 files are read-only");
    if (key_len > JET_INDEX_KEY_MAX || id.pgno > 0xFFFFFFu || id.row > 0xFF)
        return jet_fail(&db->err, JET_ELIMIT, t->pgno,
                        "index '%s': key of %zu bytes or row %u:%u out of "
                        "range", ix->name, key_len, id.pgno, id.row);
    return JET_OK;
}

static void ctx_free(ictx *c)
{
    for (int L = 0; L <= c->depth; L++)
        page_clear(&c->path[L]);
    free(c->scratch);
    free(c->ents);
}

/* Is key the key of a row whose index columns are all NULL? */
static bool all_null(const jet_index *ix, const uint8_t *key, size_t len)
{
    if (len != ix->ncols)
        return false;
    for (size_t k = 0; k < len; k++)
        if (key[k] != (ix->cols[k].ascending ? 0x00 : 0xFF))
            return false;
    return true;
}

/* Does the entry next to the leaf (the prev leaf's last entry, or the
 * next leaf's first) have key bytes equal to c->e's? */
static jet_rc neighbour_equal(ictx *c, uint32_t pgno, bool last, bool *eq)
{
    ipage p;
    jet_rc rc;
    *eq = false;
    if (pgno == 0)
        return JET_OK;
    rc = page_load(c, pgno, &p);
    if (rc != JET_OK)
        return rc;
    if (p.leaf && p.n > 0) {
        size_t x = last ? p.n - 1 : 0;
        *eq = p.it[x].klen == c->e.key_len &&
              memcmp(p.kb + p.it[x].off, c->e.key, c->e.key_len) == 0;
    }
    page_clear(&p);
    return JET_OK;
}

static bool key_equal(const ipage *p, size_t x, const jet_index_entry *e)
{
    return p->it[x].klen == e->key_len &&
           memcmp(p->kb + p->it[x].off, e->key, e->key_len) == 0;
}

/* May the leaf's last entry change without a parent entry changing?
 * (propagate_last would change none: every page of the path up to the
 * first that is not its parent's last child is a tail.) */
static bool last_is_free(const ictx *c)
{
    for (int L = c->depth; L > 0; L--) {
        const ipage *parent = &c->path[L - 1];
        size_t x = c->ci[L];
        if (page_bound(parent, x))
            return false;
        if (x + 1 != page_n(parent))
            return true;
    }
    return true;
}

/* Insert (or remove) c->e on the leaf descend left undecoded, in place on
 * the page when that is a local change (jet_index_leaf_insert/_remove);
 * *done says whether it was. When not, the caller decodes and rebuilds
 * the leaf (the page may be marked dirty, unchanged). */
static jet_rc leaf_in_place(ictx *c, bool insert, bool unique, bool *done)
{
    ipage *leaf = &c->path[c->depth];
    bool last_ok = insert && last_is_free(c) && (!unique || leaf->next == 0);
    uint8_t *page;
    jet_rc rc;

    *done = false;
    if (!leaf->leaf || leaf->loaded)
        return JET_OK;
    rc = jet_page_write(c->db->pf, leaf->pgno, &page, &c->db->err);
    if (rc != JET_OK)
        return rc;
    rc = insert ? jet_index_leaf_insert(page, c->db->fmt, &c->e, unique,
                                        last_ok, done)
                : jet_index_leaf_remove(page, c->db->fmt, &c->e, done);
    jet_page_unpin(c->db->pf, page);
    if (rc != JET_OK)
        return jet_fail(&c->db->err, rc, leaf->pgno, "index '%s': damaged "
                        "leaf page %u", c->ix->name, leaf->pgno);
    return JET_OK;
}

jet_rc jet_index_entry_insert(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id)
{
    ictx c;
    ipage *leaf;
    size_t x;
    bool dup = false, done = false, null_entry = all_null(ix, key, key_len);
    jet_rc rc = ctx_init(&c, db, t, ix, key, key_len, id);

    if (rc == JET_OK && ix->ignore_nulls && null_entry) {
        ctx_free(&c);
        return JET_OK;          /* such rows have no entry */
    }
    if (rc == JET_OK)
        rc = descend(&c, false);
    if (rc == JET_OK)
        rc = leaf_in_place(&c, true, (ix->unique || ix->primary_key) &&
                                         !null_entry, &done);
    if (rc == JET_OK && !done)
        rc = ensure_loaded(&c, c.depth);
    if (rc != JET_OK || done) {
        ctx_free(&c);
        return rc;
    }
    leaf = &c.path[c.depth];
    x = lower_bound(leaf, &c.e);
    if (x < leaf->n && item_cmp(leaf, x, &c.e) == 0) {
        ctx_free(&c);
        return jet_fail(&db->err, JET_ECORRUPT, leaf->pgno,
                        "index '%s' of table '%s' already has the entry of "
                        "row %u:%u", ix->name, t->name, id.pgno, id.row);
    }
    if ((ix->unique || ix->primary_key) && !null_entry) {
        if (x > 0)
            dup = key_equal(leaf, x - 1, &c.e);
        else
            rc = neighbour_equal(&c, leaf->prev, true, &dup);
        if (rc == JET_OK && !dup) {
            if (x < leaf->n)
                dup = key_equal(leaf, x, &c.e);
            else
                rc = neighbour_equal(&c, leaf->next, false, &dup);
        }
        if (rc == JET_OK && dup)
            rc = jet_fail(&db->err, JET_EDUPLICATE, t->pgno,
                          "The changes you requested to the table were not "
                          "successful because they would create duplicate "
                          "values in the index, primary key, or "
                          "relationship (index '%s' of table '%s')",
                          ix->name, t->name);
    }
    if (rc == JET_OK)
        rc = item_insert(&c, leaf, x, &c.e, 0);
    if (rc == JET_OK && x + 1 == leaf->n)
        rc = propagate_last(&c, c.depth);
    if (rc == JET_OK)
        rc = settle(&c);
    if (rc == JET_OK)
        rc = write_path(&c);
    ctx_free(&c);
    return rc;
}

/* path[L] is empty and not the root: unlink it from its peers, give it
 * back, and remove its entry from the parent. */
static jet_rc drop_page(ictx *c, int L)
{
    ipage *p = &c->path[L];
    jet_rc rc = set_link(c, L, p->prev, IDX_NEXT, p->next);
    if (rc == JET_OK)
        rc = set_link(c, L, p->next, IDX_PREV, p->prev);
    if (rc == JET_OK) {
        rc = jet_table_page_free(c->db, c->t, p->pgno);
        /* a table writer that cannot free pages yet: the page stays
         * allocated to the table, unreferenced */
        if (rc == JET_EUNSUPPORTED) {
            jet_error_clear(&c->db->err);
            rc = JET_OK;
        }
    }
    if (rc == JET_OK)
        rc = ensure_loaded(c, L - 1);
    if (rc == JET_OK) {
        p->dirty = false;
        item_remove(&c->path[L - 1], c->ci[L]);
    }
    return rc;
}

jet_rc jet_index_entry_delete(jet_db *db, const jet_tdef *t,
                              const jet_index *ix, const uint8_t *key,
                              size_t key_len, jet_rowid id)
{
    ictx c;
    ipage *leaf;
    size_t x;
    int L;
    bool was_last, done = false;
    jet_rc rc = ctx_init(&c, db, t, ix, key, key_len, id);

    if (rc == JET_OK && ix->ignore_nulls && all_null(ix, key, key_len)) {
        ctx_free(&c);
        return JET_OK;
    }
    if (rc == JET_OK)
        rc = descend(&c, false);
    if (rc == JET_OK)
        rc = leaf_in_place(&c, false, false, &done);
    if (rc == JET_OK && !done)
        rc = ensure_loaded(&c, c.depth);
    if (rc != JET_OK || done) {
        ctx_free(&c);
        return rc;
    }
    leaf = &c.path[c.depth];
    x = lower_bound(leaf, &c.e);
    if (x == leaf->n || item_cmp(leaf, x, &c.e) != 0) {
        ctx_free(&c);
        return jet_fail(&db->err, JET_ECORRUPT, leaf->pgno,
                        "index '%s' of table '%s' has no entry for row "
                        "%u:%u: the index does not match its table",
                        ix->name, t->name, id.pgno, id.row);
    }
    was_last = x + 1 == leaf->n;
    item_remove(leaf, x);
    for (L = c.depth; L > 0 && page_n(&c.path[L]) == 0 && rc == JET_OK;
         L--) {
        was_last = c.ci[L] + 1 == page_n(&c.path[L - 1]);
        rc = drop_page(&c, L);
    }
    if (rc == JET_OK && L == 0 && page_n(&c.path[0]) == 0) {
        c.path[0].leaf = true;      /* an empty root is an empty leaf */
        c.path[0].dirty = true;
    } else if (rc == JET_OK && was_last) {
        rc = propagate_last(&c, L);
    }
    /* a parent entry replaced by a longer one may not fit any more */
    if (rc == JET_OK)
        rc = settle(&c);
    if (rc == JET_OK)
        rc = write_path(&c);
    ctx_free(&c);
    return rc;
}
