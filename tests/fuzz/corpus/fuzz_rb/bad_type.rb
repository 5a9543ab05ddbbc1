title
 3 1 1 1
rxa 2 2 1 0
