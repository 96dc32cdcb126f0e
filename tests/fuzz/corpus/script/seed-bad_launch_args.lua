-- launch takes a table or a template
gpuperf.launch("k")
