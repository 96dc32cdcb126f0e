-- no getfenv: the environment of the host's functions is out of reach
local env = getfenv(gpuperf.launch)
