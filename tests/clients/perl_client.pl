#!/usr/bin/perl
# perl_client.pl CONNSTR - nwind.mdb through DBI/DBD::ODBC: tables,
# Employees (Memo and OLE), a prepared statement with parameters.
# Prints one line per check; exits 1 at the first wrong value.
use strict;
use warnings;
use DBI;

sub check {
    my ($what, $got, $want) = @_;
    if (!defined $got || $got ne $want) {
        print "FAIL $what: got ", (defined $got ? "'$got'" : 'undef'),
              ", want '$want'\n";
        exit 1;
    }
    print "ok   $what\n";
}

my $cs = shift;
my $dbh = DBI->connect("dbi:ODBC:$cs", '', '',
                       { RaiseError => 1, PrintError => 0,
                         LongReadLen => 1 << 20, LongTruncOk => 0 });
my $t = $dbh->table_info(undef, undef, undef, 'TABLE')->fetchall_arrayref({});
my %names = map { $_->{TABLE_NAME} => 1 } @$t;
check('tables include Employees', exists $names{Employees} ? 1 : 0, 1);
check('tables include Order Details', exists $names{'Order Details'} ? 1 : 0, 1);

my $rows = $dbh->selectall_arrayref(
    'SELECT * FROM Employees ORDER BY EmployeeID', { Slice => {} });
check('Employees rows', scalar @$rows, 9);
check('row 1 LastName', $rows->[0]{LastName}, 'Davolio');
check('row 1 Photo (OLE) length', length $rows->[0]{Photo}, 21626);
check('row 2 Notes (Memo) start', substr($rows->[1]{Notes}, 0, 24),
      'Andrew received his BTS ');

my $sth = $dbh->prepare(
    'SELECT FirstName FROM Employees WHERE LastName = ? AND EmployeeID > ?');
$sth->execute('Fuller', 1);
check('parameterised query', ($sth->fetchrow_array)[0], 'Andrew');
$sth->finish;
$dbh->disconnect;
