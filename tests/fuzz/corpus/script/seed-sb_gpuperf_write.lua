-- the gpuperf table is read-only
gpuperf.launch = print
