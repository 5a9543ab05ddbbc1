x:
x:
x:
