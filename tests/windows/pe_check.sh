#!/bin/sh
# pe_check.sh OBJDUMP DLL DEF [EXE...] - what a Windows driver manager and
# a bare Windows need from jetodbc.dll, read from its PE headers with
# mingw-w64's objdump (`make windows` runs it for both bitnesses):
#  - every name in DEF (driver/jetodbc.def) is exported under exactly that
#    name: undecorated, so the 32-bit DLL's __stdcall functions are found
#    as "SQLAllocHandle", not "_SQLAllocHandle@12";
#  - no export is decorated (no "@n" suffix, no leading "_SQL");
#  - the DLL and each EXE import only Windows' own DLLs (libgcc and
#    winpthreads are linked statically; nothing from mingw's runtime DLLs).
# Exit 0 when all hold, 1 with the reasons otherwise.
set -u
objdump=$1 dll=$2 def=$3
shift 3
fail=0
dump=$("$objdump" -p "$dll") || { echo "pe_check: cannot read $dll"; exit 1; }
# the export names: lines "[ n] Name" of the [Ordinal/Name Pointer] table
exports=$(printf '%s\n' "$dump" |
    sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/s/^[[:space:]]*\[[[:space:]]*[0-9]*\][[:space:]]*//p')
want=$(sed -n '/^EXPORTS/,$p' "$def" | sed '1d' | sed 's/[[:space:]].*//' | grep -v '^$')
for name in $want; do
    printf '%s\n' "$exports" | grep -qx "$name" ||
        { echo "pe_check: $dll does not export $name"; fail=1; }
done
bad=$(printf '%s\n' "$exports" | grep -E '@[0-9]+$|^_' || true)
if [ -n "$bad" ]; then
    echo "pe_check: $dll exports decorated names:" $bad; fail=1
fi
n=$(printf '%s\n' "$exports" | grep -c .)
# imports: Windows' own DLLs only
for f in "$dll" "$@"; do
    for imp in $("$objdump" -p "$f" | sed -n 's/^[[:space:]]*DLL Name:[[:space:]]*//p'); do
        case $(printf '%s' "$imp" | tr 'A-Z' 'a-z') in
        kernel32.dll|user32.dll|advapi32.dll|comdlg32.dll|bcrypt.dll|crypt32.dll|\
        msvcrt.dll|odbc32.dll|odbccp32.dll|shell32.dll|ole32.dll|api-ms-win-*) ;;
        *) echo "pe_check: $f imports $imp (not a Windows system DLL)"; fail=1 ;;
        esac
    done
done
[ $fail = 0 ] && echo "pe_check: $dll: $n undecorated exports, system imports only"
exit $fail
