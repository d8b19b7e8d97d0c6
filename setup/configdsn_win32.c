/*
 * configdsn_win32.c - ConfigDSN and ConfigDriver of jetodbc.dll (Windows).
 *
 * The driver is its own setup DLL (Setup=jetodbc.dll in its registry
 * entry), so the ODBC Data Source Administrator and SQLConfigDataSource
 * call ConfigDSN here:
 *   - with a window handle: a small dialog (data source name, database
 *     file with a Browse button, password, description), filled from the
 *     attributes and, for ODBC_CONFIG_DSN, from the DSN's stored keys;
 *   - without one (hwndParent NULL): the attributes alone, e.g.
 *     SQLConfigDataSource(NULL, ODBC_ADD_DSN, "JetODBC",
 *                         "DSN=Sales\0DBQ=C:\\data\\sales.accdb\0\0").
 * Keys written: DBQ, PWD (only when given), Description; they are what
 * driver/dbc.c reads back with SQLGetPrivateProfileString.
 * Microsoft's CREATE_DB=path [version] [General] [ENCRYPT] and
 * COMPACT_DB=src dst [General] come with ODBC_ADD_DSN / ODBC_CONFIG_DSN
 * (core/dbspec.c, PWD= the password): the new file is made; without DSN=
 * that is all, with it the DSN is written too (DBQ the new file unless
 * given).
 * ODBC_REMOVE_DSN removes the DSN. ConfigDriver accepts install and remove
 * (nothing to do beyond what SQLInstallDriverEx wrote).
 * Reference: Microsoft ODBC "ConfigDSN Function", "ConfigDriver Function".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <commdlg.h>
#include <sql.h>
#include <sqlext.h>
#include <odbcinst.h>

#include "jet.h"

/* The exports (listed in driver/jetodbc.def). */
BOOL INSTAPI ConfigDSN(HWND hwnd, WORD request, LPCSTR driver,
                       LPCSTR attributes);
BOOL INSTAPI ConfigDriver(HWND hwnd, WORD request, LPCSTR driver,
                          LPCSTR args, LPSTR msg, WORD msg_max,
                          WORD *msg_out);

#define FIELD_MAX 1024

/* The DSN being edited. */
typedef struct dsn_fields {
    char dsn[SQL_MAX_DSN_LENGTH + 1];
    char dbq[FIELD_MAX];
    char pwd[256];
    char desc[FIELD_MAX];
    int have_pwd;
    char create_db[FIELD_MAX];   /* CREATE_DB= value, "" when none */
    char compact_db[2 * FIELD_MAX];
    const char *driver;
    char old_dsn[SQL_MAX_DSN_LENGTH + 1];
} dsn_fields;

