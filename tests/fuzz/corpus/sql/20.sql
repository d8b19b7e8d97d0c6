PARAMETERS w Long; SELECT a, Count(*) AS n INTO [New T] FROM x INNER JOIN y ON x.k = y.k WHERE a > w GROUP BY a
