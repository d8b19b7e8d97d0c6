/*
 * dbspec.c - the values of Microsoft's CREATE_DB= and COMPACT_DB= keywords
 * (jet.h: jet_db_create_spec, jet_db_compact_spec), read by a connection
 * string (driver/dbc.c) and by SQLConfigDataSource (setup/config.c,
 * setup/configdsn_win32.c) alike:
 *   CREATE_DB=path [ACE12|ACE14|ACE16|ACE17|JET4] [General] [ENCRYPT]
 *   COMPACT_DB=src dst [General]
 * A path holding blanks is quoted ("a b.accdb"); CREATE_DB's unquoted
 * path loses the trailing words that are a version, sort order or
 * ENCRYPT. General is the only sort order written. Reference: Microsoft
 * "SQLConfigDataSource (Access driver)" keywords.
 */
#include <string.h>
#include <strings.h>

#include "internal.h"

/* The next word of *s (a "quoted" one may hold blanks), NUL-ended in
 * place; NULL at the end; *bad set for an unbalanced quote. */
static char *next_word(char **s, bool *bad)
{
    char *p = *s + strspn(*s, " \t"), *w;
    if (!*p)
        return NULL;
    if (*p == '"') {
        char *q = strchr(++p, '"');
        if (!q) {
            *bad = true;
            return NULL;
        }
        *q = '\0';
        *s = q + 1;
        return p;
    }
    w = p;
    p += strcspn(p, " \t");
    if (*p)
        *p++ = '\0';
    *s = p;
    return w;
}

/* The last blank-separated word of an unquoted path (NUL-ended in
 * place, trailing blanks cut), or NULL when path is one word. */
static char *last_word(char *path)
{
    char *e = path + strlen(path), *w;
    while (e > path && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    w = e;
    while (w > path && w[-1] != ' ' && w[-1] != '\t')
        w--;
    return w == path ? NULL : w;
}

/* A CREATE_DB option word: 1 a version (*ver set), 2 ENCRYPT, 3 General,
 * 0 anything else. */
static int create_word(const char *w, int *ver)
{
    static const struct { const char *word; jet_version ver; } vers[] = {
        { "JET4", JET_VER_4 }, { "ACE12", JET_VER_ACE12 },
        { "ACE14", JET_VER_ACE14 }, { "ACE16", JET_VER_ACE16 },
        { "ACE17", JET_VER_ACE17 },
    };
    for (size_t i = 0; i < sizeof vers / sizeof vers[0]; i++)
        if (!strcasecmp(w, vers[i].word)) {
            *ver = (int)vers[i].ver;
            return 1;
        }
    if (!strcasecmp(w, "ENCRYPT"))
        return 2;
    return !strcasecmp(w, "General") ? 3 : 0;
}

jet_rc jet_db_create_spec(const char *spec, const char *password,
                          char *made, size_t cap, jet_error *err)
{
    char buf[4096], *path, *rest = NULL, *w;
    int ver = -1, kind;
    bool encrypt = false, bad = false;

    if (strlen(spec) >= sizeof buf)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "the path is too long");
    strcpy(buf, spec);
    path = buf + strspn(buf, " \t");
    if (*path == '"') {
        rest = path;
        path = next_word(&rest, &bad);
        if (bad)
            return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                            "unbalanced quote in '%s'", spec);
        while ((w = next_word(&rest, &bad)) != NULL) {
            if (!(kind = create_word(w, &ver)))
                return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                                "'%s' is not ACE12, ACE14, ACE16, ACE17, "
                                "JET4 or General", w);
            encrypt |= kind == 2;
        }
    } else {
        while ((w = last_word(path)) != NULL &&
               (kind = create_word(w, &ver)) != 0) {
            encrypt |= kind == 2;
            *w = '\0';
        }
    }
    if (!path || !*path)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "no file name given");
    if (encrypt && (!password || !*password))
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "ENCRYPT without a password is not supported "
                        "(give the password with PWD=)");
    if (ver < 0) {
        size_t n = strlen(path);
        ver = n >= 4 && !strcasecmp(path + n - 4, ".mdb") ? JET_VER_4
                                                          : JET_VER_ACE16;
    }
    if (strlen(path) >= cap)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "the path is too long");
    jet_rc rc = jet_db_create_file(path, (jet_version)ver, password, err);
    if (rc == JET_OK)
        strcpy(made, path);
    return rc;
}

jet_rc jet_db_compact_spec(const char *spec, const char *password,
                           char *made, size_t cap, jet_error *err)
{
    char buf[8192], *rest = buf, *src, *dst, *w;
    bool bad = false;

    if (strlen(spec) >= sizeof buf)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "the paths are too long");
    strcpy(buf, spec);
    src = next_word(&rest, &bad);
    dst = src ? next_word(&rest, &bad) : NULL;
    while (!bad && (w = next_word(&rest, &bad)) != NULL)
        if (strcasecmp(w, "General"))
            return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                            "'%s' after the two paths is not General "
                            "(quote a path that holds blanks)", w);
    if (bad)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "unbalanced quote in '%s'", spec);
    if (!src || !dst || !*src || !*dst)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "give the source and the new file: "
                        "COMPACT_DB=src dst");
    if (strlen(dst) >= cap)
        return jet_fail(err, JET_EARGUMENT, JET_NO_PGNO,
                        "the path is too long");
    jet_rc rc = jet_db_compact(src, dst, password, err);
    if (rc == JET_OK)
        strcpy(made, dst);
    return rc;
}