static void copy_field(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Attributes "KEY=value\0...\0\0" into f (unknown keys are ignored). */
static void parse_attributes(dsn_fields *f, const char *a)
{
    for (; a && *a; a += strlen(a) + 1) {
        const char *eq = strchr(a, '=');
        size_t klen, vlen;
        if (!eq)
            continue;
        klen = (size_t)(eq - a);
        vlen = strlen(eq + 1);
        if (klen == 3 && _strnicmp(a, "DSN", 3) == 0)
            copy_field(f->dsn, sizeof f->dsn, eq + 1, vlen);
        else if ((klen == 3 && _strnicmp(a, "DBQ", 3) == 0) ||
                 (klen == 8 && _strnicmp(a, "DATABASE", 8) == 0))
            copy_field(f->dbq, sizeof f->dbq, eq + 1, vlen);
        else if (klen == 3 && _strnicmp(a, "PWD", 3) == 0) {
            copy_field(f->pwd, sizeof f->pwd, eq + 1, vlen);
            f->have_pwd = 1;
        } else if (klen == 11 && _strnicmp(a, "DESCRIPTION", 11) == 0)
            copy_field(f->desc, sizeof f->desc, eq + 1, vlen);
        else if (klen == 9 && _strnicmp(a, "CREATE_DB", 9) == 0)
            copy_field(f->create_db, sizeof f->create_db, eq + 1, vlen);
        else if (klen == 10 && _strnicmp(a, "COMPACT_DB", 10) == 0)
            copy_field(f->compact_db, sizeof f->compact_db, eq + 1, vlen);
    }
}

/* ANSI code-page text (what ConfigDSN is given) as UTF-8 (what the core
 * takes) into out; false when it does not convert or fit. */
static int acp_to_utf8(const char *in, char *out, int cap)
{
    WCHAR w[2 * FIELD_MAX + 1];
    int n = MultiByteToWideChar(CP_ACP, 0, in, -1, w, 2 * FIELD_MAX + 1);
    return n > 0 && WideCharToMultiByte(CP_UTF8, 0, w, -1, out, cap, NULL,
                                        NULL) > 0;
}

/* UTF-8 text as the ANSI code page (the DSN's DBQ) into out. */
static int utf8_to_acp(const char *in, char *out, int cap)
{
    WCHAR w[4 * FIELD_MAX + 1];
    int n = MultiByteToWideChar(CP_UTF8, 0, in, -1, w, 4 * FIELD_MAX + 1);
    return n > 0 && WideCharToMultiByte(CP_ACP, 0, w, -1, out, cap, NULL,
                                        NULL) > 0;
}

/* CREATE_DB / COMPACT_DB of f carried out; the new file becomes f's DBQ
 * when none was given. FALSE with the installer error posted. */
static BOOL db_keywords(dsn_fields *f)
{
    const char *words[2] = { "CREATE_DB", "COMPACT_DB" };
    const char *vals[2] = { f->create_db, f->compact_db };
    static char spec[6 * FIELD_MAX], pwd[1024], made[4 * FIELD_MAX];
    for (int i = 0; i < 2; i++) {
        jet_error err;
        jet_rc rc;
        char msg[400];
        if (!vals[i][0])
            continue;
        if (!acp_to_utf8(vals[i], spec, (int)sizeof spec) ||
            !acp_to_utf8(f->pwd, pwd, (int)sizeof pwd)) {
            SQLPostInstallerError(ODBC_ERROR_INVALID_KEYWORD_VALUE,
                                  "CREATE_DB/COMPACT_DB: the value does "
                                  "not convert to UTF-8");
            return FALSE;
        }
        memset(&err, 0, sizeof err);
        rc = i == 0 ? jet_db_create_spec(spec, pwd, made, sizeof made, &err)
                    : jet_db_compact_spec(spec, pwd, made, sizeof made, &err);
        SecureZeroMemory(pwd, sizeof pwd);
        if (rc != JET_OK) {
            snprintf(msg, sizeof msg, "%s: %s", words[i], err.msg);
            SQLPostInstallerError(rc == JET_EARGUMENT
                                  ? ODBC_ERROR_INVALID_KEYWORD_VALUE
                                  : ODBC_ERROR_REQUEST_FAILED, msg);
            return FALSE;
        }
        if (!f->dbq[0] && !utf8_to_acp(made, f->dbq, (int)sizeof f->dbq))
            f->dbq[0] = '\0';
    }
    return TRUE;
}

/* Fill the fields not given in the attributes from the stored DSN. */
static void load_stored(dsn_fields *f)
{
    char v[FIELD_MAX];
    if (!f->dsn[0])
        return;
    if (!f->dbq[0] &&
        SQLGetPrivateProfileString(f->dsn, "DBQ", "", v, sizeof v,
                                   "ODBC.INI") > 0)
        copy_field(f->dbq, sizeof f->dbq, v, strlen(v));
    if (!f->desc[0] &&
        SQLGetPrivateProfileString(f->dsn, "Description", "", v, sizeof v,
                                   "ODBC.INI") > 0)
        copy_field(f->desc, sizeof f->desc, v, strlen(v));
    if (!f->have_pwd &&
        SQLGetPrivateProfileString(f->dsn, "PWD", "", v, sizeof v,
                                   "ODBC.INI") > 0) {
        copy_field(f->pwd, sizeof f->pwd, v, strlen(v));
        f->have_pwd = 1;
    }
}

/* The keys SQLWriteDSNToIni writes on Windows (the DSN's Driver = this
 * DLL's path, and its line in "ODBC Data Sources"), written here when the
 * installer library left them out (Wine 8's odbccp32 does). */
static void complete_dsn_entry(const dsn_fields *f)
{
    char v[MAX_PATH];
    HMODULE self = NULL;
    if (SQLGetPrivateProfileString("ODBC Data Sources", f->dsn, "", v,
                                   sizeof v, "ODBC.INI") <= 0)
        SQLWritePrivateProfileString("ODBC Data Sources", f->dsn, f->driver,
                                     "ODBC.INI");
    if (SQLGetPrivateProfileString(f->dsn, "Driver", "", v, sizeof v,
                                   "ODBC.INI") <= 0 &&
        GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)(uintptr_t)complete_dsn_entry, &self) &&
        GetModuleFileNameA(self, v, sizeof v) > 0)
        SQLWritePrivateProfileString(f->dsn, "Driver", v, "ODBC.INI");
}

