integer with a Harwell-Boeing right-hand side line                      IUA
             5             1             1             1             1
iua                        2             2             2             0
(3I3)           (2I3)           (2I5)               (2I5)
F                          1             0
  1  2  3
  1  2
    7   -8
