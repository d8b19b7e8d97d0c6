/*
 * api_catalog.c - catalog functions, ANSI and W: SQLTables, SQLColumns,
 * SQLGetTypeInfo, SQLStatistics, SQLPrimaryKeys, SQLForeignKeys,
 * SQLSpecialColumns, SQLProcedures, SQLProcedureColumns,
 * SQLTablePrivileges, SQLColumnPrivileges.
 */
#include "config.h"

#include "api.h"

/* Up to 6 string arguments converted to UTF-8 at once. */
typedef struct cat_args {
    char *v[6];
    int ok;
} cat_args;

static void args_free(cat_args *a)
{
    for (int i = 0; i < 6; i++)
        free(a->v[i]);
}

#define A(i, p, n) do { int ok_; a.v[i] = arg_a(p, n, &ok_); a.ok &= ok_; } while (0)
#define W(i, p, n) do { int ok_; a.v[i] = arg_w(p, n, &ok_); a.ok &= ok_; } while (0)

static SQLRETURN check(odbc_stmt *s, cat_args *a)
{
    if (!a->ok)
        return odbc_diag_add(&s->hdr.diag, "HY001", "Memory allocation error");
    if (!s->dbc->db)
        return odbc_diag_add(&s->hdr.diag, "08003", "Connection not open");
    return SQL_SUCCESS;
}

#define ENTER() \
    odbc_stmt *s = stmt_enter(hstmt); \
    if (!s) \
        return SQL_INVALID_HANDLE; \
    cat_args a; \
    memset(&a, 0, sizeof a); \
    a.ok = 1

#define LEAVE(call) do { \
    SQLRETURN r_ = check(s, &a); \
    if (SQL_SUCCEEDED(r_)) \
        r_ = (call); \
    args_free(&a); \
    return stmt_leave(s, r_); \
} while (0)

SQLRETURN SQL_API SQLTables(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                            SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                            SQLSMALLINT NameLength2, SQLCHAR *TableName,
                            SQLSMALLINT NameLength3, SQLCHAR *TableType,
                            SQLSMALLINT NameLength4)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3); A(3, TableType, NameLength4);
    LEAVE(odbc_cat_tables(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLTablesW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                             SQLSMALLINT NameLength1, SQLWCHAR *SchemaName,
                             SQLSMALLINT NameLength2, SQLWCHAR *TableName,
                             SQLSMALLINT NameLength3, SQLWCHAR *TableType,
                             SQLSMALLINT NameLength4)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3); W(3, TableType, NameLength4);
    LEAVE(odbc_cat_tables(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLColumns(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                             SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                             SQLSMALLINT NameLength2, SQLCHAR *TableName,
                             SQLSMALLINT NameLength3, SQLCHAR *ColumnName,
                             SQLSMALLINT NameLength4)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3); A(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_columns(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLColumnsW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                              SQLSMALLINT NameLength1, SQLWCHAR *SchemaName,
                              SQLSMALLINT NameLength2, SQLWCHAR *TableName,
                              SQLSMALLINT NameLength3, SQLWCHAR *ColumnName,
                              SQLSMALLINT NameLength4)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3); W(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_columns(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLGetTypeInfo(SQLHSTMT hstmt, SQLSMALLINT DataType)
{
    ENTER();
    LEAVE(odbc_cat_type_info(s, DataType));
}

SQLRETURN SQL_API SQLGetTypeInfoW(SQLHSTMT hstmt, SQLSMALLINT DataType)
{
    ENTER();
    LEAVE(odbc_cat_type_info(s, DataType));
}

SQLRETURN SQL_API SQLStatistics(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                SQLSMALLINT NameLength3, SQLUSMALLINT Unique,
                                SQLUSMALLINT Reserved)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3);
    LEAVE(odbc_cat_statistics(s, a.v[0], a.v[1], a.v[2], Unique, Reserved));
}

SQLRETURN SQL_API SQLStatisticsW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                 SQLSMALLINT NameLength1,
                                 SQLWCHAR *SchemaName,
                                 SQLSMALLINT NameLength2,
                                 SQLWCHAR *TableName, SQLSMALLINT NameLength3,
                                 SQLUSMALLINT Unique, SQLUSMALLINT Reserved)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3);
    LEAVE(odbc_cat_statistics(s, a.v[0], a.v[1], a.v[2], Unique, Reserved));
}