/* Remove a DSN; where SQLRemoveDSNFromIni leaves its key behind (Wine 8's
 * is a stub), delete the key and its "ODBC Data Sources" line directly in
 * the hive of the current config mode. */
static BOOL remove_dsn(const char *dsn)
{
    char v[8], key[64 + SQL_MAX_DSN_LENGTH];
    UWORD mode = ODBC_BOTH_DSN;
    HKEY hives[2];
    int n = 0;

    if (!SQLRemoveDSNFromIni(dsn))
        return FALSE;
    if (SQLGetPrivateProfileString(dsn, NULL, "", v, sizeof v,
                                   "ODBC.INI") <= 0)
        return TRUE;
    (void)SQLGetConfigMode(&mode);
    if (mode != ODBC_SYSTEM_DSN)
        hives[n++] = HKEY_CURRENT_USER;
    if (mode != ODBC_USER_DSN)
        hives[n++] = HKEY_LOCAL_MACHINE;
    snprintf(key, sizeof key, "Software\\ODBC\\ODBC.INI\\%s", dsn);
    for (int i = 0; i < n; i++) {
        HKEY sources;
        (void)RegDeleteTreeA(hives[i], key);
        (void)RegDeleteKeyA(hives[i], key);
        if (RegOpenKeyExA(hives[i],
                          "Software\\ODBC\\ODBC.INI\\ODBC Data Sources", 0,
                          KEY_SET_VALUE, &sources) == ERROR_SUCCESS) {
            (void)RegDeleteValueA(sources, dsn);
            RegCloseKey(sources);
        }
    }
    return TRUE;
}

/* Write the DSN (renaming it when the dialog changed its name). */
static BOOL write_dsn(const dsn_fields *f)
{
    if (!SQLValidDSN(f->dsn)) {
        SQLPostInstallerError(ODBC_ERROR_INVALID_DSN,
                              "invalid data source name");
        return FALSE;
    }
    if (f->old_dsn[0] && _stricmp(f->old_dsn, f->dsn) != 0)
        remove_dsn(f->old_dsn);
    if (!SQLWriteDSNToIni(f->dsn, f->driver))
        return FALSE;
    complete_dsn_entry(f);
    if (!SQLWritePrivateProfileString(f->dsn, "DBQ", f->dbq, "ODBC.INI"))
        return FALSE;
    if (f->desc[0] &&
        !SQLWritePrivateProfileString(f->dsn, "Description", f->desc,
                                      "ODBC.INI"))
        return FALSE;
    if (f->have_pwd && f->pwd[0] &&
        !SQLWritePrivateProfileString(f->dsn, "PWD", f->pwd, "ODBC.INI"))
        return FALSE;
    return TRUE;
}

/* ---------------------------------------------------------- the dialog */

enum {
    ID_DSN = 101, ID_DBQ, ID_BROWSE, ID_PWD, ID_DESC
};

/* An in-memory dialog template (no resource file needed). */
typedef struct dlg_buf {
    WORD w[1024];
    size_t n;
} dlg_buf;

static void put_w(dlg_buf *b, WORD v)
{
    if (b->n < sizeof b->w / sizeof b->w[0])
        b->w[b->n++] = v;
}

static void put_str(dlg_buf *b, const char *s)
{
    while (*s)
        put_w(b, (WORD)(unsigned char)*s++);
    put_w(b, 0);
}

static void align_dword(dlg_buf *b)
{
    if (b->n % 2)
        put_w(b, 0);
}

static void put_dword(dlg_buf *b, DWORD v)
{
    put_w(b, LOWORD(v));
    put_w(b, HIWORD(v));
}

