-- no dofile
dofile("/etc/passwd")