SQLRETURN SQL_API SQLPrimaryKeys(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                 SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                 SQLSMALLINT NameLength2, SQLCHAR *TableName,
                                 SQLSMALLINT NameLength3)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3);
    LEAVE(odbc_cat_primary_keys(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLPrimaryKeysW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                  SQLSMALLINT NameLength1,
                                  SQLWCHAR *SchemaName,
                                  SQLSMALLINT NameLength2,
                                  SQLWCHAR *TableName, SQLSMALLINT NameLength3)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3);
    LEAVE(odbc_cat_primary_keys(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLForeignKeys(SQLHSTMT hstmt, SQLCHAR *PKCatalogName,
                                 SQLSMALLINT NameLength1,
                                 SQLCHAR *PKSchemaName,
                                 SQLSMALLINT NameLength2,
                                 SQLCHAR *PKTableName, SQLSMALLINT NameLength3,
                                 SQLCHAR *FKCatalogName,
                                 SQLSMALLINT NameLength4,
                                 SQLCHAR *FKSchemaName,
                                 SQLSMALLINT NameLength5,
                                 SQLCHAR *FKTableName, SQLSMALLINT NameLength6)
{
    ENTER();
    A(0, PKCatalogName, NameLength1); A(1, PKSchemaName, NameLength2);
    A(2, PKTableName, NameLength3); A(3, FKCatalogName, NameLength4);
    A(4, FKSchemaName, NameLength5); A(5, FKTableName, NameLength6);
    LEAVE(odbc_cat_foreign_keys(s, a.v[0], a.v[1], a.v[2], a.v[3], a.v[4],
                                a.v[5]));
}

SQLRETURN SQL_API SQLForeignKeysW(SQLHSTMT hstmt, SQLWCHAR *PKCatalogName,
                                  SQLSMALLINT NameLength1,
                                  SQLWCHAR *PKSchemaName,
                                  SQLSMALLINT NameLength2,
                                  SQLWCHAR *PKTableName,
                                  SQLSMALLINT NameLength3,
                                  SQLWCHAR *FKCatalogName,
                                  SQLSMALLINT NameLength4,
                                  SQLWCHAR *FKSchemaName,
                                  SQLSMALLINT NameLength5,
                                  SQLWCHAR *FKTableName,
                                  SQLSMALLINT NameLength6)
{
    ENTER();
    W(0, PKCatalogName, NameLength1); W(1, PKSchemaName, NameLength2);
    W(2, PKTableName, NameLength3); W(3, FKCatalogName, NameLength4);
    W(4, FKSchemaName, NameLength5); W(5, FKTableName, NameLength6);
    LEAVE(odbc_cat_foreign_keys(s, a.v[0], a.v[1], a.v[2], a.v[3], a.v[4],
                                a.v[5]));
}

SQLRETURN SQL_API SQLSpecialColumns(SQLHSTMT hstmt, SQLUSMALLINT IdentifierType,
                                    SQLCHAR *CatalogName,
                                    SQLSMALLINT NameLength1,
                                    SQLCHAR *SchemaName,
                                    SQLSMALLINT NameLength2,
                                    SQLCHAR *TableName,
                                    SQLSMALLINT NameLength3,
                                    SQLUSMALLINT Scope, SQLUSMALLINT Nullable)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3);
    LEAVE(odbc_cat_special_columns(s, IdentifierType, a.v[0], a.v[1], a.v[2],
                                   Scope, Nullable));
}

