/*
 * rules.h - Access's expression rules of a table for the write path
 * (rules.c): the validation rule evaluator the core calls for every row
 * it writes, and the DefaultValue of a column an INSERT omits.
 */
#ifndef JET_DRIVER_SQL_RULES_H
#define JET_DRIVER_SQL_RULES_H

#include <stdint.h>

#include "engine.h"

/** The first words of Access's message for a row a validation rule
 *  refuses (Jet error 3317; the driver's diagnostics add its last
 *  sentence, "Enter a value that the expression for this field can
 *  accept.", which the core's 256-byte detail may not hold). */
#define SQL_RULE_PROHIBITED \
    "One or more values are prohibited by the validation rule"

/**
 * Attach the engine's evaluator of ValidationRule properties to db
 * (core/write.h jet_db_set_row_check): every row jet_table_insert and
 * jet_table_update write to a table with a rule is checked, and tables
 * with rules become writable. Prepared rules are kept per table until
 * jet_db_close. 0, or -1 when memory ran out (nothing attached).
 */
int sql_rules_attach(jet_db *db);

/**
 * Prepare the DefaultValue expr of column col of t (the property's text:
 * an optional "=", then an Access expression; Yes/No/On/Off constants; a
 * lone word naming nothing is its own text) as a one-row, one-column
 * query whose value is the default, in *out (free with sql_stmt_free).
 * 0, or -1 with err: HYC00 naming the column and the expression when the
 * engine cannot evaluate it (the INSERT that needs it is refused), or
 * the core's failure / JET_ENOMEM.
 */
int sql_default_prepare(sql_stmt **out, jet_db *db, const jet_tdef *t,
                        uint16_t col, const char *expr, sql_error *err);

/** Scratch of sql_coerce_to_column (grown with realloc; free both). */
typedef struct sql_conv_buf {
    uint8_t *conv;              /* converted text and bytes */
    size_t conv_cap;
    uint16_t *u16;              /* text as UTF-16 units */
    size_t u16_cap;
} sql_conv_buf;

/**
 * Convert in (a value read through cursor c) to column col's type (its
 * type, length, precision and scale) into *out, as INSERT and UPDATE
 * convert the values they store (dml.c): out of range 22003, text that
 * is no number or date 22018, text or bytes longer than the column
 * 22001. Spans go to b->conv (valid until the next call with b).
 * 0, or -1 with err.
 */
int sql_coerce_to_column(sql_cursor *c, sql_conv_buf *b, const jet_value *in,
                         const jet_column *col, jet_value *out,
                         sql_error *err);

#endif
