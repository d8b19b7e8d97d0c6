/*
 * dbc.c - connection handles: connect by DSN or connection string,
 * connection attributes, disconnect.
 *
 * A DSN's keys come from odbc.ini through SQLGetPrivateProfileString
 * (DBQ, or Database as psqlODBC/sqliteodbc spell it; PWD;
 * ExtendedAnsiSQL, Microsoft's Access driver key: 1 = ANSI-92 LIKE with
 * only % and _ as wildcards; MaxLongSize, the COLUMN_SIZE reported for
 * Memo and OLE columns; TraceFile, driver/trace.h). Connection-string
 * keys win over the DSN's. CREATE_DB=path [version] in a connection string
 * makes a new empty database first (create_db), encrypted with PWD when
 * one is given; COMPACT_DB=src dst compacts src into the new file dst
 * first (compact_db). The database is opened with
 * jet_db_open(); its errors map through diag.c.
 */
#include "config.h"

#include "odbc_internal.h"

#include <errno.h>
#include <odbcinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "connstr.h"
#include "write.h"
#include "sql/engine.h"
#include "sql/rules.h"
#include "trace.h"

/* The COLUMN_SIZE reported for Memo and OLE columns unless MaxLongSize
 * says otherwise: RODBC binds LONGVARBINARY with COLUMN_SIZE + 1 bytes
 * times 100 rows and text with at most 65535, node's odbc and others size
 * buffers from it too, so 1073741823 makes them fail to allocate. 65535
 * is what Access's own UI lets a Memo hold, and psqlODBC's
 * MaxLongVarcharSize is the same idea. SQLGetData still returns values
 * of any length. */
#define DEFAULT_MAX_LONG_SIZE 65535

SQLRETURN odbc_dbc_alloc(odbc_dbc **out, odbc_env *env)
{
    odbc_dbc *dbc = calloc(1, sizeof *dbc);
    *out = NULL;
    if (!dbc)
        return odbc_diag_add(&env->hdr.diag, "HY001",
                             "Memory allocation error");
    dbc->hdr.tag = ODBC_TAG_DBC;
    dbc->hdr.handle_type = SQL_HANDLE_DBC;
    pthread_mutex_init(&dbc->lock, NULL);
    dbc->env = env;
    dbc->autocommit = SQL_AUTOCOMMIT_ON;
    dbc->access_mode = SQL_MODE_READ_WRITE;
    dbc->login_timeout = 0;
    dbc->txn_isolation = SQL_TXN_SERIALIZABLE;
    dbc->metadata_id = SQL_FALSE;
    dbc->max_long_size = DEFAULT_MAX_LONG_SIZE;
    dbc->next = env->dbcs;
    env->dbcs = dbc;
    *out = dbc;
    return SQL_SUCCESS;
}

/* Called with dbc->lock held; on success the lock is released and the
 * handle is gone. */
SQLRETURN odbc_dbc_free(odbc_dbc *dbc)
{
    if (dbc->db)
        return odbc_diag_add(&dbc->hdr.diag, "HY010",
                             "connection is still open");
    while (dbc->stmts)
        odbc_stmt_free(dbc->stmts);
    odbc_env *env = dbc->env;
    pthread_mutex_lock(&env->lock);
    for (odbc_dbc **p = &env->dbcs; *p; p = &(*p)->next) {
        if (*p == dbc) {
            *p = dbc->next;
            break;
        }
    }
    pthread_mutex_unlock(&env->lock);
    dbc->hdr.tag = ODBC_TAG_DEAD;
    pthread_mutex_unlock(&dbc->lock);
    pthread_mutex_destroy(&dbc->lock);
    free(dbc->dsn);
    free(dbc->db_path);
    odbc_trace_close(dbc->trace);
    free(dbc);
    return SQL_SUCCESS;
}

