/*
 * connstr.c - parse ODBC connection strings into key/value pairs.
 *
 * Grammar (ODBC SQLDriverConnect "Comments"): pairs separated by ';';
 * key '=' value; a value starting with '{' runs to the matching '}' where
 * "}}" stands for a literal '}', and may then contain ';' and '='. Spaces
 * and tabs around keys and around unbraced values are trimmed. Empty
 * segments (";;") and segments without '=' are skipped. Keys compare
 * case-insensitively (ASCII); the first occurrence of a key wins, later
 * duplicates are dropped at parse time so count/at see each key once.
 * More than CONNSTR_MAX_PAIRS distinct keys fail like a syntax error.
 */
#include "config.h"

#include "connstr.h"

#include <stdlib.h>
#include <string.h>

/* Distinct keys we keep; more makes the string invalid (bounds the
 * duplicate check, which is linear per pair). */
#define CONNSTR_MAX_PAIRS 1024

typedef struct connstr_pair {
    char *key;
    char *value;
} connstr_pair;

struct odbc_connstr {
    size_t count;
    size_t cap;
    connstr_pair *pairs;
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z')
            ca = (unsigned char)(ca - 'A' + 'a');
        if (cb >= 'A' && cb <= 'Z')
            cb = (unsigned char)(cb - 'A' + 'a');
        if (ca != cb)
            return (int)ca - (int)cb;
        if (ca == 0)
            return 0;
    }
}

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Take ownership of key/value; drop them when key is already present.
 * Returns 0, or -1 on allocation failure or too many keys (both freed). */
static int add_pair(odbc_connstr *cs, char *key, char *value)
{
    if (odbc_connstr_get(cs, key)) {
        free(key);
        free(value);
        return 0;
    }
    if (cs->count == CONNSTR_MAX_PAIRS) {
        free(key);
        free(value);
        return -1;
    }
    if (cs->count == cs->cap) {
        size_t ncap = cs->cap ? cs->cap * 2 : 8;
        connstr_pair *np = realloc(cs->pairs, ncap * sizeof *np);
        if (!np) {
            free(key);
            free(value);
            return -1;
        }
        cs->pairs = np;
        cs->cap = ncap;
    }
    cs->pairs[cs->count].key = key;
    cs->pairs[cs->count].value = value;
    cs->count++;
    return 0;
}

odbc_connstr *odbc_connstr_parse(const char *s, size_t len)
{
    odbc_connstr *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    if (!s)
        return cs;
    if (len == (size_t)-1)
        len = strlen(s);
    /* An embedded NUL ends the string, as for any C API caller. */
    const char *nul = memchr(s, '\0', len);
    if (nul)
        len = (size_t)(nul - s);

    size_t i = 0;
    while (i < len) {
        /* key: up to '=' or ';' */
        while (i < len && (is_blank(s[i]) || s[i] == ';'))
            i++;
        if (i >= len)
            break;
        size_t kstart = i;
        while (i < len && s[i] != '=' && s[i] != ';')
            i++;
        if (i >= len || s[i] == ';')
            continue;               /* "junk" without '=': skip */
        size_t kend = i;
        while (kend > kstart && is_blank(s[kend - 1]))
            kend--;
        i++;                        /* '=' */
        while (i < len && is_blank(s[i]))
            i++;

        char *value;
        if (i < len && s[i] == '{') {
            /* braced: up to the closing '}', "}}" = '}'. First find the
             * end and the unescaped length, then copy. */
            size_t j = i + 1, n = 0;
            for (;;) {
                if (j >= len)
                    goto fail;      /* unclosed brace */
                if (s[j] == '}') {
                    if (j + 1 < len && s[j + 1] == '}') {
                        n++;
                        j += 2;
                        continue;
                    }
                    break;
                }
                n++;
                j++;
            }
            char *buf = malloc(n + 1);
            if (!buf)
                goto fail;
            n = 0;
            for (size_t k = i + 1; k < j; k++) {
                buf[n++] = s[k];
                if (s[k] == '}')
                    k++;            /* skip the second of "}}" */
            }
            buf[n] = '\0';
            value = buf;
            j++;                    /* closing brace */
            /* anything after the brace up to ';' is ignored */
            while (j < len && s[j] != ';')
                j++;
            i = j;
        } else {
            size_t vstart = i;
            while (i < len && s[i] != ';')
                i++;
            size_t vend = i;
            while (vend > vstart && is_blank(s[vend - 1]))
                vend--;
            value = dup_range(s + vstart, vend - vstart);
            if (!value)
                goto fail;
        }
        if (kend == kstart) {       /* "=value": no key */
            free(value);
            continue;
        }
        char *key = dup_range(s + kstart, kend - kstart);
        if (!key) {
            free(value);
            goto fail;
        }
        if (add_pair(cs, key, value) != 0)
            goto fail;
    }
    return cs;

fail:
    odbc_connstr_free(cs);
    return NULL;
}

const char *odbc_connstr_get(const odbc_connstr *cs, const char *key)
{
    if (!cs || !key)
        return NULL;
    for (size_t i = 0; i < cs->count; i++)
        if (ascii_casecmp(cs->pairs[i].key, key) == 0)
            return cs->pairs[i].value;
    return NULL;
}

size_t odbc_connstr_count(const odbc_connstr *cs)
{
    return cs ? cs->count : 0;
}

void odbc_connstr_at(const odbc_connstr *cs, size_t i, const char **key,
                     const char **value)
{
    const char *k = NULL, *v = NULL;
    if (cs && i < cs->count) {
        k = cs->pairs[i].key;
        v = cs->pairs[i].value;
    }
    if (key)
        *key = k;
    if (value)
        *value = v;
}

void odbc_connstr_free(odbc_connstr *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->count; i++) {
        free(cs->pairs[i].key);
        free(cs->pairs[i].value);
    }
    free(cs->pairs);
    free(cs);
}
