# rodbc_client.R - nwind.mdb through RODBC with its defaults: sqlTables,
# sqlFetch of Employees (Memo and OLE: RODBC allocates COLUMN_SIZE + 1
# bytes times 100 rows for them, so MaxLongSize matters), a parameterised
# query through sqlQuery (RODBC has no bound parameters: the value is
# quoted into the text). Usage: Rscript rodbc_client.R dsn|driver ARG.
# Prints one line per check; quits with status 1 at the first wrong value.
suppressMessages(library(RODBC))
check <- function(what, got, want) {
    if (!identical(got, want)) {
        cat("FAIL ", what, ": got ", deparse(got), ", want ", deparse(want),
            "\n", sep = "")
        quit(status = 1)
    }
    cat("ok   ", what, "\n", sep = "")
}
args <- commandArgs(trailingOnly = TRUE)
ch <- if (args[1] == "dsn") odbcConnect(args[2]) else odbcDriverConnect(args[2])
if (!inherits(ch, "RODBC")) { cat("FAIL connect\n"); quit(status = 1) }
tabs <- sqlTables(ch, tableType = "TABLE")
check("tables include Employees and Order Details",
      all(c("Employees", "Order Details") %in% tabs$TABLE_NAME), TRUE)
emp <- sqlFetch(ch, "Employees")
if (!is.data.frame(emp)) { cat("FAIL sqlFetch:", emp, "\n"); quit(status = 1) }
check("Employees rows", nrow(emp), 9L)
emp <- emp[order(emp$EmployeeID), ]
check("row 1 LastName", as.character(emp$LastName[1]), "Davolio")
check("row 2 Notes (Memo) start",
      substr(as.character(emp$Notes[2]), 1, 24), "Andrew received his BTS ")
check("row 1 Photo (OLE) length", length(emp$Photo[[1]]), 21626L)
r <- sqlQuery(ch, paste0("SELECT FirstName FROM Employees WHERE LastName = '",
                         "Fuller", "' AND EmployeeID > ", 1),
              stringsAsFactors = FALSE)
check("parameterised query", r$FirstName[1], "Andrew")
close(ch)
