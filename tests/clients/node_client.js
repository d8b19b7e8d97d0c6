// node_client.js CONNSTR - nwind.mdb through node's `odbc` package:
// tables, Employees (Memo and OLE), a parameterised query, and cursor
// mode with a fetch size above one (a block cursor: the package calls
// SQLSetPos(SQL_POSITION) per row and reads the long columns with
// SQLGetData). Prints one line per check; exits 1 at the first wrong value.
const odbc = require('odbc');

function check(what, got, want) {
    if (got !== want) {
        console.log(`FAIL ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
        process.exit(1);
    }
    console.log(`ok   ${what}`);
}

async function main() {
    const cn = await odbc.connect(process.argv[2]);
    const tabs = await cn.tables(null, null, null, 'TABLE');
    const names = new Set(tabs.map((t) => t.TABLE_NAME));
    check('tables include Employees and Order Details',
          names.has('Employees') && names.has('Order Details'), true);

    const rows = await cn.query('SELECT * FROM Employees ORDER BY EmployeeID');
    check('Employees rows', rows.length, 9);
    check('row 1 LastName', rows[0].LastName, 'Davolio');
    check('row 1 Photo (OLE) length', rows[0].Photo.byteLength, 21626);
    check('row 2 Notes (Memo) start', rows[1].Notes.slice(0, 24),
          'Andrew received his BTS ');

    const p = await cn.query(
        'SELECT FirstName FROM Employees WHERE LastName = ? AND EmployeeID > ?',
        ['Fuller', 1]);
    check('parameterised query', p[0].FirstName, 'Andrew');

    const cur = await cn.query(
        'SELECT EmployeeID, LastName, Notes, Photo FROM Employees ORDER BY EmployeeID',
        { cursor: true, fetchSize: 4 });
    const seen = [];
    let notes2 = null, photo9 = 0;
    while (!cur.noData) {
        const batch = await cur.fetch();
        for (const r of batch) {
            seen.push(r.LastName);
            if (r.EmployeeID === 2) notes2 = r.Notes.slice(0, 24);
            if (r.EmployeeID === 9) photo9 = r.Photo.byteLength;
        }
    }
    await cur.close();
    check('cursor mode rows', seen.length, 9);
    check('cursor mode row order', seen[0] + ',' + seen[8], 'Davolio,Dodsworth');
    check('cursor mode Memo of row 2 (SQLSetPos + SQLGetData)', notes2,
          'Andrew received his BTS ');
    check('cursor mode OLE of row 9', photo9 > 0, true);
    await cn.close();
}

main().catch((e) => {
    console.log('FAIL', e.message, JSON.stringify(e.odbcErrors || []));
    process.exit(1);
});
