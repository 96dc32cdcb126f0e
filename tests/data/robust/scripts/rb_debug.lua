-- no debug library
debug.sethook()
