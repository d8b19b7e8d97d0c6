<?php
// php_client.php MODE CONNSTR - nwind.mdb through PHP's odbc_* functions
// (MODE odbc) or PDO_ODBC (MODE pdo): tables, Employees (Memo and OLE),
// a prepared statement with parameters. PDO binds its parameters as data
// at execution (SQL_NEED_DATA, SQLParamData, SQLPutData).
// Run with -d odbc.defaultlrl=1048576 -d odbc.defaultbinmode=1 (long
// values whole, binary as bytes). Prints one line per check; exits 1 at the first wrong value.
function check($what, $got, $want) {
    if ($got !== $want) {
        echo "FAIL $what: got ", var_export($got, true), ", want ",
             var_export($want, true), "\n";
        exit(1);
    }
    echo "ok   $what\n";
}

[$_, $mode, $cs] = $argv;
if ($mode === 'odbc') {
    $cn = odbc_connect($cs, '', '');
    if (!$cn) { echo "FAIL connect: ", odbc_errormsg(), "\n"; exit(1); }
    $t = odbc_tables($cn, null, null, null, 'TABLE');
    $names = [];
    while ($r = odbc_fetch_array($t)) $names[] = $r['TABLE_NAME'];
    check('tables include Employees', in_array('Employees', $names, true), true);
    check('tables include Order Details', in_array('Order Details', $names, true), true);

    $res = odbc_exec($cn, 'SELECT * FROM Employees ORDER BY EmployeeID');
    if (!$res) { echo "FAIL select: ", odbc_errormsg($cn), "\n"; exit(1); }
    $rows = [];
    while ($r = odbc_fetch_array($res)) $rows[] = $r;
    check('Employees rows', count($rows), 9);
    check('row 1 LastName', $rows[0]['LastName'], 'Davolio');
    check('row 1 Photo (OLE) length', strlen($rows[0]['Photo']), 21626);
    check('row 2 Notes (Memo) start', substr($rows[1]['Notes'], 0, 24),
          'Andrew received his BTS ');

    $st = odbc_prepare($cn, 'SELECT FirstName FROM Employees WHERE LastName = ? AND EmployeeID > ?');
    if (!odbc_execute($st, ['Fuller', 1])) {
        echo "FAIL execute: ", odbc_errormsg($cn), "\n"; exit(1);
    }
    $r = odbc_fetch_array($st);
    check('parameterised query', $r['FirstName'], 'Andrew');
    odbc_close($cn);
} else {
    try {
        // without unixodbc-dev's libodbccr.so the driver manager cannot
        // load its cursor library, which PDO asks for by default
        // (SQL_CUR_USE_IF_NEEDED) from a forward-only driver
        $db = new PDO("odbc:$cs", null, null, [
            PDO::ODBC_ATTR_USE_CURSOR_LIBRARY => PDO::ODBC_SQL_USE_DRIVER]);
        $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        $rows = $db->query('SELECT * FROM Employees ORDER BY EmployeeID')
                   ->fetchAll(PDO::FETCH_ASSOC);
        check('Employees rows', count($rows), 9);
        check('row 1 LastName', $rows[0]['LastName'], 'Davolio');
        // PDO_ODBC reads every column as SQL_C_CHAR: binary comes as hex
        check('row 1 Photo (OLE) as hex', ctype_xdigit($rows[0]['Photo']), true);
        check('row 1 Photo (OLE) length', strlen(hex2bin($rows[0]['Photo'])), 21626);
        check('row 2 Notes (Memo) start', substr($rows[1]['Notes'], 0, 24),
              'Andrew received his BTS ');
        $st = $db->prepare('SELECT FirstName FROM Employees WHERE LastName = ? AND EmployeeID > ?');
        $st->execute(['Fuller', 1]);
        check('parameterised query', $st->fetchColumn(), 'Andrew');
        $st = $db->prepare('SELECT COUNT(*) FROM Employees WHERE City = :city');
        $st->bindValue(':city', 'London');
        $st->execute();
        check('named parameter', (int)$st->fetchColumn(), 4);
        $st = $db->prepare('SELECT LastName FROM Employees WHERE EmployeeID = ?');
        $st->bindValue(1, 9, PDO::PARAM_INT);
        $st->execute();
        check('integer parameter', $st->fetchColumn(), 'Dodsworth');
    } catch (PDOException $e) {
        echo "FAIL ", $e->getMessage(), "\n";
        exit(1);
    }
}
