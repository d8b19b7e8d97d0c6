// SetValidationRule.java - give a copy of an Access file a validation rule
// (no public fixture has one), for tests/odbc/test_odbc_refuse.c; run with
// Jackcess (../shared/tools/jetcheck/jackcess.jar) as a source-file program:
//   java -cp JARS SetValidationRule.java FILE TABLE COLUMN RULE
// COLUMN "" sets the table's own rule.
import com.healthmarketscience.jackcess.*;
import java.io.File;
public class SetValidationRule {
    public static void main(String[] a) throws Exception {
        try (Database db = new DatabaseBuilder(new File(a[0])).open()) {
            Table t = db.getTable(a[1]);
            PropertyMap p = a[2].isEmpty() ? t.getProperties()
                                           : t.getColumn(a[2]).getProperties();
            p.put("ValidationRule", DataType.MEMO, a[3]);
            p.save();
        }
    }
}
