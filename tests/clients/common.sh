# common.sh - sourced by every tests/clients/*.test: a temporary
# odbcinst.ini/odbc.ini (ODBCSYSINI/ODBCINI) naming the driver built here,
# a DSN "jetnw" for ../shared's nwind.mdb, and the helpers the client
# scripts share. Each client runs twice: through the DSN (JET_DSN) and
# through a DSN-less connection string (JET_CONNSTR).
#
# Under --enable-sanitizers the driver is loaded into php, perl, R, node
# and python: the ASan/UBSan runtimes are preloaded (as tests/compat does)
# with leak detection off (the interpreters' own allocations are not ours).

set -u
: "${JET_BUILDDIR:?run through make check}"
: "${JET_SRCDIR:?run through make check}"
clients_dir="$JET_SRCDIR/tests/clients"
shared=${JETODBC_SHARED:-$JET_SRCDIR/../shared}
JET_DB="$shared/fixtures/public/mdbtestdata/nwind.mdb"
if [ ! -f "$JET_DB" ]; then
    echo "SKIP: $JET_DB not found (set JETODBC_SHARED to the shared folder)"
    exit 77
fi
driver_so="$JET_BUILDDIR/.libs/libjetodbc.so"
[ -f "$driver_so" ] || { echo "FAIL: $driver_so not built"; exit 1; }

# skip_unless CMD... : exit 77 with a message naming the Debian package
# when a client is missing (.ci/run installs them, so CI never skips)
need() {  # need <command-test...> -- <package>
    pkg=$1; shift
    if ! "$@" >/dev/null 2>&1; then
        echo "SKIP: client not installed (Debian package $pkg; .ci/run installs it)"
        exit 77
    fi
}

JET_TMP=$(mktemp -d "${TMPDIR:-/tmp}/jetclients.XXXXXX")
trap 'rm -rf "$JET_TMP"' EXIT
cat >"$JET_TMP/odbcinst.ini" <<INI
[JetODBC]
Description=jetodbc under test
Driver=$driver_so
FileUsage=1
Threading=0
INI
cat >"$JET_TMP/odbc.ini" <<INI
[jetnw]
Driver=JetODBC
DBQ=$JET_DB
INI
ODBCSYSINI=$JET_TMP
ODBCINSTINI=odbcinst.ini
ODBCINI=$JET_TMP/odbc.ini
HOME=$JET_TMP          # no ~/.odbc.ini of the user's
export ODBCSYSINI ODBCINSTINI ODBCINI HOME JET_DB

JET_DSN=jetnw
JET_CONNSTR="DRIVER={JetODBC};DBQ=$JET_DB"
export JET_DSN JET_CONNSTR

if [ "${JET_SANITIZERS:-no}" = yes ]; then
    JET_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export ASAN_OPTIONS UBSAN_OPTIONS
else
    JET_PRELOAD=
fi

# run_client CMD...: the client with the sanitizer runtimes preloaded
run_client() {
    if [ -n "$JET_PRELOAD" ]; then
        LD_PRELOAD="$JET_PRELOAD" "$@"
    else
        "$@"
    fi
}
