/*
 * odbc38.h - ODBC 3.8 constants that some driver managers' headers lack.
 *
 * mingw-w64's sql.h stops at ODBCVER 0x0351 and iODBC's at 3.52; the
 * driver still accepts SQL_OV_ODBC3_80 and answers the 3.8 SQLGetInfo
 * types, so their values (from Microsoft's sqlext.h, ODBC 3.8) are given
 * here when the headers in use do not define them. Include after sqlext.h.
 */
#ifndef JET_DRIVER_ODBC38_H
#define JET_DRIVER_ODBC38_H

#ifndef SQL_CONVERT_GUID
#define SQL_CONVERT_GUID 173    /* ODBC 3.5; not in iODBC's headers */
#endif
#ifndef SQL_OV_ODBC3_80
#define SQL_OV_ODBC3_80 380UL
#endif
#ifndef SQL_ASYNC_DBC_FUNCTIONS
#define SQL_ASYNC_DBC_FUNCTIONS 10023
#define SQL_ASYNC_DBC_NOT_CAPABLE 0x00000000L
#define SQL_ASYNC_DBC_CAPABLE 0x00000001L
#endif
#ifndef SQL_DRIVER_AWARE_POOLING_SUPPORTED
#define SQL_DRIVER_AWARE_POOLING_SUPPORTED 10024
#define SQL_DRIVER_AWARE_POOLING_NOT_CAPABLE 0x00000000L
#define SQL_DRIVER_AWARE_POOLING_CAPABLE 0x00000001L
#endif
#ifndef SQL_ASYNC_NOTIFICATION
#define SQL_ASYNC_NOTIFICATION 10025
#define SQL_ASYNC_NOTIFICATION_NOT_CAPABLE 0x00000000L
#define SQL_ASYNC_NOTIFICATION_CAPABLE 0x00000001L
#endif

#endif /* JET_DRIVER_ODBC38_H */
