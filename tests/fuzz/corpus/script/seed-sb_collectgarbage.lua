-- the collector is not the script's to drive
collectgarbage("stop")
