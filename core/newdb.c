/*
 * newdb.c - new database files (jet.h: jet_db_create_file): an empty
 * Jet4 or ACE file made by the whole-file writer (newfile.c) with the
 * system catalog Access's engine writes; with a password, encrypted from
 * its first page (newfile.h jw_set_password: Jet4 RC4 encoding and the
 * header password, ACE agile AES-256).
 */
#include <stdio.h>
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
    if (password && *password) {
        /* refuse a password the format cannot take before any file is
         * made (jw_set_password checks again) */
        uint8_t pw[512];
        size_t n = jet_password_utf16(password, pw, sizeof pw), chars = 0;
        memset(pw, 0, sizeof pw);
        for (const char *s = password; *s; s++)
            chars += ((unsigned char)*s & 0xC0) != 0x80;
        if (fmt == JW_FMT_JET4 && n > JET_HDR_PASSWORD_LEN)
            return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                            "a Jet4 (.mdb) database password has at most "
                            "20 characters");
        if (chars > 255)
            return jet_fail(err, JET_ELIMIT, JET_NO_PGNO,
                            "a database password has at most 255 "
                            "characters");
    }
    w = jw_create_database(path, fmt, msg, sizeof msg);
    if (!w)
        return jet_fail(err, strstr(msg, "out of memory") ? JET_ENOMEM
                                                          : JET_EIO,
                        JET_NO_PGNO, "%s", msg);
    if (jw_set_password(w, password) != 0) {
        jet_rc rc = strstr(jw_error(w), "out of memory") ? JET_ENOMEM
                  : strstr(jw_error(w), "characters") ? JET_ELIMIT
                  : JET_EUNSUPPORTED;
        snprintf(msg, sizeof msg, "%s", jw_error(w));
        jw_close(w, NULL, 0);            /* removes the file */
        return jet_fail(err, rc, JET_NO_PGNO, "%s", msg);
    }
    if (jw_close(w, msg, sizeof msg) != 0)
        return jet_fail(err, strstr(msg, "out of memory") ? JET_ENOMEM
                                                          : JET_EIO,
                        JET_NO_PGNO, "%s", msg);
    return JET_OK;
}