static const char *version_string(jet_version v)
{
    switch (v) {
    case JET_VER_3: return "03.50.0000";
    case JET_VER_4: return "04.00.0000";
    case JET_VER_ACE12: return "12.00.0000";
    case JET_VER_ACE14: return "14.00.0000";
    case JET_VER_ACE15: return "15.00.0000";
    case JET_VER_ACE16: return "16.00.0000";
    default: return "17.00.0000";
    }
}

/* SQL_ATTR_LOGIN_TIMEOUT during an open: the deadline on the monotonic
 * clock (ns), checked by the core inside long work at open (an encrypted
 * file's password key derivation). */
typedef struct login_deadline {
    int64_t at_ns;
    bool passed;
} login_deadline;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int login_timed_out(void *ctx)
{
    login_deadline *d = ctx;
    if (now_ns() >= d->at_ns)
        d->passed = true;
    return d->passed;
}

/* Open path with password pwd; records the connection on success. */
static const char *conn_opt(const odbc_connstr *cs, const char *dsn,
                            const char *key, char *buf, int cap);
static bool yes_no_of(const char *v, bool *out);

/* Open path with password pwd; records the connection on success. The
 * file is opened read-only (the pager never writes it) when the
 * connection asks: ReadOnly=1 (connection string or DSN, Microsoft's
 * driver's key) or SQL_ATTR_ACCESS_MODE = SQL_MODE_READ_ONLY set before
 * connecting. */
static SQLRETURN open_db(odbc_dbc *dbc, const char *dsn, const char *path,
                         const char *pwd, const odbc_connstr *cs)
{
    jet_open_options opts;
    jet_error err;
    jet_db *db = NULL;

    if (dbc->db)
        return odbc_diag_add(&dbc->hdr.diag, "08002",
                             "Connection name in use");
    if (!path || !*path)
        return odbc_diag_add(&dbc->hdr.diag, "08001",
                             "no database file given (DBQ=path)");
    memset(&opts, 0, sizeof opts);
    memset(&err, 0, sizeof err);
    opts.password = (pwd && *pwd) ? pwd : NULL;
    char robuf[64];
    bool ro = false;
    const char *rov = conn_opt(cs, dsn, "ReadOnly", robuf, sizeof robuf);
    if (!yes_no_of(rov, &ro))
        return odbc_diag_add(&dbc->hdr.diag, "08001", "Invalid connection "
                             "string attribute: ReadOnly '%s' is not 0 or 1",
                             rov);
    dbc->read_only = ro || dbc->access_mode == SQL_MODE_READ_ONLY;
    opts.read_only = dbc->read_only;
    login_deadline deadline = { 0, false };
    if (dbc->login_timeout) {
        SQLUINTEGER secs = dbc->login_timeout > 100000000
                               ? 100000000 : dbc->login_timeout;
        deadline.at_ns = now_ns() + (int64_t)secs * 1000000000;
        opts.interrupt = login_timed_out;
        opts.interrupt_ctx = &deadline;
    }
    jet_rc rc = jet_db_open(&db, path, &opts, &err);
    if (rc == JET_OK && sql_rules_attach(db) != 0) {
        /* validation rules are then refused (HYC00), never skipped */
        jet_db_close(db);
        return odbc_diag_add(&dbc->hdr.diag, "HY001",
                             "Memory allocation error");
    }
    if (rc == JET_EINTERRUPTED && deadline.passed)
        return odbc_diag_add(&dbc->hdr.diag, "HYT00",
                             "Login timeout expired (%u s): %s",
                             (unsigned)dbc->login_timeout, err.msg);
    if (rc != JET_OK) {
        if ((rc == JET_EIO || rc == JET_EFORMAT) &&
            !(err.rc == rc && err.msg[0] && strstr(err.msg, path)))
            return odbc_diag_add(&dbc->hdr.diag, "08001", "%s: %s", path,
                                 err.rc == rc && err.msg[0]
                                     ? err.msg : jet_rc_str(rc));
        return odbc_diag_jet(&dbc->hdr.diag, rc, &err, DIAG_CTX_CONNECT);
    }
    char *p = odbc_strdup(path);
    char *d = dsn ? odbc_strdup(dsn) : NULL;
    if (!p || (dsn && !d)) {
        free(p);
        free(d);
        jet_db_close(db);
        return odbc_diag_add(&dbc->hdr.diag, "HY001",
                             "Memory allocation error");
    }
    free(dbc->db_path);
    free(dbc->dsn);
    dbc->db_path = p;
    dbc->dsn = d;
    dbc->db = db;
    snprintf(dbc->db_version, sizeof dbc->db_version, "%s",
             version_string(jet_db_version(db)));
    return SQL_SUCCESS;
}