/* One control: class atom 0x0080 button, 0x0081 edit, 0x0082 static. */
static void add_item(dlg_buf *b, WORD atom, DWORD style, short x, short y,
                     short cx, short cy, WORD id, const char *text)
{
    align_dword(b);
    put_dword(b, style | WS_CHILD | WS_VISIBLE);
    put_dword(b, 0);
    put_w(b, (WORD)x);
    put_w(b, (WORD)y);
    put_w(b, (WORD)cx);
    put_w(b, (WORD)cy);
    put_w(b, id);
    put_w(b, 0xFFFF);
    put_w(b, atom);
    put_str(b, text);
    put_w(b, 0);
}

static void build_dialog(dlg_buf *b)
{
    b->n = 0;
    put_dword(b, DS_MODALFRAME | DS_CENTER | DS_SETFONT | WS_POPUP |
                     WS_CAPTION | WS_SYSMENU);
    put_dword(b, 0);
    put_w(b, 13);           /* items */
    put_w(b, 0);
    put_w(b, 0);
    put_w(b, 260);
    put_w(b, 112);
    put_w(b, 0);            /* no menu */
    put_w(b, 0);            /* default class */
    put_str(b, "JetODBC data source");
    put_w(b, 8);
    put_str(b, "MS Shell Dlg");
    add_item(b, 0x0082, SS_LEFT, 7, 9, 70, 8, 0xFFFF, "Data source name:");
    add_item(b, 0x0081, ES_AUTOHSCROLL | WS_BORDER | WS_TABSTOP, 80, 7,
             173, 12, ID_DSN, "");
    add_item(b, 0x0082, SS_LEFT, 7, 27, 70, 8, 0xFFFF, "Database file:");
    add_item(b, 0x0081, ES_AUTOHSCROLL | WS_BORDER | WS_TABSTOP, 80, 25,
             125, 12, ID_DBQ, "");
    add_item(b, 0x0080, BS_PUSHBUTTON | WS_TABSTOP, 208, 24, 45, 14,
             ID_BROWSE, "Browse...");
    add_item(b, 0x0082, SS_LEFT, 7, 45, 70, 8, 0xFFFF, "Password:");
    add_item(b, 0x0081, ES_AUTOHSCROLL | ES_PASSWORD | WS_BORDER | WS_TABSTOP,
             80, 43, 173, 12, ID_PWD, "");
    add_item(b, 0x0082, SS_LEFT, 7, 63, 70, 8, 0xFFFF, "Description:");
    add_item(b, 0x0081, ES_AUTOHSCROLL | WS_BORDER | WS_TABSTOP, 80, 61,
             173, 12, ID_DESC, "");
    add_item(b, 0x0082, SS_LEFT, 7, 79, 246, 8, 0xFFFF,
             "Read-only access to .mdb and .accdb files.");
    add_item(b, 0x0080, BS_DEFPUSHBUTTON | WS_TABSTOP, 146, 93, 50, 14, IDOK,
             "OK");
    add_item(b, 0x0080, BS_PUSHBUTTON | WS_TABSTOP, 203, 93, 50, 14,
             IDCANCEL, "Cancel");
    add_item(b, 0x0082, SS_LEFT, 7, 95, 1, 1, 0xFFFF, "");
}

static void browse(HWND dlg)
{
    char file[MAX_PATH] = "";
    OPENFILENAMEA ofn;
    GetDlgItemTextA(dlg, ID_DBQ, file, sizeof file);
    memset(&ofn, 0, sizeof ofn);
    ofn.lStructSize = sizeof ofn;
    ofn.hwndOwner = dlg;
    ofn.lpstrFilter = "Access databases (*.mdb;*.accdb)\0*.mdb;*.accdb\0"
                      "All files (*.*)\0*.*\0";
    ofn.lpstrFile = file;
    ofn.nMaxFile = sizeof file;
    ofn.Flags = OFN_FILEMUSTEXIST | OFN_HIDEREADONLY | OFN_PATHMUSTEXIST;
    if (GetOpenFileNameA(&ofn))
        SetDlgItemTextA(dlg, ID_DBQ, file);
}

