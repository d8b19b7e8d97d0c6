#!/bin/sh
# quickstart.sh - from a fresh Debian 12 checkout to rows on the screen:
# install the missing build packages (apt-get, through sudo when not
# root), build, install, register, write a sample database with the
# project's fixture writer, make the DSN "JetSample" for it and print rows
# through isql. Run from the source tree: sh setup/quickstart.sh
#
# As root (or through sudo): installs into /usr/local (PREFIX= overrides),
# registers the driver JetODBC in the system odbcinst.ini and makes
# JetSample a system DSN, so every user of the machine can use both.
# Through sudo the build runs as the user who called sudo (the checkout
# stays theirs); only the install and registration run as root.
# As any other user: installs into ~/.local/jetodbc (PREFIX= overrides)
# and makes JetSample a user DSN that names the library by its path (the
# system files are root's). Running it again changes nothing more: the
# driver stays registered once (UsageCount 1).
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
if [ "$(id -u)" = 0 ]; then
    root=1
    umask 022                   # every user reads what root installs
    prefix=${PREFIX:-/usr/local}
else
    root=0
    prefix=${PREFIX:-$HOME/.local/jetodbc}
fi
build=${BUILD_DIR:-$src/_build}
lib=$prefix/lib/odbc/libjetodbc.so
setup=$prefix/bin/jetodbc-setup

# through sudo, in the caller's own checkout: build as the caller
asuser=
if [ "$root" = 1 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] &&
   [ "$(stat -c %u "$src")" = "${SUDO_UID:-x}" ] &&
   command -v runuser >/dev/null 2>&1; then
    asuser="runuser -u $SUDO_USER --"
fi

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
    [ "$root" = 1 ] || sudo=sudo
    echo "installing:$need"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends $need
else
    echo "nothing to install"
fi

step "build in $build, install into $prefix"
# (logs are written by the building user, so a later run can rewrite them)
$asuser sh -c '
    ./bootstrap >/dev/null 2>&1 || ./bootstrap
    mkdir -p "$1" && cd "$1" && : >install.log &&
    { "$2/configure" --prefix="$3" >configure.log 2>&1 ||
        { tail -20 configure.log; exit 1; }; } &&
    { make -j"$(nproc 2>/dev/null || echo 2)" >make.log 2>&1 ||
        { tail -30 make.log; exit 1; }; }' sh "$build" "$src" "$prefix"
make -C "$build" install >>"$build/install.log" 2>&1 ||
    { tail -30 "$build/install.log"; exit 1; }
echo "driver: $lib"

if [ "$root" = 1 ]; then
    step "register the driver JetODBC (system odbcinst.ini)"
    "$setup" install-driver
    scope=--system
    what="system DSN"
else
    step "the driver library for your DSNs"
    echo "not root: $lib is yours; the DSN names it by its path"
    echo "(sudo sh setup/quickstart.sh installs for every user)"
    scope=
    what="user DSN"
fi

step "a sample database (fixtures/jetgen) and the $what JetSample"
mkdir -p "$prefix/share/jetodbc"
db="$prefix/share/jetodbc/sample.mdb"
rm -f "$db"
"$build/fixtures/jetgen" --seed 7 --rows 20 \
    --table 'Customers:CustomerID=long/pk,Name=text30,Joined=datetime,Notes=memo' \
    "$db" >/dev/null
if [ "$root" = 1 ]; then
    "$setup" add --system JetSample "$db"
else
    "$setup" add --lib "$lib" JetSample "$db"
fi

step "rows through isql"
echo 'SELECT TOP 5 CustomerID, Name, Joined FROM Customers ORDER BY CustomerID' |
    isql -b -v JetSample

step "next"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "export PATH=\"$prefix/bin:\$PATH\" MANPATH=\"$prefix/share/man:\$MANPATH\""
   echo "  (put that line in ~/.profile to keep it)";;
esac
echo "jetodbc-setup add MyDb /path/file.accdb && isql -v MyDb"
echo "  (a DSN of your own for an Access file: man jetodbc-setup)"
if [ -d "$prefix/share/doc/jetodbc" ]; then
    echo "The manual: man jetodbc, and $prefix/share/doc/jetodbc/README.md"
fi
if ! odbcinst -q -d -n JetODBC >/dev/null 2>&1; then
    echo "No driver named JetODBC is registered: DSN-less connection strings"
    echo "name the library, DRIVER=$lib;"
fi
