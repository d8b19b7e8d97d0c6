/*
 * format.h - header page decoding (format.c).
 */
#ifndef JET_FORMAT_H
#define JET_FORMAT_H

#include "internal.h"

/**
 * Read and check page 0: signature, version, code page, sort order and the
 * page codec (Jet RC4 installed into db->pf). Sets db->version, fmt,
 * page_size, code_page. Errors: JET_EFORMAT (not Jet/ACE, empty, too
 * short), JET_ECORRUPT, JET_EPASSWORD / JET_EUNSUPPORTED (ACE encryption),
 * JET_EIO.
 */
jet_rc jet_format_read_header(jet_db *db, const jet_open_options *opts,
                              jet_error *err);

#endif /* JET_FORMAT_H */
