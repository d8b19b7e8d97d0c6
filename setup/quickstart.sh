#!/bin/sh
# quickstart.sh - from a fresh Debian 12 checkout to rows on the screen:
# install the missing build packages (apt-get, through sudo when not
# root), build, install into a prefix (default ~/.local/jetodbc; PREFIX=
# overrides), register the driver, write a sample database with the
# project's fixture writer, make a user DSN "JetSample" for it and print
# rows through isql. Run from the source tree: sh setup/quickstart.sh
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
prefix=${PREFIX:-$HOME/.local/jetodbc}
build=${BUILD_DIR:-$src/_build}

step() { printf '\n== %s\n' "$*"; }

step "packages"
need=
for p in build-essential autoconf automake libtool pkg-config unixodbc \
         unixodbc-dev libssl-dev check; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        need="$need $p"
done
if [ -n "$need" ] && [ "${JET_NO_APT:-0}" != 1 ]; then
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "installing:$need"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends $need
else
    echo "nothing to install"
fi

step "build in $build, install into $prefix"
./bootstrap >/dev/null 2>&1 || ./bootstrap
mkdir -p "$build"
(cd "$build" && "$src/configure" --prefix="$prefix" >configure.log 2>&1) ||
    { tail -20 "$build/configure.log"; exit 1; }
make -C "$build" -j"$(nproc 2>/dev/null || echo 2)" >"$build/make.log" 2>&1 ||
    { tail -30 "$build/make.log"; exit 1; }
make -C "$build" install >>"$build/make.log" 2>&1 ||
    { tail -30 "$build/make.log"; exit 1; }
echo "driver: $prefix/lib/odbc/libjetodbc.so"

step "register the driver JetODBC"
setup="$prefix/bin/jetodbc-setup"
if [ -w "$(odbcinst -j | sed -n 's/^DRIVERS[^:]*: *//p')" ] ||
   [ "$(id -u)" = 0 ]; then
    "$setup" install-driver
    registered=1
else
    echo "the system odbcinst.ini is not writable: the DSN names the library"
    registered=0
fi

step "a sample database (fixtures/jetgen) and the user DSN JetSample"
mkdir -p "$prefix/share/jetodbc"
db="$prefix/share/jetodbc/sample.mdb"
"$build/fixtures/jetgen" --seed 7 --rows 20 \
    --table 'Customers:CustomerID=long/pk,Name=text30,Joined=datetime,Notes=memo' \
    "$db" >/dev/null
"$setup" add JetSample "$db"

step "rows through isql"
echo 'SELECT TOP 5 CustomerID, Name, Joined FROM Customers ORDER BY CustomerID' |
    isql -b -v JetSample

step "next"
echo "export PATH=\"$prefix/bin:\$PATH\" MANPATH=\"$prefix/share/man:\$MANPATH\""
echo "  (jetodbc-setup and man jetodbc-setup)"
if [ "$registered" = 0 ]; then
    echo "no driver named JetODBC is registered: DSN-less connection strings"
    echo "need DRIVER=$prefix/lib/odbc/libjetodbc.so; (or register it in a"
    echo "private odbcinst.ini: README, \"To keep the driver out of the system files\")"
fi