/* MaxMemory=<MB> (1..1048576) -> bytes in *out; 0 (the engine's
 * default) when absent. false (and *out 0) when present but not such a
 * number: the caller warns. */
static bool max_memory_of(const char *v, size_t *out)
{
    *out = 0;
    if (!v || !*v)
        return true;
    char *end;
    unsigned long long mb = strtoull(v, &end, 10);
    if (end == v || *end || *v == '-' || mb == 0 || mb > 1048576)
        return false;
    *out = (size_t)mb << 20;
    return true;
}

/* The LIKE mode an ExtendedAnsiSQL value asks for in *mode (NULL: the
 * default): 1 (or yes/true/on) is ANSI-92, % and _ only (SQL_LIKE_ANSI =
 * 2); 0 (no/false/off) both wildcard sets (SQL_LIKE_BOTH = 0). false for
 * any other value (*mode 0): the caller warns. */
static bool like_mode_of(const char *v, int *mode)
{
    *mode = 0;
    if (!v)
        return true;
    while (*v == ' ')
        v++;
    static const char *const words[] = { "1", "yes", "true", "on",
                                         "0", "no", "false", "off" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (!strncasecmp(v, words[i], n) && (v[n] == '\0' || v[n] == ' ')) {
            *mode = i < 4 ? 2 : 0;
            return true;
        }
    }
    return false;
}

/* A yes/no key's value (1/0, yes/no, true/false, on/off; NULL: no)
 * into *out; false for anything else. */
static bool yes_no_of(const char *v, bool *out)
{
    int mode = 0;
    *out = false;
    if (!like_mode_of(v, &mode))
        return false;
    *out = mode != 0;
    return true;
}

/* Read key of DSN dsn from odbc.ini into buf; returns buf or NULL. */
static const char *dsn_key(const char *dsn, const char *key, char *buf,
                           int cap)
{
    buf[0] = '\0';
    if (!dsn || !*dsn)
        return NULL;
    int n = SQLGetPrivateProfileString(dsn, key, "", buf, cap, "odbc.ini");
    if (n <= 0 || !buf[0])
        return NULL;
    return buf;
}

/* Option key: the connection string's value (cs may be NULL), else the
 * DSN's, else NULL; buf holds a DSN value. */
static const char *conn_opt(const odbc_connstr *cs, const char *dsn,
                            const char *key, char *buf, int cap)
{
    if (!key)
        return NULL;
    const char *v = cs ? odbc_connstr_get(cs, key) : NULL;
    return v ? v : dsn_key(dsn, key, buf, cap);
}

/* The options every connect reads besides the file and the password
 * (ExtendedAnsiSQL, MaxMemory, MaxLongSize, TraceFile); a bad value is 01S00
 * and the default stays. Traces the connect (never the password). */