SQLRETURN SQL_API SQLSpecialColumnsW(SQLHSTMT hstmt,
                                     SQLUSMALLINT IdentifierType,
                                     SQLWCHAR *CatalogName,
                                     SQLSMALLINT NameLength1,
                                     SQLWCHAR *SchemaName,
                                     SQLSMALLINT NameLength2,
                                     SQLWCHAR *TableName,
                                     SQLSMALLINT NameLength3,
                                     SQLUSMALLINT Scope, SQLUSMALLINT Nullable)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3);
    LEAVE(odbc_cat_special_columns(s, IdentifierType, a.v[0], a.v[1], a.v[2],
                                   Scope, Nullable));
}

SQLRETURN SQL_API SQLProcedures(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                SQLSMALLINT NameLength1, SQLCHAR *SchemaName,
                                SQLSMALLINT NameLength2, SQLCHAR *ProcName,
                                SQLSMALLINT NameLength3)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, ProcName, NameLength3);
    LEAVE(odbc_cat_procedures(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLProceduresW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                 SQLSMALLINT NameLength1, SQLWCHAR *SchemaName,
                                 SQLSMALLINT NameLength2, SQLWCHAR *ProcName,
                                 SQLSMALLINT NameLength3)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, ProcName, NameLength3);
    LEAVE(odbc_cat_procedures(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLProcedureColumns(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                      SQLSMALLINT NameLength1,
                                      SQLCHAR *SchemaName,
                                      SQLSMALLINT NameLength2,
                                      SQLCHAR *ProcName,
                                      SQLSMALLINT NameLength3,
                                      SQLCHAR *ColumnName,
                                      SQLSMALLINT NameLength4)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, ProcName, NameLength3); A(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_procedure_columns(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLProcedureColumnsW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                       SQLSMALLINT NameLength1,
                                       SQLWCHAR *SchemaName,
                                       SQLSMALLINT NameLength2,
                                       SQLWCHAR *ProcName,
                                       SQLSMALLINT NameLength3,
                                       SQLWCHAR *ColumnName,
                                       SQLSMALLINT NameLength4)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, ProcName, NameLength3); W(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_procedure_columns(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLTablePrivileges(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                     SQLSMALLINT NameLength1,
                                     SQLCHAR *SchemaName,
                                     SQLSMALLINT NameLength2,
                                     SQLCHAR *TableName,
                                     SQLSMALLINT NameLength3)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3);
    LEAVE(odbc_cat_table_privileges(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLTablePrivilegesW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                      SQLSMALLINT NameLength1,
                                      SQLWCHAR *SchemaName,
                                      SQLSMALLINT NameLength2,
                                      SQLWCHAR *TableName,
                                      SQLSMALLINT NameLength3)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3);
    LEAVE(odbc_cat_table_privileges(s, a.v[0], a.v[1], a.v[2]));
}

SQLRETURN SQL_API SQLColumnPrivileges(SQLHSTMT hstmt, SQLCHAR *CatalogName,
                                      SQLSMALLINT NameLength1,
                                      SQLCHAR *SchemaName,
                                      SQLSMALLINT NameLength2,
                                      SQLCHAR *TableName,
                                      SQLSMALLINT NameLength3,
                                      SQLCHAR *ColumnName,
                                      SQLSMALLINT NameLength4)
{
    ENTER();
    A(0, CatalogName, NameLength1); A(1, SchemaName, NameLength2);
    A(2, TableName, NameLength3); A(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_column_privileges(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}

SQLRETURN SQL_API SQLColumnPrivilegesW(SQLHSTMT hstmt, SQLWCHAR *CatalogName,
                                       SQLSMALLINT NameLength1,
                                       SQLWCHAR *SchemaName,
                                       SQLSMALLINT NameLength2,
                                       SQLWCHAR *TableName,
                                       SQLSMALLINT NameLength3,
                                       SQLWCHAR *ColumnName,
                                       SQLSMALLINT NameLength4)
{
    ENTER();
    W(0, CatalogName, NameLength1); W(1, SchemaName, NameLength2);
    W(2, TableName, NameLength3); W(3, ColumnName, NameLength4);
    LEAVE(odbc_cat_column_privileges(s, a.v[0], a.v[1], a.v[2], a.v[3]));
}
