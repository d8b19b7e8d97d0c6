/*
 * format.c - the header page and per-version offset tables.
 *
 * Header page (page 0), after undoing the RC4 mask over 0x18..:
 *   0x00  4  magic 00 01 00 00
 *   0x04 15  "Standard Jet DB" / "Standard ACE DB"
 *   0x14  1  version: 0 Jet3, 1 Jet4, 2 ACE12, 3 ACE14, 4 ACE15, 5 ACE16,
 *            6 ACE17
 *   0x3A  2  sort order (Jet3); 0x6E 4 bytes in Jet4/ACE
 *   0x3C  2  code page
 *   0x3E  4  encoding key (0 = pages not encoded)
 *   0x42 40  Jet4: database password, UTF-16LE, masked with the creation
 *            date at 0x72 (crypt.c jet_header_password_check)
 *   0x299    ACE: encryption provider record (officecrypt.c)
 * Format: mdbtools HACKING.md "Database Definition Page"; Jackcess
 * JetFormat.
 */
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "format.h"

static const jet_format jet3_format = {
    .jet3 = true, .page_size = 2048,
    .data_tdef_pgno = 4, .data_nrows = 8, .data_row_table = 10,
    .tdef_next_pgno = 4, .tdef_len = 8, .tdef_nrows = 12,
    .tdef_table_type = 20, .tdef_max_cols = 21, .tdef_num_var_cols = 23,
    .tdef_num_cols = 25, .tdef_num_idx = 27, .tdef_num_real_idx = 31,
    .tdef_owned_pages = 35, .tdef_free_pages = 39, .tdef_idx_def_block = 43,
    .real_idx_def_size = 8,
    .col_size = 18, .col_type = 0, .col_num = 1, .col_var_index = 3,
    .col_precision = 11, .col_scale = 12, .col_flags = 13,
    .col_ext_flags = -1, .col_fixed_offset = 14, .col_length = 16,
    .name_len_size = 1,
    .real_idx_col_block = 39, .real_idx_skip = 0, .real_idx_skip_flags = 0,
    .logical_idx_block = 20, .logical_idx_skip = 0,
    .row_count_size = 1,
    .hdr_mask_len = 126,
};

static const jet_format jet4_format = {
    .jet3 = false, .page_size = 4096,
    .data_tdef_pgno = 4, .data_nrows = 12, .data_row_table = 14,
    .tdef_next_pgno = 4, .tdef_len = 8, .tdef_nrows = 16,
    .tdef_table_type = 40, .tdef_max_cols = 41, .tdef_num_var_cols = 43,
    .tdef_num_cols = 45, .tdef_num_idx = 47, .tdef_num_real_idx = 51,
    .tdef_owned_pages = 55, .tdef_free_pages = 59, .tdef_idx_def_block = 63,
    .real_idx_def_size = 12,
    .col_size = 25, .col_type = 0, .col_num = 5, .col_var_index = 7,
    .col_precision = 11, .col_scale = 12, .col_flags = 15,
    .col_ext_flags = 16, .col_fixed_offset = 21, .col_length = 23,
    .name_len_size = 2,
    .real_idx_col_block = 52, .real_idx_skip = 4, .real_idx_skip_flags = 4,
    .logical_idx_block = 28, .logical_idx_skip = 4,
    .row_count_size = 2,
    .hdr_mask_len = 128,
};

const jet_format *jet_format_for(jet_version v)
{
    return v == JET_VER_3 ? &jet3_format : &jet4_format;
}

