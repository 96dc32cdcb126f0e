local b = gpuperf.buffer("b", 64)
print("hello", 42, b, nil, true)