static INT_PTR CALLBACK dialog_proc(HWND dlg, UINT msg, WPARAM wp, LPARAM lp)
{
    dsn_fields *f = (dsn_fields *)GetWindowLongPtrA(dlg, DWLP_USER);
    switch (msg) {
    case WM_INITDIALOG:
        f = (dsn_fields *)lp;
        SetWindowLongPtrA(dlg, DWLP_USER, (LONG_PTR)f);
        SetDlgItemTextA(dlg, ID_DSN, f->dsn);
        SetDlgItemTextA(dlg, ID_DBQ, f->dbq);
        SetDlgItemTextA(dlg, ID_PWD, f->pwd);
        SetDlgItemTextA(dlg, ID_DESC, f->desc);
        return TRUE;
    case WM_COMMAND:
        switch (LOWORD(wp)) {
        case ID_BROWSE:
            browse(dlg);
            return TRUE;
        case IDOK:
            GetDlgItemTextA(dlg, ID_DSN, f->dsn, sizeof f->dsn);
            GetDlgItemTextA(dlg, ID_DBQ, f->dbq, sizeof f->dbq);
            GetDlgItemTextA(dlg, ID_PWD, f->pwd, sizeof f->pwd);
            GetDlgItemTextA(dlg, ID_DESC, f->desc, sizeof f->desc);
            f->have_pwd = f->pwd[0] != '\0';
            if (!SQLValidDSN(f->dsn) || !f->dsn[0]) {
                MessageBoxA(dlg, "Enter a valid data source name.",
                            "JetODBC", MB_OK | MB_ICONWARNING);
                return TRUE;
            }
            EndDialog(dlg, IDOK);
            return TRUE;
        case IDCANCEL:
            EndDialog(dlg, IDCANCEL);
            return TRUE;
        }
        break;
    }
    return FALSE;
}

/* ---------------------------------------------------------- exports */

BOOL INSTAPI ConfigDSN(HWND hwnd, WORD request, LPCSTR driver,
                       LPCSTR attributes)
{
    dsn_fields *f = calloc(1, sizeof *f);
    BOOL ok = FALSE;

    if (!f)
        return FALSE;
    f->driver = driver ? driver : "JetODBC";
    parse_attributes(f, attributes);
    switch (request) {
    case ODBC_REMOVE_DSN:
        ok = f->dsn[0] && remove_dsn(f->dsn);
        break;
    case ODBC_ADD_DSN:
    case ODBC_CONFIG_DSN:
        if (!db_keywords(f))
            break;
        if ((f->create_db[0] || f->compact_db[0]) && !f->dsn[0]) {
            ok = TRUE;      /* CREATE_DB / COMPACT_DB alone */
            break;
        }
        if (request == ODBC_CONFIG_DSN) {
            copy_field(f->old_dsn, sizeof f->old_dsn, f->dsn,
                       strlen(f->dsn));
            load_stored(f);
        }
        if (hwnd) {
            dlg_buf *b = calloc(1, sizeof *b);
            INT_PTR r;
            if (!b)
                break;
            build_dialog(b);
            r = DialogBoxIndirectParamA(GetModuleHandleA(NULL),
                                        (LPCDLGTEMPLATEA)b->w, hwnd,
                                        dialog_proc, (LPARAM)f);
            free(b);
            if (r != IDOK)
                break;   /* cancelled: nothing written */
        } else if (!f->dsn[0] || !f->dbq[0]) {
            SQLPostInstallerError(ODBC_ERROR_INVALID_KEYWORD_VALUE,
                                  "DSN and DBQ are required");
            break;
        }
        ok = write_dsn(f);
        break;
    default:
        SQLPostInstallerError(ODBC_ERROR_INVALID_REQUEST_TYPE,
                              "unknown ConfigDSN request");
        break;
    }
    SecureZeroMemory(f, sizeof *f);
    free(f);
    return ok;
}

BOOL INSTAPI ConfigDriver(HWND hwnd, WORD request, LPCSTR driver,
                          LPCSTR args, LPSTR msg, WORD msg_max,
                          WORD *msg_out)
{
    (void)hwnd;
    (void)driver;
    (void)args;
    if (msg && msg_max)
        msg[0] = '\0';
    if (msg_out)
        *msg_out = 0;
    return request == ODBC_INSTALL_DRIVER || request == ODBC_REMOVE_DRIVER;
}
