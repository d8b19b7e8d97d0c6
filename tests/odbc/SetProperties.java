// SetProperties.java - give a copy of an Access file column or table
// properties (validation rules, defaults, AllowZeroLength: few public
// fixtures have them, none writable), for tests/odbc/test_odbc_refuse.c
// and test_odbc_rules.c; run with Jackcess
// (../shared/tools/jetcheck/jackcess.jar) as a source-file program:
//   java -cp JARS SetProperties.java FILE TABLE COLUMN NAME TYPE VALUE ...
// one group of five arguments per property; COLUMN "" sets the table's
// own; TYPE is MEMO, TEXT, BOOLEAN (VALUE true/false) or BYTE (VALUE a
// number: a calculated column's ResultType, for test_odbc_calc.c).
import com.healthmarketscience.jackcess.*;
import java.io.File;
public class SetProperties {
    public static void main(String[] a) throws Exception {
        try (Database db = new DatabaseBuilder(new File(a[0])).open()) {
            for (int i = 1; i + 4 < a.length; i += 5) {
                Table t = db.getTable(a[i]);
                PropertyMap p = a[i + 1].isEmpty()
                    ? t.getProperties()
                    : t.getColumn(a[i + 1]).getProperties();
                DataType type = DataType.valueOf(a[i + 3]);
                Object v = type == DataType.BOOLEAN
                    ? (Object)Boolean.valueOf(a[i + 4])
                    : type == DataType.BYTE ? (Object)Byte.valueOf(a[i + 4])
                    : (Object)a[i + 4];
                p.put(a[i + 2], type, v);
                p.save();
            }
        }
    }
}
