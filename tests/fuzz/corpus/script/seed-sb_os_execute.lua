-- no os library
os.execute("touch /tmp/gpuperf_sandbox_escape")