static SQLRETURN apply_options(odbc_dbc *dbc, const odbc_connstr *cs,
                               const char *dsn, bool have_pwd)
{
    char buf[4096];
    SQLRETURN ret = SQL_SUCCESS;
    const char *o = conn_opt(cs, dsn, "ExtendedAnsiSQL", buf, sizeof buf);
    if (!like_mode_of(o, &dbc->like_mode))
        ret = odbc_diag_add(&dbc->hdr.diag, "01S00", "Invalid connection "
                            "string attribute: ExtendedAnsiSQL '%s' is not "
                            "0/1 (yes/no, true/false, on/off); using 0",
                            o);
    o = conn_opt(cs, dsn, "MaxMemory", buf, sizeof buf);
    if (!max_memory_of(o, &dbc->max_memory))
        ret = odbc_diag_add(&dbc->hdr.diag, "01S00", "Invalid connection "
                            "string attribute: MaxMemory '%s' is not a "
                            "number of MB from 1 to 1048576; using the "
                            "default, %zu MB", o,
                            (size_t)(SQL_MEM_DEFAULT >> 20));
    dbc->max_long_size = DEFAULT_MAX_LONG_SIZE;
    const char *v = conn_opt(cs, dsn, "MaxLongSize", buf, sizeof buf);
    if (!v)
        v = conn_opt(cs, dsn, "MaxLongVarcharSize", buf, sizeof buf);
    if (v) {
        char *end;
        unsigned long long n = strtoull(v, &end, 10);
        while (*end == ' ')
            end++;
        if (end == v || *end || *v == '-' || n > 1073741823ULL)
            ret = odbc_diag_add(&dbc->hdr.diag, "01S00", "Invalid "
                                "connection string attribute: MaxLongSize "
                                "'%s' is not a number from 0 to 1073741823 "
                                "(using %d)", v, DEFAULT_MAX_LONG_SIZE);
        else
            dbc->max_long_size = (SQLULEN)n;
    }
    odbc_trace_close(dbc->trace);
    o = conn_opt(cs, dsn, "TraceFile", buf, sizeof buf);
    dbc->trace = odbc_trace_open(o);
    if (!dbc->trace && o && *o)
        ret = odbc_diag_add(&dbc->hdr.diag, "01S00", "Invalid connection "
                            "string attribute: TraceFile '%s' cannot be "
                            "opened for writing (%s); no trace", o,
                            strerror(errno));
    odbc_trace_log(dbc->trace, "connect dbc=%p DSN=%s DBQ=%s version=%s "
                   "password=%s MaxLongSize=%lu ExtendedAnsiSQL=%d",
                   (void *)dbc, dsn ? dsn : "", dbc->db_path,
                   dbc->db_version, have_pwd ? "(given)" : "(none)",
                   (unsigned long)dbc->max_long_size, dbc->like_mode ? 1 : 0);
    return ret;
}

SQLRETURN odbc_dbc_connect(odbc_dbc *dbc, const char *dsn, const char *uid,
                           const char *pwd)
{
    char path[4096], pw[512];
    const char *p = dsn_key(dsn, "DBQ", path, sizeof path);
    if (!p)
        p = dsn_key(dsn, "Database", path, sizeof path);
    if (!p)
        return odbc_diag_add(&dbc->hdr.diag, "08001",
                             "data source '%s' has no DBQ (database file) key",
                             dsn ? dsn : "");
    if (!pwd || !*pwd)
        pwd = dsn_key(dsn, "PWD", pw, sizeof pw);
    SQLRETURN ret = open_db(dbc, dsn, p, pwd, NULL);
    if (SQL_SUCCEEDED(ret))
        ret = apply_options(dbc, NULL, dsn, pwd && *pwd);
    return ret;
}

/* Append "key=value;" to *s (len/cap), bracing values that need it. */
static int append_pair(char **s, size_t *len, size_t *cap, const char *key,
                       const char *val)
{
    size_t need = strlen(key) + 2 * strlen(val) + 6;
    if (*len + need + 1 > *cap) {
        size_t nc = (*cap + need) * 2;
        char *p = realloc(*s, nc);
        if (!p)
            return -1;
        *s = p;
        *cap = nc;
    }
    bool brace = strpbrk(val, ";{}=") != NULL || val[0] == ' ';
    char *o = *s + *len;
    o += sprintf(o, "%s=", key);
    if (brace) {
        *o++ = '{';
        for (const char *c = val; *c; c++) {
            *o++ = *c;
            if (*c == '}')
                *o++ = '}';
        }
        *o++ = '}';
    } else {
        o += sprintf(o, "%s", val);
    }
    *o++ = ';';
    *o = '\0';
    *len = (size_t)(o - *s);
    return 0;
}

