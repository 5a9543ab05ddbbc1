title
 3 1 1 1
rue 2 2 1 0
