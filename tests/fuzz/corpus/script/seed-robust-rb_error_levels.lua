-- an error without position (level 0) still gets the script's line
error("no position here", 0)