jet_rc jet_format_read_header(jet_db *db, const jet_open_options *opts,
                              jet_error *err)
{
    static const uint8_t magic[4] = { 0x00, 0x01, 0x00, 0x00 };
    uint8_t hdr[4096];
    size_t hdr_len = 2048;
    jet_codec *codec = NULL;
    uint64_t size = jet_pagefile_size(db->pf);
    uint8_t ver;
    uint32_t key;
    jet_rc rc;

    if (size == 0)
        return jet_fail(err, JET_EFORMAT, JET_NO_PGNO,
                        "not an Access database: the file is empty");
    if (size < hdr_len)
        return jet_fail(err, JET_EFORMAT, JET_NO_PGNO,
                        "not an Access database: file too short "
                        "(%llu bytes, a header page needs 2048)",
                        (unsigned long long)size);
    rc = jet_pagefile_read_raw(db->pf, hdr, hdr_len, 0, err);
    if (rc != JET_OK)
        return rc;
    if (memcmp(hdr, magic, 4) != 0 ||
        (memcmp(hdr + 4, "Standard Jet DB", 15) != 0 &&
         memcmp(hdr + 4, "Standard ACE DB", 15) != 0)) {
        if (memcmp(hdr + 4, "MSISAM Database", 15) == 0)
            return jet_fail(err, JET_EUNSUPPORTED, 0,
                            "MSISAM (Microsoft Money) files are not supported");
        return jet_fail(err, JET_EFORMAT, 0,
                        "not an Access database: no Jet/ACE signature in "
                        "the header page");
    }
    ver = hdr[0x14];
    if (ver > JET_VER_ACE17)
        return jet_fail(err, JET_EUNSUPPORTED, 0,
                        "unknown Jet/ACE version byte 0x%02x", ver);
    db->version = (jet_version)ver;
    db->fmt = jet_format_for(db->version);
    db->page_size = db->fmt->page_size;
    if (memcmp(hdr + 4, "Standard ACE DB", 15) == 0 && ver < JET_VER_ACE12)
        return jet_fail(err, JET_ECORRUPT, 0,
                        "ACE signature with Jet version byte 0x%02x", ver);
    if (db->page_size == 4096 && size >= 4096) {
        hdr_len = 4096;
        rc = jet_pagefile_read_raw(db->pf, hdr + 2048, 2048, 2048, err);
        if (rc != JET_OK)
            return rc;
    }
    rc = jet_header_unmask(hdr, hdr_len, db->fmt->hdr_mask_len);
    if (rc != JET_OK)
        return jet_fail(err, rc, 0, "header page too short for its "
                        "masked region (%zu bytes)", hdr_len);
    db->code_page = jet_get_u16(hdr + 0x3C);
    db->sort_order = db->fmt->jet3 ? jet_get_u16(hdr + 0x3A)
                                   : jet_get_u16(hdr + 0x6E);
    key = jet_get_u32(hdr + 0x3E);
    rc = jet_pagefile_set_page_size(db->pf, db->page_size, err);
    if (rc != JET_OK)
        return rc;
    if (size < (uint64_t)db->page_size * 3)
        return jet_fail(err, JET_ECORRUPT, JET_NO_PGNO,
                        "file truncated: %llu bytes hold fewer than 3 pages "
                        "of %u bytes", (unsigned long long)size,
                        db->page_size);
    /* Jet4: the database password (Access 2000-2003 "Set Database
     * Password"), checked as Access does before anything is read */
    if (db->version == JET_VER_4 &&
        jet_header_password_check(hdr, opts ? opts->password : NULL) !=
            JET_OK)
        return jet_fail(err, JET_EPASSWORD, 0,
                        opts && opts->password && opts->password[0]
                            ? "wrong database password"
                            : "the database has a password; a password is "
                              "required");
    if (key != 0) {
        if (db->version >= JET_VER_ACE12)
            rc = jet_codec_office(&codec, hdr, hdr_len, key, opts, err);
        else
            rc = jet_codec_jet_rc4(&codec, key);
        if (rc == JET_ENOMEM)
            return jet_fail(err, rc, 0, "out of memory");
        if (rc != JET_OK)
            return rc;
        jet_pagefile_set_codec(db->pf, codec);
    }
    return JET_OK;
}
