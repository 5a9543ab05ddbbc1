pattern                                                                 PUA1
             3             1             1             0
pua                        3             3             3             0
(4I3)           (3I3)
  1  2  3  4
  1  2  3