/*
 * CREATE_DB=path [ACE12|ACE14|ACE16|ACE17|JET4] [General] [ENCRYPT] and
 * COMPACT_DB=src dst [General] (Microsoft's SQLConfigDataSource keywords,
 * also read in a connection string; core/dbspec.c): make the new empty
 * database, or compact src into the new file dst, before connecting,
 * with the connection's PWD (never over an existing file). On success
 * *made holds the new file's path (for DBQ when none is given).
 * SQLSTATEs: 08001 (a malformed value, a path that exists or cannot be
 * written), HYC00 (ENCRYPT without PWD, an Access 97 source), 28000
 * (the source's password missing or wrong).
 */
static SQLRETURN db_keyword(odbc_dbc *dbc, const char *key, const char *val,
                            const char *pwd, char *made, size_t cap)
{
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_rc rc = !strcmp(key, "CREATE_DB")
                ? jet_db_create_spec(val, pwd, made, cap, &err)
                : jet_db_compact_spec(val, pwd, made, cap, &err);
    if (rc == JET_OK)
        return SQL_SUCCESS;
    return odbc_diag_add(&dbc->hdr.diag,
                         rc == JET_EUNSUPPORTED ? "HYC00"
                         : rc == JET_EPASSWORD ? "28000" : "08001",
                         "%s: %s", key, err.msg);
}

SQLRETURN odbc_dbc_driver_connect(odbc_dbc *dbc, const char *in,
                                  char **out_str)
{
    char path[4096], pw[512];
    odbc_connstr *cs = odbc_connstr_parse(in ? in : "", (size_t)-1);
    if (!cs)
        return odbc_diag_add(&dbc->hdr.diag, "08001",
                             "invalid connection string");
    const char *dsn = odbc_connstr_get(cs, "DSN");
    const char *p = odbc_connstr_get(cs, "DBQ");
    if (!p || !*p)
        p = odbc_connstr_get(cs, "Database");
    bool from_dsn = false;
    if ((!p || !*p) && dsn) {
        p = dsn_key(dsn, "DBQ", path, sizeof path);
        if (!p)
            p = dsn_key(dsn, "Database", path, sizeof path);
        from_dsn = p != NULL;
    }
    const char *pwd = odbc_connstr_get(cs, "PWD");
    if (!pwd)
        pwd = odbc_connstr_get(cs, "Password");
    if (!pwd && dsn)
        pwd = dsn_key(dsn, "PWD", pw, sizeof pw);
    const char *cdb = odbc_connstr_get(cs, "CREATE_DB");
    char made[4096];
    if (cdb && *cdb) {
        if (dbc->db) {
            odbc_connstr_free(cs);
            return odbc_diag_add(&dbc->hdr.diag, "08002",
                                 "Connection name in use");
        }
        SQLRETURN cr = db_keyword(dbc, "CREATE_DB", cdb, pwd, made,
                                  sizeof made);
        if (!SQL_SUCCEEDED(cr)) {
            odbc_connstr_free(cs);
            return cr;
        }
        if (!p || !*p)
            p = made;
    }
    const char *kdb = odbc_connstr_get(cs, "COMPACT_DB");
    char compacted[4096];
    if (kdb && *kdb) {
        if (dbc->db) {
            odbc_connstr_free(cs);
            return odbc_diag_add(&dbc->hdr.diag, "08002",
                                 "Connection name in use");
        }
        SQLRETURN cr = db_keyword(dbc, "COMPACT_DB", kdb, pwd, compacted,
                                  sizeof compacted);
        if (!SQL_SUCCEEDED(cr)) {
            odbc_connstr_free(cs);
            return cr;
        }
        if (!p || !*p)
            p = compacted;
    }
    SQLRETURN ret = open_db(dbc, dsn, p, pwd, cs);
    if (SQL_SUCCEEDED(ret))
        ret = apply_options(dbc, cs, dsn, pwd && *pwd);
    if (SQL_SUCCEEDED(ret) && out_str) {
        char *s = NULL;
        size_t len = 0, cap = 0;
        int fail = 0;
        size_t n = odbc_connstr_count(cs);
        for (size_t i = 0; i < n && !fail; i++) {
            const char *k, *v;
            odbc_connstr_at(cs, i, &k, &v);
            fail = append_pair(&s, &len, &cap, k, v ? v : "");
        }
        if (!fail && from_dsn)
            fail = append_pair(&s, &len, &cap, "DBQ", p);
        if (!fail && !s)
            fail = append_pair(&s, &len, &cap, "DBQ", p);
        if (fail) {
            free(s);
            s = NULL;
        }
        *out_str = s;
    }
    odbc_connstr_free(cs);
    return ret;
}

