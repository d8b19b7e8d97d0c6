SELECT * FROM Customers WHERE Country = 'Germany' ORDER BY CustomerID
SELECT CustomerID, CompanyName, City FROM Customers WHERE City = 'México D.F.' ORDER BY CustomerID
SELECT TOP 5 ProductName, UnitPrice FROM Products ORDER BY UnitPrice DESC
SELECT COUNT(*) AS n, MIN(UnitPrice) AS lo, MAX(UnitPrice) AS hi, AVG(UnitPrice) AS mean FROM Products WHERE CategoryID = 2
SELECT COUNT(*) AS n, SUM(Quantity) AS q FROM [Order Details]
SELECT OrderID, OrderDate, ShipName, ShipCountry FROM Orders WHERE OrderID < 10260 ORDER BY OrderID
SELECT EmployeeID, LastName, FirstName, BirthDate FROM Employees WHERE LastName LIKE 'D%' ORDER BY EmployeeID
SELECT OrderID, Freight FROM Orders WHERE Freight > 500 ORDER BY Freight DESC
SELECT ProductID, ProductName FROM Products WHERE ProductName LIKE '*Chef*' OR ProductName LIKE '%Chef%' ORDER BY ProductID
SELECT TOP 1 '😀𝄞' AS s, LEN('😀𝄞') AS n FROM Customers
