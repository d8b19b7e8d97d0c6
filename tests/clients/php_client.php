<?php
// php_client.php MODE CONNSTR [EXPECTED] - nwind.mdb through PHP's odbc_*
// functions (MODE odbc) or plain PDO_ODBC (MODE pdo): tables, Employees
// (Memo and OLE; PDO's against the yardstick EXPECTED, nwind.mdb.json),
// prepared statements with parameters; PDO forward-only and with
// PDO::CURSOR_SCROLL. PDO binds its parameters as data at execution
// (SQL_NEED_DATA, SQLParamData, SQLPutData).
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
    // PHP binds false as "" and true as "1": a Yes/No column compared
    // with them (issue 28)
    $st = odbc_prepare($cn, 'SELECT COUNT(*) AS n FROM Products WHERE Discontinued = ?');
    foreach ([[false, 69], [true, 8]] as [$b, $n]) {
        if (!odbc_execute($st, [$b])) {
            echo "FAIL execute bool: ", odbc_errormsg($cn), "\n"; exit(1);
        }
        $r = odbc_fetch_array($st);
        check('Yes/No = ' . var_export($b, true), (int)$r['n'], $n);
    }
    odbc_close($cn);
} else {
    // plain PDO, as every tutorial writes it: no ODBC_ATTR_USE_CURSOR_LIBRARY
    // option, so the driver manager would put its cursor library
    // (libodbccr, unixodbc-dev) between PDO and a forward-only driver;
    // the driver's static cursors keep it out
    $expected = $argv[3] ?? '';
    $yard = null;
    if ($expected !== '' && is_readable($expected)) {
        foreach (json_decode(file_get_contents($expected), true)['tables'] as $t)
            if ($t['name'] === 'Employees') $yard = $t;
    }
    if ($yard === null) { echo "FAIL yardstick $expected not readable\n"; exit(1); }
    $ci = array_flip(array_column($yard['columns'], 'name'));
    $want = [];     // EmployeeID => [Notes, Photo sha256, Photo length]
    foreach ($yard['rows'] as $r)
        $want[$r[$ci['EmployeeID']]] = [$r[$ci['Notes']],
            $r[$ci['Photo']]['sha256'] ?? hash('sha256', hex2bin($r[$ci['Photo']]['hex'])),
            $r[$ci['Photo']]['length'] ?? strlen(hex2bin($r[$ci['Photo']]['hex']))];
    try {
        $db = new PDO("odbc:$cs");
        $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        foreach (['forward-only' => [], 'scroll' =>
                  [PDO::ATTR_CURSOR => PDO::CURSOR_SCROLL]] as $kind => $opt) {
            $q = function ($sql) use ($db, $opt) {
                $st = $db->prepare($sql, $opt);
                $st->execute();
                return $st;
            };
            $rows = $q('SELECT * FROM Employees ORDER BY EmployeeID')
                       ->fetchAll(PDO::FETCH_ASSOC);
            check("$kind: Employees rows", count($rows), 9);
            check("$kind: row 1 LastName", $rows[0]['LastName'], 'Davolio');
            // PDO_ODBC reads every column as SQL_C_CHAR: binary comes as hex
            check("$kind: row 1 Photo (OLE) as hex", ctype_xdigit($rows[0]['Photo']), true);
            $rows = $q('SELECT EmployeeID, Notes, Photo FROM Employees')
                       ->fetchAll(PDO::FETCH_NUM);
            check("$kind: EmployeeID, Notes, Photo rows", count($rows), 9);
            foreach ($rows as [$id, $notes, $photo]) {
                [$wn, $wsha, $wlen] = $want[(int)$id];
                check("$kind: employee $id Notes (Memo) = yardstick", $notes, $wn);
                $bytes = hex2bin($photo);
                check("$kind: employee $id Photo (OLE) length", strlen($bytes), $wlen);
                check("$kind: employee $id Photo (OLE) sha256", hash('sha256', $bytes), $wsha);
            }
            $notes = $q('SELECT Notes FROM Employees ORDER BY EmployeeID')
                        ->fetchAll(PDO::FETCH_COLUMN);
            check("$kind: Memo-only SELECT rows", count($notes), 9);
            check("$kind: Memo-only SELECT row 2", $notes[1], $want[2][0]);
            $st = $db->prepare('SELECT COUNT(*) FROM Orders WHERE EmployeeID = ?', $opt);
            $st->execute([5]);
            check("$kind: prepared COUNT(*) with ? = 5", (int)$st->fetchColumn(), 42);
            $st = $db->prepare('SELECT FirstName FROM Employees WHERE LastName = ? AND EmployeeID > ?', $opt);
            $st->execute(['Fuller', 1]);
            check("$kind: parameterised query", $st->fetchColumn(), 'Andrew');
            $st = $db->prepare('SELECT COUNT(*) FROM Employees WHERE City = :city', $opt);
            $st->bindValue(':city', 'London');
            $st->execute();
            check("$kind: named parameter", (int)$st->fetchColumn(), 4);
            $st = $db->prepare('SELECT LastName FROM Employees WHERE EmployeeID = ?', $opt);
            $st->bindValue(1, 9, PDO::PARAM_INT);
            $st->execute();
            check("$kind: integer parameter", $st->fetchColumn(), 'Dodsworth');
        }
        // a scrollable statement moves both ways
        $st = $db->prepare('SELECT EmployeeID, Notes FROM Employees ORDER BY EmployeeID',
                           [PDO::ATTR_CURSOR => PDO::CURSOR_SCROLL]);
        $st->execute();
        $r = $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_LAST);
        check('scroll: LAST', (int)$r[0], 9);
        check('scroll: LAST Notes', $r[1], $want[9][0]);
        $r = $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_PRIOR);
        check('scroll: PRIOR', (int)$r[0], 8);
        $r = $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_ABS, 3);
        check('scroll: ABS 3', (int)$r[0], 3);
        check('scroll: ABS 3 Notes', $r[1], $want[3][0]);
        $r = $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_REL, 2);
        check('scroll: REL 2', (int)$r[0], 5);
        $r = $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_FIRST);
        check('scroll: FIRST', (int)$r[0], 1);
        check('scroll: PRIOR of the first', $st->fetch(PDO::FETCH_NUM, PDO::FETCH_ORI_PRIOR), false);
    } catch (PDOException $e) {
        echo "FAIL ", $e->getMessage(), "\n";
        exit(1);
    }
}