SQLRETURN odbc_dbc_disconnect(odbc_dbc *dbc)
{
    if (!dbc->db)
        return odbc_diag_add(&dbc->hdr.diag, "08003",
                             "Connection not open");
    /* ODBC: statements still allocated are freed with the connection
     * (the driver manager forgets its own statement handles too) */
    while (dbc->stmts)
        odbc_stmt_free(dbc->stmts);
    /* an open transaction is rolled back (what pyodbc and ADO users
     * expect of a connection closed without commit) */
    if (jet_db_in_write(dbc->db)) {
        jet_db_write_rollback(dbc->db);
        odbc_trace_log(dbc->trace, "disconnect dbc=%p: open transaction "
                       "rolled back", (void *)dbc);
    }
    jet_db_close(dbc->db);
    dbc->db = NULL;
    odbc_trace_log(dbc->trace, "disconnect dbc=%p", (void *)dbc);
    odbc_trace_close(dbc->trace);
    dbc->trace = NULL;
    return SQL_SUCCESS;
}

SQLRETURN odbc_dbc_set_attr(odbc_dbc *dbc, SQLINTEGER attr, SQLPOINTER val,
                            SQLINTEGER len)
{
    SQLUINTEGER v = (SQLUINTEGER)(uintptr_t)val;
    switch (attr) {
    case SQL_ATTR_AUTOCOMMIT:
        if (v != SQL_AUTOCOMMIT_ON && v != SQL_AUTOCOMMIT_OFF)
            return odbc_diag_add(&dbc->hdr.diag, "HY024", "Invalid "
                                 "attribute value %lu for "
                                 "SQL_ATTR_AUTOCOMMIT", (unsigned long)v);
        /* turning autocommit on commits the open transaction (ODBC) */
        if (v == SQL_AUTOCOMMIT_ON && dbc->autocommit == SQL_AUTOCOMMIT_OFF &&
            dbc->db && jet_db_in_write(dbc->db)) {
            SQLRETURN r = odbc_dbc_end_tran(dbc, SQL_COMMIT);
            if (!SQL_SUCCEEDED(r))
                return r;
        }
        dbc->autocommit = v;
        return SQL_SUCCESS;
    case SQL_ATTR_ACCESS_MODE:
        if (v != SQL_MODE_READ_ONLY && v != SQL_MODE_READ_WRITE)
            return odbc_diag_add(&dbc->hdr.diag, "HY024", "Invalid "
                                 "attribute value %lu for "
                                 "SQL_ATTR_ACCESS_MODE", (unsigned long)v);
        dbc->access_mode = v;
        /* on an open connection: read-only from now on (the file stays
         * open as it is; writes are refused by the driver) */
        if (dbc->db && v == SQL_MODE_READ_ONLY)
            dbc->read_only = true;
        return SQL_SUCCESS;
    case SQL_ATTR_LOGIN_TIMEOUT:
        dbc->login_timeout = v;
        return SQL_SUCCESS;
    case SQL_ATTR_CONNECTION_TIMEOUT:
        dbc->connection_timeout = v;
        return SQL_SUCCESS;
    case SQL_ATTR_TXN_ISOLATION:
        /* one level (info.c): another is answered with what it gets */
        if (v != SQL_TXN_SERIALIZABLE)
            return odbc_diag_add(&dbc->hdr.diag, "01S02", "Option value "
                                 "changed: transactions are serializable "
                                 "(SQL_TXN_SERIALIZABLE)");
        dbc->txn_isolation = v;
        return SQL_SUCCESS;
    case SQL_ATTR_METADATA_ID:
        dbc->metadata_id = v;
        return SQL_SUCCESS;
    case SQL_ATTR_CURRENT_CATALOG: {
        /* one catalog, the file: naming it is fine, another is not */
        const char *name = val;
        size_t n = !name ? 0 : len == SQL_NTS ? strlen(name)
                 : len > 0 ? (size_t)len : 0;
        if (dbc->db && dbc->db_path && n == strlen(dbc->db_path) &&
            memcmp(name, dbc->db_path, n) == 0)
            return SQL_SUCCESS;
        return odbc_diag_add(&dbc->hdr.diag, "HYC00", "Optional feature "
                             "not implemented: the catalog is the open "
                             "file (%s); switching catalogs is not "
                             "supported", dbc->db_path ? dbc->db_path
                                                       : "none open");
    }
    case SQL_ATTR_QUIET_MODE:
    case SQL_ATTR_PACKET_SIZE:
    case SQL_ATTR_TRACE:
    case SQL_ATTR_TRACEFILE:
    case SQL_ATTR_ANSI_APP:
        return SQL_SUCCESS;
    default:
        return odbc_diag_add(&dbc->hdr.diag, "HYC00",
                             "connection attribute %d not supported",
                             (int)attr);
    }
}

