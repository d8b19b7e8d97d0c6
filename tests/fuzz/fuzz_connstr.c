/*
 * fuzz_connstr.c - the ODBC connection-string parser (driver/connstr.c).
 *
 * Input: a connection string (any bytes, not NUL-terminated). Parse it,
 * look up the keys the driver reads, and walk every pair.
 */
#include <string.h>

#include "connstr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const keys[] = {
        "DRIVER", "DSN", "DBQ", "PWD", "UID", "FILEDSN", "SAVEFILE",
        "ExtendedAnsiSQL", "dbq", ""
    };
    odbc_connstr *cs = odbc_connstr_parse((const char *)data, size);
    if (!cs)
        return 0;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *v = odbc_connstr_get(cs, keys[i]);
        if (v)
            (void)strlen(v);
    }
    size_t n = odbc_connstr_count(cs);
    for (size_t i = 0; i < n; i++) {
        const char *k = NULL, *v = NULL;
        odbc_connstr_at(cs, i, &k, &v);
        if (k && v)
            (void)(strlen(k) + strlen(v));
    }
    odbc_connstr_free(cs);
    return 0;
}
