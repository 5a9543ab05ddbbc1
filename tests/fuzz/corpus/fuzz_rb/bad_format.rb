title
 3 1 1 1
rua 2 2 2 0
(3I3)           (3Q3)           (2E10.3)