SQLRETURN odbc_dbc_get_attr(odbc_dbc *dbc, SQLINTEGER attr, SQLULEN *num,
                            const char **str, bool *is_str)
{
    *is_str = false;
    switch (attr) {
    case SQL_ATTR_AUTOCOMMIT: *num = dbc->autocommit; break;
    case SQL_ATTR_ACCESS_MODE: *num = dbc->access_mode; break;
    case SQL_ATTR_LOGIN_TIMEOUT: *num = dbc->login_timeout; break;
    case SQL_ATTR_CONNECTION_TIMEOUT: *num = dbc->connection_timeout; break;
    case SQL_ATTR_TXN_ISOLATION: *num = dbc->txn_isolation; break;
    case SQL_ATTR_METADATA_ID: *num = dbc->metadata_id; break;
    case SQL_ATTR_CONNECTION_DEAD:
        *num = dbc->db ? SQL_CD_FALSE : SQL_CD_TRUE;
        break;
    case SQL_ATTR_CURRENT_CATALOG:
        if (!dbc->db)
            return odbc_diag_add(&dbc->hdr.diag, "08003",
                                 "Connection not open");
        *is_str = true;
        *str = dbc->db_path;
        break;
    default:
        return odbc_diag_add(&dbc->hdr.diag, "HY092",
                             "connection attribute %d not supported",
                             (int)attr);
    }
    return SQL_SUCCESS;
}

SQLRETURN odbc_dbc_end_tran(odbc_dbc *dbc, SQLSMALLINT completion)
{
    if (completion != SQL_COMMIT && completion != SQL_ROLLBACK)
        return odbc_diag_add(&dbc->hdr.diag, "HY012",
                             "Invalid transaction operation code");
    /* nothing open (autocommit, or no write since the last end): done */
    if (!dbc->db || !jet_db_in_write(dbc->db))
        return SQL_SUCCESS;
    jet_rc rc = completion == SQL_COMMIT ? jet_db_write_commit(dbc->db)
                                         : jet_db_write_rollback(dbc->db);
    odbc_trace_log(dbc->trace, "%s dbc=%p: %s", completion == SQL_COMMIT
                   ? "commit" : "rollback", (void *)dbc, jet_rc_str(rc));
    if (rc != JET_OK)
        return odbc_diag_jet(&dbc->hdr.diag, rc, jet_db_error(dbc->db),
                             DIAG_CTX_OTHER);
    return SQL_SUCCESS;
}
