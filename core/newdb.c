/*
 * newdb.c - new database files (jet.h: jet_db_create_file): an empty
 * Jet4 or ACE file made by the whole-file writer (newfile.c) with the
 * system catalog Access's engine writes.
 */
#include <string.h>

#include "internal.h"
#include "newfile.h"

jet_rc jet_db_create_file(const char *path, jet_version ver,
                          const char *password, jet_error *err)
{
    char msg[256];
    jw_format fmt;
    jw_db *w;

    switch (ver) {
    case JET_VER_4: fmt = JW_FMT_JET4; break;
    case JET_VER_ACE12: fmt = JW_FMT_ACE12; break;
    case JET_VER_ACE14: fmt = JW_FMT_ACE14; break;
    case JET_VER_ACE16: fmt = JW_FMT_ACE16; break;
    case JET_VER_ACE17: fmt = JW_FMT_ACE17; break;
    default:
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "new files are Jet4 or ACE 12, 14, 16, 17");
    }
    if (password && *password)
        return jet_fail(err, JET_EUNSUPPORTED, JET_NO_PGNO,
                        "a new database with a password (encrypted) is "
                        "not written yet");
    w = jw_create_database(path, fmt, msg, sizeof msg);
    if (!w)
        return jet_fail(err, strstr(msg, "out of memory") ? JET_ENOMEM
                                                          : JET_EIO,
                        JET_NO_PGNO, "%s", msg);
    if (jw_close(w, msg, sizeof msg) != 0)
        return jet_fail(err, strstr(msg, "out of memory") ? JET_ENOMEM
                                                          : JET_EIO,
                        JET_NO_PGNO, "%s", msg);
    return JET_OK;
}
